# Writes jax.random draws (JAX's default threefry layout) as .npy files into a folder, for
# RandomJaxBulk.AgreesWithJaxFiles (tests/api/test_random_jax.cpp):
#   mkdir -p /tmp/rj && cd /tmp/rj && python tools/random_vs_jax.py 32 && python tools/random_vs_jax.py 64
#   STRATA_RANDOM_JAX_DIR=/tmp/rj build/tests/strata_tests --gtest_filter='RandomJaxBulk*'
import jax, jax.numpy as jnp, numpy as np, sys
x64 = sys.argv[1] == "64"
jax.config.update("jax_enable_x64", x64)
K = jax.random.PRNGKey
dt = jnp.float64 if x64 else jnp.float32
s = "64" if x64 else "32"
np.save(f"normal{s}.npy", np.asarray(jax.random.normal(K(0), (4096,), dt)))
np.save(f"gumbel{s}.npy", np.asarray(jax.random.gumbel(K(1), (4096,), dt)))
np.save(f"expo{s}.npy", np.asarray(jax.random.exponential(K(2), (4096,), dt)))
np.save(f"trunc{s}.npy", np.asarray(jax.random.truncated_normal(K(3), -1.5, 2.5, (4096,), dt)))
np.save(f"unif{s}.npy", np.asarray(jax.random.uniform(K(4), (4096,), dt, -3.0, 7.0)))
np.save(f"gamma{s}.npy", np.asarray(jax.random.gamma(K(5), jnp.linspace(0.1, 20, 512, dtype=dt), dtype=dt)))
np.save(f"beta{s}.npy", np.asarray(jax.random.beta(K(6), 0.5, 3.0, (512,), dt)))
np.save(f"randint{s}.npy", np.asarray(jax.random.randint(K(7), (4096,), -1000, 12345)))
np.save(f"perm{s}.npy", np.asarray(jax.random.permutation(K(8), 3000)))
