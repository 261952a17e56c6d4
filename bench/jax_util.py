"""What the JAX comparison scripts share (bench/*_jax.py; they run as `python bench/NAME.py`,
so this folder is on the import path)."""
import statistics
import time

import jax


def median_ms(f, *args, reps=7):
    """The median time of f(*args) in ms over `reps` calls after one warm-up (compile) call,
    each waited for with block_until_ready."""
    jax.block_until_ready(f(*args))
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        jax.block_until_ready(f(*args))
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)
