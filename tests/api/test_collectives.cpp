// Collectives over a named axis in one process (issue 18): over vmap's axis (each against its
// definition computed with plain loops, jit against eager, derivatives against finite
// differences), and over a one-process mesh through shard_map (eager and jit against the
// unsharded program). The multi-process runs are tests/distributed (mpirun).
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "strata/distributed.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

constexpr int64_t n = 3, m = 2;

// X[k] is example k's value; values distinct so that permutations show.
Array examples(st::Shape per_example, st::DType t = st::f32) {
  st::Shape s{n};
  s.insert(s.end(), per_example.begin(), per_example.end());
  int64_t size = 1;
  for (int64_t d : s) size *= d;
  std::vector<double> v(static_cast<size_t>(size));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7) % 11) - 4.5 + 0.25 * static_cast<double>(i);
  return st::array(v, s, t);
}

void expect_values(const Array& got, const std::vector<double>& want, const std::string& what) {
  std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << what << " [" << i << "]";
}

// Runs f under vmap with axis "i" eagerly and under jit; both must give `want`.
template <class F>
void check_vmap(F f, const Array& xs, const std::vector<double>& want, const std::string& what) {
  auto v = st::vmap(f, {}, 0, "i");
  expect_values(v(xs), want, what + " (eager)");
  expect_values(st::jit(v)(xs), want, what + " (jit)");
}

}  // namespace

TEST(Collectives, PsumPmeanPmaxPminOverVmapAxis) {
  Array xs = examples({m});
  std::vector<double> x = xs.to_vector<double>();
  std::vector<double> sum(n * m), mx(n * m), mn(n * m), mean(n * m);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t j = 0; j < m; ++j) {
      double s = 0, hi = -1e300, lo = 1e300;
      for (int64_t k = 0; k < n; ++k) {
        double v = x[k * m + j];
        s += v, hi = std::max(hi, v), lo = std::min(lo, v);
      }
      sum[b * m + j] = s, mx[b * m + j] = hi, mn[b * m + j] = lo, mean[b * m + j] = s / n;
    }
  check_vmap([](const Array& v) { return st::psum(v, "i"); }, xs, sum, "psum");
  check_vmap([](const Array& v) { return st::pmean(v, "i"); }, xs, mean, "pmean");
  check_vmap([](const Array& v) { return st::pmax(v, "i"); }, xs, mx, "pmax");
  check_vmap([](const Array& v) { return st::pmin(v, "i"); }, xs, mn, "pmin");
  // An unbatched operand: n copies of it.
  Array c = st::array({1.5f, -2.0f}, {2});
  check_vmap([c](const Array& v) { return v * 0 + st::psum(c, "i"); }, xs,
             std::vector<double>{4.5, -6, 4.5, -6, 4.5, -6}, "psum of an unbatched value");
}

TEST(Collectives, AxisIndexAndSize) {
  Array xs = examples({m});
  check_vmap([](const Array& v) { return st::astype(st::axis_index("i"), st::f32) + v * 0; }, xs,
             std::vector<double>{0, 0, 1, 1, 2, 2}, "axis_index");
  check_vmap([](const Array& v) { return v * 0 + static_cast<float>(st::axis_size("i")); }, xs,
             std::vector<double>(n * m, 3.0), "axis_size");
}

TEST(Collectives, AllGatherStackedAndTiled) {
  Array xs = examples({m});
  std::vector<double> x = xs.to_vector<double>();
  std::vector<double> stacked;  // every example gets all of X
  for (int64_t b = 0; b < n; ++b) stacked.insert(stacked.end(), x.begin(), x.end());
  check_vmap([](const Array& v) { return st::all_gather(v, "i"); }, xs, stacked, "all_gather");
  check_vmap([](const Array& v) { return st::all_gather(v, "i", 0, true); }, xs, stacked, "all_gather tiled");
  // Along the last dimension: out[j][k] = x_k[j].
  std::vector<double> last;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t k = 0; k < n; ++k) last.push_back(x[k * m + j]);
  check_vmap([](const Array& v) { return st::all_gather(v, "i", 1); }, xs, last, "all_gather axis 1");
}

