#!/usr/bin/env python3
"""bench/gpu_report.py FILE.jsonl — the markdown table of a GPU benchmark run (bench/run_gpu.sh):
one row per workload, one column per implementation, and strata's time over the best peer's
(JAX, torch, torch.compile: below 1 means strata is faster) and over the direct baseline."""
import json
import sys

BASELINES = ("cublaslt", "cuda_memcpy", "cuLaunchKernel")
PEERS = ("jax", "torch", "torch.compile", "torch.compile-cudagraphs")
ORDER = ["copy_1GiB", "chain8_16M_f32", "chain8_256M_f32", "seed_bf16_4096x4096x4096", "seed_bf16_M8_N4096_K4096",
         "softmax_4096x4096_f32", "softmax_8192x8192_f32", "row_sum_8x4M_f32", "host_per_call_small", "latency_small",
         "host_per_call_softmax4",
         "first_call_seed", "first_call_seed_disk_cache"]


def cell(r):
    if r is None:
        return "—"
    if "skipped" in r:
        return "skipped"
    ms = r["median_ms"]
    if "us_per_call" in r:
        return f"{r['us_per_call']:.2f} µs"
    t = f"{ms:.4g} ms" if ms < 1000 else f"{ms / 1e3:.3g} s"
    if "gbps" in r:
        t += f" ({r['gbps']:.4g} GB/s)"
    elif "tflops" in r:
        t += f" ({r['tflops']:.4g} TFLOP/s)"
    return t


def main(path):
    rows, skips, devices = {}, [], set()
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "skipped" in r:
            skips.append(r)
        if "workload" not in r or "impl" not in r:
            continue
        if "device" in r:
            devices.add(r["device"])
        rows.setdefault(r["workload"], {})[r["impl"]] = r
    if devices:
        print(f"device: {', '.join(sorted(devices))}\n")
    present = {i for w in rows.values() for i in w}
    peers = [p for p in PEERS if p in present or p in ("jax", "torch", "torch.compile")]
    head = ["workload", "strata", "cuBLASLt / driver"] + [p.replace("torch.compile-cudagraphs", "torch.compile (CUDA graphs)")
                                                          .replace("jax", "JAX") for p in peers]
    head += ["strata / best peer", "strata / baseline"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    def key(w):  # the issue's order; smoke runs' names end in _cpu_smoke
        base = w.removesuffix("_cpu_smoke")
        return (ORDER.index(base) if base in ORDER else len(ORDER), w)
    names = sorted(rows, key=key)
    for w in names:
        impls = rows[w]
        ok = {i: r for i, r in impls.items() if "skipped" not in r}
        base = next((impls[b] for b in BASELINES if b in impls), None)
        s = ok.get("strata")
        peer_ms = [ok[p]["median_ms"] for p in peers if p in ok]
        ratio = f"{s['median_ms'] / min(peer_ms):.2f}" if s and peer_ms else "—"
        bratio = f"{s['median_ms'] / base['median_ms']:.2f}" if s and base and "skipped" not in base else "—"
        cells = [w, cell(impls.get("strata")), cell(base)] + [cell(impls.get(p)) for p in peers] + [ratio, bratio]
        print("| " + " | ".join(cells) + " |")
    if skips:
        print("\nskipped:")
        for r in skips:
            who = " ".join(x for x in (r.get("workload"), r.get("impl")) if x)
            print(f"- {who + ': ' if who else ''}{r['skipped']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/gpu_bench.jsonl")
