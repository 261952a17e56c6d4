#!/usr/bin/env bash
# bench/run_gpu.sh [STRATA_GPU_BENCH] — the GPU benchmark of issue 11 in one run: strata
# (strata_gpu_bench, with its direct cuBLASLt / cuMemcpy / cuLaunchKernel baselines), then the
# peers (gpu_peers.py: JAX, torch, torch.compile). Every JSON line goes to
# $OUT/gpu_bench.jsonl (OUT defaults to ./out); then the markdown table (gpu_report.py) is
# printed and written to $OUT/gpu_bench.md.
#   bench/run_gpu.sh                              # strata_gpu_bench next to this script or in build/bench
#   bench/run_gpu.sh path/to/strata_gpu_bench
#   PEERS=0 bench/run_gpu.sh                      # strata and its baselines only
#   STRATA_ONLY_CPU=1 bench/run_gpu.sh            # smoke test without a GPU (--cpu, --cpu-smoke)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-./out}"
mkdir -p "$out"
jsonl="$out/gpu_bench.jsonl"
: > "$jsonl"

bin="${1:-}"
if [[ -z "$bin" ]]; then
  for c in "${STRATA_GPU_BIN:+$STRATA_GPU_BIN/strata_gpu_bench}" "$here/strata_gpu_bench" "$here/../build/bench/strata_gpu_bench"; do
    [[ -x "$c" ]] && { bin="$c"; break; }
  done
fi
cpu_flag=() py_flag=()
if [[ "${STRATA_ONLY_CPU:-0}" == 1 ]]; then cpu_flag=(--cpu); py_flag=(--cpu-smoke); fi

if [[ -n "$bin" && -x "$bin" ]]; then
  echo "== strata: $bin ${cpu_flag[*]}" >&2
  "$bin" "${cpu_flag[@]}" | tee -a "$jsonl"
  echo "(strata_gpu_bench exit status ${PIPESTATUS[0]})" >&2
else
  echo '{"workload": "all", "impl": "strata", "skipped": "strata_gpu_bench not found"}' | tee -a "$jsonl"
fi

if [[ "${PEERS:-1}" != 0 ]]; then
  echo "== peers: python3 $here/gpu_peers.py ${py_flag[*]}" >&2
  python3 "$here/gpu_peers.py" "${py_flag[@]}" | tee -a "$jsonl"
fi

echo >&2
python3 "$here/gpu_report.py" "$jsonl" | tee "$out/gpu_bench.md"
