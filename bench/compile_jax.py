"""JAX CPU first-call latency (trace → lower → XLA compile → run) of bench/bench_compile.cpp's
programs: the seed line, the MLP SGD step (784→1024→10, batch 256), softmax rows and the 50-op
program. Each repetition jits a fresh function object after jax.clear_caches(), so nothing is
reused; the programs alternate within each round, as in bench_compile. Prints
  first_call <name> <median ms> (min <ms> max <ms>, n=<reps>)
With --run after REPS: the median of REPS steady-state calls instead (bench_compile --run).
Run with the venv of bench/run_compile.sh: python bench/compile_jax.py [REPS [--run]]."""
import statistics
import sys
import time

import jax
import jax.numpy as jnp


def seed_line(x, w, b):
    return jax.nn.relu(x @ w + b)


def mlp_loss(p, x, y):
    err = jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"] - y
    return jnp.mean(err * err)


def mlp_sgd_step(p, x, y):
    loss, g = jax.value_and_grad(mlp_loss)(p, x, y)
    return jax.tree_util.tree_map(lambda a, b: a - 0.01 * b, p, g), loss


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def ops50(x, y):
    a = x
    for _ in range(5):
        a = jnp.sin(a) * y + 0.5
        a = jnp.exp(-(a * a))
        a = a - jnp.max(a, axis=1, keepdims=True)
        a = jnp.tanh(a) @ y
    return a


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    k = jax.random.split(jax.random.key(0), 12)
    n = lambda i, s: jax.random.normal(k[i], s, jnp.float32)
    params = {"w1": n(0, (784, 1024)) * 0.05, "b1": jnp.zeros(1024), "w2": n(1, (1024, 10)) * 0.05,
              "b2": jnp.zeros(10)}
    programs = [
        ("seed_line", seed_line, (n(2, (8, 256)), n(3, (256, 256)), n(4, (256,)))),
        ("mlp_step", mlp_sgd_step, (params, n(5, (256, 784)), n(6, (256, 10)))),
        ("softmax", softmax, (n(7, (256, 1024)),)),
        ("ops50", ops50, (n(8, (256, 256)), n(9, (256, 256)) * 0.05)),
    ]

    def first_call(f, args):
        jax.clear_caches()
        g = jax.jit(lambda *a: f(*a))  # a fresh function object: no trace cache either
        t = time.perf_counter()
        jax.block_until_ready(g(*args))
        return (time.perf_counter() - t) * 1e3

    if len(sys.argv) > 2 and sys.argv[2] == "--run":  # steady-state calls, as bench_compile --run
        for name, f, args in programs:
            g = jax.jit(f)
            jax.block_until_ready(g(*args))
            ts = []
            for _ in range(reps):
                t = time.perf_counter()
                jax.block_until_ready(g(*args))
                ts.append((time.perf_counter() - t) * 1e3)
            print(f"run {name} jax {statistics.median(ts):.3f} (ms, median of {reps})")
        return
    for _, f, args in programs:  # warm the process, as bench_compile does
        first_call(f, args)
    times = {name: [] for name, _, _ in programs}
    for _ in range(reps):
        for name, f, args in programs:
            times[name].append(first_call(f, args))
    for name, _, _ in programs:
        v = times[name]
        print(f"first_call {name} {statistics.median(v):.1f} (min {min(v):.1f} max {max(v):.1f}, n={reps})")


if __name__ == "__main__":
    main()
