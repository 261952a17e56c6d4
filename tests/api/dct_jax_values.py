# tests/api/dct_jax_values.py — prints the JAX values that tests/api/test_dct.cpp pastes:
# jax.scipy.fft.dct / idct / dctn / idctn (JAX 0.10.2, x64). Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/dct_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.fft as F
import numpy as np
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import show as show_values


def show(cpp, v):
    show_values(cpp, v, real_imag=True)


X = jnp.asarray(np.sin(np.arange(7.0) * 0.9) + 0.1 * np.arange(7.0))
M = jnp.asarray(np.cos(np.arange(20.0) * 0.45).reshape(4, 5))
C = X + 1j * jnp.asarray(np.cos(np.arange(7.0)))


show('fft::dct(X)', F.dct(X))
show('fft::dct(X, 2, std::nullopt, -1, "ortho")', F.dct(X, norm="ortho"))
show('fft::dct(X, 2, 10)', F.dct(X, n=10))
show('fft::dct(X, 2, 4)', F.dct(X, n=4))
show('fft::dct(M, 2, std::nullopt, 0)', F.dct(M, axis=0))
show('fft::dct(C)', F.dct(C))
show('fft::idct(X)', F.idct(X))
show('fft::idct(X, 2, std::nullopt, -1, "ortho")', F.idct(X, norm="ortho"))
show('fft::idct(M, 2, 6, 1)', F.idct(M, n=6, axis=1))
show('fft::dctn(M)', F.dctn(M))
show('fft::dctn(M, 2, std::nullopt, std::nullopt, "ortho")', F.dctn(M, norm="ortho"))
show('fft::dctn(M, 2, std::vector<int64_t>{3, 6})', F.dctn(M, s=[3, 6]))
show('fft::idctn(M)', F.idctn(M))
show('fft::idctn(M, 2, std::nullopt, std::vector<int>{0}, "ortho")', F.idctn(M, axes=[0], norm="ortho"))
