"""JAX CPU timings of bench/bench_special.cpp's workloads: erf, lgamma, digamma, erfc, tanh and
log1p over 16M f32 in (0.1, 10.1) (jit, block_until_ready, median of repetitions). Run with
/work/venv-jax/bin/python bench/special_jax.py."""
import statistics
import time

import jax
import jax.numpy as jnp
from jax import lax


def median_ms(f, x, reps=10):
    f(x).block_until_ready()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f(x).block_until_ready()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


def main():
    x = jax.random.uniform(jax.random.key(1), (1 << 24,), jnp.float32, 0.1, 10.1)
    for name, f in [("erf", lax.erf), ("lgamma", lax.lgamma), ("digamma", lax.digamma),
                    ("erfc", lax.erfc), ("tanh", jnp.tanh), ("log1p", jnp.log1p)]:
        print(f"jax {name}16M_ms {median_ms(jax.jit(f), x):.2f}")


if __name__ == "__main__":
    main()
