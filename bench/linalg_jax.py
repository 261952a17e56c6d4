"""JAX CPU timings of bench/bench_linalg.cpp's workloads (f32, jit, block_until_ready, median of
repetitions): Cholesky, solve and inverse of 2048x2048, SVD of 512x512 and 1024x1024 (reduced),
singular values alone of 512x512 and 1024x1024, inverse of 64 128x128 matrices, eigh of
1024x1024 and 256x256 (x + xᵀ), eig of 256x256 and 1024x1024 (f32) and of 256x256 and 512x512
(c64), hessenberg (h and q) of 1024x1024, reduced QR of 1024x1024 and 4096x256, SVD of
2048x256. Run with /work/venv-jax/bin/python bench/linalg_jax.py (bench/run_linalg.sh runs
both)."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg
from jax_util import median_ms


def spd(n):
    x = jax.random.normal(jax.random.key(1), (n, n), jnp.float32)
    return x @ x.T / n + jnp.eye(n, dtype=jnp.float32)


def main():
    a = spd(2048)
    b = jax.random.normal(jax.random.key(2), (2048,), jnp.float32)
    print(f"jax cholesky2048_ms {median_ms(jax.jit(jnp.linalg.cholesky), a):.2f}")
    print(f"jax solve2048_ms {median_ms(jax.jit(jnp.linalg.solve), a, b):.2f}")
    m = jax.random.normal(jax.random.key(3), (512, 512), jnp.float32)
    print(f"jax svd512_ms {median_ms(jax.jit(lambda x: jnp.linalg.svd(x, full_matrices=False)), m):.2f}")
    print(f"jax svdvals512_ms {median_ms(jax.jit(jnp.linalg.svdvals), m):.2f}")
    x = jax.random.normal(jax.random.key(8), (1024, 1024), jnp.float32)
    print(f"jax svd1024_ms {median_ms(jax.jit(lambda x: jnp.linalg.svd(x, full_matrices=False)), x):.2f}")
    print(f"jax svdvals1024_ms {median_ms(jax.jit(jnp.linalg.svdvals), x):.2f}")
    t = jax.random.normal(jax.random.key(8), (2048, 256), jnp.float32)
    print(f"jax svd2048x256_ms {median_ms(jax.jit(lambda x: jnp.linalg.svd(x, full_matrices=False)), t):.2f}")
    for m, n in ((1024, 1024), (4096, 256)):
        x = jax.random.normal(jax.random.key(8), (m, n), jnp.float32)
        print(f"jax qr{m if m == n else f'{m}x{n}'}_ms {median_ms(jax.jit(jnp.linalg.qr), x):.2f}")
    for n in (1024, 256):
        x = jax.random.normal(jax.random.key(6), (n, n), jnp.float32)
        print(f"jax eigh{n}_ms {median_ms(jax.jit(jnp.linalg.eigh), x + x.T):.2f}")
    for n in (256, 1024):
        x = jax.random.normal(jax.random.key(8), (n, n), jnp.float32)
        print(f"jax eig{n}_ms {median_ms(jax.jit(jnp.linalg.eig), x):.2f}")
    for n in (256, 512):
        k1, k2 = jax.random.split(jax.random.key(9))
        z = jax.lax.complex(jax.random.normal(k1, (n, n), jnp.float32), jax.random.normal(k2, (n, n), jnp.float32))
        print(f"jax eigc64_{n}_ms {median_ms(jax.jit(jnp.linalg.eig), z):.2f}")
    x = jax.random.normal(jax.random.key(8), (1024, 1024), jnp.float32)
    print(f"jax hessenberg1024_ms {median_ms(jax.jit(lambda x: jax.scipy.linalg.hessenberg(x, calc_q=True)), x):.2f}")
    c = jax.random.normal(jax.random.key(4), (64, 128, 128), jnp.float32) + 8 * jnp.eye(128, dtype=jnp.float32)
    print(f"jax inv64x128_ms {median_ms(jax.jit(jnp.linalg.inv), c):.2f}")
    print(f"jax inv2048_ms {median_ms(jax.jit(jnp.linalg.inv), a):.2f}")


if __name__ == "__main__":
    main()
