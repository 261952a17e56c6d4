#!/usr/bin/env python3
"""check_stablehlo_export.py: validates strata's StableHLO export with StableHLO's own parser.

For every strata program it finds (the .mlir/.jaxpr files under tests/, each `// -----` chunk
on its own, and the JAX programs of /work/shared/conformance/jax), it runs
`strata-opt --emit=stablehlo`, then parses and verifies the text with the StableHLO dialect
that jaxlib ships (jaxlib.mlir, jax._src.interpreters.mlir.make_ir_context: func, stablehlo,
chlo registered). Where the entry function's arguments are static tensors, it also runs the
original program through strata-run and the exported text through JAX (XLA on the CPU), on
the inputs beside the program (NAME.in<i>.npy) or on seeded random arrays, and compares.

Run it with a Python that has JAX (never needs PyPI at test time):
  /work/venv-jax/bin/python tools/check_stablehlo_export.py BUILD_DIR [PATH ...] [--verbose]
PATH: files or folders of programs (default: the repository's tests/ and the conformance
JAX programs). One line per program:
  ACCEPT  NAME [ran: match | ran: MISMATCH ... | not run: why]
  REJECT  NAME: StableHLO parser/verifier error          (an exporter bug)
  REFUSED NAME: strata-opt's error naming the op          (no StableHLO equivalent, by design)
  SKIP    NAME: why (strata-opt does not lower it: not a program at the strata stage)
then `N accepted, M rejected` (with the refused, skipped, ran and matched counts). The exit
status is 1 when a program was rejected or a run did not match, 0 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PATHS = [os.path.join(REPO, "tests"), "/work/shared/conformance/jax"]
RUN_TIMEOUT = 60

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i1": np.bool_,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}


def programs(paths):
    """(name, text, suffix, input .npy files) for every program chunk under `paths`."""
    files = []
    for p in paths:
        if not os.path.exists(p):
            print(f"(no such path: {p})")
        elif os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith((".mlir", ".jaxpr"))]
        else:
            files.append(p)
    for f in sorted(files):
        text = open(f, encoding="utf-8", errors="replace").read()
        rel = os.path.relpath(f, REPO) if f.startswith(REPO) else f
        suffix = os.path.splitext(f)[1]
        chunks = re.split(r"^// -----\s*$", text, flags=re.M) if suffix == ".mlir" else [text]
        base = os.path.splitext(f)[0]
        inputs = []
        while os.path.exists(f"{base}.in{len(inputs)}.npy"):
            inputs.append(f"{base}.in{len(inputs)}.npy")
        for k, chunk in enumerate(chunks):
            name = rel if len(chunks) == 1 else f"{rel}#{k}"
            yield name, chunk, suffix, inputs if len(chunks) == 1 else []


def first_error(stderr):
    lines = [l for l in stderr.splitlines() if "error" in l] or stderr.splitlines() or ["(no message)"]
    return lines[0].strip()[:300]


def entry_signatures(module):
    """[(entry name, [(shape, dtype name)] or why its arguments cannot be made)]: @main, or
    every public function when there is none."""
    from jaxlib.mlir import ir
    funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
    named = lambda f: ir.StringAttr(f.attributes["sym_name"]).value
    entries = [f for f in funcs if named(f) == "main"] or [f for f in funcs if "sym_visibility" not in f.attributes]
    result = []
    for entry in entries:
        ftype = ir.FunctionType(ir.TypeAttr(entry.attributes["function_type"]).value)
        args = []
        for t in ftype.inputs:
            if t.typeid != ir.RankedTensorType.static_typeid:
                args = f"argument of type {t}"
                break
            rt = ir.RankedTensorType(t)
            e = str(rt.element_type)
            if not rt.has_static_shape or e not in DTYPES:
                args = f"argument of type {t}"
                break
            args.append((tuple(rt.shape), e))
        result.append((named(entry), args))
    return result


def random_inputs(args, seed):
    rng = np.random.default_rng(seed)
    out = []
    for shape, e in args:
        dt = DTYPES[e]
        if e == "i1":
            out.append(rng.integers(0, 2, shape).astype(np.bool_))
        elif e.startswith("ui"):
            out.append(rng.integers(0, 6, shape).astype(dt))
        elif e.startswith("i"):
            out.append(rng.integers(-5, 6, shape).astype(dt))
        else:
            out.append(rng.standard_normal(shape).astype(dt))
    return out


def _jax_execute(text, inputs):
    """Compiles and runs StableHLO `text` with XLA on the CPU (in the worker process)."""
    import jax
    from jax._src import xla_bridge as xb
    from jax._src.lib import xla_client as xc
    jax.config.update("jax_enable_x64", True)
    backend = xb.get_backend("cpu")
    dev = backend.devices()[0]
    exe = backend.compile_and_load(text, xc.DeviceList((dev,)), xc.CompileOptions())
    return [np.asarray(o) for o in exe.execute([jax.device_put(x, dev) for x in inputs])]


class JaxRunner:
    """Runs programs in a worker process: XLA's CPU code can die on a signal (an integer
    division by zero raises SIGFPE), which must not end the check."""

    def __init__(self):
        self.pool = None

    def run(self, text, inputs):
        import concurrent.futures as cf
        import multiprocessing as mp
        if self.pool is None:
            self.pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"))
        try:
            return self.pool.submit(_jax_execute, text, inputs).result(timeout=RUN_TIMEOUT)
        except (cf.process.BrokenProcessPool, cf.TimeoutError):
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            raise

    def close(self):
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None


def run_strata(build, path, entry, input_files, outdir):
    cmd = [os.path.join(build, "tools/strata-run/strata-run"), path, "--entry", entry, "--output-dir", outdir]
    for f in input_files:
        cmd += ["--input", f]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if r.returncode != 0:
        return None, first_error(r.stdout + r.stderr)
    stem = entry  # strata-run writes ENTRY.out<i>.npy
    outs, i = [], 0
    while os.path.exists(os.path.join(outdir, f"{stem}.out{i}.npy")):
        outs.append(np.load(os.path.join(outdir, f"{stem}.out{i}.npy")))
        i += 1
    return outs, None


def flush_subnormals(x):
    """`x` with its subnormal floats as zeros of their sign: XLA's CPU code runs with
    denormals flushed (FTZ/DAZ), strata's does not."""
    if x.dtype.kind != "f" or x.size == 0:
        return x
    tiny = np.finfo(x.dtype).tiny
    return np.where((np.abs(x) < tiny) & (x != 0), np.copysign(np.zeros_like(x), x), x).astype(x.dtype)


