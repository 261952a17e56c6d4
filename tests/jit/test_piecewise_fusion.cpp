// Pad and concatenate fused into their consumers (issue 12's stencils): each element computed
// by in-bounds reads of the operands and a select (lowering/FusionToLinalg.cpp, indexed mode).
// Compiled results against eager on stencils, negative and asymmetric padding, empty pieces,
// several dtypes, and inside reductions and while loops; and the fused program has no separate
// pad/concatenate.
#include <gtest/gtest.h>

#include "../../samples/poisson.h"
#include "lax.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

void expect_same(const Array& got, const Array& want, const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_TRUE(st::testing::close(g[i], w[i], got.dtype(), 4, 1e-6)) << what << " [" << i << "]: " << g[i] << " vs " << w[i];
}

Array grid(st::Shape s, st::DType t = st::f32) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return st::astype(st::reshape(st::sin(st::arange(0.0, static_cast<double>(n), 1.0)) * 3.0f, s), t);
}

}  // namespace

TEST(PiecewiseFusion, StencilIsOneLoop) {
  auto f = [](const Array& u) { return st::exp(laplacian(u)) * 0.5f; };
  for (st::Shape s : {st::Shape{5, 7}, st::Shape{1, 1}, st::Shape{64, 33}}) {
    Array u = grid(s);
    expect_same(st::jit(f)(u), f(u), "laplacian " + std::to_string(s[0]) + "x" + std::to_string(s[1]));
  }
  std::string fused = st::jit(f).lower(grid({8, 8})).as_text("fused");
  // The concatenates sit inside the one fusion region with the arithmetic.
  size_t regions = 0;
  for (size_t at = fused.find("strata.fusion"); at != std::string::npos; at = fused.find("strata.fusion", at + 1)) ++regions;
  EXPECT_EQ(regions, 1u) << fused;
}

TEST(PiecewiseFusion, PadEdgesAndDtypes) {
  for (st::DType t : {st::f32, st::f64, st::bf16, st::i32, st::u8}) {
    auto f = [](const Array& x, const Array& v) {
      Array p = st::lax::pad(x * x, v, {1, -2}, {-1, 3}, {0, 0});  // negative edges crop
      return p + p;
    };
    Array x = grid({4, 6}, t), v = st::astype(st::full({}, 7.0f), t);
    expect_same(st::jit(f)(x, v), f(x, v), std::string("pad ") + std::string(st::short_name(t)));
  }
}

TEST(PiecewiseFusion, ConcatenatePiecesAndReductions) {
  auto f = [](const Array& a, const Array& b, const Array& c) {
    Array cat = st::concatenate({a * 2.0f, b, c, st::tanh(a)}, 1);  // b has no columns
    return std::make_pair(st::sum(cat * cat, {1}), st::abs(cat));
  };
  Array a = grid({3, 4}), b = st::zeros({3, 0}), c = grid({3, 2}) + 1.0f;
  auto [s, y] = st::jit(f)(a, b, c);
  auto [se, ye] = f(a, b, c);
  expect_same(s, se, "row sums of a concatenate");
  expect_same(y, ye, "concatenate");
}

TEST(PiecewiseFusion, StencilInsideAWhileLoop) {
  // Jacobi-like sweeps: the stencil inside the loop body.
  auto f = [](const Array& u0) {
    return st::fori_loop(0, 5, [](const Array&, const Array& u) { return u - laplacian(u) * 0.1f; }, u0);
  };
  Array u = grid({16, 16});
  expect_same(st::jit(f)(u), f(u), "sweeps");
}
