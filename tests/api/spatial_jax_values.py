# tests/api/spatial_jax_values.py — prints the JAX values that tests/api/test_spatial.cpp
# pastes: jax.scipy.spatial.transform's Rotation and Slerp (JAX 0.10.2, x64). Not run by the
# tests (it needs jax):
#   /work/venv-jax/bin/python tests/api/spatial_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import numpy as np
from jax.scipy.spatial.transform import Rotation as R, Slerp
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jax_values_common import seq, show


# The C++ test builds the same inputs with sin_sequence.
Q = seq((5, 4), 0.71, 0.3)          # quaternions (normalized by from_quat)
Q2 = seq((5, 4), 0.37, 1.1)
V = seq((5, 3), 0.53, 0.2) * 2.0
RV = seq((4, 3), 0.9, 0.4) * 1.5
E = seq((4, 3), 0.61, 0.8) * 2.0
T = jnp.asarray([0.0, 0.5, 1.3, 2.0, 3.1])
TQ = jnp.asarray([0.1, 0.5, 0.9, 1.7, 2.6, 3.0])
W = jnp.asarray([1.0, 2.0, 0.5, 1.5, 3.0])
# Gimbal lock: the middle angle 0 (xyz: pi/2 about y).
LOCK = jnp.asarray([[0.3, jnp.pi / 2, 0.2], [0.1, 0.0, 0.4]])

r, r2 = R.from_quat(Q), R.from_quat(Q2)


show('r.as_quat()', r.as_quat())
show('r.as_quat(true, true)', r.as_quat(canonical=True, scalar_first=True))
show('r.as_matrix()', r.as_matrix())
show('r.as_rotvec()', r.as_rotvec())
show('r.as_rotvec(true)', r.as_rotvec(degrees=True))
show('r.as_mrp()', r.as_mrp())
show('r.as_euler("xyz")', r.as_euler("xyz"))
show('r.as_euler("ZXZ", true)', r.as_euler("ZXZ", degrees=True))
show('r.as_euler("yzx")', r.as_euler("yzx"))
show('r.magnitude()', r.magnitude())
show('r.inv().as_quat()', r.inv().as_quat())
show('(r * r2).as_quat()', (r * r2).as_quat())
show('r.apply(V)', r.apply(V))
show('r.apply(V, true)', r.apply(V, inverse=True))
show('Rot::from_matrix(r2.as_matrix()).as_quat()', R.from_matrix(r2.as_matrix()).as_quat())
show('Rot::from_rotvec(RV).as_quat()', R.from_rotvec(RV).as_quat())
show('Rot::from_rotvec(RV, true).as_quat()', R.from_rotvec(RV, degrees=True).as_quat())
show('Rot::from_mrp(RV * 0.3).as_quat()', R.from_mrp(RV * 0.3).as_quat())
show('Rot::from_euler("xyz", E).as_quat()', R.from_euler("xyz", E).as_quat())
show('Rot::from_euler("YZY", E, true).as_quat()', R.from_euler("YZY", E, degrees=True).as_quat())
show('Rot::from_euler("z", Array(0.7)).as_quat()', R.from_euler("z", 0.7).as_quat())
show('Rot::from_euler("xyz", LOCK).as_euler("xyz")', R.from_euler("xyz", LOCK).as_euler("xyz"))
show('r.mean().as_matrix()', r.mean().as_matrix())  # the eigenvector's sign is free
show('r.mean(W).as_matrix()', r.mean(W).as_matrix())
show('tf::Slerp::init(T, r)(TQ).as_quat()', Slerp.init(T, r)(TQ).as_quat())
show('tf::Slerp::init(T, r)(Array(1.0)).as_quat()', Slerp.init(T, r)(1.0).as_quat())
