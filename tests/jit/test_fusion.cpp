// What the compiler's passes do to whole programs, asserted on the stage texts jit(f).lower()
// prints: CSE computes a repeated subexpression once; fusion makes fewer loop nests (kernels)
// and can be switched off; buffer assignment shrinks the scratch arena; every variant computes
// what eager evaluation computes.
#include <gtest/gtest.h>

#include <sstream>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

using st::testing::count;

// The kernels of the `loops` stage: the top-level loop nests and runtime calls of @main (a
// GEMM with its epilogue is one call).
int kernels(const std::string& loops) {
  std::istringstream in(loops);
  std::string line;
  bool inMain = false;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.rfind("  func.func", 0) == 0) inMain = line.find("@main(") != std::string::npos;
    if (!inMain || line.rfind("    ", 0) != 0 || line[4] == ' ') continue;
    std::string op = line.substr(4);
    if (op.rfind("scf.parallel", 0) == 0 || op.rfind("scf.for", 0) == 0 || op.rfind("call @", 0) == 0) ++n;
  }
  return n;
}

Array rnd(const st::Shape& shape, uint64_t seed) { return st::random::normal(st::random::key(seed), shape); }

void expect_close(const Array& got, const Array& want, double tol = 1e-4) {
  ASSERT_EQ(got.shape(), want.shape());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << "element " << i;
}

Array seed_line(const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); }

Array chain8(const Array& x, const Array& y) {
  Array a = x * 1.5f + y;
  Array b = st::maximum(a, 0.0f);
  Array c = b * b - y;
  Array d = c / 3.0f;
  Array e = d + x;
  return st::minimum(e, 10.0f);
}

Array layer_norm(const Array& x, const Array& g, const Array& b) {
  Array d = x - st::mean(x, -1, true);
  Array v = st::mean(d * d, -1, true);
  return d * st::rsqrt(v + 1e-5f) * g + b;
}

TEST(Passes, ASubexpressionComputedTwiceIsCompiledOnce) {
  auto f = [](const Array& x) { return st::sum(st::exp(x), 1) + st::sum(st::exp(x), 1); };
  st::Lowered l = st::jit(f).lower(rnd({4, 8}, 1));
  EXPECT_EQ(count(l.as_text("strata"), "strata.exponential"), 2);
  EXPECT_EQ(count(l.as_text("cse"), "strata.exponential"), 1) << l.as_text("cse");
  EXPECT_EQ(count(l.as_text("cse"), "strata.reduce"), 1) << l.as_text("cse");
  Array x = rnd({4, 8}, 1);
  expect_close(st::jit(f)(x), f(x));
}

TEST(Passes, TheSeedLineIsOneGemmWithItsEpilogue) {
  Array x = rnd({64, 32}, 1), w = rnd({32, 48}, 2), b = rnd({48}, 3);
  st::Lowered fused = st::jit(seed_line).lower(x, w, b);
  EXPECT_EQ(count(fused.as_text("fused"), "strata.fusion"), 1);
  EXPECT_EQ(count(fused.as_text("fused"), "kind = \"output\""), 1);
  EXPECT_EQ(kernels(fused.as_text("loops")), 1) << fused.as_text("loops");
  st::Lowered plain = st::jit(seed_line, {.fuse = false}).lower(x, w, b);
  EXPECT_EQ(count(plain.as_text("fused"), "strata.fusion"), 0);
  EXPECT_EQ(kernels(plain.as_text("loops")), 4) << plain.as_text("loops");  // GEMM, broadcast, add, clamp (relu)
  Array want = seed_line(x, w, b);
  expect_close(st::jit(seed_line)(x, w, b), want);
  expect_close(st::jit(seed_line, {.fuse = false})(x, w, b), want);
}

