"""bench/indexing_jax.py — JAX CPU on bench_indexing.cpp's workloads: gather of 1M rows from a
100k×128 f32 table and the scatter-add of 1M rows into it; jit, block_until_ready, median of
repetitions. Prints one line per workload: name, median ms."""

import jax
import jax.numpy as jnp
import jax_util

ROWS, COLS, IDS = 100_000, 128, 1_000_000


def median_ms(f, *args, reps=15):
    return jax_util.median_ms(f, *args, reps=reps)

def main():
    k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
    table = jax.random.normal(k1, (ROWS, COLS), jnp.float32)
    ids = jax.random.randint(k2, (IDS,), 0, ROWS)
    rows = jax.random.normal(k3, (IDS, COLS), jnp.float32)
    gather = jax.jit(lambda t, i: t[i])
    scatter_add = jax.jit(lambda t, i, r: t.at[i].add(r))
    print(f"jax Gather1MRows {median_ms(gather, table, ids):.2f} ms")
    print(f"jax ScatterAdd1MRows {median_ms(scatter_add, table, ids, rows):.2f} ms")


if __name__ == "__main__":
    main()
