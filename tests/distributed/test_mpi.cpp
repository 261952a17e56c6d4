// The collectives between processes (issue 18), run under mpirun -np 2 and -np 4 (ctest
// distributed.*). Each collective, over a mesh of the processes, against its definition
// computed on one process (the same collective over a vmap axis, itself checked against plain
// loops in tests/api/test_collectives.cpp), eagerly and compiled; gradients through
// shard_map against the unsharded program's and finite differences; shard_map results equal to
// the unsharded program. Every rank runs every test; a rank that fails makes mpirun fail.
//
// Modes for the failure tests (argv[1]): --hang-check (rank 0 skips a collective: the other
// ranks must end with an error naming the group after the timeout), --fail-rank (rank 1
// exits with an error while rank 0 waits in a collective: mpirun must end the job).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <thread>
#include <unistd.h>

#include "strata/distributed.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

int P() { return st::distributed::process_count(); }

// A [P, rest...] array with distinct values, the same on every process.
Array global_input(st::Shape rest, st::DType t = st::f32, double scale = 1.0) {
  st::Shape s{P()};
  s.insert(s.end(), rest.begin(), rest.end());
  int64_t size = 1;
  for (int64_t d : s) size *= d;
  std::vector<double> v(static_cast<size_t>(size));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * (static_cast<double>((i * 5) % 13) - 6 + 0.125 * static_cast<double>(i));
  return st::array(v, s, t);
}

void expect_close(const Array& got, const Array& want, const std::string& what, double tol = 1e-5) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << what << " [" << i << "] on rank " << st::distributed::process_index();
}

// g applied per process (axis "p" over the processes) vs g under vmap(axis "p") on one process.
template <class G>
void check_collective(G g, const Array& xs, const std::string& what, double tol = 1e-5) {
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto per_shard = [g](const Array& block) { return st::expand_dims(g(st::squeeze(block, {0})), 0); };
  auto sharded = st::shard_map(per_shard, mesh, {{"p"}}, {{"p"}});
  Array want = st::vmap(g, {}, 0, "p")(xs);
  expect_close(sharded(xs), want, what + " (eager)", tol);
  expect_close(st::jit(sharded)(xs), want, what + " (jit)", tol);
}

}  // namespace

TEST(Mpi, ProcessesAndDevices) {
  EXPECT_EQ(st::distributed::transport_name(), "mpi");
  EXPECT_GE(P(), 2);
  std::vector<st::distributed::ProcessDevices> d = st::distributed::devices();
  ASSERT_EQ(static_cast<int>(d.size()), P());
  for (int p = 0; p < P(); ++p) {
    EXPECT_EQ(d[p].process, p);
    EXPECT_FALSE(d[p].host.empty());
    ASSERT_FALSE(d[p].devices.empty());
    EXPECT_EQ(d[p].devices[0].kind, st::DeviceKind::cpu);
  }
  st::distributed::barrier();
}

TEST(Mpi, ReductionsEveryDtype) {
  for (st::DType t : {st::f32, st::f64, st::i32, st::i64, st::bf16, st::f16}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    double tol = (t == st::bf16 || t == st::f16) ? 2e-2 : 1e-6;
    Array xs = global_input({3, 2}, t);
    check_collective([](const Array& v) { return st::psum(v, "p"); }, xs, "psum", tol);
    check_collective([](const Array& v) { return st::pmax(v, "p"); }, xs, "pmax", tol);
    check_collective([](const Array& v) { return st::pmin(v, "p"); }, xs, "pmin", tol);
  }
  check_collective([](const Array& v) { return st::pmean(v, "p"); }, global_input({5}), "pmean");
  // NaN on the last process at element 1: pmax and pmin propagate it, as reduce_max does.
  for (st::DType t : {st::f32, st::f64}) {
    std::vector<double> v(static_cast<size_t>(P()) * 3, 1.0);
    v[(P() - 1) * 3 + 1] = std::nan("");
    Array xs = st::array(v, {P(), 3}, t);
    st::Mesh mesh = st::Mesh::of_processes("p");
    for (bool max : {true, false}) {
      Array got = st::shard_map([max](const Array& b) { return max ? st::pmax(b, "p") : st::pmin(b, "p"); }, mesh,
                                {{"p"}}, {{}})(xs);
      std::vector<double> g = got.to_vector<double>();
      EXPECT_EQ(g[0], 1.0);
      EXPECT_TRUE(std::isnan(g[1])) << (max ? "pmax " : "pmin ") << st::short_name(t);
    }
  }
  // Plain loops for one: the sum over processes of their rows.
  Array xs = global_input({4});
  std::vector<double> x = xs.to_vector<double>(), want(4, 0.0);
  for (int p = 0; p < P(); ++p)
    for (int j = 0; j < 4; ++j) want[j] += x[p * 4 + j];
  st::Mesh mesh = st::Mesh::of_processes("p");
  Array got = st::shard_map([](const Array& b) { return st::psum(st::squeeze(b, {0}), "p"); }, mesh, {{"p"}}, {{}})(xs);
  std::vector<double> g = got.to_vector<double>();
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(g[j], want[j], 1e-5);
}

