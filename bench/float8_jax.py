"""JAX CPU timings of bench/bench_cpu.cpp's BM_Chain8Typed: the 8-op elementwise chain on 16M
elements of f32, bf16, float8_e4m3fn and float8_e5m2 (jit, block_until_ready, median of
repetitions). Run with /work/venv-jax/bin/python bench/float8_jax.py; compare with
`bench/run.sh bench_cpu Chain8Typed` run in the same session."""

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


if __name__ == "__main__":
    main()
