#!/usr/bin/env bash
# bench/run_fft.sh — the FFT benchmarks, strata jit/eager and JAX CPU in one run: strata's
# medians (bench/run.sh bench_fft), then JAX's (bench/fft_jax.py, with the venv at $JAX_PYTHON
# or /work/venv-jax).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS="${REPS:-5}" bash bench/run.sh bench_fft
"${JAX_PYTHON:-/work/venv-jax/bin/python}" bench/fft_jax.py
