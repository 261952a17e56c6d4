"""JAX CPU timings of bench/bench_special.cpp's workloads: erf, lgamma, digamma, erfc, tanh,
log1p, bessel_i0e, bessel_i1e, igamma, igammac, zeta and betainc over 16M f32 in (0.1, 10.1) (jit, block_until_ready, median of repetitions). Run with
/work/venv-jax/bin/python bench/special_jax.py."""

import jax
import jax.numpy as jnp
from jax import lax
import jax_util


def median_ms(f, *args, reps=10):
    return jax_util.median_ms(f, *args, reps=reps)

def main():
    x = jax.random.uniform(jax.random.key(1), (1 << 24,), jnp.float32, 0.1, 10.1)
    for name, f in [("erf", lax.erf), ("lgamma", lax.lgamma), ("digamma", lax.digamma),
                    ("erfc", lax.erfc), ("tanh", jnp.tanh), ("log1p", jnp.log1p),
                    ("bessel_i0e", lax.bessel_i0e), ("bessel_i1e", lax.bessel_i1e)]:
        print(f"jax {name}16M_ms {median_ms(jax.jit(f), x):.2f}")
    # Special lanes (bench_special.cpp: exp_masked, log_floor, lgamma_int, erfc_wide).
    for name, f in [("exp_masked", lambda v: jnp.exp(jnp.where(v < 5.1, v - 10.0, -jnp.inf))),
                    ("log_floor", lambda v: jnp.log(jnp.floor(v))),
                    ("lgamma_int", lambda v: lax.lgamma(jnp.floor(v) + 1.0)),
                    ("erfc_wide", lambda v: lax.erfc(v * 2.0))]:
        print(f"jax {name}16M_ms {median_ms(jax.jit(f), x):.2f}")
    # Random bits (bench_special.cpp: BM_rng_*, BM_random_bits).
    key = jnp.array([1, 2, 3, 4], dtype=jnp.uint32)
    for name, alg in [("rng_philox", lax.RandomAlgorithm.RNG_PHILOX), ("rng_three_fry", lax.RandomAlgorithm.RNG_THREE_FRY)]:
        f = jax.jit(lambda k, alg=alg: lax.rng_bit_generator(k, (1 << 24,), jnp.uint32, alg)[1])
        print(f"jax {name}16M_ms {median_ms(f, key):.2f}")
    f = jax.jit(lambda k: jax.random.bits(k, (1 << 24,), jnp.uint32))
    print(f"jax random_bits16M_ms {median_ms(f, jax.random.key(1)):.2f}")
    # strata draws its operands with the same threefry keys, so these are the same values.
    b = jax.random.uniform(jax.random.key(2), (1 << 24,), jnp.float32, 0.1, 10.1)
    u = jax.random.uniform(jax.random.key(3), (1 << 24,), jnp.float32, 0.0, 1.0)
    for name, f, args in [("igamma", lax.igamma, (x, b)), ("igammac", lax.igammac, (x, b)),
                          ("zeta", lambda p, q: lax.zeta(p + 1.0, q), (x, b)),
                          ("betainc", lax.betainc, (x, b, u))]:
        print(f"jax {name}16M_ms {median_ms(jax.jit(f), *args):.2f}")


if __name__ == "__main__":
    main()
