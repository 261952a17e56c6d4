"""The optax 0.2.8 values tests/api/test_optimizers.cpp checks strata's optimizers against: six
steps of each optimizer on a small quadratic-plus-quartic loss (f32), and schedules at a few
counts. Run: /work/venv-jax/bin/python tests/api/optimizers_optax_values.py (needs optax)."""
import jax
import jax.numpy as jnp
import optax

params0 = {"b": jnp.array([0.1, -0.2, 0.3], jnp.float32),
           "w": jnp.array([[0.5, -1.0, 1.5], [2.0, -0.5, 0.25]], jnp.float32)}


def loss(p):
    return jnp.sum(p["w"] * p["w"] * jnp.array([1.0, 2.0, 3.0], jnp.float32)) + jnp.sum((p["b"] - 1.0) ** 4)


configs = {
    "sgd": optax.sgd(0.1),
    "sgd_momentum": optax.sgd(0.1, momentum=0.9),
    "sgd_nesterov": optax.sgd(0.1, momentum=0.9, nesterov=True),
    "adam": optax.adam(0.05),
    "nadam": optax.nadam(0.05),
    "adamw": optax.adamw(0.05, weight_decay=0.1),
    "rmsprop": optax.rmsprop(0.05),
    "rmsprop_centered_momentum": optax.rmsprop(0.05, centered=True, momentum=0.5),
    "rmsprop_bias_correction": optax.rmsprop(0.05, bias_correction=True, eps_in_sqrt=False),
    "adagrad": optax.adagrad(0.3),
    "clip_norm_adam_warmup_cosine": optax.chain(optax.clip_by_global_norm(1.0),
                                                optax.adam(optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 6))),
    "clip_sgd_staircase": optax.chain(optax.clip(0.5), optax.sgd(optax.exponential_decay(0.2, 2, 0.5, staircase=True))),
}

for name, opt in configs.items():
    p = params0
    state = opt.init(p)
    for _ in range(6):
        g = jax.grad(loss)(p)
        u, state = opt.update(g, state, p)
        p = optax.apply_updates(p, u)
    flat = [float(v) for v in jnp.concatenate([p["b"].ravel(), p["w"].ravel()])]
    print(f'{{"{name}", {{{", ".join(f"{v:.9g}" for v in flat)}}}}},')

counts = [0, 1, 2, 5, 7, 10, 50, 99, 100, 150]
schedules = {
    "linear": optax.linear_schedule(1.0, 0.1, 10, 2),
    "polynomial": optax.polynomial_schedule(1.0, 0.01, 2, 100, 5),
    "exponential": optax.exponential_decay(1.0, 10, 0.5, 5, False, 0.3),
    "cosine": optax.cosine_decay_schedule(2.0, 50, 0.1, 2.0),
    "warmup_cosine": optax.warmup_cosine_decay_schedule(0.0, 1.0, 10, 100, 0.05),
    "piecewise": optax.piecewise_constant_schedule(1.0, {3: 0.5, 7: 0.1}),
}
for name, s in schedules.items():
    vals = [float(s(jnp.int32(c))) for c in counts]
    print(f'{{"{name}", {{{", ".join(f"{v:.9g}" for v in vals)}}}}},')
