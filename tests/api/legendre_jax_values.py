# tests/api/legendre_jax_values.py — prints the JAX values that tests/api/test_legendre.cpp
# pastes: jax.scipy.special.lpmn, lpmn_values and sph_harm_y (JAX 0.10.2, x64). Not run by the
# tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/legendre_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.special as sp
import numpy as np
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import show as show_values


def show(cpp, v):
    show_values(cpp, v, real_imag=True)


Z = jnp.asarray([-0.9, -0.35, 0.0, 0.2, 0.61, 0.97])
N = jnp.asarray([0, 1, 2, 3, 3, 4, 5, 2])
M = jnp.asarray([0, -1, 2, 1, -3, 0, -2, 3])   # the last |m| > n: clipped
TH = jnp.asarray([0.3, 1.1, 2.0, 0.7, 2.9, 1.5, 0.05, 1.2])
PH = jnp.asarray([0.1, -2.0, 0.8, 3.0, 1.7, -0.4, 5.5, 0.9])


p, d = sp.lpmn(4, 4, Z)
show("sp::lpmn(4, 4, Z).values", p)
show("sp::lpmn(4, 4, Z).derivatives", d)
show("sp::lpmn(1, 1, Z).derivatives", sp.lpmn(1, 1, Z)[1])
show("sp::lpmn(0, 0, Z).derivatives", sp.lpmn(0, 0, Z)[1])
show("sp::lpmn_values(5, 5, Z, true)", sp.lpmn_values(5, 5, Z, True))
show("sp::lpmn_values(3, 3, st::astype(Z, st::f32), false)", sp.lpmn_values(3, 3, Z.astype(jnp.float32), False))
show("sp::sph_harm_y(N, M, TH, PH)", sp.sph_harm_y(N, M, TH, PH))
show("sp::sph_harm_y(N, M, TH, PH, 7)", sp.sph_harm_y(N, M, TH, PH, n_max=7))