TEST(Mpi, GatherScatterAllToAllPermuteIndex) {
  const int n = P();
  Array xs = global_input({3, 2});
  check_collective([](const Array& v) { return st::all_gather(v, "p"); }, xs, "all_gather");
  check_collective([](const Array& v) { return st::all_gather(v, "p", 1); }, xs, "all_gather axis 1");
  check_collective([](const Array& v) { return st::all_gather(v, "p", 1, true); }, xs, "all_gather tiled");
  check_collective([](const Array& v) { return st::all_gather(v, "p", 0, false); }, global_input({3, 2}, st::i32),
                   "all_gather i32");
  Array blocks = global_input({n, 3});
  check_collective([](const Array& v) { return st::psum_scatter(v, "p"); }, blocks, "psum_scatter");
  check_collective([](const Array& v) { return st::all_to_all(v, "p", 0, 0); }, blocks, "all_to_all");
  check_collective([](const Array& v) { return st::all_to_all(v, "p", 0, 1); }, blocks, "all_to_all concat 1");
  Array wide = global_input({2, 2 * n});
  check_collective([](const Array& v) { return st::psum_scatter(v, "p", 1, true); }, wide, "psum_scatter tiled");
  check_collective([](const Array& v) { return st::all_to_all(v, "p", 1, 0, true); }, wide, "all_to_all tiled");
  std::vector<std::pair<int, int>> ring, partial;
  for (int p = 0; p < n; ++p) ring.push_back({p, (p + 1) % n});
  partial.push_back({0, n - 1});
  check_collective([ring](const Array& v) { return st::ppermute(v, "p", ring); }, xs, "ppermute ring");
  check_collective([partial](const Array& v) { return st::ppermute(v, "p", partial); }, xs, "ppermute partial");
  check_collective([](const Array& v) { return v * 0 + st::astype(st::axis_index("p"), st::f32); }, xs, "axis_index");
}

// Complex values: every collective but pmax/pmin (which need an order) moves or sums them,
// MPI_SUM on MPI's complex types; the real and imaginary parts against vmap's on one process.
TEST(Mpi, ComplexValues) {
  const int n = P();
  for (st::DType t : {st::c64, st::c128}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    st::DType r = st::real_dtype(t);
    auto z = [&](st::Shape rest) { return st::complex(global_input(rest, r), global_input(rest, r, -0.5) + 1.0); };
    auto check = [&](auto g, const Array& xs, const std::string& what) {
      st::Mesh mesh = st::Mesh::of_processes("p");
      auto per_shard = [g](const Array& block) { return st::expand_dims(g(st::squeeze(block, {0})), 0); };
      auto sharded = st::shard_map(per_shard, mesh, {{"p"}}, {{"p"}});
      Array want = st::vmap(g, {}, 0, "p")(xs);
      for (const Array& got : {sharded(xs), st::jit(sharded)(xs)}) {
        ASSERT_EQ(got.dtype(), t) << what;
        expect_close(st::real(got), st::real(want), what + " real");
        expect_close(st::imag(got), st::imag(want), what + " imag");
      }
    };
    std::vector<std::pair<int, int>> ring;
    for (int p = 0; p < n; ++p) ring.push_back({p, (p + 1) % n});
    check([](const Array& v) { return st::psum(v, "p"); }, z({3, 2}), "psum");
    check([](const Array& v) { return st::pmean(v, "p"); }, z({3}), "pmean");
    check([](const Array& v) { return st::all_gather(v, "p"); }, z({3, 2}), "all_gather");
    check([](const Array& v) { return st::psum_scatter(v, "p"); }, z({n, 3}), "psum_scatter");
    check([](const Array& v) { return st::all_to_all(v, "p", 0, 1); }, z({n, 3}), "all_to_all");
    check([ring](const Array& v) { return st::ppermute(v, "p", ring); }, z({3}), "ppermute ring");
  }
  // grad of a real loss of psum with respect to a complex input: JAX's ∂L/∂re − i ∂L/∂im.
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto loss = st::shard_map([](const Array& b) { return st::expand_dims(st::sum(st::abs(st::psum(b, "p")) * 1.0f), 0); },
                            mesh, {{"p"}}, {{"p"}});
  Array x = st::complex(global_input({2}), global_input({2}, st::f32, 0.5) + 2.0f);
  Array g = st::grad([&](const Array& v) { return st::sum(loss(v)); })(x);
  Array s = st::sum(x, {0});  // psum's value, the same on every process
  Array want = st::broadcast_to(st::conj(s / st::abs(s)) * static_cast<float>(n), x.shape());
  expect_close(st::real(g), st::real(want), "grad real", 1e-4);
  expect_close(st::imag(g), st::imag(want), "grad imag", 1e-4);
}

