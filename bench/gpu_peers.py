#!/usr/bin/env python3
"""bench/gpu_peers.py — the peers of bench/bench_gpu.cpp (strata_gpu_bench): the same workloads,
dtypes, sizes and timing with JAX (jit), torch (eager) and torch.compile, one JSON line per
measurement (impl "jax", "torch", "torch.compile", "torch.compile-cudagraphs").

    python3 bench/gpu_peers.py               # on the GPU machine (JAX and torch each in a child process)
    python3 bench/gpu_peers.py --cpu-smoke   # the same code paths on the CPU at small sizes

Timing, as in strata_gpu_bench: after warm-up, each repetition launches `batch` calls back to
back and waits once (block_until_ready / torch.cuda.synchronize); per-call time = wall time /
batch; the figure is the median over the repetitions. First calls run in fresh processes.
A peer that is missing or fails prints a {"skipped": ...} line instead.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.abspath(__file__)

# Sizes: (GPU, --cpu-smoke). The workload names carry the GPU sizes; smoke runs add "_cpu_smoke".
GPU = dict(chain=(16 << 20, 256 << 20), seed_mnk=4096, seed_nk=4096, softmax=(4096, 8192), row_len=4 << 20, small=1024,
           copy_bytes=1 << 30, reps=30, host_calls=2000, first_n=4096)
CPU = dict(chain=(1 << 16, 1 << 18), seed_mnk=128, seed_nk=128, softmax=(128, 256), row_len=1 << 16, small=1024,
           copy_bytes=1 << 22, reps=5, host_calls=200, first_n=256)

SFX = ""
DEVICE = ""


def emit(workload, impl, ms, rate_key=None, rate=None, reps=1, batch=1, **extra):
    d = {"workload": workload + SFX, "impl": impl, "median_ms": ms}
    if rate_key:
        d[rate_key] = rate
    d.update(reps=reps, batch=batch, device=DEVICE, **extra)
    print(json.dumps(d), flush=True)


def skip(workload, impl, why):
    print(json.dumps({"workload": workload + SFX, "impl": impl, "skipped": why}), flush=True)


def time_batches(run_batch, batch, reps, warmup=3):
    for _ in range(warmup):
        run_batch(batch)
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run_batch(batch)
        t.append((time.perf_counter() - t0) * 1e3 / batch)
    return statistics.median(t)


def guarded(workload, impl, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - a failing peer is reported, never fatal
        skip(workload, impl, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300])


# ---- The workloads (the same definitions as bench_gpu.cpp) ----
# chain8(x) = maximum(exp(tanh((x * 1.5 + 0.5) * x - 0.25)) * 0.5, 0.25): 8 elementwise ops,
#   one f32 input, one f32 output (GB/s counts 2 * n * 4 bytes).
# seed(x, w, b) = relu(x @ w + b), bf16 x[M,K], w[K,N], b[N] -> bf16 [M,N] (TFLOP/s: 2MNK).
# softmax(x) over the last axis of an f32 [n,n] (GB/s counts 2 * n * n * 4 bytes).
# row_sum(x) = sum of an f32 [8, n] along its rows (GB/s counts 8 * n * 4 bytes).
# small3(x) = maximum(x * 2 + 1, 0) on 1024 f32: host time per call on a cache hit.
# copy: a device-to-device copy of 1 GiB (GB/s counts read + write).

def chain8(x, xp):
    t = x * 1.5
    t = t + 0.5
    t = t * x
    t = t - 0.25
    t = xp.tanh(t)
    t = xp.exp(t)
    t = t * 0.5
    return xp.maximum(t, 0.25) if xp.__name__ != "torch" else xp.clamp_min(t, 0.25)


def workload_list(S):
    n16, n256 = S["chain"]
    s4, s8 = S["softmax"]
    return dict(
        chain=[(n16, "chain8_16M_f32", 50), (n256, "chain8_256M_f32", 10)],
        seed=[(S["seed_mnk"], S["seed_mnk"], S["seed_mnk"], "seed_bf16_4096x4096x4096", 20),
              (8, S["seed_nk"], S["seed_nk"], "seed_bf16_M8_N4096_K4096", 50)],
        softmax=[(s4, "softmax_4096x4096_f32", 50), (s8, "softmax_8192x8192_f32", 20)],
        rows=[(S["row_len"], "row_sum_8x4M_f32", 50)],
    )


# ---- JAX ----
def run_jax(S, cpu):
    import jax
    import jax.numpy as jnp
    dev = jax.devices("cpu" if cpu else "gpu")[0]
    global DEVICE
    DEVICE = getattr(dev, "device_kind", str(dev))
    reps = S["reps"]
    key = jax.random.key(0)

    def uni(shape, dtype, i):
        return jax.device_put(jax.random.uniform(jax.random.fold_in(key, i), shape, jnp.float32, -1.0, 1.0)
                              .astype(dtype), dev).block_until_ready()

    def batch_of(f, *args):
        def run(n):
            y = None
            for _ in range(n):
                y = f(*args)
            y.block_until_ready()
        return run

    def copy():
        n = S["copy_bytes"] // 4
        x = uni((n,), jnp.float32, 9)
        ms = time_batches(batch_of(jnp.copy, x), 10, reps)
        emit("copy_1GiB", "jax", ms, "gbps", 2.0 * n * 4 / (ms * 1e6), reps, 10, how="jnp.copy, eager", size=f"{n * 4} bytes")
    guarded("copy_1GiB", "jax", copy)

    def small():
        x = uni((S["small"],), jnp.float32, 7)
        f = jax.jit(lambda v: jnp.maximum(v * 2.0 + 1.0, 0.0))
        f(x).block_until_ready()
        ms = time_batches(batch_of(f, x), S["host_calls"], reps)
        emit("host_per_call_small", "jax", ms, "us_per_call", ms * 1e3, reps, S["host_calls"], size=str(S["small"]))
        ms = time_batches(batch_of(f, x), 1, 200)
        emit("latency_small", "jax", ms, "us_per_call", ms * 1e3, 200, 1, size=str(S["small"]))
    guarded("host_per_call_small", "jax", small)

    W = workload_list(S)
    for n, name, batch in W["chain"]:
        def one(n=n, name=name, batch=batch):
            x = uni((n,), jnp.float32, 1)
            f = jax.jit(lambda v: chain8(v, jnp))
            ms = time_batches(batch_of(f, x), batch, reps)
            emit(name, "jax", ms, "gbps", 2.0 * n * 4 / (ms * 1e6), reps, batch, size=str(n))
        guarded(name, "jax", one)
    for m, n, k, name, batch in W["seed"]:
        def one(m=m, n=n, k=k, name=name, batch=batch):
            x, w, b = uni((m, k), jnp.bfloat16, 1), uni((k, n), jnp.bfloat16, 2), uni((n,), jnp.bfloat16, 3)
            f = jax.jit(lambda x, w, b: jnp.maximum(x @ w + b, 0))
            ms = time_batches(batch_of(f, x, w, b), batch, reps)
            emit(name, "jax", ms, "tflops", 2.0 * m * n * k / (ms * 1e9), reps, batch, size=f"{m}x{n}x{k}")
        guarded(name, "jax", one)
    for n, name, batch in W["softmax"]:
        def one(n=n, name=name, batch=batch):
            x = uni((n, n), jnp.float32, 1)
            f = jax.jit(lambda v: jax.nn.softmax(v, axis=-1))
            ms = time_batches(batch_of(f, x), batch, reps)
            emit(name, "jax", ms, "gbps", 2.0 * n * n * 4 / (ms * 1e6), reps, batch, size=f"{n}x{n}")
        guarded(name, "jax", one)
    for n, name, batch in W["rows"]:
        def one(n=n, name=name, batch=batch):
            x = uni((8, n), jnp.float32, 1)
            f = jax.jit(lambda v: jnp.sum(v, axis=1))
            ms = time_batches(batch_of(f, x), batch, reps)
            emit(name, "jax", ms, "gbps", 8.0 * n * 4 / (ms * 1e6), reps, batch, size=f"8x{n}")
        guarded(name, "jax", one)


# ---- torch (eager and torch.compile) ----
def run_torch(S, cpu):
    import torch
    dev = torch.device("cpu" if cpu else "cuda")
    global DEVICE
    DEVICE = "cpu" if cpu else torch.cuda.get_device_name(0)
    reps = S["reps"]
    sync = (lambda: None) if cpu else torch.cuda.synchronize
    gen = torch.Generator(device=dev)
    gen.manual_seed(0)

    def uni(shape, dtype):
        x = (torch.rand(shape, generator=gen, device=dev, dtype=torch.float32) * 2 - 1).to(dtype)
        sync()
        return x

    def batch_of(f, *args):
        def run(n):
            for _ in range(n):
                f(*args)
            sync()
        return run

    torch.set_grad_enabled(False)

    def copy():
        n = S["copy_bytes"] // 4
        x, y = uni((n,), torch.float32), torch.empty(n, device=dev)
        ms = time_batches(batch_of(y.copy_, x), 10, reps)
        emit("copy_1GiB", "torch", ms, "gbps", 2.0 * n * 4 / (ms * 1e6), reps, 10, how="Tensor.copy_", size=f"{n * 4} bytes")
    guarded("copy_1GiB", "torch", copy)

    def small3(v):
        return torch.clamp_min(v * 2.0 + 1.0, 0.0)

    for impl, make in (("torch", lambda f: f),
                       ("torch.compile", lambda f: torch.compile(f, dynamic=False)),
                       ("torch.compile-cudagraphs", lambda f: torch.compile(f, dynamic=False, mode="reduce-overhead"))):
        def small(impl=impl, make=make):
            x = uni((S["small"],), torch.float32)
            f = make(small3)
            for _ in range(3):
                f(x)
            sync()
            ms = time_batches(batch_of(f, x), S["host_calls"], reps)
            emit("host_per_call_small", impl, ms, "us_per_call", ms * 1e3, reps, S["host_calls"], size=str(S["small"]))
            ms = time_batches(batch_of(f, x), 1, 200)
            emit("latency_small", impl, ms, "us_per_call", ms * 1e3, 200, 1, size=str(S["small"]))
        guarded("host_per_call_small", impl, small)

    W = workload_list(S)
    for impl, make in (("torch", lambda f: f), ("torch.compile", lambda f: torch.compile(f, dynamic=False))):
        for n, name, batch in W["chain"]:
            def one(n=n, name=name, batch=batch, impl=impl, make=make):
                x = uni((n,), torch.float32)
                f = make(lambda v: chain8(v, torch))
                ms = time_batches(batch_of(f, x), batch, reps)
                emit(name, impl, ms, "gbps", 2.0 * n * 4 / (ms * 1e6), reps, batch, size=str(n))
            guarded(name, impl, one)
        for m, n, k, name, batch in W["seed"]:
            def one(m=m, n=n, k=k, name=name, batch=batch, impl=impl, make=make):
                x, w, b = uni((m, k), torch.bfloat16), uni((k, n), torch.bfloat16), uni((n,), torch.bfloat16)
                f = make(lambda x, w, b: torch.relu(x @ w + b))
                ms = time_batches(batch_of(f, x, w, b), batch, reps)
                emit(name, impl, ms, "tflops", 2.0 * m * n * k / (ms * 1e9), reps, batch, size=f"{m}x{n}x{k}")
            guarded(name, impl, one)
    # Softmax: torch eager only (torch.compile's compile time is spent where the issue compares it).
    for n, name, batch in W["softmax"]:
        def one(n=n, name=name, batch=batch):
            x = uni((n, n), torch.float32)
            ms = time_batches(batch_of(lambda v: torch.softmax(v, -1), x), batch, reps)
            emit(name, "torch", ms, "gbps", 2.0 * n * n * 4 / (ms * 1e6), reps, batch, size=f"{n}x{n}")
        guarded(name, "torch", one)
    for n, name, batch in W["rows"]:
        def one(n=n, name=name, batch=batch):
            x = uni((8, n), torch.float32)
            ms = time_batches(batch_of(lambda v: torch.sum(v, 1), x), batch, reps)
            emit(name, "torch", ms, "gbps", 8.0 * n * 4 / (ms * 1e6), reps, batch, size=f"8x{n}")
        guarded(name, "torch", one)


# ---- First call of the seed line in a fresh process: trace -> compile -> run -> wait ----
def first_call(peer, S, cpu, label, quiet):
    n = S["first_n"]
    name = "first_call_seed" + ("_" + label if label else "")
    impl = {"jax": "jax", "torch.compile": "torch.compile"}[peer]
    try:
        if peer == "jax":
            import jax
            import jax.numpy as jnp
            if os.environ.get("STRATA_BENCH_JAX_CACHE"):
                jax.config.update("jax_compilation_cache_dir", os.environ["STRATA_BENCH_JAX_CACHE"])
                for opt, v in (("jax_persistent_cache_min_compile_time_secs", 0.0),
                               ("jax_persistent_cache_min_entry_size_bytes", 0)):
                    try:
                        jax.config.update(opt, v)
                    except Exception:  # noqa: BLE001 - an option this version lacks
                        pass
            dev = jax.devices("cpu" if cpu else "gpu")[0]
            k = jax.random.key(0)
            x, w, b = (jax.device_put(jax.random.uniform(jax.random.fold_in(k, i), s, jnp.float32, -1, 1)
                                      .astype(jnp.bfloat16), dev).block_until_ready()
                       for i, s in ((1, (n, n)), (2, (n, n)), (3, (n,))))
            t0 = time.perf_counter()
            f = jax.jit(lambda x, w, b: jnp.maximum(x @ w + b, 0))
            f(x, w, b).block_until_ready()
            ms = (time.perf_counter() - t0) * 1e3
            dev_name = getattr(dev, "device_kind", str(dev))
        else:
            import torch
            dev = torch.device("cpu" if cpu else "cuda")
            sync = (lambda: None) if cpu else torch.cuda.synchronize
            x, w, b = (torch.rand(s, device=dev).to(torch.bfloat16) for s in ((n, n), (n, n), (n,)))
            sync()
            t0 = time.perf_counter()
            f = torch.compile(lambda x, w, b: torch.relu(x @ w + b), dynamic=False)
            with torch.no_grad():
                f(x, w, b)
            sync()
            ms = (time.perf_counter() - t0) * 1e3
            dev_name = "cpu" if cpu else torch.cuda.get_device_name(0)
        global DEVICE
        DEVICE = dev_name
        if not quiet:
            emit(name, impl, ms, None, None, 1, 1, disk_cache=bool(label), size=f"{n}x{n}x{n}")
    except Exception as e:  # noqa: BLE001
        if not quiet:
            skip(name, impl, f"{type(e).__name__}: {e}"[:300])


def child(args, extra_env=None, timeout=150):
    """Runs this script with `args` in a fresh process; its JSON lines go to our stdout."""
    env = dict(os.environ, **(extra_env or {}))
    try:
        r = subprocess.run([sys.executable, HERE] + args, env=env, timeout=timeout, stdout=subprocess.PIPE, text=True)
        sys.stdout.write(r.stdout)
        sys.stdout.flush()
        if r.returncode != 0:
            skip("peer_process", " ".join(args), f"exit status {r.returncode}")
    except subprocess.TimeoutExpired:
        skip("peer_process", " ".join(args), f"timed out after {timeout} s")


def have(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def main():
    global SFX
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu-smoke", action="store_true")
    ap.add_argument("--peer", choices=["jax", "torch"])
    ap.add_argument("--first-call", choices=["jax", "torch.compile"])
    ap.add_argument("--label", default="")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    cpu = a.cpu_smoke
    S = CPU if cpu else GPU
    SFX = "_cpu_smoke" if cpu else ""
    smoke = ["--cpu-smoke"] if cpu else []
    if a.peer:  # a peer that cannot start (no module, no GPU) says so in one line
        return guarded("all", a.peer, lambda: (run_jax if a.peer == "jax" else run_torch)(S, cpu))
    if a.first_call:
        return first_call(a.first_call, S, cpu, a.label, a.quiet)

    # JAX must not grab 75% of the GPU in a process that torch shares: one child per peer.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    tmp = tempfile.mkdtemp(prefix="strata_gpu_peers_")
    try:
        for peer, mod in (("jax", "jax"), ("torch", "torch")):
            if not have(mod):
                skip("all", peer, f"python module {mod} not installed")
                continue
            child(["--peer", peer] + smoke, timeout=300)
        # First calls, cold: JAX with no persistent cache (its default); torch.compile with
        # fresh, empty inductor/Triton cache folders (its default behaviour, minus what earlier
        # runs on this machine left in /tmp). Then with a disk cache that an earlier fresh
        # process filled (not measured).
        if have("jax"):
            child(["--first-call", "jax"] + smoke)
            jenv = {"STRATA_BENCH_JAX_CACHE": os.path.join(tmp, "jax")}
            child(["--first-call", "jax", "--quiet"] + smoke, jenv)
            child(["--first-call", "jax", "--label", "disk_cache"] + smoke, jenv)
        if have("torch"):
            tenv = {"TORCHINDUCTOR_CACHE_DIR": os.path.join(tmp, "inductor"), "TRITON_CACHE_DIR": os.path.join(tmp, "triton")}
            child(["--first-call", "torch.compile"] + smoke, tenv, timeout=240)
            child(["--first-call", "torch.compile", "--label", "disk_cache"] + smoke, tenv, timeout=240)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