# (rtol, atol) by result dtype: f16 results agree to a few of its ulps (accumulation orders differ).
TOLERANCES = {np.dtype(np.float16): (4e-3, 1e-3)}


# Programs where XLA's CPU gives nan and strata a value, by design: CHLO's zeta (and polygamma,
# built on it) keeps the plain sum where the tail is below |sum| · 2^-149 (f32; 2^-1074 f64), a
# subnormal threshold that XLA's flush-to-zero makes 0, so for huge x XLA computes the tail as
# inf · 0 = nan where strata returns the limit (zeta(inf, 1) = 1, polygamma of huge order ±inf).
XLA_FTZ_NAN = ("zeta.", "polygamma.")


def compare(got, want, xla_nan_ok=False):
    """None when strata's outputs `got` match JAX's `want`, else what differs."""
    if len(got) != len(want):
        return f"{len(got)} results vs JAX's {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        if xla_nan_ok and w.dtype.kind == "f":
            w = np.where(np.isnan(w), g, w)
        if g.shape != w.shape:
            return f"result {i}: shape {g.shape} vs JAX's {w.shape}"
        if w.dtype.kind in "fc":
            rtol, atol = TOLERANCES.get(w.dtype, (1e-4, 1e-5))
            if w.dtype.kind == "c":  # complex: the real and imaginary parts as floats
                g = np.stack([np.real(g), np.imag(g)], -1)
                w = np.stack([np.real(w), np.imag(w)], -1)
            # A sum that cancels near zero (a dot product's element) differs by rounding in
            # proportion to its terms, not to its value: the absolute tolerance grows with the
            # result's scale (two GEMMs' orders of summation, K=512: 7.6e-5 where |w| <= 90).
            finite = np.abs(w[np.isfinite(w)]) if w.size else np.zeros(0)
            if finite.size:
                atol = max(atol, rtol * 1e-2 * float(finite.max()))
            g = flush_subnormals(g)
            ok = np.allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
            # Infinities must match exactly (allclose's inf - inf is nan).
            ok = ok and np.array_equal(np.isposinf(g), np.isposinf(w)) and np.array_equal(np.isneginf(g), np.isneginf(w))
        else:
            ok = np.array_equal(g.astype(w.dtype), w)
        if not ok:
            diff = np.max(np.abs(g.astype(np.float64) - w.astype(np.float64))) if g.size else 0
            return f"result {i} ({w.dtype}{list(w.shape)}): max |diff| {diff:g}"
    return None


