# tests/linalg/schur_jax_values.py — prints what tests/linalg/test_schur.cpp pastes: JAX's real
# Schur form of one matrix (LAPACK's, the input of rsf2csf) and the values of jax.scipy.linalg's
# rsf2csf, sqrtm, funm, polar and solve_sylvester (JAX 0.10.2, x64). Not run by the tests:
#   /work/venv-jax/bin/python tests/linalg/schur_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.linalg as sl
import numpy as np
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, sq, values, show as show_values


def show(cpp, v):
    show_values(cpp, v, real_imag=True)


# The C++ test builds the same inputs with seq and sq.
A = sq((5, 5), 0.83, 0.2) + 1.5 * jnp.eye(5)    # real, two complex eigenvalue pairs
P = sq((4, 4), 0.57, 0.3)
P = P @ P.T + 4 * jnp.eye(4)                    # symmetric positive definite
C = sq((3, 3), 0.41, 0.1) + 1j * sq((3, 3), 0.37, 0.9) + 2 * jnp.eye(3)
W = sq((4, 3), 0.77, 0.5)                       # tall, full rank
B = sq((3, 3), 0.29, 0.4) + 3 * jnp.eye(3)
Q = seq((5, 3), 0.61, 0.7)                      # right-hand side [5, 3]

T, Z = sl.schur(A)


print(f"// JAX's (LAPACK's) real Schur form of A: rsf2csf's input.")
print(f"const std::vector<double> kT = {{{values(T)}}};")
print(f"const std::vector<double> kZ = {{{values(Z)}}};")
t2, z2 = sl.rsf2csf(T, Z)
show('la::rsf2csf(TJ, ZJ).t', t2)
show('la::rsf2csf(TJ, ZJ).z', z2)
show('la::sqrtm(A)', sl.sqrtm(A))
show('la::sqrtm(P)', sl.sqrtm(P))
show('la::sqrtm(C)', sl.sqrtm(C))
show('la::funm(A, [](const Array& x) { return st::sin(x); })', sl.funm(A, jnp.sin))
show('la::funm(C, [](const Array& x) { return st::exp(x); })', sl.funm(C, jnp.exp))
u, p = sl.polar(W)
show('la::polar(W).u', u)
show('la::polar(W).p', p)
u, p = sl.polar(W.T, side="left")
show('la::polar(st::transpose(W), "left").u', u)
show('la::polar(st::transpose(W), "left").p', p)
show('la::polar(C).p', sl.polar(C)[1])
show('la::solve_sylvester(A, B, Q)', sl.solve_sylvester(A, B, Q))
show('la::solve_sylvester(A, B, Q, "eigen")', sl.solve_sylvester(A, B, Q, method="eigen"))
show('la::solve_sylvester(C, B, st::astype(Q[st::Slice(0, 3)], st::c128))', sl.solve_sylvester(C, B, Q[:3].astype(complex)))
