# tests/api/hyp2f1_jax_values.py — prints the JAX values that tests/api/test_hypergeometric.cpp
# pastes for hyp2f1: jax.scipy.special.hyp2f1 at points that take each of its branches, and its
# four partial derivatives (JAX 0.10.2, x64). Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/hyp2f1_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.scipy.special import hyp2f1 as jax_hyp2f1
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import show


def hyp2f1(a, b, c, x):  # JAX's, but scipy's where JAX's series diverges (x < -1)
    return jnp.where(x < -1, scipy.special.hyp2f1(*(np.asarray(v, np.float64) for v in (a, b, c, x))).astype(x.dtype),
                     jax_hyp2f1(a, b, c, x))

# (a, b, c, x): the series, negative x (below -1 JAX sums the divergent series: 1.3e98 at the
# third point; strata uses Pfaff's transform there, so those points print scipy's values), near 1 (non-integer and integer c - a - b), the
# terminating polynomials, Euler's transform (c - a - b <= -1), x = 1, x > 1, c a non-positive
# integer, b = c, a = c, x = 0.
P = [
    (0.5, 1.5, 2.5, 0.3), (1.2, -0.7, 3.1, -0.8), (2.0, 3.0, 4.5, -2.5), (0.3, 0.4, 1.9, 0.95),
    (1.0, 2.0, 4.0, 0.93), (0.5, 0.5, 2.0, 0.97), (-3.0, 2.5, 1.5, 0.6), (-4.0, 1.5, 2.5, 1.7),
    (2.0, -5.0, 3.3, 0.8), (2.5, 1.5, 2.0, 0.5), (3.0, 2.0, 1.0, -0.4), (0.5, 0.25, 2.0, 1.0),
    (1.0, 1.0, 2.0, 1.5), (1.0, 2.0, -2.0, 0.5), (0.7, 1.3, 1.3, 0.6), (0.7, 1.3, 0.7, 0.6),
    (1.5, 2.5, 3.5, 0.0), (0.1, 0.2, 0.3, 0.99), (0.5, 1.5, 2.5, -4.0), (-2.0, 1.5, 2.5, -3.0),
]
a, b, c, x = (jnp.asarray(v) for v in zip(*P))


print("// (a, b, c, x) of each point")
for name, col in zip("abcx", (a, b, c, x)):
    print(f"const std::vector<double> k{name.upper()} = {{{', '.join(repr(float(t)) for t in col)}}};")
show("sp::hyp2f1(A, B, C, X)", hyp2f1(a, b, c, x))
show("sp::hyp2f1(st::astype(A, st::f32), B32, C32, X32)", hyp2f1(a.astype(jnp.float32), b.astype(jnp.float32), c.astype(jnp.float32), x.astype(jnp.float32)))
# Derivatives at the points where each is a series (x < 1, no terminating polynomial).
S = jnp.array([0, 1, 3, 9, 10])
for i, name in enumerate("abcx"):
    g = jax.vmap(jax.grad(lambda *v: jax_hyp2f1(*v), argnums=i))(a[S], b[S], c[S], x[S])
    show(f"grads[{i}]", g)
