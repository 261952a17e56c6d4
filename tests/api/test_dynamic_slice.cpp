// dynamic_slice / dynamic_update_slice (strata/indexing.h): against plain loops over dtypes,
// clamped and negative starts, traced starts; jit ≡ eager; derivatives; vmap.
#include <gtest/gtest.h>

#include "autodiff/check_grads.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

Array iota_f(const st::Shape& s, st::DType t) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return st::astype(st::reshape(st::arange(0.0, static_cast<double>(n), 1.0, st::f64), s), t);
}

// Reference: the start JAX uses (negative counted from the end, then clamped).
int64_t ref_start(int64_t s, int64_t dim, int64_t size) {
  if (s < 0) s += dim;
  return std::clamp<int64_t>(s, 0, dim - size);
}

std::vector<double> ref_dynamic_slice(const std::vector<double>& x, int64_t rows, int64_t cols, int64_t r0, int64_t c0,
                                      int64_t nr, int64_t nc) {
  r0 = ref_start(r0, rows, nr);
  c0 = ref_start(c0, cols, nc);
  std::vector<double> out;
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t j = 0; j < nc; ++j) out.push_back(x[static_cast<size_t>((r0 + i) * cols + c0 + j)]);
  return out;
}

std::vector<double> ref_update(std::vector<double> x, int64_t cols, int64_t rows, const std::vector<double>& u, int64_t nr,
                               int64_t nc, int64_t r0, int64_t c0) {
  r0 = ref_start(r0, rows, nr);
  c0 = ref_start(c0, cols, nc);
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t j = 0; j < nc; ++j) x[static_cast<size_t>((r0 + i) * cols + c0 + j)] = u[static_cast<size_t>(i * nc + j)];
  return x;
}

const std::vector<std::pair<int64_t, int64_t>> kStarts = {{0, 0}, {1, 2}, {3, 4}, {4, 100}, {-1, -2}, {-100, 2}, {2, -7}};

TEST(DynamicSlice, MatchesLoopsOverDtypesAndStarts) {
  for (st::DType t : {st::f32, st::f64, st::i32, st::bf16, st::i64}) {
    Array x = iota_f({5, 6}, t);
    std::vector<double> xv = values(x);
    for (auto [r, c] : kStarts) {
      SCOPED_TRACE(std::string(st::short_name(t)) + " start " + std::to_string(r) + "," + std::to_string(c));
      Array y = st::dynamic_slice(x, {r, c}, {2, 3});
      expect_exact(y, {2, 3}, t, ref_dynamic_slice(xv, 5, 6, r, c, 2, 3));
      Array u = st::astype(iota_f({2, 3}, st::f64) * -1.0 - 1.0, t);
      Array z = st::dynamic_update_slice(x, u, {r, c});
      expect_exact(z, {5, 6}, t, ref_update(xv, 6, 5, values(u), 2, 3, r, c));
    }
  }
}

TEST(DynamicSlice, JitMatchesEagerWithTracedStarts) {
  auto f = [](const Array& x, const Array& i, const Array& j) {
    Array s = st::dynamic_slice(x, {i, j}, {3, 2});
    return st::dynamic_update_slice(x, s * 10.0f, {j, i});
  };
  auto jf = st::jit(f);
  Array x = iota_f({6, 7}, st::f32);
  for (auto [r, c] : kStarts) {
    Array i = Array(static_cast<int32_t>(r)), j = Array(static_cast<int32_t>(c));
    i = st::astype(i, st::i32);
    j = st::astype(j, st::i32);
    EXPECT_EQ(values(jf(x, i, j)), values(f(x, i, j))) << r << "," << c;
  }
  // int64 starts convert; 0-sized boxes and 0-d operands work.
  Array i64 = st::astype(Array(3), st::i64);
  EXPECT_EQ(st::dynamic_slice(x, {i64, i64}, {0, 2}).shape(), (st::Shape{0, 2}));
  EXPECT_EQ(values(st::dynamic_slice(Array(2.5f), {}, {})), std::vector<double>{2.5});
}

