#!/usr/bin/env bash
# bench/run_conv.sh — issue 13's convolution benchmark, strata jit and JAX CPU side by side:
# bench_conv (Forward, ForwardBackward: NHWC and NCHW; ForwardShapes: first layer 3->64,
# depthwise, 1x1 64->256) and bench/conv_jax.py run alternately,
# ROUNDS times (default 3), each reporting its own median; the table shows the median of
# those per side and strata/JAX. FILTER (regex, default the four conv cases) selects strata's;
# JAX always times all. JAX_PYTHON: the venv's python (default /work/venv-jax); BENCH: another
# bench_conv binary (a saved build, for before/after on one machine state; not rebuilt).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${STRATA_BUILD_DIR:-build}"
rounds="${ROUNDS:-3}"
filter="${FILTER:-^Forward/|^ForwardBackward/|^ForwardShapes/}"
py="${JAX_PYTHON:-/work/venv-jax/bin/python}"
bench="${BENCH:-$build/bench/bench_conv}"
[ -n "${BENCH:-}" ] || cmake --build "$build" --target bench_conv >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
  "$bench" --benchmark_filter="$filter" --benchmark_format=console 2>/dev/null \
    | grep -E '^(Forward|ForwardBackward|ForwardShapes)/' >>"$tmp/strata.txt"
  "$py" bench/conv_jax.py 2>/dev/null | grep -E '^jax (Forward|ForwardBackward|ForwardShapes)/' >>"$tmp/jax.txt"
done
python3 - "$tmp/strata.txt" "$tmp/jax.txt" <<'PY'
import re, statistics, sys
from collections import defaultdict
def read(path, pat):
    times = defaultdict(list)
    for line in open(path):
        m = re.match(pat, line)
        if m: times[m.group(1)].append(float(m.group(2)))
    return times
st = read(sys.argv[1], r"(\w+/(?:nhwc|shape):\d)(?:/real_time)?\s+([\d.]+) ms")
jx = read(sys.argv[2], r"jax (\w+/(?:nhwc|shape):\d) ([\d.]+) ms")
print(f"{'benchmark (ms, median of rounds)':34} {'strata':>9} {'jax':>9} {'strata/jax':>11}")
for name in sorted(set(st) | set(jx)):
    s = statistics.median(st[name]) if st[name] else float("nan")
    j = statistics.median(jx[name]) if jx[name] else float("nan")
    print(f"{name:34} {s:9.1f} {j:9.1f} {s / j:11.2f}   (strata {sorted(st[name])}, jax {sorted(jx[name])})")
PY
