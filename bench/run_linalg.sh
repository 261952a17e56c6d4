#!/usr/bin/env bash
# bench/run_linalg.sh — issue 14's linear-algebra benchmarks, strata jit and JAX CPU in one run:
# strata's medians (bench/run.sh bench_linalg), then JAX's (bench/linalg_jax.py, with the venv at
# $JAX_PYTHON or /work/venv-jax).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_linalg
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/linalg_jax.py
