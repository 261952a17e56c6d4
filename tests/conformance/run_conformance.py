#!/usr/bin/env python3
"""StableHLO's self-checking tests and six JAX programs, run by strata-run.

  run_conformance.py STRATA_RUN CORPUS EXPECTED [--jobs N] [--report FILE] [--update]

CORPUS is ../shared/conformance (skipped, exit 0 with a message, when it is not there). Each
.mlir under CORPUS/stablehlo and CORPUS/missing-one-op passes when strata-run exits 0 (every
check of every test holds); each JAX program (CORPUS/jax/NAME.mlir) passes when its results
match NAME.out<i>.npy on the inputs NAME.in<i>.npy. EXPECTED lists the files expected to fail,
one per line: `path<TAB>reason`. An unexpected failure or an unexpected pass fails this test,
so the list only shrinks (--update rewrites it from this run, keeping the reasons written).
Prints the pass counts per folder and the failures by reason.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys


def classify(output):
    """A short reason for a failing file, from strata-run's first FAIL line."""
    for line in output.splitlines():
        if not line.startswith("FAIL"):
            continue
        m = re.search(r"error: ([\w.]+)(?: @[\w.]+)? has no strata op", line)
        if m:
            return "op " + m.group(1) + " not in strata"
        m = re.search(r"custom op '([\w.]+)' is unknown", line)
        if m:
            return "op " + m.group(1) + " not in strata"
        m = re.search(r"tensor<[^>]*?x?(ui\d+|i8|i16|i2|i4|f8\w*|complex<\w+>|f4\w*|tf32)>", line)
        if m and ("must be" in line or "element type" in line or "cannot" in line or "expects" in line):
            return "element type " + m.group(1)
        if "complex" in line:
            return "element type complex"
        m = re.search(r"(ui\d+|xi8>|xi16>|xi2>|xi4>|f8E\w+)", line)
        if m:
            return "element type " + m.group(1).strip("x>")
        m = re.search(r"error: (.*)", line)
        return (m.group(1) if m else line)[:120]
    return "no FAIL line (crash?): " + output.strip()[-120:]


def run_file(strata_run, corpus, rel):
    path = os.path.join(corpus, rel)
    if rel.startswith("jax/"):
        name = path[:-5]
        ins = sorted(f for f in os.listdir(os.path.dirname(path)) if re.fullmatch(re.escape(os.path.basename(name)) + r"\.in\d+\.npy", f))
        outs = sorted(f for f in os.listdir(os.path.dirname(path)) if re.fullmatch(re.escape(os.path.basename(name)) + r"\.out\d+\.npy", f))
        key = lambda f: int(re.search(r"(\d+)\.npy$", f).group(1))
        cmd = [strata_run, path, "--rtol", "1e-4", "--atol", "1e-5"]
        for f in sorted(ins, key=key):
            cmd += ["--input", os.path.join(os.path.dirname(path), f)]
        for f in sorted(outs, key=key):
            cmd += ["--check", os.path.join(os.path.dirname(path), f)]
    else:
        cmd = [strata_run, path, "--split-input-file"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)
        out = p.stdout + p.stderr
        ok = p.returncode == 0
    except subprocess.TimeoutExpired:
        out, ok = "FAIL timeout: error: strata-run ran over 300 s", False
    return rel, ok, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("strata_run")
    ap.add_argument("corpus")
    ap.add_argument("expected")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--report")
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    if not os.path.isdir(a.corpus):
        print(f"conformance: {a.corpus} is not here; skipped")
        return 0
    files = []
    for top in ("stablehlo", "missing-one-op", "jax"):
        for root, _, names in os.walk(os.path.join(a.corpus, top)):
            for n in names:
                if n.endswith(".mlir"):
                    files.append(os.path.relpath(os.path.join(root, n), a.corpus))
    files.sort()
    expected = {}
    if os.path.exists(a.expected):
        for line in open(a.expected):
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                path, _, reason = line.partition("\t")
                expected[path] = reason
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for rel, ok, out in pool.map(lambda r: run_file(a.strata_run, a.corpus, r), files):
            results[rel] = (ok, out)

    def folder(rel):
        parts = rel.split("/")
        return "/".join(parts[:3]) if parts[0] == "missing-one-op" else "/".join(parts[:2]) if parts[0] == "stablehlo" else parts[0]

    counts = collections.defaultdict(lambda: [0, 0])
    reasons = collections.Counter()
    unexpected_fail, unexpected_pass = [], []
    for rel, (ok, out) in results.items():
        counts[folder(rel)][0 if ok else 1] += 1
        if not ok:
            reasons[expected.get(rel) or classify(out)] += 1
            if rel not in expected:
                unexpected_fail.append((rel, classify(out)))
        elif rel in expected:
            unexpected_pass.append(rel)
    lines = ["folder: passed / total"]
    for f in sorted(counts):
        p, n = counts[f]
        lines.append(f"  {f}: {p} / {p + n}")
    total = sum(p for p, _ in counts.values())
    lines.append(f"all: {total} / {len(results)} files pass")
    lines.append("failures by reason:")
    for r, n in reasons.most_common():
        lines.append(f"  {n:5d}  {r}")
    report = "\n".join(lines)
    print(report)
    if a.report:
        with open(a.report, "w") as f:
            f.write(report + "\n")
            for rel, (ok, out) in sorted(results.items()):
                f.write(f"\n== {rel}: {'PASS' if ok else 'FAIL'}\n{out}")
    if a.update:
        with open(a.expected, "w") as f:
            f.write("# Files of ../shared/conformance expected to fail, with the reason (tests/conformance/run_conformance.py).\n")
            for rel, (ok, out) in sorted(results.items()):
                if not ok:
                    f.write(f"{rel}\t{expected.get(rel) or classify(out)}\n")
        return 0
    for rel, why in unexpected_fail:
        print(f"UNEXPECTED FAIL {rel}: {why}")
    for rel in unexpected_pass:
        print(f"UNEXPECTED PASS {rel} (remove it from {a.expected})")
    return 1 if unexpected_fail or unexpected_pass else 0


if __name__ == "__main__":
    sys.exit(main())
