"""JAX CPU timings of bench/bench_stats.cpp's workloads (jit, block_until_ready, median of
repetitions; the inputs are the same threefry draws). Run with
/work/venv-jax/bin/python bench/stats_jax.py."""

import jax
import jax.numpy as jnp
import jax.scipy.stats as S
import jax_util

N = 1 << 22


def draws(seed, shape, lo, hi):
    return jax.random.uniform(jax.random.key(seed), shape, jnp.float32, lo, hi)


def main():
    a, b = draws(1, (N,), -4, 4), draws(2, (N,), 0.1, 10)
    for name, f in [("NormLogpdf4M", lambda a, b: S.norm.logpdf(a, 0.5, b)),
                    ("NormLogcdf4M", lambda a, b: S.norm.logcdf(a * b)),
                    ("TruncnormLogpdf4M", lambda a, b: S.truncnorm.logpdf(a, -1.0, 2.0, 0.0, b)),
                    ("GammaLogpdf4M", lambda a, b: S.gamma.logpdf(jnp.abs(a), b)),
                    ("TLogpdf4M", lambda a, b: S.t.logpdf(a, b)),
                    ("PoissonLogpmf4M", lambda a, b: S.poisson.logpmf(jnp.floor(jnp.abs(a) * 4.0), b))]:
        print(f"jax {name}_ms {jax_util.median_ms(jax.jit(f), a, b, reps=10):.2f}")
    x = draws(3, (100000, 16), -2, 2)
    m = draws(4, (16, 16), -1, 1)
    cov = m @ m.T + jnp.eye(16) * 16.0
    mvn = jax.jit(lambda x, c: S.multivariate_normal.logpdf(x, jnp.zeros(16), c))
    print(f"jax MvnLogpdf100kx16_ms {jax_util.median_ms(mvn, x, cov, reps=10):.2f}")
    d, p = draws(5, (2, 2000), -3, 3), draws(6, (2, 2000), -3, 3)
    kde = jax.jit(lambda d, p: S.gaussian_kde(d).logpdf(p))
    print(f"jax KdeLogpdf2000x2000_ms {jax_util.median_ms(kde, d, p, reps=10):.2f}")
    v = jnp.floor(draws(7, (1 << 20,), 0, 100000))
    print(f"jax Rankdata1M_ms {jax_util.median_ms(jax.jit(S.rankdata), v, reps=5):.2f}")


if __name__ == "__main__":
    main()
