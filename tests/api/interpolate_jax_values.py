# tests/api/interpolate_jax_values.py — prints the JAX values that tests/api/test_interpolate.cpp
# pastes: jax.scipy.interpolate.RegularGridInterpolator (JAX 0.10.2, x64). Not run by the tests:
#   /work/venv-jax/bin/python tests/api/interpolate_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax.scipy.interpolate import RegularGridInterpolator as RGI
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, show


X = jnp.asarray([0.0, 0.5, 1.5, 2.0])
Y = jnp.asarray([-1.0, 0.0, 2.0])
Z = jnp.asarray([0.0, 1.0, 3.0, 4.5, 5.0])
V2 = seq((4, 3), 0.7, 0.1)
V3 = seq((4, 3, 5), 0.41, 0.3)
VT = seq((4, 3, 2), 0.93, 0.6)       # trailing dimension: vector values
P2 = jnp.asarray([[0.2, -0.5], [1.9, 1.5], [0.5, 0.0], [2.5, 1.0], [-0.1, 0.3], [1.0, 2.0]])
P3 = jnp.asarray([[0.3, 0.7, 2.2], [1.7, -0.9, 4.9], [1.0, 1.5, 0.1], [0.0, 2.0, 5.0]])


show('RGI({X, Y}, V2)(P2)', RGI((X, Y), V2)(P2))
show('RGI({X, Y}, V2, "nearest")(P2)', RGI((X, Y), V2, method="nearest")(P2))
show('RGI({X, Y}, V2, "linear", std::nullopt)(P2)', RGI((X, Y), V2, fill_value=None)(P2))
show('RGI({X, Y}, V2, "linear", -7.0)(P2)', RGI((X, Y), V2, fill_value=-7.0)(P2))
show('RGI({X, Y, Z}, V3)(P3)', RGI((X, Y, Z), V3)(P3))
show('RGI({X, Y, Z}, V3)(P3, "nearest")', RGI((X, Y, Z), V3)(P3, method="nearest"))
show('RGI({X, Y}, VT)(P2)', RGI((X, Y), VT)(P2))
show('RGI({X}, st::reshape(V2, {4, 3}))(st::reshape(X * 0.9, {4, 1}))', RGI((X,), V2)(jnp.reshape(X * 0.9, (4, 1))))
show('RGI({X, Y}, V2)(st::reshape(P2, {2, 3, 2}))', RGI((X, Y), V2)(jnp.reshape(P2, (2, 3, 2))))
