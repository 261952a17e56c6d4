# tests/api/conv_derived_jax_values.py — prints the JAX values that tests/api/test_conv_derived.cpp
# pastes: jax.lax.conv, conv_transpose, conv_general_dilated_patches, conv_general_dilated_local
# (JAX 0.10.2, x64). Not run by the tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/conv_derived_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax import lax
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, show


# The C++ test builds the same inputs with seq(shape, a, b).
X = seq((1, 3, 4, 2), 0.37, 0.1)      # NHWC
W = seq((3, 3, 2, 3), 0.23, 0.4)      # HWIO
Y = seq((2, 5, 3), 0.41, 0.2)         # NHC
V = seq((2, 4, 3), 0.53, 0.3)         # HIO (I and O swapped by transpose_kernel)
P = seq((1, 2, 5, 4), 0.29, 0.5)      # NCHW
L = seq((3, 12, 3, 3), 0.31, 0.6)     # OIHW, one kernel per output position of P
LH = seq((3, 3, 12, 3), 0.19, 0.7)    # HWIO
PH = seq((1, 5, 4, 2), 0.43, 0.8)     # NHWC
A = seq((2, 2, 5, 4), 0.17, 0.9)      # NCHW
K = seq((3, 2, 3, 2), 0.61, 1.0)      # OIHW


show('st::conv_transpose(X, W, {2, 2}, "SAME")', lax.conv_transpose(X, W, (2, 2), "SAME"))
show('st::conv_transpose(X, W, {2, 1}, "VALID", {1, 2})', lax.conv_transpose(X, W, (2, 1), "VALID", rhs_dilation=(1, 2)))
show('st::conv_transpose(X, W, {1, 2}, {{1, 0}, {2, 1}})', lax.conv_transpose(X, W, (1, 2), ((1, 0), (2, 1))))
show('st::conv_transpose(X, W, {2, 2}, {{1, 1}, {0, 1}}, {}, {}, false, true)',
     lax.conv_transpose(X, W, (2, 2), ((1, 1), (0, 1)), use_consistent_padding=True))
show('st::conv_transpose(Y, V, {3}, "SAME", {}, {}, true)', lax.conv_transpose(Y, V, (3,), "SAME", transpose_kernel=True))
show('st::conv_transpose(A, K, {2, 3}, "SAME", {}, {"NCHW", "OIHW", "NCHW"})',
     lax.conv_transpose(A, K, (2, 3), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")))
show('st::conv(A, K, {1, 2}, "SAME")', lax.conv(A, K, (1, 2), "SAME"))
show('st::conv_with_general_padding(A, K, {2, 1}, {{1, 2}, {0, 1}}, {1, 2}, {2, 1})',
     lax.conv_with_general_padding(A, K, (2, 1), ((1, 2), (0, 1)), (1, 2), (2, 1)))
show('st::conv_general_dilated_patches(P, {2, 3}, {1, 2}, "SAME")', lax.conv_general_dilated_patches(P, (2, 3), (1, 2), "SAME"))
show('st::conv_general_dilated_patches(PH, {2, 2}, {2, 1}, "VALID", {}, {1, 2}, {"NHWC", "HWIO", "NHWC"})',
     lax.conv_general_dilated_patches(PH, (2, 2), (2, 1), "VALID", rhs_dilation=(1, 2),
                                      dimension_numbers=("NHWC", "HWIO", "NHWC")))
show('st::conv_general_dilated_local(P, L, {1, 1}, "VALID", {3, 2})', lax.conv_general_dilated_local(P, L, (1, 1), "VALID", (3, 2)))
show('st::conv_general_dilated_local(PH, LH, {2, 1}, {{1, 1}, {0, 1}}, {2, 3}, {}, {}, {"NHWC", "HWIO", "NHWC"})',
     lax.conv_general_dilated_local(PH, LH, (2, 1), ((1, 1), (0, 1)), (2, 3),
                                    dimension_numbers=("NHWC", "HWIO", "NHWC")))
