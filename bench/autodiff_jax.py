"""JAX CPU timings of bench/bench_autodiff.cpp's training step: a 2-layer MLP (64 -> hidden ->
8, tanh, MSE), value_and_grad, SGD with momentum 0.9 and learning rate 0.01, jitted whole; at
(batch, hidden) = (256, 256) and (4096, 1024). Prints `jax train_step_<batch>x<hidden> <ms>`
(median of repetitions). bench/run_autodiff.sh runs it beside strata's."""

import sys

import jax
import jax.numpy as jnp
from jax_util import median_ms


def loss_fn(p, x, y):
    w1, b1, w2, b2 = p
    err = jnp.tanh(x @ w1 + b1) @ w2 + b2 - y
    return jnp.mean(err * err)


@jax.jit
def train_step(p, v, x, y):
    loss, g = jax.value_and_grad(loss_fn)(p, x, y)
    v = tuple(vi * 0.9 + gi for vi, gi in zip(v, g))
    p = tuple(pi - 0.01 * vi for pi, vi in zip(p, v))
    return p, v, loss


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    for batch, hidden in ((256, 256), (4096, 1024)):
        k = jax.random.split(jax.random.key(0), 4)
        p = (jax.random.normal(k[0], (64, hidden)) * 0.1, jnp.zeros((hidden,)),
             jax.random.normal(k[1], (hidden, 8)) * 0.1, jnp.zeros((8,)))
        v = tuple(jnp.zeros_like(a) for a in p)
        x = jax.random.normal(k[2], (batch, 64))
        y = jax.random.normal(k[3], (batch, 8))
        print(f"jax train_step_{batch}x{hidden} {median_ms(train_step, p, v, x, y, reps=reps):.4f}")


if __name__ == "__main__":
    main()
