#!/usr/bin/env bash
# tools/fuzz.sh TARGET [SECONDS] — builds the libFuzzer target TARGET (tests/fuzz/) in build/
# and runs it for SECONDS (60) on a copy of its seed corpus (tests/fuzz/corpus/TARGET), so the
# checked-in seeds are never rewritten. A crash leaves its input as build/fuzz/crash-*; make it
# a regression test. Prints libFuzzer's final statistics (inputs executed); the whole log (a
# crash's stack trace) is kept in build/fuzz/TARGET.log. FUZZ_SEED=N fixes libFuzzer's seed, so
# that a run repeats the inputs of an earlier run of the same length (CI uses it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target="${1:?usage: tools/fuzz.sh TARGET [SECONDS]}"
seconds="${2:-60}"
[[ -d build ]] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22
ninja -C build "$target"
work="build/fuzz/$target"
rm -rf "$work" && mkdir -p "$work/corpus"
cp tests/fuzz/corpus/"$target"/* "$work/corpus/"
cd build/fuzz
"../tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  ${FUZZ_SEED:+-seed="$FUZZ_SEED"} "$target/corpus" > "$target.log" 2>&1 || status=$?
tail -25 "$target.log"
exit "${status:-0}"