TEST(DynamicSlice, ErrorsNameTheOpAndShapes) {
  Array x = st::zeros({4, 5});
  expect_contains(error_message<st::ValueError>([&] { st::dynamic_slice(x, {1}, {2, 2}); }),
                  "dynamic_slice: expects 2 start indices for f32[4,5]");
  expect_contains(error_message<st::ShapeError>([&] { st::dynamic_slice(x, {1, 1}, {2, 6}); }),
                  "dynamic_slice: expects slice sizes within the operand f32[4,5], but got [2, 6]");
  expect_contains(error_message<st::DTypeError>([&] { st::dynamic_slice(x, {1.5f, 1}, {2, 2}); }),
                  "dynamic_slice: expects integer scalar start indices");
  expect_contains(error_message<st::ShapeError>([&] { st::dynamic_update_slice(x, st::zeros({5, 1}), {0, 0}); }),
                  "dynamic_update_slice: expects an update of the operand's rank and no larger, but got f32[5,1] for f32[4,5]");
}

TEST(DynamicSlice, DerivativesMatchFiniteDifferences) {
  Array x = st::random::normal(st::random::key(3), {5, 6}, st::f64);
  Array u = st::random::normal(st::random::key(4), {2, 3}, st::f64);
  for (auto [r, c] : kStarts) {
    Array i = st::astype(Array(static_cast<int32_t>(r)), st::i32), j = st::astype(Array(static_cast<int32_t>(c)), st::i32);
    check_grads([&](const std::vector<Array>& v) { return st::dynamic_slice(v[0] * v[0], {i, j}, {2, 3}); }, {x}, "slice");
    check_grads([&](const std::vector<Array>& v) { return st::dynamic_update_slice(st::sin(v[0]), v[1] * v[1], {i, j}); },
                {x, u}, "update");
  }
  // The gradient of a slice is one in the (clamped) box and zero elsewhere.
  Array g = st::grad([](const Array& v) { return st::sum(st::dynamic_slice(v, {4, -1}, {2, 2})); })(st::zeros({5, 6}, st::f64));
  std::vector<double> want(30, 0.0);
  for (int64_t a = 3; a < 5; ++a)
    for (int64_t b = 4; b < 6; ++b) want[static_cast<size_t>(a * 6 + b)] = 1;
  EXPECT_EQ(values(g), want);
}

TEST(DynamicSlice, VmapOverOperandAndUpdate) {
  Array xs = iota_f({3, 5, 6}, st::f32);
  Array us = iota_f({3, 2, 2}, st::f32) * -1.0f;
  Array got = st::vmap([](const Array& x) { return st::dynamic_slice(x, {2, 3}, {2, 2}); })(xs);
  Array got2 = st::vmap([](const Array& x, const Array& u) { return st::dynamic_update_slice(x, u, {4, 1}); })(xs, us);
  Array shared = st::vmap([](const Array& u, const Array& x) { return st::dynamic_update_slice(x, u, {0, 5}); },
                          {0, std::nullopt})(us, xs.shape(0) > 0 ? st::zeros({5, 6}) : xs);
  for (int64_t b = 0; b < 3; ++b) {
    Array x = st::squeeze(st::slice(xs, {b}, {b + 1}), 0), u = st::squeeze(st::slice(us, {b}, {b + 1}), 0);
    EXPECT_EQ(values(st::squeeze(st::slice(got, {b}, {b + 1}), 0)), values(st::dynamic_slice(x, {2, 3}, {2, 2})));
    EXPECT_EQ(values(st::squeeze(st::slice(got2, {b}, {b + 1}), 0)), values(st::dynamic_update_slice(x, u, {4, 1})));
    EXPECT_EQ(values(st::squeeze(st::slice(shared, {b}, {b + 1}), 0)),
              values(st::dynamic_update_slice(st::zeros({5, 6}), u, {0, 5})));
  }
}

}  // namespace
