#!/usr/bin/env bash
# tools/gpu-bundle.sh — build strata's GPU binaries with LLVM/MLIR/absl linked statically and
# pack them for a lent GPU machine (no LLVM, no MLIR, no installs, no network there).
#
#   tools/gpu-bundle.sh [TARGET...]
#
# TARGETs default to $STRATA_GPU_TARGETS, else "strata_gpu_tests strata_gpu_bench"; a target this
# build does not define is skipped with a message. Targets whose name contains "test" are run
# as GoogleTests there; the others are benchmarks, run by the bench script if one is bundled.
#
# Environment:
#   STRATA_GPU_BUILD_DIR  build directory (build-gpu/)
#   STRATA_GPU_FILES      repository files to bundle if they exist, paths kept
#                         (default: bench/run_gpu.sh bench/gpu_peers.py)
#   STRATA_GPU_BENCH      the bundled script run after the tests (default: bench/run_gpu.sh)
#   STRATA_GPU_JOBS       ninja -j (2)
#   STRATA_GPU_KERNEL_FLAGS  flags of the eager kernels, instead of -march=native (-march=x86-64-v2)
#
# Output: gpu-bundle/strata-gpu.tar.xz (≤ 60 MiB) and gpu-bundle/run.sh, which unpacks it on the
# GPU machine with Python (lzma + tarfile), runs it and writes everything to $OUT. The last line
# printed is the device tool command (carry ["gpu-bundle"]).
#
# There, run.sh sets LD_LIBRARY_PATH to the bundled lib/, /usr/local/nvidia/lib64 and
# /usr/local/cuda/lib64, puts the bundled bin/ and /usr/local/cuda/bin on PATH, and
#  1. runs each test binary in 4 parallel shards, `NAME --gtest_brief=1 --gtest_output=xml:$OUT/NAME.I.xml`
#     (output in $OUT/NAME.I.out; strata_gpu_tests: its GPU suites only, STRATA_GPU_TEST_FILTER);
#  2. runs `bash <bench script>` from the bundle's files/ folder (so bench/gpu_peers.py is found
#     by that relative path) with STRATA_GPU_BIN (the binaries), STRATA_GPU_ROOT and OUT set;
#  3. runs strata_tests' suites (linked into strata_gpu_tests) with STRATA_DEFAULT_DEVICE=cuda:0
#     in 8 parallel shards for the last STRATA_GPU_SUITES_S seconds (100), but for
#     STRATA_GPU_SUITES_EXCLUDE (CPU stage texts, source files): $OUT/suites_on_gpu.I.{out,xml}.
# Everything stops at STRATA_GPU_BUDGET_S seconds (390): give the device tool timeout_s 450.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$(pwd)"
build_dir="${STRATA_GPU_BUILD_DIR:-build-gpu}"
out_dir="$repo/gpu-bundle"
jobs="${STRATA_GPU_JOBS:-2}"
if (($#)); then
  targets=("$@")
else
  read -r -a targets <<<"${STRATA_GPU_TARGETS:-strata_gpu_tests strata_gpu_bench}"
fi
read -r -a files <<<"${STRATA_GPU_FILES:-bench/run_gpu.sh bench/gpu_peers.py bench/gpu_report.py}"
bench_script="${STRATA_GPU_BENCH:-bench/run_gpu.sh}"
max_bytes=$((60 * 1024 * 1024))
# No -march=native (the GPU machine's CPU may differ), but not the x86-64 baseline either: with
# SSE2 alone Eigen's floor/ceil lose the sign of -0 and two eager tests of strata_tests fail.
# x86-64-v2 (SSE4.2, 2009 on) is on every server that hosts an H200. The JIT targets the CPU it
# runs on whatever this says.
kernel_flags="${STRATA_GPU_KERNEL_FLAGS:--march=x86-64-v2}"

# Shared libraries a stock Ubuntu 24.04 GPU machine has (glibc 2.39 and its parts, the GCC
# runtime, LLVM's system libraries) or that come with its driver and /usr/local/cuda (13.0):
# never bundled. Everything else ldd finds is.
system_libs='^(linux-vdso|ld-linux-x86-64|libc|libm|libmvec|libdl|libpthread|librt|libutil|libresolv|libstdc\+\+|libgcc_s|libz|libzstd|libffi|libtinfo|libcuda|libnvidia-[a-z-]+|libcudart|libcublas|libcublasLt|libnvJitLink|libnvrtc|libnvrtc-builtins)\.so'

# --- Configure (every time: cheap, and it pins the options) and build. ---
# Without MPI: the GPU binaries use one process (NCCL's one-rank communicator needs no MPI), and
# libmpi would drag Open MPI's libraries (open-pal, hwloc, libevent, udev) into the bundle.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 \
  -DSTRATA_STATIC_LLVM=ON -DSTRATA_NATIVE=OFF "-DSTRATA_KERNEL_FLAGS=$kernel_flags" \
  -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null

known="$(ninja -C "$build_dir" -t targets all | sed -n 's/^\([^:]*\): .*/\1/p')"
present=()
for t in "${targets[@]}"; do
  if grep -qx -- "$t" <<<"$known"; then
    present+=("$t")
  else
    echo "gpu-bundle: no target '$t' in this build; skipped"
  fi
done
if ((${#present[@]} == 0)); then
  echo "gpu-bundle: none of the targets (${targets[*]}) exists; nothing to bundle" >&2
  exit 1
fi
echo "gpu-bundle: building ${present[*]} in $build_dir (ninja -j$jobs)"
cmake --build "$build_dir" -j "$jobs" --target "${present[@]}"

# --- Stage: strata-gpu/{bin,lib,files}, MANIFEST. ---
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
root="$stage/strata-gpu"
mkdir -p "$root/bin" "$root/lib" "$root/files"
: >"$root/MANIFEST"
for t in "${present[@]}"; do
  bin="$(find "$build_dir" -path "*/CMakeFiles" -prune -o -type f -name "$t" -perm -u+x -print | head -n1)"
  [[ -n "$bin" ]] || { echo "gpu-bundle: built '$t' but found no executable of that name" >&2; exit 1; }
  strip --strip-all -o "$root/bin/$t" "$bin"
  if [[ "$t" == *test* ]]; then echo "test $t"; else echo "bench $t"; fi >>"$root/MANIFEST"
  printf 'gpu-bundle: %-24s %6d MiB, stripped %6d MiB\n' "$t" \
    $(($(stat -c %s "$bin") >> 20)) $(($(stat -c %s "$root/bin/$t") >> 20))
  while read -r name arrow path _; do
    [[ "$arrow" == "=>" ]] || continue
    [[ "$name" =~ $system_libs ]] && continue
    if [[ "$path" == "not" ]]; then
      echo "gpu-bundle: $t needs $name, which is not found here" >&2
      exit 1
    fi
    if [[ "$name" =~ ^lib(LLVM|MLIR) ]]; then
      echo "gpu-bundle: $t links $name dynamically: is STRATA_STATIC_LLVM on?" >&2
      exit 1
    fi
    if [[ ! -e "$root/lib/$name" ]]; then
      cp -L "$path" "$root/lib/$name"
      echo "gpu-bundle:   bundling $name ($path)"
    fi
  done < <(ldd "$bin")
done
for f in "${files[@]}"; do
  if [[ -e "$f" ]]; then
    mkdir -p "$root/files/$(dirname "$f")"
    cp -a "$f" "$root/files/$f"
    echo "gpu-bundle: file $f"
  fi
done
echo "benchscript $bench_script" >>"$root/MANIFEST"
git rev-parse HEAD >"$root/COMMIT" 2>/dev/null || true
git status --porcelain >>"$root/COMMIT" 2>/dev/null || true

# --- Pack: xz -6, else -9, else -9 with a 192 MiB window, which also finds what several static
# binaries share (Python's lzma reads all three; the last needs 192 MiB to unpack). ---
mkdir -p "$out_dir"
archive="$out_dir/strata-gpu.tar.xz"
for level in -6 -9 --lzma2=preset=9,dict=192MiB; do
  tar -C "$stage" -cf - strata-gpu | xz "$level" -T2 >"$archive.tmp"
  size=$(stat -c %s "$archive.tmp")
  echo "gpu-bundle: xz $level: $size bytes ($((size >> 20)) MiB)"
  ((size <= max_bytes)) && break
done
mv "$archive.tmp" "$archive"
if ((size > max_bytes)); then
  echo "gpu-bundle: $archive is $((size >> 20)) MiB, over the 60 MiB limit" >&2
  exit 1
fi

# --- The script that runs there. ---
cat >"$out_dir/run.sh" <<'RUN'
#!/usr/bin/env bash
# gpu-bundle/run.sh — made by tools/gpu-bundle.sh. On the GPU machine: unpack strata-gpu.tar.xz
# with Python into a temp dir, run each bundled test binary, then the bench script; all output
# goes to stdout and $OUT. The whole run is cut at $STRATA_GPU_BUDGET_S seconds (default 390).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "${OUT:-$here/out}"
export OUT="$(cd "${OUT:-$here/out}" && pwd)"   # absolute: the tests run in the bundle's files/
budget="${STRATA_GPU_BUDGET_S:-390}"
if [[ "${1:-}" != --inner ]]; then
  start=$(date +%s)
  timeout -k 10 "$budget" bash "${BASH_SOURCE[0]}" --inner 2>&1 | tee "$OUT/run.log"
  rc=${PIPESTATUS[0]}
  ((rc == 124 || rc == 137)) && echo "run.sh: stopped at the ${budget}s budget" | tee -a "$OUT/run.log"
  echo "run.sh: exit $rc after $(($(date +%s) - start)) s" | tee -a "$OUT/run.log"
  exit "$rc"
fi

deadline=$(($(date +%s) + budget - 15))
# Seconds left (at least 5), keeping the last $1 seconds back.
left() { local s=$((deadline - ${1:-0} - $(date +%s))); ((s < 5)) && s=5; echo "$s"; }
# The last STRATA_GPU_SUITES_S seconds (100) are kept for the CPU suites run on the GPU.
suites_s="${STRATA_GPU_SUITES_S:-100}"
# A test binary's GPU suites; the others (strata_tests' suites linked into strata_gpu_tests) run
# after the benchmark with STRATA_DEFAULT_DEVICE=cuda:0, but for those that assert the CPU's
# stage texts (Passes) or read the source tree (ModuleTrace, StableHLO and .npy files).
gpu_suites="${STRATA_GPU_TEST_FILTER:-Cuda*:Cublas*:Gpu*:HostProgram*:DifferentialGpu*:*/CudaPrimitive.*:*/CublasLtF*}"
not_on_gpu="${STRATA_GPU_SUITES_EXCLUDE:-Passes.*:Passes/*:ModuleTrace.*:*Stablehlo*:Npy.*}"
work="$(mktemp -d /tmp/strata-gpu.XXXXXX)"
trap 'rm -rf "$work"' EXIT
trap 'exit 143' TERM
t0=$(date +%s%N)
python3 - "$here/strata-gpu.tar.xz" "$work" <<'PY' || { echo "run.sh: unpack failed"; exit 3; }
import lzma, sys, tarfile
with lzma.open(sys.argv[1]) as f, tarfile.open(fileobj=f, mode="r|") as t:
    if hasattr(tarfile, "tar_filter"):
        t.extractall(sys.argv[2], filter="tar")
    else:
        t.extractall(sys.argv[2])
PY
root="$work/strata-gpu"
echo "run.sh: unpacked in $((($(date +%s%N) - t0) / 1000000)) ms into $root ($(du -sh "$root" | cut -f1)); commit $(head -n1 "$root/COMMIT" 2>/dev/null)"
export LD_LIBRARY_PATH="$root/lib:/usr/local/nvidia/lib64:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$root/bin:/usr/local/cuda/bin:$PATH"   # ptxas for cubins
export STRATA_GPU_ROOT="$root" STRATA_GPU_BIN="$root/bin"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

# Runs `NAME --gtest_brief=1 ARGS...` in SHARDS GoogleTest shards side by side, each its own
# process (a crash loses one shard, not the rest) cut at LIMIT seconds, output and results in
# $OUT/TAG.I.{out,xml}; each shard's exit status in shard_rc.
run_shards() {
  local name="$1" tag="$2" shards="$3" limit="$4" i
  shift 4
  local pids=()
  for ((i = 0; i < shards; ++i)); do
    (cd "$root/files" && GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
        timeout -k 5 "$limit" "$root/bin/$name" --gtest_brief=1 "$@" \
        --gtest_output="xml:$OUT/$tag.$i.xml" >"$OUT/$tag.$i.out" 2>&1) &
    pids+=($!)
  done
  shard_rc=()
  for ((i = 0; i < shards; ++i)); do
    wait "${pids[$i]}"
    shard_rc+=($?)
  done
}

status=0
summary=()
while read -r kind name; do
  [[ "$kind" == test ]] || continue
  echo "=== $name"
  ldd "$root/bin/$name" | grep -E 'not found' && echo "run.sh: $name has missing libraries"
  # A binary gets half of the time left.
  shards="${STRATA_GPU_TEST_SHARDS:-4}"
  limit=$(( $(left "$suites_s") / 2 ))
  filter=()
  [[ "$name" == strata_gpu_tests ]] && filter=(--gtest_filter="$gpu_suites")
  run_shards "$name" "$name" "$shards" "$limit" "${filter[@]}"
  for ((i = 0; i < shards; ++i)); do
    rc=${shard_rc[$i]}
    cat "$OUT/$name.$i.out"
    ((rc == 124 || rc == 137)) && echo "run.sh: $name shard $i cut at ${limit}s"
    summary+=("$name shard $i/$shards: exit $rc")
    ((rc)) && status=1
  done
done <"$root/MANIFEST"

script="$(sed -n 's/^benchscript //p' "$root/MANIFEST")"
if [[ -n "$script" && -f "$root/files/$script" ]]; then
  echo "=== $script"
  (cd "$root/files" && timeout -k 5 "$(left "$suites_s")" bash "$script") 2>&1 | tee "$OUT/bench.out"
  rc=${PIPESTATUS[0]}
  summary+=("$script: exit $rc")
  ((rc)) && status=1
elif grep -q '^bench ' "$root/MANIFEST"; then
  echo "run.sh: no bench script bundled; benchmark binaries not run: $(sed -n 's/^bench //p' "$root/MANIFEST" | tr '\n' ' ')"
fi

# The CPU suites again with the GPU as the default device (their eager ops and jit calls run
# there), in parallel shards for the time left; each shard's failures in its .out, its results
# in its .xml. A shard cut by the time limit says so.
suite_shards="${STRATA_GPU_SUITE_SHARDS:-8}"
while read -r kind name; do
  [[ "$kind" == test && "$name" == strata_gpu_tests ]] || continue
  echo "=== $name, CPU suites with STRATA_DEFAULT_DEVICE=cuda:0 ($suite_shards shards, $(left) s)"
  limit=$(left)
  export STRATA_DEFAULT_DEVICE=cuda:0
  run_shards "$name" suites_on_gpu "$suite_shards" "$limit" --gtest_filter="-$gpu_suites:$not_on_gpu"
  for ((i = 0; i < suite_shards; ++i)); do
    rc=${shard_rc[$i]}
    # The totals (--gtest_brief prints no count of failures: ran - passed - skipped).
    line="$(grep -E '^\[(==========|  PASSED  |  SKIPPED )\] [0-9]+ tests?' "$OUT/suites_on_gpu.$i.out" | sed 's/ (.*//' | tr '\n' ' ')"
    ((rc == 124 || rc == 137)) && line="$line(cut at ${limit}s)"
    summary+=("suites on the GPU shard $i/$suite_shards: exit $rc $line")
    echo "suites on the GPU shard $i: exit $rc $line"
    grep -E '^\[  FAILED  \] [A-Za-z].* \([0-9]+ ms\)$' "$OUT/suites_on_gpu.$i.out" | head -12
  done
done <"$root/MANIFEST"

echo "=== summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
exit "$status"
RUN
chmod +x "$out_dir/run.sh"

echo "gpu-bundle: $archive $((size >> 20)) MiB ($size bytes); $out_dir/run.sh"
echo "gpu-bundle: device tool command (carry [\"gpu-bundle\"], timeout_s 450):"
echo "bash gpu-bundle/run.sh"
