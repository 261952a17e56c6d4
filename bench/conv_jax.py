"""JAX CPU baseline of bench_conv.cpp: a 3x3, 64->64 conv on 32x32 images at batch 64, forward
and forward+backward (grads of both operands); max_pool and avg_pool 2x2 stride 2 on 64x32x32x64
NHWC (flax's: lax.reduce_window), forward and forward+backward; jit, median of repetitions (ms)."""

import jax
import jax.numpy as jnp
import numpy as np
import jax_util


def median_ms(f, *args, reps=20):
    return jax_util.median_ms(f, *args, reps=reps)

for name, xs, ws, dn in [("nhwc", (64, 32, 32, 64), (3, 3, 64, 64), ("NHWC", "HWIO", "NHWC")),
                         ("nchw", (64, 64, 32, 32), (64, 64, 3, 3), ("NCHW", "OIHW", "NCHW"))]:
    k = jax.random.split(jax.random.PRNGKey(0), 3)
    x, w, p = jax.random.normal(k[0], xs), jax.random.normal(k[1], ws), jax.random.normal(k[2], xs)
    conv = lambda a, b: jax.lax.conv_general_dilated(a, b, (1, 1), "SAME", dimension_numbers=dn)
    fwd = jax.jit(conv)
    bwd = jax.jit(jax.grad(lambda a, b, q: jnp.sum(conv(a, b) * q), argnums=(0, 1)))
    print(f"jax Forward/nhwc:{int(name == 'nhwc')} {median_ms(fwd, x, w):.2f} ms")
    print(f"jax ForwardBackward/nhwc:{int(name == 'nhwc')} {median_ms(bwd, x, w, p):.2f} ms")


# Other layer shapes (bench_conv.cpp's ForwardShapes): the first layer (3x3, 3->64), depthwise
# (3x3, 64 channels), pointwise (1x1, 64->256); NHWC, batch 64, 32x32, SAME.
for i, (cin, k, cout, groups) in enumerate([(3, 3, 64, 1), (64, 3, 64, 64), (64, 1, 256, 1)]):
    kx, kw = jax.random.split(jax.random.PRNGKey(3))
    x, w = jax.random.normal(kx, (64, 32, 32, cin)), jax.random.normal(kw, (k, k, cin // groups, cout))
    f = jax.jit(lambda a, b, g=groups: jax.lax.conv_general_dilated(
        a, b, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=g))
    print(f"jax ForwardShapes/shape:{i} {median_ms(f, x, w):.2f} ms")


def max_pool(a):
    return jax.lax.reduce_window(a, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avg_pool(a):
    return jax.lax.reduce_window(a, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


k = jax.random.split(jax.random.PRNGKey(1), 2)
x, p = jax.random.normal(k[0], (64, 32, 32, 64)), jax.random.normal(k[1], (64, 16, 16, 64))
for name, pool in [("max", max_pool), ("avg", avg_pool)]:
    fwd = jax.jit(pool)
    bwd = jax.jit(jax.grad(lambda a, q: jnp.sum(pool(a) * q)))
    print(f"jax PoolForward/max:{int(name == 'max')} {median_ms(fwd, x):.2f} ms")
    print(f"jax PoolForwardBackward/max:{int(name == 'max')} {median_ms(bwd, x, p):.2f} ms")
