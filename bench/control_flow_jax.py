"""JAX CPU timings of bench/bench_control_flow.cpp's workloads (jit, block_until_ready, median of
repetitions): 50 conjugate-gradient steps on a 512x512 Poisson grid (lax.while_loop, the same
5-point operator built from slices and concatenates), and the per-step cost of a scan whose body
adds one number (2^20 steps), an RNN's value_and_grad (a tanh recurrence, 32x256, 100 steps), and
host callbacks: a jitted call holding one pure_callback, and
an io_callback in each of 10^4 loop steps. Run with /work/venv-jax/bin/python bench/control_flow_jax.py
(bench/run_control_flow.sh runs both)."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import io_callback
from jax_util import median_ms

CG_STEPS = 50
SCAN_STEPS = 1 << 20


def laplacian(u):
    n, m = u.shape
    zr, zc = jnp.zeros((1, m), u.dtype), jnp.zeros((n, 1), u.dtype)
    up = jnp.concatenate([u[1:, :], zr], 0)
    down = jnp.concatenate([zr, u[:-1, :]], 0)
    left = jnp.concatenate([u[:, 1:], zc], 1)
    right = jnp.concatenate([zc, u[:, :-1]], 1)
    return u * 4.0 - up - down - left - right


def cg(b):
    def cond(s):
        return (s[3] > 0.0) & (s[4] < CG_STEPS)

    def body(s):
        x, r, p, rs, k = s
        ap = laplacian(p)
        alpha = rs / jnp.sum(p * ap)
        r2 = r - alpha * ap
        rs2 = jnp.sum(r2 * r2)
        return (x + alpha * p, r2, r2 + (rs2 / rs) * p, rs2, k + 1)

    s0 = (jnp.zeros_like(b), b, b, jnp.sum(b * b), jnp.int32(0))
    return lax.while_loop(cond, body, s0)[0]


def running_sum(xs):
    return lax.scan(lambda c, x: (c + x, c), jnp.float32(0), xs)


CALLBACK_STEPS = 10000


def add_one(v):
    return v + 1.0


def callback_once(x):
    return jax.pure_callback(add_one, jax.ShapeDtypeStruct(x.shape, x.dtype), x * 2.0) + 1.0


def callback_scan(c0):
    def body(_, c):
        return io_callback(add_one, jax.ShapeDtypeStruct(c.shape, c.dtype), c)
    return lax.fori_loop(0, CALLBACK_STEPS, body, c0)


RNN_STEPS, RNN_BATCH, RNN_HIDDEN = 100, 32, 256


def rnn_loss(w, u, xs):
    def step(h, x):
        n = jnp.tanh(h @ w + x @ u)
        return n, jnp.sum(n * n)
    h, hs = lax.scan(step, jnp.zeros((RNN_BATCH, RNN_HIDDEN), jnp.float32), xs)
    return jnp.sum(hs) + jnp.sum(h)


def main():
    b = jax.random.uniform(jax.random.key(1), (512, 512), jnp.float32)
    print(f"jax cg512_50steps_ms {median_ms(jax.jit(cg), b):.2f}")
    xs = jax.random.uniform(jax.random.key(2), (SCAN_STEPS,), jnp.float32)
    ms = median_ms(jax.jit(running_sum), xs)
    print(f"jax scan_tiny_ms {ms:.3f} ({ms * 1e6 / SCAN_STEPS:.2f} ns per step)")
    k = jax.random.split(jax.random.key(3), 3)
    w = jax.random.normal(k[0], (RNN_HIDDEN, RNN_HIDDEN), jnp.float32) * 0.05
    u = jax.random.normal(k[1], (RNN_HIDDEN, RNN_HIDDEN), jnp.float32) * 0.05
    xs = jax.random.normal(k[2], (RNN_STEPS, RNN_BATCH, RNN_HIDDEN), jnp.float32)
    print(f"jax rnn_value_and_grad_ms {median_ms(jax.jit(jax.value_and_grad(rnn_loss, (0, 1))), w, u, xs):.2f}")
    x = jnp.ones((16,), jnp.float32)
    print(f"jax callback_jit_us {median_ms(jax.jit(callback_once), x, reps=201) * 1e3:.1f}")
    ms = median_ms(jax.jit(callback_scan), jnp.float32(0))
    print(f"jax callback_scan_ms {ms:.2f} ({ms * 1e6 / CALLBACK_STEPS:.0f} ns per call)")


if __name__ == "__main__":
    main()