// The GEMM epilogue over every operand layout and both ways of splitting the output (rows when
// M >= N, columns otherwise), serially and across the pool.
TEST(Passes, DotEpiloguesMatchEagerForEveryLayout) {
  struct Shape3 {
    int64_t m, n, k;
  };
  for (Shape3 s : {Shape3{300, 200, 64}, Shape3{40, 300, 64}, Shape3{5, 7, 3}}) {
    Array x = rnd({s.m, s.k}, 1), xt = rnd({s.k, s.m}, 2), w = rnd({s.k, s.n}, 3), wt = rnd({s.n, s.k}, 4);
    Array b = rnd({s.n}, 5);
    auto plain = [](const Array& a, const Array& v, const Array& c) { return st::gelu(st::matmul(a, v) + c); };
    auto rhsT = [](const Array& a, const Array& v, const Array& c) { return st::relu(st::matmul(a, st::transpose(v)) + c); };
    auto lhsT = [](const Array& a, const Array& v, const Array& c) { return st::tanh(st::matmul(st::transpose(a), v) * 0.5f + c); };
    auto both = [](const Array& a, const Array& v, const Array& c) {
      return st::logistic(st::matmul(st::transpose(a), st::transpose(v)) - c);
    };
    for (bool parallel : {true, false}) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + (parallel ? " parallel" : " serial"));
      st::JitOptions o{.parallel = parallel};
      EXPECT_EQ(count(st::jit(plain, o).lower(x, w, b).as_text("fused"), "kind = \"output\""), 1);
      expect_close(st::jit(plain, o)(x, w, b), plain(x, w, b));
      expect_close(st::jit(rhsT, o)(x, wt, b), rhsT(x, wt, b));
      expect_close(st::jit(lhsT, o)(xt, w, b), lhsT(xt, w, b));
      expect_close(st::jit(both, o)(xt, wt, b), both(xt, wt, b));
    }
  }
}

TEST(Passes, AnElementwiseChainIsOneLoop) {
  Array x = rnd({1000}, 1), y = rnd({1000}, 2);
  EXPECT_EQ(kernels(st::jit(chain8).lower(x, y).as_text("loops")), 1);
  EXPECT_EQ(kernels(st::jit(chain8, {.fuse = false}).lower(x, y).as_text("loops")), 8);
  expect_close(st::jit(chain8)(x, y), chain8(x, y));
}

TEST(Passes, SoftmaxAndLayerNormReadTheirInputAtMostThreeTimes) {
  Array x = rnd({16, 64}, 1), g = rnd({64}, 2), b = rnd({64}, 3);
  auto softmax = [](const Array& v) { return st::softmax(v); };
  st::Lowered s = st::jit(softmax).lower(x);
  // Loop nests over x's shape: max; exp with its sum; divide.
  EXPECT_EQ(count(s.as_text("linalg"), "iterator_types = [\"parallel\", \"reduction\"]") +
                count(s.as_text("linalg"), "iterator_types = [\"parallel\", \"parallel\"]"),
            3)
      << s.as_text("linalg");
  st::Lowered n = st::jit(layer_norm).lower(x, g, b);
  EXPECT_EQ(count(n.as_text("fused"), "strata.fusion"), 3) << n.as_text("fused");
  EXPECT_EQ(count(n.as_text("linalg"), "ins(%arg0"), 3) << n.as_text("linalg");
  // In loops: each runs as one nest over the rows: a row's reductions with their fills and
  // epilogues, then the elementwise loop over the row's elements, read again from cache (the
  // row fusion of --strata-fuse-parallel-loops).
  EXPECT_EQ(kernels(s.as_text("loops")), 1) << s.as_text("loops");
  EXPECT_EQ(kernels(n.as_text("loops")), 1) << n.as_text("loops");
  for (bool fuse : {true, false}) {
    expect_close(st::jit(softmax, {.fuse = fuse})(x), softmax(x));
    expect_close(st::jit(layer_norm, {.fuse = fuse})(x, g, b), layer_norm(x, g, b));
  }
}

