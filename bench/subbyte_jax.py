"""JAX CPU timings of bench/bench_cpu.cpp's BM_IntChainTyped: a 7-op integer chain on 16M
elements in int32, int8, int4 and uint4 (jit, block_until_ready, median of repetitions).
Run with /work/venv-jax/bin/python bench/subbyte_jax.py; compare with
`bench/run.sh bench_cpu IntChain` run in the same session."""

import jax
import jax.numpy as jnp
from jax import lax
from jax_util import median_ms

N = 16 << 20


def int_chain(x, y):
    a = x * y + x
    b = a ^ y
    c = lax.max(b, x) - y
    return lax.shift_right_logical(c, jnp.ones((), x.dtype)) + jnp.asarray(3, x.dtype)


def main():
    f = jax.jit(int_chain)
    for t in [jnp.int32, jnp.int8, jnp.int4, jnp.uint4]:
        x = jax.random.randint(jax.random.key(1), (N,), -8, 8, jnp.int32).astype(t)
        y = jax.random.randint(jax.random.key(2), (N,), -8, 8, jnp.int32).astype(t)
        try:
            print(f"jax int_chain_{jnp.dtype(t).name}_ms {median_ms(f, x, y):.2f}")
        except Exception as e:  # XLA's CPU takes only some ops on the narrow integers
            print(f"jax int_chain_{jnp.dtype(t).name}: {type(e).__name__}: {str(e).splitlines()[0][:120]}")


if __name__ == "__main__":
    main()
