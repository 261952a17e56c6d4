#!/usr/bin/env bash
# tools/setup.sh — the one entry point of the README's two commands.
#
#   tools/setup.sh demo   install what is missing, build, run the main demo
#   tools/setup.sh test   install what is missing, build, run every test (ctest)
#   tools/setup.sh build  install what is missing and build
#
# Idempotent and incremental: packages already present are not reinstalled, and the build
# directory (build/, or $STRATA_BUILD_DIR) is reused. Only Debian packages are downloaded.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode="${1:-build}"
build_dir="${STRATA_BUILD_DIR:-build}"

packages=(
  cmake ninja-build ccache g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22    # LLVM/MLIR 22 (FileCheck, lit included)
  libeigen3-dev libabsl-dev                            # eager kernels, hashing and status
  libgtest-dev libgmock-dev libbenchmark-dev           # tests and benchmarks
  libclang-rt-22-dev                                   # sanitizer and libFuzzer runtimes (tools/fuzz.sh)
  libopenmpi-dev openmpi-bin                           # collectives between processes (issue 18)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# clang++-22 compiles the MLIR-heavy files ~1.6x faster than g++ 12; either works.
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
  compiler=()
  if [[ -z "${CXX:-}" ]] && command -v clang++-22 >/dev/null; then
    compiler=(-DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22)
  fi
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler[@]}"
fi

jobs="$(nproc)"
case "$mode" in
  build)
    cmake --build "$build_dir" -j "$jobs" ;;
  demo)
    cmake --build "$build_dir" -j "$jobs" --target demo train_mlp
    "$build_dir/samples/demo"
    echo
    echo "== samples/train_mlp: a 2-layer MLP trained with jit(value_and_grad(loss)) and Adam"
    "$build_dir/samples/train_mlp" ;;
  test)
    cmake --build "$build_dir" -j "$jobs"
    cd "$build_dir" && ctest --output-on-failure -j "$jobs" ;;
  *)
    echo "usage: tools/setup.sh [build|demo|test]" >&2
    exit 2 ;;
esac
