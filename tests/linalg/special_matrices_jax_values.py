# tests/linalg/special_matrices_jax_values.py — prints the JAX values that
# tests/linalg/test_special_matrices.cpp pastes: jax.scipy.linalg's special matrices and
# jnp.linalg's vector_norm, matrix_norm, tensorinv, tensorsolve (JAX 0.10.2, x64). Not run by
# the tests (it needs jax):
#   /work/venv-jax/bin/python tests/linalg/special_matrices_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.linalg as sl
import numpy as np
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, show as show_values


def show(cpp, v):
    show_values(cpp, v, real_imag=True)


C = seq((4,), 0.7, 0.2)
R = seq((3,), 0.4, 0.9)
CB = seq((2, 4), 0.3, 0.5)   # a batch of columns
RB = seq((3, 1, 3), 0.6, 0.1)
F = seq((4,), 0.5, 1.0)
S = seq((3,), 0.8, 0.3)
A = seq((5,), 0.9, 0.4) + 2.0
Z = C + 1j * seq((4,), 0.3, 0.0)
T = seq((2, 3, 6), 0.27, 0.1) + 3.0 * jnp.eye(6).reshape(2, 3, 6)[:, :, :]
M = seq((2, 3, 4), 0.37, 0.2)
B = seq((2, 3), 0.71, 0.6)


show('la::toeplitz(C, R)', sl.toeplitz(C, R))
show('la::toeplitz(Z)', sl.toeplitz(Z))
show('la::toeplitz(CB, RB)', sl.toeplitz(CB, RB))
show('la::hankel(C)', sl.hankel(C))
show('la::hankel(C, R)', sl.hankel(C, R))
show('la::hankel(CB, RB)', sl.hankel(CB, RB))
show('la::circulant(C)', sl.circulant(C))
show('la::circulant(CB)', sl.circulant(CB))
show('la::leslie(F, S)', sl.leslie(F, S))
show('la::companion(A)', sl.companion(A))
show('la::companion(CB)', sl.companion(CB))
show('la::fiedler(C)', sl.fiedler(C))
show('la::fiedler_companion(A)', sl.fiedler_companion(A))
show('la::fiedler_companion(F)', sl.fiedler_companion(F))
show('la::convolution_matrix(F, 6)', sl.convolution_matrix(F, 6))
show('la::convolution_matrix(F, 6, "same")', sl.convolution_matrix(F, 6, "same"))
show('la::convolution_matrix(A, 3, "valid")', sl.convolution_matrix(A, 3, "valid"))
show('la::convolution_matrix(CB, 3, "same")', sl.convolution_matrix(CB, 3, "same"))
show('la::hilbert(5)', sl.hilbert(5))
show('la::invhilbert(5)', sl.invhilbert(5))
show('la::pascal(6)', sl.pascal(6))
show('la::pascal(5, "lower")', sl.pascal(5, "lower"))
show('la::invpascal(5)', sl.invpascal(5))
show('la::invpascal(4, "upper")', sl.invpascal(4, "upper"))
show('la::helmert(5)', sl.helmert(5))
show('la::helmert(4, true)', sl.helmert(4, full=True))
show('la::hadamard(8)', sl.hadamard(8))
show('la::dft(5)', sl.dft(5))
show('la::dft(6, "sqrtn")', sl.dft(6, "sqrtn"))
show('la::vector_norm(M)', jnp.linalg.vector_norm(M))
show('la::vector_norm(M, 1, std::vector<int>{0, 2})', jnp.linalg.vector_norm(M, ord=1, axis=(0, 2)))
show('la::vector_norm(M, INFINITY, std::vector<int>{-1}, true)', jnp.linalg.vector_norm(M, ord=jnp.inf, axis=-1, keepdims=True))
show('la::vector_norm(M, 3.5, std::vector<int>{1})', jnp.linalg.vector_norm(M, ord=3.5, axis=1))
show('la::matrix_norm(M)', jnp.linalg.matrix_norm(M))
show('la::matrix_norm(M, "nuc", true)', jnp.linalg.matrix_norm(M, ord="nuc", keepdims=True))
show('la::matrix_norm(M, 1)', jnp.linalg.matrix_norm(M, ord=1))
show('la::tensorinv(T)', jnp.linalg.tensorinv(T))
show('la::tensorinv(st::reshape(T, {6, 6}), 1)', jnp.linalg.tensorinv(T.reshape(6, 6), 1))
show('la::tensorsolve(T, B)', jnp.linalg.tensorsolve(T, B))
show('la::tensorsolve(st::moveaxis(T, 2, 0), B, std::vector<int>{0})', jnp.linalg.tensorsolve(jnp.moveaxis(T, 2, 0), B, axes=(0,)))