TEST(Collectives, PsumScatterAndAllToAll) {
  Array xs = examples({n, m});  // example k: x_k[n, m]
  std::vector<double> x = xs.to_vector<double>();
  std::vector<double> scatter, a2a;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t j = 0; j < m; ++j) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k) s += x[(k * n + b) * m + j];
      scatter.push_back(s);
    }
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < m; ++j) a2a.push_back(x[(k * n + b) * m + j]);  // out_b[k] = x_k[b]
  }
  check_vmap([](const Array& v) { return st::psum_scatter(v, "i"); }, xs, scatter, "psum_scatter");
  check_vmap([](const Array& v) { return st::all_to_all(v, "i", 0, 0); }, xs, a2a, "all_to_all");
  // Tiled, along the last dimension: x_k[m, n] split into n columns, concatenated along rows.
  Array ys = examples({m, n});
  std::vector<double> y = ys.to_vector<double>();
  std::vector<double> tiled;  // out_b[k*m + r][0] = x_k[r][b]
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t r = 0; r < m; ++r) tiled.push_back(y[(k * m + r) * n + b]);
  check_vmap([](const Array& v) { return st::all_to_all(v, "i", 1, 0, true); }, ys, tiled, "all_to_all tiled");
  std::vector<double> scatter_tiled;  // out_b[r][0] = sum_k x_k[r][b]
  for (int64_t b = 0; b < n; ++b)
    for (int64_t r = 0; r < m; ++r) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k) s += y[(k * m + r) * n + b];
      scatter_tiled.push_back(s);
    }
  check_vmap([](const Array& v) { return st::psum_scatter(v, "i", 1, true); }, ys, scatter_tiled, "psum_scatter tiled");
}

TEST(Collectives, Ppermute) {
  Array xs = examples({m});
  std::vector<double> x = xs.to_vector<double>();
  // 0 -> 1, 1 -> 2: example 0 receives nothing (zeros).
  std::vector<double> want{0, 0, x[0], x[1], x[2], x[3]};
  check_vmap([](const Array& v) { return st::ppermute(v, "i", {{0, 1}, {1, 2}}); }, xs, want, "ppermute");
  EXPECT_THROW(st::vmap([](const Array& v) { return st::ppermute(v, "i", {{0, 1}, {2, 1}}); }, {}, 0, "i")(xs),
               st::ValueError);
}

TEST(Collectives, NestedVmapAxes) {
  // Outer "i" over 2, inner "j" over 3: psum over "i" inside the inner vmap.
  Array xs = st::reshape(st::arange(0.0, 6.0, 1.0), {2, 3});
  auto inner = [](const Array& v) { return st::psum(v, "i") * 10 + st::psum(v, "j"); };
  auto f = st::vmap(st::vmap(inner, {}, 0, "j"), {}, 0, "i");
  // psum_i(x[a][b]) = x[0][b] + x[1][b]; psum_j = row sums.
  std::vector<double> want;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b) want.push_back(10.0 * (b + (3 + b)) + (a == 0 ? 3 : 12));
  expect_values(f(xs), want, "nested vmap");
  expect_values(st::jit(f)(xs), want, "nested vmap (jit)");
}

