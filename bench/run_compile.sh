#!/usr/bin/env bash
# bench/run_compile.sh — issue 17's first-call latency, strata against JAX CPU in one run:
# ROUNDS (5) alternating rounds of bench/bench_compile (strata) and bench/compile_jax.py (JAX),
# REPS (5) first calls of each program per round. Prints, per program, the median of the round
# medians for both, the spread of the round medians (a noisy neighbour shows as spread), the
# ratio JAX / strata, and strata's time per stage (last round).
#   REPS=5 ROUNDS=5 bench/run_compile.sh
# STEADY=N: the same programs' steady-state calls instead (medians of N calls per round; strata
# jit and eager beside JAX), alternating the same way.
# JAX comes from $JAX_PYTHON, else bench/.venv-jax (created here with pip: jax, numpy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${STRATA_BUILD_DIR:-build}"
reps="${REPS:-5}"
rounds="${ROUNDS:-5}"
py="${JAX_PYTHON:-}"
if [[ -z "$py" ]]; then
  [[ -x bench/.venv-jax/bin/python ]] || { python3 -m venv bench/.venv-jax && bench/.venv-jax/bin/pip -q install jax numpy; }
  py=bench/.venv-jax/bin/python
fi
cmake --build "$build" --target bench_compile >/dev/null
out="$(mktemp -d)"
if [[ -n "${STEADY:-}" ]]; then
  for ((r = 0; r < rounds; r++)); do
    "$build/bench/bench_compile" --run "$STEADY" > "$out/strata.$r"
    "$py" bench/compile_jax.py "$STEADY" --run > "$out/jax.$r"
  done
  python3 - "$out" "$rounds" <<'EOF'
import statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
m = {}
for r in range(rounds):
    for tool in ("strata", "jax"):
        for line in open(f"{out}/{tool}.{r}"):
            w = line.split()
            if not w or w[0] != "run":
                continue
            if tool == "strata":
                m.setdefault(w[1], {}).setdefault("jit", []).append(float(w[3]))
                m[w[1]].setdefault("eager", []).append(float(w[5]))
            else:
                m.setdefault(w[1], {}).setdefault("jax", []).append(float(w[3]))
print(f"{'steady (ms)':16} {'jit':>8} {'spread':>15} {'eager':>8} {'jax':>8} {'spread':>15} {'jax/jit':>8} {'eager/jit':>9}")
for name, d in m.items():
    j, e, x = (statistics.median(d[k]) for k in ("jit", "eager", "jax"))
    sp = lambda k: f"{min(d[k]):.3f}-{max(d[k]):.3f}"
    print(f"{name:16} {j:8.3f} {sp('jit'):>15} {e:8.3f} {x:8.3f} {sp('jax'):>15} {x / j:8.2f} {e / j:9.2f}")
EOF
  rm -rf "$out"
  exit 0
fi
for ((r = 0; r < rounds; r++)); do
  "$build/bench/bench_compile" "$reps" > "$out/strata.$r"
  "$py" bench/compile_jax.py "$reps" > "$out/jax.$r"
done
python3 - "$out" "$rounds" <<'EOF'
import statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def medians(tool):
    m = {}
    for r in range(rounds):
        for line in open(f"{out}/{tool}.{r}"):
            w = line.split()
            if w and w[0] == "first_call":
                m.setdefault(w[1], []).append(float(w[2]))
    return m
s, j = medians("strata"), medians("jax")
print(f"{'first call (ms)':16} {'strata':>8} {'spread':>13} {'jax':>8} {'spread':>13} {'jax/strata':>10}")
for name in s:
    a, b = statistics.median(s[name]), statistics.median(j.get(name, [float('nan')]))
    sa = f"{min(s[name]):.1f}-{max(s[name]):.1f}"
    sb = f"{min(j[name]):.1f}-{max(j[name]):.1f}" if name in j else "-"
    print(f"{name:16} {a:8.1f} {sa:>13} {b:8.1f} {sb:>13} {b / a:10.2f}")
print()
for line in open(f"{out}/strata.{rounds - 1}"):
    if line.startswith("stages"):
        print(line.rstrip())
EOF
rm -rf "$out"