TEST(Mpi, TwoDimensionalMesh) {
  if (P() != 4) GTEST_SKIP() << "a 2x2 mesh needs 4 processes";
  st::Mesh mesh({2, 2}, {"x", "y"});
  Array xs = st::reshape(global_input({3}), {2, 2, 3});
  auto g = [](const Array& v) {
    return st::psum(v, "x") * 100 + st::psum(v, "y") + st::astype(st::axis_index("x") * 10 + st::axis_index("y"), st::f32) +
           st::sum(st::all_gather(v, "y"), {0}) * 1000;
  };
  auto per_shard = [g](const Array& b) { return st::reshape(g(st::reshape(b, {3})), {1, 1, 3}); };
  auto sharded = st::shard_map(per_shard, mesh, {{"x", "y"}}, {{"x", "y"}});
  Array want = st::vmap(st::vmap(g, {}, 0, "y"), {}, 0, "x")(xs);
  expect_close(sharded(xs), want, "2x2 mesh (eager)");
  expect_close(st::jit(sharded)(xs), want, "2x2 mesh (jit)");
}

TEST(Mpi, GradientsThroughCollectives) {
  // L(X) = sum of every process's output; its gradient through shard_map (the collectives'
  // transposes and shard_map's own) against the same function under vmap, and against
  // central differences along a direction.
  auto per = [](const Array& v) {
    return st::sum(v * st::psum(v * v, "p")) + st::sum(st::sin(st::all_gather(v, "p"))) +
           st::sum(st::exp(st::psum_scatter(st::reshape(v, {-1, 1}) * 0.1, "p", 0, true)));
  };
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto sharded = [&](const Array& x) {
    return st::sum(st::shard_map([per](const Array& b) { return st::reshape(per(st::squeeze(b, {0})), {1}); }, mesh,
                                 {{"p"}}, {{"p"}})(x));
  };
  auto reference = [&](const Array& x) { return st::sum(st::vmap(per, {}, 0, "p")(x)); };
  Array x = global_input({P()}, st::f64, 0.1);
  Array g = st::grad(sharded)(x);
  expect_close(g, st::grad(reference)(x), "grad vs vmap", 1e-10);
  expect_close(st::jit(st::grad(sharded))(x), st::grad(reference)(x), "jit(grad) vs vmap", 1e-10);
  Array dir = st::cos(global_input({P()}, st::f64));
  const double eps = 1e-6;
  double fd = (sharded(x + dir * eps).item<double>() - sharded(x - dir * eps).item<double>()) / (2 * eps);
  EXPECT_NEAR(st::sum(g * dir).item<double>(), fd, 1e-6 * (1 + std::fabs(fd)));
}

TEST(Mpi, ShardMapEqualsTheUnshardedProgram) {
  // A two-layer network on a batch split over the processes, parameters replicated: the loss
  // (pmean of the shards' losses), its gradient with respect to the parameters, and the
  // predictions (joined along the batch) equal the unsharded program's.
  const int64_t batch = 4 * P();
  Array x = global_input({batch / P() * 3}, st::f32, 0.2);
  x = st::reshape(x, {batch, 3});
  Array y = st::reshape(st::sin(global_input({batch / P()})), {batch, 1});
  Array w1 = st::reshape(st::cos(st::arange(0.0, 12.0, 1.0)), {3, 4});
  Array w2 = st::reshape(st::sin(st::arange(0.0, 4.0, 1.0)), {4, 1});
  auto predict = [](const Array& a, const Array& b, const Array& xb) { return st::matmul(st::tanh(st::matmul(xb, a)), b); };
  auto plain_loss = [&](const Array& a, const Array& b) {
    Array e = predict(a, b, x) - y;
    return st::mean(e * e);
  };
  st::Mesh mesh = st::Mesh::of_processes("data");
  auto sharded = st::shard_map(
      [predict](const Array& a, const Array& b, const Array& xb, const Array& yb) {
        Array p = predict(a, b, xb);
        return std::make_pair(st::pmean(st::mean(((p - yb) * (p - yb))), "data"), p);
      },
      mesh, {{}, {}, {"data"}, {"data"}}, {{}, {"data"}});
  auto loss = [&](const Array& a, const Array& b) { return sharded(a, b, x, y).first; };
  expect_close(loss(w1, w2), plain_loss(w1, w2), "loss");
  expect_close(sharded(w1, w2, x, y).second, predict(w1, w2, x), "predictions");
  auto g = st::grad(loss, st::argnums<0, 1>)(w1, w2);
  auto want = st::grad(plain_loss, st::argnums<0, 1>)(w1, w2);
  expect_close(std::get<0>(g), std::get<0>(want), "grad w1");
  expect_close(std::get<1>(g), std::get<1>(want), "grad w2");
  auto gj = st::jit(st::grad(loss, st::argnums<0, 1>))(w1, w2);
  expect_close(std::get<0>(gj), std::get<0>(want), "jit grad w1");
}

