#!/usr/bin/env bash
# bench/run_control_flow.sh — issue 12's benchmarks, strata and JAX CPU in one run: CG on a
# 512x512 Poisson grid (jit vs eager, medians and ratios: bench/run.sh bench_control_flow) and
# the tiny-body scan's ns per step, then JAX's (bench/control_flow_jax.py, with the venv at
# $JAX_PYTHON or /work/venv-jax).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_control_flow
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/control_flow_jax.py
