#!/usr/bin/env bash
# bench/run_autodiff.sh — issue 17's training-step comparison: bench/bench_autodiff.cpp's step
# (jit and eager) and JAX CPU's (bench/autodiff_jax.py) at both sizes, in ROUNDS (5) alternating
# rounds of REPS (10) repetitions each, so that a noisy neighbour shows as spread. Prints per
# size the median of the round medians, their spread, and JAX / strata-jit.
#   ROUNDS=5 REPS=10 bench/run_autodiff.sh
# JAX comes from $JAX_PYTHON, else /work/venv-jax/bin/python.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${STRATA_BUILD_DIR:-build}"
rounds="${ROUNDS:-5}"
reps="${REPS:-10}"
py="${JAX_PYTHON:-/work/venv-jax/bin/python}"
cmake --build "$build" --target bench_autodiff >/dev/null
out="$(mktemp -d)"
for ((r = 0; r < rounds; r++)); do
  "$build/bench/bench_autodiff" --benchmark_filter='TrainStep_(Jit|Eager)' --benchmark_repetitions="$reps" \
    --benchmark_report_aggregates_only=true --benchmark_out="$out/strata.$r.json" --benchmark_out_format=json >/dev/null
  "$py" bench/autodiff_jax.py "$reps" > "$out/jax.$r"
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rows = {}
for r in range(rounds):
    for b in json.load(open(f"{out}/strata.{r}.json"))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        kind, size = b["run_name"].split("/")[0].split("_")[-1], "x".join(b["run_name"].split("/")[1:3])
        rows.setdefault(size, {}).setdefault(kind.lower(), []).append(b["real_time"])
    for line in open(f"{out}/jax.{r}"):
        w = line.split()
        rows.setdefault(w[1].split("_")[-1], {}).setdefault("jax", []).append(float(w[2]))
print(f"{'train step (ms)':16} {'jit':>8} {'spread':>13} {'eager':>8} {'jax':>8} {'spread':>13} {'jax/jit':>8}")
for size, d in rows.items():
    j, e, x = (statistics.median(d[k]) for k in ("jit", "eager", "jax"))
    spread = lambda k: f"{min(d[k]):.2f}-{max(d[k]):.2f}"
    print(f"{size:16} {j:8.3f} {spread('jit'):>13} {e:8.3f} {x:8.3f} {spread('jax'):>13} {x / j:8.2f}")
PY
