#!/usr/bin/env bash
# bench/run_indexing.sh — issue 13's indexing benchmarks, strata jit and JAX CPU in one run:
# strata's medians (bench/run.sh bench_indexing), then JAX's (bench/indexing_jax.py, with the
# venv at $JAX_PYTHON or /work/venv-jax).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_indexing
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/indexing_jax.py