TEST(Collectives, GradientsThroughCollectivesInVmap) {
  // f(X) = sum over examples of x_k * psum(x^2) + all_gather(x)·w + psum_scatter, in f64.
  st::testing::check_grads(
      [](const std::vector<Array>& a) {
        auto per = [](const Array& v) {
          Array g = st::all_gather(v, "i");
          return st::sum(v * st::psum(v * v, "i")) + st::sum(st::sin(g)) + st::sum(st::pmax(v, "i") * v);
        };
        return st::sum(st::vmap(per, {}, 0, "i")(a[0]));
      },
      {st::astype(examples({m}), st::f64)}, "psum, all_gather, pmax under vmap");
  st::testing::check_grads(
      [](const std::vector<Array>& a) {
        auto per = [](const Array& v) {
          return st::sum(st::exp(st::psum_scatter(v, "i")) + st::sum(st::cos(st::all_to_all(v, "i", 0, 0)), 0) +
                         st::ppermute(v, "i", {{0, 2}, {2, 1}})[0]);
        };
        return st::sum(st::vmap(per, {}, 0, "i")(a[0]) * 0.1);
      },
      {st::astype(examples({n, m}), st::f64) * 0.1}, "psum_scatter, all_to_all, ppermute under vmap");
}

TEST(Collectives, UnboundAxisIsAValueError) {
  Array x = st::ones({2});
  try {
    st::psum(x, "zz");
    FAIL() << "no error";
  } catch (const st::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("unbound axis name 'zz'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shard_map"), std::string::npos) << e.what();
  }
  // Inside a vmap of another name, the message lists the axes in scope.
  try {
    st::vmap([](const Array& v) { return st::psum(v, "zz"); }, {}, 0, "i")(st::ones({2, 2}));
    FAIL() << "no error";
  } catch (const st::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'i' (vmap, size 2)"), std::string::npos) << e.what();
  }
}

