"""JAX CPU timings of bench/bench_sorting.cpp's workloads: cumsum of 16M f32 and along axis 0
of a 4096x4096 matrix; sort and argsort of 16M f32, sort along the rows of a 4096x4096
matrix (jit, block_until_ready, median of repetitions). Run with /work/venv-jax/bin/python bench/sorting_jax.py."""

import jax
import jax.numpy as jnp
import jax_util


def median_ms(f, *args, reps=10):
    return jax_util.median_ms(f, *args, reps=reps)

def main():
    x = jax.random.uniform(jax.random.key(1), (1 << 24,), jnp.float32)
    m = jax.random.uniform(jax.random.key(2), (4096, 4096), jnp.float32)
    print(f"jax cumsum16M_ms {median_ms(jax.jit(jnp.cumsum), x):.2f}")
    print(f"jax cumsum4096x4096axis0_ms {median_ms(jax.jit(lambda a: jnp.cumsum(a, 0)), m):.2f}")
    print(f"jax sort16M_ms {median_ms(jax.jit(jnp.sort), x, reps=3):.2f}")
    print(f"jax argsort16M_ms {median_ms(jax.jit(jnp.argsort), x, reps=3):.2f}")
    print(f"jax sort4096x4096rows_ms {median_ms(jax.jit(lambda a: jnp.sort(a, 1)), m, reps=3):.2f}")


if __name__ == "__main__":
    main()
