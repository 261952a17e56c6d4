"""JAX CPU timings of bench/bench_fft.cpp's workloads (c64/f32, jit, block_until_ready, median of
repetitions). Run with /work/venv-jax/bin/python bench/fft_jax.py (bench/run_fft.sh runs both)."""

import jax
import jax.numpy as jnp
from jax_util import median_ms


def signal(shape):
    re = jax.random.normal(jax.random.key(1), shape, jnp.float32)
    im = jax.random.normal(jax.random.key(2), shape, jnp.float32)
    return jax.lax.complex(re, im)


def main():
    fft = jax.jit(jnp.fft.fft)
    print(f"jax fft1M_ms {median_ms(fft, signal((1 << 20,))):.2f}")
    print(f"jax fft1024x1024_ms {median_ms(fft, signal((1024, 1024))):.2f}")
    print(f"jax fft4096x1000_ms {median_ms(fft, signal((4096, 1000))):.2f}")
    print(f"jax fft_prime1000003_ms {median_ms(fft, signal((1000003,))):.2f}")
    x = jax.random.normal(jax.random.key(3), (256, 4096), jnp.float32)
    print(f"jax rfft256x4096_ms {median_ms(jax.jit(jnp.fft.rfft), x):.2f}")
    x1 = jax.random.normal(jax.random.key(3), (1 << 20,), jnp.float32)
    print(f"jax rfft1M_ms {median_ms(jax.jit(jnp.fft.rfft), x1):.2f}")
    irfft = jax.jit(lambda v: jnp.fft.irfft(v, n=4096))
    print(f"jax irfft256x4096_ms {median_ms(irfft, jnp.fft.rfft(x)):.2f}")
    print(f"jax fft2d1024_ms {median_ms(jax.jit(jnp.fft.fft2), signal((1024, 1024))):.2f}")


if __name__ == "__main__":
    main()
