// bench/bench_allreduce.cpp — all-reduce bandwidth over MPI (issue 18), under
// mpirun -np 2 (bench/run_data_parallel.sh runs it): for f32 buffers of 1 KiB … 256 MiB, the
// median time of
//   mpi    a plain MPI_Allreduce loop (the osu_allreduce figure of the same MPI), and
//   jit    st::psum inside a jitted shard_map (the compiled runtime call: it copies its
//          operand into the call's buffer, so it moves the bytes once more than MPI alone),
//   eager  the same psum run op by op,
// side by side in one run, with the bus bandwidth 2(n-1)/n · bytes / time (nccl-tests' figure).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "strata/distributed.h"
#include "strata/strata.h"

namespace st = strata;

namespace {

template <class F>
double median_us(F f, int reps) {
  std::vector<double> t;
  f();  // warm up (and compile)
  for (int i = 0; i < reps; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  // Every rank's median of the slowest rank per repetition.
  std::vector<double> worst(t.size());
  MPI_Allreduce(t.data(), worst.data(), static_cast<int>(t.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  std::sort(worst.begin(), worst.end());
  return worst[worst.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  st::distributed::initialize();
  const int rank = st::distributed::process_index(), n = st::distributed::process_count();
  const int64_t max_bytes = argc > 1 ? std::atoll(argv[1]) : (int64_t{256} << 20);
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto psum = [](const st::Array& x) { return st::psum(x, "p"); };
  auto sharded = st::shard_map(psum, mesh, {{}}, {{}});
  auto jitted = st::jit(sharded);
  if (rank == 0)
    std::printf("%-10s %12s %12s %12s %10s %10s %10s   (n=%d; GB/s: bus bandwidth)\n", "bytes", "mpi_us", "jit_us",
                "eager_us", "mpi_GB/s", "jit_GB/s", "jit/mpi", n);
  for (int64_t bytes = 1024; bytes <= max_bytes; bytes *= 4) {
    const int64_t count = bytes / 4;
    const int reps = bytes <= (1 << 20) ? 200 : bytes <= (16 << 20) ? 20 : 6;
    std::vector<float> in(static_cast<size_t>(count), 1.0f), out(static_cast<size_t>(count));
    double mpi = median_us([&] {
      MPI_Allreduce(in.data(), out.data(), static_cast<int>(count), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }, reps);
    st::Array x = st::ones({count});
    double jit = median_us([&] { jitted(x).block_until_ready(); }, reps);
    double eager = median_us([&] { sharded(x).block_until_ready(); }, std::min(reps, 50));
    double bus = 2.0 * (n - 1) / n * static_cast<double>(bytes);
    if (rank == 0)
      std::printf("%-10lld %12.1f %12.1f %12.1f %10.2f %10.2f %10.2f\n", static_cast<long long>(bytes), mpi, jit, eager,
                  bus / mpi / 1e3, bus / jit / 1e3, jit / mpi);
  }
  return 0;
}