def run_entry(build, jax_runner, original, exported, entry, args, input_files, work, seed, xla_nan_ok=False):
    """(note, outcome) for one entry: outcome None when not run, True on a match, False when
    strata and XLA disagree (or XLA refused the exported program)."""
    if isinstance(args, str):
        return f"not run: {args}", None
    if entry != "main":  # XLA runs @main
        exported = re.sub(rf'@{re.escape(entry)}\b', "@main", exported)
        exported = exported.replace(f'sym_name = "{entry}"', 'sym_name = "main"')
    os.makedirs(work, exist_ok=True)
    inputs = [np.load(f) for f in input_files] if input_files else random_inputs(args, seed)
    # Both runs see what XLA's CPU sees (subnormal inputs flushed), from files written here.
    inputs = [flush_subnormals(x) for x in inputs]
    input_files = [os.path.join(work, f"in{i}.npy") for i in range(len(inputs))]
    for f, x in zip(input_files, inputs):
        np.save(f, x)
    try:
        got, why = run_strata(build, original, entry, input_files, work)
    except subprocess.TimeoutExpired:
        got, why = None, f"took over {RUN_TIMEOUT}s"
    if got is None:
        return f"not run: strata-run: {why}", None
    try:
        want = jax_runner.run(exported, inputs)
    except Exception as e:
        import concurrent.futures as cf
        if isinstance(e, (cf.process.BrokenProcessPool, cf.TimeoutError)):
            return f"not run: XLA's CPU run died or hung ({type(e).__name__})", None
        return f"ran: XLA FAILED: {' '.join(str(e).split())[:300]}", False
    diff = compare(got, want, xla_nan_ok)
    return ("ran: match", True) if diff is None else (f"ran: MISMATCH {diff}", False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--verbose", action="store_true", help="also print the SKIP lines")
    opts = ap.parse_args()
    from jaxlib.mlir import ir
    from jax._src.interpreters import mlir as jm
    import jax
    jax.config.update("jax_enable_x64", True)
    strata_opt = os.path.join(opts.build, "tools/strata-opt/strata-opt")
    ctx = jm.make_ir_context()
    n = {"accepted": 0, "rejected": 0, "refused": 0, "skipped": 0, "ran": 0, "matched": 0, "entries ran": 0,
         "entries matched": 0}
    failed = False
    tmp = tempfile.mkdtemp(prefix="stablehlo-export-")
    jax_runner = JaxRunner()
    for idx, (name, text, suffix, input_files) in enumerate(programs(opts.paths or DEFAULT_PATHS)):
        src = os.path.join(tmp, f"p{idx}{suffix}")
        with open(src, "w") as fh:
            fh.write(text)
        r = subprocess.run([strata_opt, "--emit=stablehlo", src], capture_output=True, text=True, timeout=RUN_TIMEOUT)
        if r.returncode != 0:
            if "StableHLO has no op for" in r.stderr:
                n["refused"] += 1
                print(f"REFUSED {name}: {first_error(r.stderr)}")
            else:
                n["skipped"] += 1
                if opts.verbose:
                    print(f"SKIP    {name}: {first_error(r.stderr)}")
            continue
        exported = r.stdout
        try:
            with ctx:
                module = ir.Module.parse(exported, ctx)
                if not module.operation.verify():
                    raise ValueError("verify() returned false")
        except Exception as e:  # the parser's diagnostics come as the exception's text
            n["rejected"] += 1
            failed = True
            msg = " ".join(str(e).split())[:400]
            print(f"REJECT  {name}: {msg}")
            continue
        n["accepted"] += 1
        if "@check." in exported or '"check.' in exported:
            print(f"ACCEPT  {name} [not run: a StableHLO test (check ops)]")
            continue
        with ctx:
            entries = entry_signatures(module)
        # The original program, at the strata stage, runs through strata-run.
        original = src
        if suffix == ".jaxpr":
            r = subprocess.run([strata_opt, "--emit=strata", src], capture_output=True, text=True)
            original = os.path.join(tmp, f"p{idx}.mlir")
            with open(original, "w") as fh:
                fh.write(r.stdout)
        notes, ran, mismatched = [], 0, 0
        for k, (entry, args) in enumerate(entries):
            # The random inputs' seed comes from the program's name, not its place in the list: a
            # case added to one file left every later program with other inputs (a sum of 16M
            # normals that happened to cancel to near 0 then missed the relative tolerance).
            seed = zlib.crc32(f"{name}:{k}".encode())
            note, outcome = run_entry(opts.build, jax_runner, original, exported, entry, args,
                                      input_files, os.path.join(tmp, f"p{idx}_{k}"), seed,
                                      os.path.basename(name).startswith(XLA_FTZ_NAN))
            notes.append(note if len(entries) == 1 else f"@{entry}: {note}")
            ran += outcome is not None
            mismatched += outcome is False
        if not entries:
            notes = ["not run: no public function"]
        n["entries ran"] += ran
        n["entries matched"] += ran - mismatched
        if ran:
            n["ran"] += 1
            n["matched"] += not mismatched
            failed |= bool(mismatched)
        print(f"ACCEPT  {name} [{'; '.join(notes)}]")
    print(f"{n['accepted']} accepted, {n['rejected']} rejected ({n['refused']} refused by strata-opt, "
          f"{n['skipped']} not strata programs; {n['ran']} ran, {n['matched']} matched JAX; "
          f"functions: {n['entries ran']} ran, {n['entries matched']} matched)")
    jax_runner.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
