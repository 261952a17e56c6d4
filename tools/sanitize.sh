#!/usr/bin/env bash
# tools/sanitize.sh asan|tsan|check-bounds — the sanitized test runs of .ci/run.
#   asan          build-asan (ASan+UBSan): every test (ctest)
#   tsan          build-tsan (TSan): strata_concurrency_tests, the multithreaded suites:
#                 the jit cache and its disk cache (Jit.*), donation (Donation.*), the eager
#                 thread pool (ThreadPool.*), the executable's disk cache, concurrent calls,
#                 compiles and parallel loops (CpuExecutable.*), parallel code generation
#                 (ParallelCodegen.*)
#   check-bounds  build/ (the README's tree): the jit differential suites with
#                 STRATA_CHECK_BOUNDS=1
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"
jobs="$(nproc)"
configure() {  # DIR SANITIZERS
  [[ -f "$1/CMakeCache.txt" ]] || cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 -DSTRATA_SANITIZE="$2" \
    -DSTRATA_BUILD_BENCH=OFF -DSTRATA_CUDA_ROOT=/nonexistent
}
jit_suites='Differential*:Donation.*:Erf.*:IsFinite.*:Jit.*:JitComposites.*:Passes.*:Round.*:SpecialFunctions*'
case "${1:?usage: tools/sanitize.sh asan|tsan|check-bounds}" in
  asan)
    configure build-asan address,undefined
    cmake --build build-asan -j "$jobs"
    export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:halt_on_error=1
    export LSAN_OPTIONS="suppressions=$root/tools/sanitizers/lsan.supp"
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    cd build-asan && ctest --output-on-failure -j "$jobs" --timeout 1500 ;;
  tsan)
    configure build-tsan thread
    cmake --build build-tsan -j "$jobs" --target strata_concurrency_tests
    export TSAN_OPTIONS="suppressions=$root/tools/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
    # Four pool threads even on a 2-core machine, so that the pool's workers race each other.
    STRATA_NUM_THREADS=4 build-tsan/tests/strata_concurrency_tests ;;
  check-bounds)
    STRATA_CHECK_BOUNDS=1 build/tests/strata_tests --gtest_filter="$jit_suites" ;;
  *) echo "usage: tools/sanitize.sh asan|tsan|check-bounds" >&2; exit 2 ;;
esac
