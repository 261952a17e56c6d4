#!/usr/bin/env bash
# bench/run_data_parallel.sh [BUILD] — issue 18's figures, in one run: all-reduce bandwidth
# over MPI between 2 local processes (strata's compiled psum next to a plain MPI_Allreduce
# loop), and the data-parallel sample with 1, 2 and 4 processes (time per step, and the
# one-process run on the whole batch in the same run). This machine has 2 cores: -np 4 is
# oversubscribed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:-build}"
ninja -C "$build" bench_allreduce train_data_parallel > /dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none)
echo "== all-reduce, 2 processes, f32, median of repetitions (slowest rank) =="
"${mpirun[@]}" -np 2 "$build/bench/bench_allreduce"
# One thread per process (THREADS), so that N processes use N cores and the figures are the
# processes' scaling, not the thread pool's (each process would otherwise split the machine's
# cores among the local ranks).
for np in 1 2 4; do
  echo "== train_data_parallel, $np process(es) of ${THREADS:-1} thread(s), ${STEPS:-100} steps =="
  STRATA_NUM_THREADS="${THREADS:-1}" "${mpirun[@]}" -x STRATA_NUM_THREADS -np "$np" \
    "$build/samples/train_data_parallel" "${STEPS:-100}" | grep -E "processes|final"
done