// The MLP of the benchmarks, forward and backward.
Array mlp(const Array& x, const Array& w1, const Array& b1, const Array& w2, const Array& b2) {
  return st::matmul(st::gelu(st::matmul(x, w1) + b1), w2) + b2;
}
Array mlp_loss(const Array& w1, const Array& b1, const Array& w2, const Array& b2, const Array& x, const Array& y) {
  Array e = mlp(x, w1, b1, w2, b2) - y;
  return st::mean(e * e);
}

TEST(Passes, BufferAssignmentShrinksTheArenaOfAnMlpBackwardPass) {
  Array w1 = rnd({64, 128}, 1), b1 = rnd({128}, 2), w2 = rnd({128, 16}, 3), b2 = rnd({16}, 4);
  Array x = rnd({32, 64}, 5), y = rnd({32, 16}, 6);
  auto grad = st::grad(mlp_loss, st::argnums<0, 1, 2, 3>);
  auto want = grad(w1, b1, w2, b2, x, y);
  st::MemoryStats shared{}, own{};
  for (bool assign : {true, false}) {
    auto f = st::jit(grad, {.assign_buffers = assign});
    auto got = f(w1, b1, w2, b2, x, y);
    expect_close(std::get<0>(got), std::get<0>(want), 1e-3);
    expect_close(std::get<3>(got), std::get<3>(want), 1e-3);
    st::MemoryStats m = f.lower(w1, b1, w2, b2, x, y).compile().memory_analysis();
    (assign ? shared : own) = m;
  }
  EXPECT_GT(shared.temporaries_bytes, 0);
  EXPECT_EQ(shared.temporaries_bytes, own.temporaries_bytes);
  EXPECT_EQ(own.scratch_bytes, own.temporaries_bytes);
  EXPECT_LT(shared.scratch_bytes, own.scratch_bytes);
}

TEST(Passes, TheBuffersStagePrintsTheAssignment) {
  Array x = rnd({16, 64}, 1);
  std::string text = st::jit([](const Array& v) { return st::softmax(v); }).lower(x).as_text("buffers");
  EXPECT_NE(text.find("// BufferAssignment: 2 temporaries, 128 bytes; arena 128 bytes"), std::string::npos) << text;
  EXPECT_NE(text.find("strata.offset = "), std::string::npos);
}

// A GEMM epilogue that scales each output row by a value depending on the whole vector
// (lstsq's 1/s masked against s[0]): jit equals eager. The slice of s used to be recomputed
// per output block and read the block's first row (jit's lstsq was 0.3% off).
TEST(Passes, DotEpilogueReadingAWholeVectorMatchesEager) {
  std::vector<double> v(48);
  for (int i = 0; i < 48; ++i) v[i] = std::sin(0.3 * i) + 0.01 * i * i;
  Array b = st::transpose(st::array(v, {3, 16}, st::f64));
  Array a = st::stack({st::ones({16}, st::f64), st::astype(st::arange(16), st::f64) / 16.0}, 1);
  auto lstsq = [](const Array& m, const Array& r) { return st::linalg::lstsq(m, r).x; };
  st::testing::expect_relative(st::jit(lstsq)(a, b), st::testing::values(lstsq(a, b)), 1e-12, 1e-14);
  auto scaled = [](const Array& s, const Array& u, const Array& r) {
    Array keep = s >= st::slice(s, {0}, {1}) * 0.5;
    return st::expand_dims(st::where(keep, 1.0 / s, st::zeros_like(s)), -1) * st::matmul(u, r);
  };
  Array s = st::array(std::vector<double>{4.0, 3.0, 1.0}, {3}, st::f64);
  Array u = st::reshape(st::astype(st::arange(48), st::f64), {3, 16});
  st::testing::expect_relative(st::jit(scaled)(s, u, b), st::testing::values(scaled(s, u, b)), 1e-12, 1e-14);
}

}  // namespace
