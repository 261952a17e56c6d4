# tests/linalg/expm_frechet_jax_values.py — prints what tests/linalg/test_scipy_linalg.cpp's
# ExpmFrechet pastes: jax.scipy.linalg.expm_frechet of one matrix and direction (JAX 0.10.2,
# x64). Not run by the tests:
#   /work/venv-jax/bin/python tests/linalg/expm_frechet_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.scipy.linalg as sl
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import sq, show

A = sq((3, 3), 0.41, 0.3) * 0.8
E = sq((3, 3), 0.23, 0.7)
r = sl.expm_frechet(A, E)
show("st::linalg::expm_frechet(A, E).expm", r[0])
show("st::linalg::expm_frechet(A, E).frechet", r[1])
