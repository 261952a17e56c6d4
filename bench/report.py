#!/usr/bin/env python3
"""Prints the medians of a Google Benchmark JSON file, and the ratios between variants of one
benchmark measured in the same run (Name_Eager vs Name_Jit vs Name_Eigen, ...)."""
import json
import re
import sys
from collections import defaultdict

data = json.load(open(sys.argv[1]))
# Counters that benchmarks report besides time (bench_passes: kernels per program, bytes moved by
# the elementwise part, scratch arena and temporaries).
COUNTERS = ("kernels", "loop_nests", "ew_bytes", "scratch_bytes", "temporaries_bytes", "ns_per_step", "cg_steps")
med = {}
extra = {}
for b in data["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name = b["run_name"]
    med[name] = (b["real_time"], b["time_unit"])
    extra[name] = {k: v for k, v in b.items() if k in ("bytes_per_second", "GFLOP/s") + COUNTERS}

def fmt_time(t, unit):
    return f"{t:.3f} {unit}"

print(f"{'benchmark':48} {'median':>14}  extra")
for name, (t, unit) in med.items():
    e = extra[name]
    parts = []
    if "GFLOP/s" in e:
        parts.append(f"{e['GFLOP/s'] / 1e9 if e['GFLOP/s'] > 1e6 else e['GFLOP/s']:.1f} GFLOP/s")
    if "bytes_per_second" in e:
        parts.append(f"{e['bytes_per_second'] / 1e9:.2f} GB/s")
    for k in COUNTERS:
        if k in e:
            v = e[k]
            parts.append(f"{k}={v / 2**20:.2f} MiB" if k.endswith("bytes") and v >= 2**20 else f"{k}={v:.0f}")
    print(f"{name:48} {fmt_time(t, unit):>14}  {', '.join(parts)}")

# Ratios: group by the name with the variant removed: BM_Seed_Jit/8/4096/4096 -> BM_Seed/8/4096/4096.
groups = defaultdict(dict)
for name, (t, unit) in med.items():
    m = re.match(r"(BM_[A-Za-z0-9]+)_([A-Za-z0-9]+)(.*)", name)
    if m:
        groups[m.group(1) + m.group(3)][m.group(2)] = t
print()
for g, variants in groups.items():
    if len(variants) < 2:
        continue
    base = variants.get("Eager") or variants.get("Entry") or next(iter(variants.values()))
    base_name = "Eager" if "Eager" in variants else ("Entry" if "Entry" in variants else next(iter(variants)))
    ratios = ", ".join(f"{v}: {base / t:.2f}x" for v, t in variants.items() if v != base_name)
    # A pass switched off vs on (bench_passes): the pass's own effect.
    if "Unfused" in variants and "Fused" in variants and base_name != "Unfused":
        ratios += f"; Fused vs Unfused: {variants['Unfused'] / variants['Fused']:.2f}x"
    print(f"{g:48} speed vs {base_name}: {ratios}")
if "BM_Chain8_Jit" in med and "BM_StreamTriad" in med:
    j = extra["BM_Chain8_Jit"].get("bytes_per_second", 0)
    s = extra["BM_StreamTriad"].get("bytes_per_second", 1)
    print(f"\nchain of 8 ops, jit: {j / 1e9:.2f} GB/s of minimum traffic = {100 * j / s:.0f}% of STREAM triad ({s / 1e9:.2f} GB/s)")
