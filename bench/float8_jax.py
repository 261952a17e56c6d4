"""JAX CPU timings of bench/bench_cpu.cpp's BM_Chain8Typed and BM_MatmulTyped: the 8-op
elementwise chain on 16M elements and a 1024³ matmul, in f32, bf16, float8_e4m3fn and
float8_e5m2 (jit, block_until_ready, median of repetitions). Run with /work/venv-jax/bin/python bench/float8_jax.py; compare with
`bench/run.sh bench_cpu Typed` run in the same session."""

import jax
import jax.numpy as jnp
from jax_util import median_ms

N = 16 << 20


def chain8(x, y):
    a = x * 1.5 + y
    b = jnp.maximum(a, 0.0)
    c = b * b - y
    d = c / 3.0
    e = d + x
    return jnp.minimum(e, 10.0)


def main():
    f = jax.jit(chain8)
    for t in [jnp.float32, jnp.bfloat16, jnp.float8_e4m3fn, jnp.float8_e5m2]:
        x = jax.random.normal(jax.random.key(1), (N,), jnp.float32).astype(t)
        y = jax.random.normal(jax.random.key(2), (N,), jnp.float32).astype(t)
        print(f"jax chain8_{jnp.dtype(t).name}_ms {median_ms(f, x, y):.2f}")
    mm = jax.jit(jnp.matmul)
    for t in [jnp.float32, jnp.bfloat16, jnp.float8_e4m3fn, jnp.float8_e5m2]:
        a = jax.random.normal(jax.random.key(3), (1024, 1024), jnp.float32).astype(t)
        b = jax.random.normal(jax.random.key(4), (1024, 1024), jnp.float32).astype(t)
        print(f"jax matmul1024_{jnp.dtype(t).name}_ms {median_ms(mm, a, b):.2f}")


if __name__ == "__main__":
    main()
