#!/usr/bin/env bash
# bench/run_stats.sh — st::stats workloads, strata (jit and eager; bench/run.sh bench_stats) and
# JAX CPU (bench/stats_jax.py, with the venv at $JAX_PYTHON or /work/venv-jax), one after the other.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_stats
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/stats_jax.py
