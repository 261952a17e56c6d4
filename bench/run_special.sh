#!/usr/bin/env bash
# bench/run_special.sh — issue 14's special-function benchmarks, strata (jit and eager) and JAX
# CPU in one run: strata's medians (bench/run.sh bench_special), then JAX's
# (bench/special_jax.py, with the venv at $JAX_PYTHON or /work/venv-jax).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_special
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/special_jax.py
