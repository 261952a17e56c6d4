#!/usr/bin/env bash
# bench/run.sh [BENCH] [FILTER] — builds and runs a benchmark binary with repetitions and prints
# each benchmark's median, then the ratios that the issues ask for (measured in this one run).
#   bench/run.sh bench_cpu            # all CPU backend benchmarks
#   bench/run.sh bench_cpu 'Seed'     # only those matching a regex
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bench="${1:-bench_cpu}"
filter="${2:-.}"
build="${STRATA_BUILD_DIR:-build}"
cmake --build "$build" --target "$bench" >/dev/null
out="$build/bench/$bench.json"
"$build/bench/$bench" --benchmark_filter="$filter" --benchmark_repetitions="${REPS:-5}" \
  --benchmark_report_aggregates_only=true --benchmark_out="$out" --benchmark_out_format=json >/dev/null
python3 bench/report.py "$out"
