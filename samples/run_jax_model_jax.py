"""JAX's time per call for the transformer block of run_jax_model (same inputs, same block).

  python run_jax_model_jax.py PREFIX REPS    # PREFIX.in<i>.npy, PREFIX.out0.npy
"""
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np


def layer_norm(x):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + 1e-5)


def block(x, wq, wk, wv, wo, w1, w2):
    h = layer_norm(x)
    q, k, v = h @ wq, h @ wk, h @ wv
    t = x.shape[1]
    s = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(float(x.shape[2]))
    s = jnp.where(jnp.tril(jnp.ones((t, t), bool)), s, -1e9)
    x1 = x + jax.nn.softmax(s, -1) @ v @ wo
    return x1 + jax.nn.gelu(layer_norm(x1) @ w1, approximate=True) @ w2


prefix, reps = sys.argv[1], int(sys.argv[2])
args = [jnp.asarray(np.load(f"{prefix}.in{i}.npy")) for i in range(7)]
f = jax.jit(block)
out = f(*args).block_until_ready()
ts = []
for _ in range(reps):
    t0 = time.perf_counter()
    f(*args).block_until_ready()
    ts.append(time.perf_counter() - t0)
diff = float(np.max(np.abs(np.asarray(out) - np.load(f"{prefix}.out0.npy"))))
print(f"  {'JAX ' + jax.__version__ + ' CPU, jit':<34} {1e6 * sorted(ts)[len(ts) // 2]:10.1f} us/call  (difference {diff:.3g})")