TEST(Mpi, GlobalArrays) {
  st::Mesh mesh = st::Mesh::of_processes("p");
  Array full = global_input({3});
  st::distributed::GlobalArray a = st::distributed::shard(full, mesh, {"p"});
  EXPECT_EQ(a.global_shape, full.shape());
  EXPECT_EQ(a.local.shape(), (st::Shape{1, 3}));
  expect_close(st::distributed::gather_to_host(a), full, "gather_to_host(shard)");
  // From per-process data: process p holds rows p*10 ... .
  Array local = st::full({2, 2}, static_cast<float>(st::distributed::process_index() * 10));
  st::distributed::GlobalArray b = st::distributed::from_local(local, mesh, {"", "p"});
  EXPECT_EQ(b.global_shape, (st::Shape{2, 2 * P()}));
  Array whole = st::distributed::gather_to_host(b);
  std::vector<double> w = whole.to_vector<double>();
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2 * P(); ++c) EXPECT_EQ(w[r * 2 * P() + c], (c / 2) * 10.0);
  // A GlobalArray argument of shard_map: each process computes on the block it holds.
  auto f = st::shard_map([](const Array& blk, const Array& s) { return st::psum(st::sum(blk), "p") * s; }, mesh,
                         {{"", "p"}, {}}, {{}});
  Array scale = st::full({}, 0.5f);
  float want = 0;
  for (int p = 0; p < P(); ++p) want += 4 * 10.0f * p;
  EXPECT_FLOAT_EQ(f(b, scale).item<float>(), want * 0.5f);
  EXPECT_FLOAT_EQ(st::jit(f)(b, scale).item<float>(), want * 0.5f);
  EXPECT_THROW(f(a, scale), st::ValueError);  // split along another dimension
}

namespace {

// Prints only failures (prefixed with the rank) on ranks other than 0, so the output stays readable.
class RankPrinter : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] FAILED at %s:%d\n%s\n", st::distributed::process_index(), r.file_name(),
                   r.line_number(), r.summary());
  }
};

int hang_check() {
  // One psum together (its process group is set up), then rank 0 skips the next: the others
  // must throw within the timeout, naming the collective and their group.
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto sum = st::shard_map([](const Array& v) { return st::psum(v, "p"); }, mesh, {{}}, {{}});
  if (sum(st::ones({4})).to_vector<float>()[0] != static_cast<float>(P())) return 1;
  if (st::distributed::process_index() == 0) {
    std::this_thread::sleep_for(std::chrono::seconds(6));
    std::printf("rank 0: done\n");
    std::fflush(stdout);
    _exit(0);
  }
  try {
    sum(st::ones({4})).block_until_ready();
    std::printf("rank %d: FAILED: the collective completed\n", st::distributed::process_index());
    _exit(1);
  } catch (const st::Error& e) {
    std::printf("rank %d: error: %s\n", st::distributed::process_index(), e.what());
    std::fflush(stdout);
    bool names = std::strstr(e.what(), "psum on rank 1 (group of ranks 0, 1) did not complete in 2 s");
    _exit(names ? 0 : 1);
  }
}

int fail_rank() {
  // Rank 1 fails before the collective; rank 0 waits in it until the launcher ends the job.
  if (st::distributed::process_index() == 1) {
    std::fprintf(stderr, "rank 1: failing on purpose\n");
    std::fflush(stderr);
    _exit(3);
  }
  st::Mesh mesh = st::Mesh::of_processes("p");
  st::shard_map([](const Array& v) { return st::psum(v, "p"); }, mesh, {{}}, {{}})(st::ones({4})).block_until_ready();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  st::distributed::InitOptions options;
  bool hang = argc > 1 && std::strcmp(argv[1], "--hang-check") == 0;
  bool fail = argc > 1 && std::strcmp(argv[1], "--fail-rank") == 0;
  if (hang) options.collective_timeout_seconds = 2;
  st::distributed::initialize(options);
  if (hang) return hang_check();
  if (fail) return fail_rank();
  ::testing::InitGoogleTest(&argc, argv);
  if (st::distributed::process_index() != 0) {
    ::testing::TestEventListeners& l = ::testing::UnitTest::GetInstance()->listeners();
    delete l.Release(l.default_result_printer());
    l.Append(new RankPrinter);
  }
  return RUN_ALL_TESTS();
}