// Complex values under vmap's named axis (the batching rules) and over a one-process mesh (the
// runtime); pmax/pmin refuse them.
TEST(Collectives, ComplexValues) {
  Array z = st::complex(st::reshape(st::astype(st::arange(6), st::f32), {3, 2}), st::ones({3, 2}));
  Array s = st::vmap([](const Array& v) { return st::psum(v, "i"); }, {}, 0, "i")(z);
  EXPECT_EQ(st::real(s).to_vector<float>(), (std::vector<float>{6, 9, 6, 9, 6, 9}));
  EXPECT_EQ(st::imag(s).to_vector<float>(), (std::vector<float>{3, 3, 3, 3, 3, 3}));
  Array g = st::vmap([](const Array& v) { return st::all_gather(v, "i"); }, {}, 0, "i")(z);
  EXPECT_EQ(g.shape(), (st::Shape{3, 3, 2}));
  Array m = st::vmap([](const Array& v) { return st::pmean(v, "i"); }, {}, 0, "i")(z);  // keeps the imaginary part
  ASSERT_EQ(m.dtype(), st::c64);
  EXPECT_EQ(st::imag(m).to_vector<float>(), (std::vector<float>{1, 1, 1, 1, 1, 1}));
  st::Mesh mesh = st::Mesh::of_processes("p");
  auto one = st::shard_map([](const Array& b) { return st::psum(b, "p") * 2.0f; }, mesh, {{"p"}}, {{"p"}});
  Array b = st::reshape(z, {1, 3, 2});
  for (const Array& y : {one(b), st::jit(one)(b)}) {
    EXPECT_EQ(st::real(y).to_vector<float>(), (std::vector<float>{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(st::imag(y).to_vector<float>(), (std::vector<float>{2, 2, 2, 2, 2, 2}));
  }
  try {
    st::vmap([](const Array& v) { return st::pmax(v, "i"); }, {}, 0, "i")(z);
    FAIL() << "no error";
  } catch (const st::DTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("pmax: expects an ordered dtype (not complex), but got c64[2]"), std::string::npos)
        << e.what();
  }
}

TEST(Collectives, ShardMapOverOneProcessMesh) {
  // One process: a mesh of one shard; collectives over a one-member group, eager and compiled
  // (the runtime call), against the unsharded program.
  st::Mesh mesh({1}, {"d"});
  Array x = examples({4});
  Array w = st::reshape(st::arange(0.0, 8.0, 1.0), {4, 2});
  auto body = [](const Array& xb, const Array& wb) {
    Array y = st::tanh(st::matmul(xb, wb));
    return std::make_tuple(y, st::psum(st::sum(y * y), "d"), st::all_gather(xb, "d", 0, true),
                           st::astype(st::axis_index("d"), st::f32));
  };
  auto sharded = st::shard_map(body, mesh, {{"d"}, {}}, {{"d"}, {}, {}, {}});
  auto [y, s, g, i] = sharded(x, w);
  Array want = st::tanh(st::matmul(x, w));
  expect_values(y, want.to_vector<double>(), "shard_map output");
  expect_values(s, {st::sum(want * want).item<double>()}, "psum");
  expect_values(g, x.to_vector<double>(), "all_gather");
  expect_values(i, {0}, "axis_index");
  auto [yj, sj, gj, ij] = st::jit(sharded)(x, w);
  expect_values(yj, want.to_vector<double>(), "shard_map output (jit)");
  expect_values(sj, {st::sum(want * want).item<double>()}, "psum (jit)");
  // grad through shard_map equals the unsharded gradient.
  auto loss = [&](const Array& wb) { return std::get<1>(sharded(x, wb)); };
  auto plain = [&](const Array& wb) { Array t = st::tanh(st::matmul(x, wb)); return st::sum(t * t); };
  expect_values(st::grad(loss)(w), st::grad(plain)(w).to_vector<double>(), "grad through shard_map");
  expect_values(st::jit(st::grad(loss))(w), st::grad(plain)(w).to_vector<double>(), "jit(grad) through shard_map");
}

TEST(Collectives, VmapOfShardMap) {
  // vmap over a shard_map'd function: the mesh's collectives pass through with the batch.
  st::Mesh mesh({1}, {"d"});
  auto f = st::shard_map([](const Array& v) { return st::psum(v * v, "d") + st::all_gather(v, "d", 0, true); }, mesh,
                         {{"d"}}, {{"d"}});
  Array xs = examples({4});
  Array want = xs * xs + xs;
  expect_values(st::vmap(f)(xs), want.to_vector<double>(), "vmap(shard_map)");
  expect_values(st::jit(st::vmap(f))(xs), want.to_vector<double>(), "jit(vmap(shard_map))");
}

TEST(Collectives, ShardMapChecksTheMeshAndSpecs) {
  Array x = st::ones({4});
  auto id = [](const Array& v) { return v; };
  try {
    st::shard_map(id, st::Mesh({2}, {"d"}), {{"d"}}, {{"d"}})(x);
    FAIL() << "no error";
  } catch (const st::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("mpirun -np 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(st::shard_map(id, st::Mesh({1}, {"d"}), {{"e"}}, {{}})(x), st::ValueError);
  EXPECT_THROW(st::shard_map(id, st::Mesh({1}, {"d"}), {{"", "d"}}, {{}})(x), st::ValueError);
  EXPECT_THROW(st::Mesh({2, 2}, {"a", "a"}), st::ValueError);
  EXPECT_EQ(st::distributed::process_count(), 1);
  EXPECT_EQ(st::distributed::process_index(), 0);
}

TEST(Collectives, JaxprShowsTheCollective) {
  st::Mesh mesh({1}, {"data"});
  auto f = st::shard_map([](const Array& v) { return st::psum(v, "data"); }, mesh, {{}}, {{}});
  std::string text = st::make_jaxpr(f)(st::ones({2})).to_string();
  EXPECT_NE(text.find("psum[axis_name=data axis_size=1 mesh=(1,) mesh_dims=(0,)]"), std::string::npos) << text;
  // Under vmap the collective is computed along the batch: no psum is left.
  std::string v = st::make_jaxpr(st::vmap([](const Array& a) { return st::psum(a, "i"); }, {}, 0, "i"))(st::ones({3, 2}))
                      .to_string();
  EXPECT_EQ(v.find("psum"), std::string::npos) << v;
  EXPECT_NE(v.find("reduce_sum"), std::string::npos) << v;
}
