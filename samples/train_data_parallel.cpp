// samples/train_data_parallel.cpp — the MLP of train_mlp.cpp trained data-parallel over the
// processes of an MPI run: each process takes its shard of the batch (shard_map over a mesh
// axis "data"), computes its gradient, and the gradients are averaged with pmean before the
// same Adam step on every process. The whole step is one jitted program whose collectives are
// MPI all-reduces.
//
//   mpirun -np 4 build/samples/train_data_parallel [STEPS]
//
// Every process also runs the same training on the whole batch alone (no communication) and
// checks that the parameters after STEPS steps agree within float tolerance; it prints the
// time per step of both, so runs with -np 1, 2, 4 give the scaling (bench/run_data_parallel.sh).
// Exits non-zero when the parameters disagree.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "strata/distributed.h"
#include "strata/strata.h"
#include "mlp.h"

namespace st = strata;
using st::Array;

// One Adam step (lr 1e-2) from the loss and its gradient.
std::pair<Params, AdamState> adam(const Params& p, const AdamState& s, const Params& g) {
  Array t = s.step + 1.0f;
  auto pl = st::tree_flatten(p), gl = st::tree_flatten(g), ml = st::tree_flatten(s.m), vl = st::tree_flatten(s.v);
  Array c1 = 1.0f - st::power(Array(0.9f), t), c2 = 1.0f - st::power(Array(0.999f), t);
  for (size_t i = 0; i < pl.size(); ++i) {
    ml[i] = ml[i] * 0.9f + gl[i] * 0.1f;
    vl[i] = vl[i] * 0.999f + gl[i] * gl[i] * 0.001f;
    pl[i] = pl[i] - 0.01f * (ml[i] / c1) / (st::sqrt(vl[i] / c2) + 1e-8f);
  }
  return {st::tree_unflatten(p, pl), AdamState{st::tree_unflatten(p, ml), st::tree_unflatten(p, vl), t}};
}

// The step on one process's shard: its gradient, averaged over the processes.
std::tuple<Params, AdamState, Array> shard_step(const Params& p, const AdamState& s, const Array& x, const Array& y) {
  auto [loss, g] = st::value_and_grad(loss_fn)(p, x, y);
  auto [p2, s2] = adam(p, s, st::pmean(g, "data"));
  return {p2, s2, st::pmean(loss, "data")};
}

// The same step on the whole batch in one process.
std::tuple<Params, AdamState, Array> whole_step(const Params& p, const AdamState& s, const Array& x, const Array& y) {
  auto [loss, g] = st::value_and_grad(loss_fn)(p, x, y);
  auto [p2, s2] = adam(p, s, g);
  return {p2, s2, loss};
}

int main(int argc, char** argv) {
  st::distributed::initialize();
  const int rank = st::distributed::process_index(), n = st::distributed::process_count();
  const int steps = argc > 1 ? std::atoi(argv[1]) : 200;
  const int batch = 4096, hidden = 256;
  if (batch % n != 0) {
    if (rank == 0) std::fprintf(stderr, "the batch of %d does not split over %d processes\n", batch, n);
    return 2;
  }
  // y = sin(3 x0) cos(2 x1) + 0.5 x0 x1 on [-1, 1]^2: every process makes the same data.
  Array keys = st::random::split(st::random::key(42), 2);
  Array x = st::random::uniform(st::random::key_at(keys, 0), {batch, 2}, st::f32, -1.0, 1.0);
  Array x0 = st::slice(x, {0, 0}, {batch, 1}), x1 = st::slice(x, {0, 1}, {batch, 2});
  Array y = st::sin(x0 * 3.0f) * st::cos(x1 * 2.0f) + 0.5f * x0 * x1;
  Params p0 = init(st::random::key_at(keys, 1), 2, hidden, 1);
  AdamState s0 = adam_init(p0);

  using Clock = std::chrono::steady_clock;
  auto ms_since = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };

  // Data-parallel: parameters and optimiser state replicated ({}), the batch split ({"data"}).
  st::Mesh mesh = st::Mesh::of_processes("data");
  auto dp_step = st::jit(st::shard_map(shard_step, mesh, {{}, {}, {"data"}, {"data"}}, {{}}), {.name = "dp_step"});
  Params p = p0;
  AdamState s = s0;
  Array loss;
  std::tie(p, s, loss) = dp_step(p, s, x, y);  // compiles
  st::distributed::barrier();
  auto t0 = Clock::now();
  for (int i = 2; i <= steps; ++i) {
    std::tie(p, s, loss) = dp_step(p, s, x, y);
    if (rank == 0 && i % 50 == 0) std::printf("step %4d  loss %.5f\n", i, loss.item<float>());
  }
  loss.block_until_ready();
  double dp_ms = ms_since(t0) / (steps - 1);

  // The single-process run on the whole batch, for the check and the time.
  auto one_step = st::jit(whole_step, {.name = "whole_step"});
  Params q = p0;
  AdamState r = s0;
  Array loss1;
  std::tie(q, r, loss1) = one_step(q, r, x, y);
  st::distributed::barrier();
  auto t1 = Clock::now();
  for (int i = 2; i <= steps; ++i) std::tie(q, r, loss1) = one_step(q, r, x, y);
  loss1.block_until_ready();
  double one_ms = ms_since(t1) / (steps - 1);

  double worst = 0;
  auto a = st::tree_flatten(p), b = st::tree_flatten(q);
  for (size_t i = 0; i < a.size(); ++i) {
    std::vector<float> u = a[i].to_vector<float>(), v = b[i].to_vector<float>();
    for (size_t k = 0; k < u.size(); ++k) worst = std::max(worst, std::fabs(double(u[k]) - v[k]) / (1e-3 + std::fabs(v[k])));
  }
  const bool ok = worst < 2e-3;
  if (rank == 0) {
    std::printf("processes %d: data-parallel %.3f ms per step, one process on the whole batch %.3f ms per step"
                " (x%.2f)\n", n, dp_ms, one_ms, one_ms / dp_ms);
    std::printf("final loss %.5f (one process: %.5f); parameters after %d steps agree within %.2e relative (%s)\n",
                loss.item<float>(), loss1.item<float>(), steps, worst, ok ? "ok" : "MISMATCH");
  }
  return ok ? 0 : 1;
}
