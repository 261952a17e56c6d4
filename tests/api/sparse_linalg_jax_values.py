# tests/api/sparse_linalg_jax_values.py — prints the JAX values that tests/api/test_sparse_linalg.cpp
# pastes: jax.scipy.sparse.linalg's cg, bicgstab and gmres stopped early (maxiter small), where
# the iterates show the algorithm step for step (JAX 0.10.2, x64). Not run by the tests:
#   /work/venv-jax/bin/python tests/api/sparse_linalg_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.sparse.linalg as sla
import numpy as np
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, sq, show


P = sq((6, 6), 0.57, 0.3)
S = P @ P.T + 5 * jnp.eye(6)          # symmetric positive definite
G = sq((6, 6), 0.83, 0.2) + 4 * jnp.eye(6)   # nonsymmetric
B = seq((6,), 0.7, 0.1)
D = jnp.asarray([1.0, 2.0, 0.5, 3.0, 1.5, 2.5])   # a diagonal preconditioner's inverse


show('sla::cg(S, B, {.maxiter = 3}).x', sla.cg(S, B, maxiter=3)[0])
show('sla::cg(S, B, {.maxiter = 2}, [&](const Array& r) { return r / D; }).x', sla.cg(S, B, maxiter=2, M=lambda r: r / D)[0])
show('sla::bicgstab(G, B, {.maxiter = 2}).x', sla.bicgstab(G, B, maxiter=2)[0])
show('sla::gmres(G, B, {.maxiter = 1, .restart = 3}).x', sla.gmres(G, B, maxiter=1, restart=3)[0])
show('sla::gmres(G, B, {.maxiter = 2, .restart = 2}, [&](const Array& r) { return r / D; }).x', sla.gmres(G, B, maxiter=2, restart=2, M=lambda r: r / D)[0])
show('sla::gmres(G, B, {.maxiter = 1, .restart = 3, .solve_method = "incremental"}).x', sla.gmres(G, B, maxiter=1, restart=3, solve_method="incremental")[0])
show('sla::gmres(G, B, {.maxiter = 2, .restart = 2, .solve_method = "incremental"}, [&](const Array& r) { return r / D; }).x', sla.gmres(G, B, maxiter=2, restart=2, M=lambda r: r / D, solve_method="incremental")[0])
show('sla::gmres(G, B, {.tol = 1e-3, .restart = 6, .solve_method = "incremental"}).x', sla.gmres(G, B, tol=1e-3, restart=6, solve_method="incremental")[0])
