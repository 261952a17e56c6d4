# tests/api/ode_jax_values.py — prints the JAX values that tests/api/test_ode.cpp pastes:
# jax.experimental.ode.odeint on a nonlinear system with parameters, and its adjoint gradients
# (JAX 0.10.2, x64). Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/ode_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax.experimental.ode import odeint
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import show


def lotka(y, t, ab, cd):  # predator and prey, with a forcing in t
    x, z = y[0], y[1]
    return jnp.stack([ab[0] * x - ab[1] * x * z + 0.1 * jnp.sin(t), cd[0] * x * z - cd[1] * z])


Y0 = jnp.asarray([1.2, 0.8])
T = jnp.asarray([0.0, 0.4, 1.1, 2.0, 3.3])
AB = jnp.asarray([1.1, 0.6])
CD = jnp.asarray([0.5, 0.9])


show('st::ode::odeint(lotka, Y0, T, {}, AB, CD)', odeint(lotka, Y0, T, AB, CD))
show('st::ode::odeint(lotka, Y0, T, {.rtol = 1e-4, .atol = 1e-4}, AB, CD)', odeint(lotka, Y0, T, AB, CD, rtol=1e-4, atol=1e-4))
loss = lambda y0, t, ab, cd: jnp.sum(jnp.sin(odeint(lotka, y0, t, ab, cd)))
g = jax.grad(loss, argnums=(0, 1, 2, 3))(Y0, T, AB, CD)
for i, name in enumerate(["y0", "t", "ab", "cd"]):
    show(f"grads[{i}]", g[i])
