# tests/linalg/tridiagonal_jax_values.py — prints what tests/linalg/test_tridiagonal.cpp pastes:
# jax.lax.linalg.tridiagonal_solve of a system that needs pivoting (a small diagonal) and a
# batched one, and jax.scipy.linalg.eigh_tridiagonal's eigenvalues (all, an index range, f32)
# (JAX 0.10.2, x64). Not run by the tests:
#   /work/venv-jax/bin/python tests/linalg/tridiagonal_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.linalg as sl
from jax.lax.linalg import tridiagonal_solve
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, show

# The C++ test builds the same inputs with seq.
DL = seq((6,), 0.7, 0.3)
D = 0.1 * seq((6,), 0.5, 0.9)          # small diagonal: partial pivoting swaps rows
DU = seq((6,), 0.9, 0.2)
B = seq((6, 2), 0.4, 0.1)
show("st::linalg::tridiagonal_solve(DL, D, DU, B)", tridiagonal_solve(DL, D, DU, B))
DLb, Db, DUb = seq((2, 5), 0.3, 0.4), seq((2, 5), 0.8, 0.6) + 3.0, seq((2, 5), 0.6, 0.1)
Bb = seq((2, 5, 3), 0.2, 0.5)
show("st::linalg::tridiagonal_solve(DLb, Db, DUb, Bb)", tridiagonal_solve(DLb, Db, DUb, Bb))
E = seq((7,), 0.9, 0.4)
Dg = seq((8,), 0.6, 0.2) * 2.0
show("st::linalg::eigvalsh_tridiagonal(Dg, E)", sl.eigh_tridiagonal(Dg, E, eigvals_only=True))
show("st::linalg::eigvalsh_tridiagonal(Dg, E, \"i\", std::make_pair(2, 5))",
     sl.eigh_tridiagonal(Dg, E, eigvals_only=True, select="i", select_range=(2, 5)))
show("st::linalg::eigvalsh_tridiagonal(st::astype(Dg, st::f32), st::astype(E, st::f32))",
     sl.eigh_tridiagonal(Dg.astype(jnp.float32), E.astype(jnp.float32), eigvals_only=True))
