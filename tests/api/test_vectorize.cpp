// st::vectorize (jnp.vectorize): elementwise and gufunc signatures, broadcasting of the loop
// dimensions (size-1 dimensions shared), several outputs, pass-through arguments, jit and
// grad through it, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

Array seq(const st::Shape& shape, double a, double b) { return st::testing::sin_sequence(shape, a, b); }

TEST(Vectorize, ElementwiseBroadcasts) {
  const Array x = seq({3, 1}, 0.3, 0.1), y = seq({4}, 0.7, 0.2);
  int calls = 0;
  auto f = st::vectorize([&](const Array& a, const Array& b) {
    ++calls;
    EXPECT_EQ(a.ndim(), 0);  // f sees one element of each
    return a * b + st::sin(a);
  });
  const Array r = f(x, y);
  EXPECT_EQ(r.shape(), (st::Shape{3, 4}));
  EXPECT_EQ(calls, 1);  // traced once
  st::testing::expect_relative(r, values(x * y + st::sin(x)), 1e-15, 1e-15);
}

TEST(Vectorize, GufuncSignatureBroadcastsLoopDimensions) {
  const Array m = seq({2, 1, 3, 4}, 0.3, 0.1), v = seq({5, 4}, 0.5, 0.4);
  auto matvec = st::vectorize(
      [](const Array& a, const Array& b) {
        EXPECT_EQ(a.shape(), (st::Shape{3, 4}));
        EXPECT_EQ(b.shape(), (st::Shape{4}));
        return st::matmul(a, b);
      },
      "(m,n),(n)->(m)");
  const Array r = matvec(m, v);
  ASSERT_EQ(r.shape(), (st::Shape{2, 5, 3}));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      SCOPED_TRACE(std::to_string(i) + "," + std::to_string(j));
      st::testing::expect_relative(r[i][j], values(st::matmul(m[i][0], v[j])), 1e-14, 1e-14);
    }
  // Size-1 loop dimensions are not mapped: the shared matrix enters the vmap unbatched, so
  // the jaxpr has a plain dot_general of [3,4] by a batch of vectors.
  const Array one = seq({1, 3, 4}, 0.3, 0.1);
  std::string text = st::make_jaxpr(matvec)(one, v).to_string();
  EXPECT_EQ(matvec(one, v).shape(), (st::Shape{5, 3}));
  EXPECT_EQ(text.find("f64[5,3,4]"), std::string::npos) << text;
}

TEST(Vectorize, SeveralOutputsPassThroughJitGrad) {
  const Array x = seq({3, 6}, 0.9, 0.3);
  auto extremes = st::vectorize([](const Array& row) { return std::make_tuple(st::min(row), st::max(row)); },
                                "(n)->(),()");
  auto [lo, hi] = extremes(x);
  st::testing::expect_relative(lo, values(st::min(x, {1})), 0, 0);
  st::testing::expect_relative(hi, values(st::max(x, {1})), 0, 0);

  // A non-Array argument passes through unchanged (jnp.vectorize's excluded).
  auto power = st::vectorize([](const Array& a, int k) { return st::integer_pow(a, k); });
  st::testing::expect_relative(power(x, 3), values(x * x * x), 1e-15, 1e-15);

  auto norms = st::vectorize([](const Array& row) { return st::sqrt(st::sum(row * row)); }, "(n)->()");
  st::testing::expect_relative(st::jit(norms)(x), values(norms(x)), 1e-15, 1e-15);
  // d/dx Σ‖row‖ = row / ‖row‖.
  const Array g = st::grad([&](const Array& a) { return st::sum(norms(a)); })(x);
  st::testing::expect_relative(g, values(x / st::reshape(norms(x), {3, 1})), 1e-14, 1e-14);
  // Zero loop dimensions: f applied once.
  st::testing::expect_relative(norms(x[0]), values(st::sqrt(st::sum(x[0] * x[0]))), 1e-15, 1e-15);
}

TEST(Vectorize, Errors) {
  const Array m = seq({2, 3, 4}, 0.3, 0.1), v = seq({5}, 0.5, 0.4);
  auto matvec = st::vectorize([](const Array& a, const Array& b) { return st::matmul(a, b); }, "(m,n),(n)->(m)");
  st::testing::expect_error([&] { matvec(m, v); }, "vectorize: inconsistent size for core dimension 'n': 4 and 5");
  st::testing::expect_error([&] { matvec(v, v); }, "vectorize: input 0 f64[5] has fewer dimensions than its core (m,n)");
  st::testing::expect_error([&] { matvec(m, seq({3, 4}, 0.1, 0.1)); }, "vectorize: loop dimensions of input 1 f64[3,4]");
  auto one_input = st::vectorize([](const Array& a) { return a; }, "(m),(n)->(m)");
  st::testing::expect_error([&] { one_input(m); }, "the signature has 2 inputs, but the function was called with 1 arrays");
  st::testing::expect_error([&] { st::vectorize([](const Array& a) { return a; }, "(n)->(n"); },
                            "vectorize: not a valid gufunc signature: \"(n)->(n\"");
  auto wrong = st::vectorize([](const Array& a) { return st::sum(a); }, "(n)->(n)");
  st::testing::expect_error([&] { wrong(m); }, "vectorize: output 0 f64[] does not match its core dimensions (n)");
  auto two = st::vectorize([](const Array& a) { return a; }, "(n)->(n),(n)");
  st::testing::expect_error([&] { two(m); }, "the function returned 1 arrays, but the signature has 2 outputs");
}

}  // namespace
