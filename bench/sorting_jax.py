"""JAX CPU timings of bench/bench_sorting.cpp's workloads: cumsum of 16M f32 and along axis 0
of a 4096x4096 matrix; sort and argsort of 16M f32, sort along the rows of a 4096x4096
matrix; unique_counts and isin of 1M labels, setdiff1d of 100k minus 10k (jit, block_until_ready, median of
repetitions). Run with /work/venv-jax/bin/python bench/sorting_jax.py."""

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
    lab = jax.random.randint(jax.random.key(3), (1 << 20,), 0, 100000)
    test = jax.random.randint(jax.random.key(5), (100000,), 0, 100000)
    uc = jax.jit(lambda a: jnp.unique_counts(a, size=100000, fill_value=-1))
    print(f"jax unique_counts1M_ms {median_ms(uc, lab, reps=5):.2f}")
    # JAX's default isin compares all pairs (1M x 100k: 100 GB of booleans); its "sort" method
    # is the comparable one.
    print(f"jax isin1Mx100k_sort_ms {median_ms(jax.jit(lambda a, b: jnp.isin(a, b, method='sort')), lab, test, reps=5):.2f}")
    print(f"jax isin1Mx100k_binary_search_ms {median_ms(jax.jit(lambda a, b: jnp.isin(a, b, method='binary_search')), lab, test, reps=5):.2f}")
    lab100k = jax.random.randint(jax.random.key(6), (100000,), 0, 100000)
    test10k = jax.random.randint(jax.random.key(7), (10000,), 0, 100000)
    sd = jax.jit(lambda a, b: jnp.setdiff1d(a, b, size=100000))
    print(f"jax setdiff1d100kx10k_ms {median_ms(sd, lab100k, test10k, reps=3):.2f}")


if __name__ == "__main__":
    main()
