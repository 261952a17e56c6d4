// strata/aliases.h (jax.numpy's other spellings) and shift_right_logical: each alias equals the
// op it names; the shifts against values worked out by hand (as JAX gives them: -8 >> 1 logical
// on i32 is 2^31 - 4; past the bit width, 0 or the sign fill); the errors.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_exact;
using st::testing::values;

namespace {

TEST(Aliases, SameAsTheOpsTheyName) {
  Array x = st::testing::sin_sequence({6}, 0.9, 0.1) * 0.9, y = st::testing::sin_sequence({6}, 0.4, 0.7) + 2.0;
  auto same = [](const Array& a, const Array& b) {
    EXPECT_EQ(a.dtype(), b.dtype());
    EXPECT_EQ(a.shape(), b.shape());
    EXPECT_EQ(values(a), values(b));
  };
  same(st::arccos(x), st::acos(x));
  same(st::arcsin(x), st::asin(x));
  same(st::arctan(x), st::atan(x));
  same(st::arcsinh(x), st::asinh(x));
  same(st::arccosh(y), st::acosh(y));
  same(st::arctanh(x), st::atanh(x));
  same(st::arctan2(x, y), st::atan2(x, y));
  same(st::absolute(x), st::abs(x));
  same(st::pow(y, x), st::power(y, x));
  same(st::mod(y, x), st::remainder(y, x));
  same(st::true_divide(x, y), st::divide(x, y));
  same(st::positive(x), x);
  same(st::around(y * 3.0), st::round(y * 3.0));
  same(st::fix(-y), st::trunc(-y));
  same(st::degrees(x), st::rad2deg(x));
  same(st::radians(x), st::deg2rad(x));
  same(st::isfinite(st::log(x)), st::is_finite(st::log(x)));
  Array m = st::reshape(st::concatenate({x, y}), {3, 4});
  same(st::amax(m, {1}), st::max(m, {1}));
  same(st::amin(m, {0}, true), st::min(m, {0}, true));
  same(st::concat({x, y}), st::concatenate({x, y}));
  // dot: every rank combination against matmul / tensordot / a product.
  Array a3 = st::testing::sin_sequence({2, 3, 4}, 0.3, 0.2), b3 = st::testing::sin_sequence({5, 4, 6}, 0.6, 0.1);
  Array m2 = st::testing::sin_sequence({4, 6}, 0.2, 0.5), v4 = st::testing::sin_sequence({4}, 0.8, 0.3);
  EXPECT_EQ(st::dot(a3, b3).shape(), (st::Shape{2, 3, 5, 6}));
  st::testing::expect_relative(st::dot(a3, b3), values(st::tensordot(a3, b3, std::vector<int>{2}, std::vector<int>{1})), 1e-14, 1e-15);
  st::testing::expect_relative(st::dot(a3, v4), values(st::matmul(a3, v4)), 1e-14, 1e-15);
  st::testing::expect_relative(st::dot(v4, m2), values(st::matmul(v4, m2)), 1e-14, 1e-15);
  st::testing::expect_relative(st::dot(v4, v4), {st::sum(v4 * v4).item<double>()}, 1e-14);
  st::testing::expect_relative(st::dot(Array(2.0), m2), values(m2 * 2.0), 0);
  st::testing::expect_error([&] { st::dot(a3, m2[st::Slice(0, 3)]); }, "dot: a f64[2,3,4] and b f64[3,6] differ in the contracted dimension");
  same(st::conjugate(x), st::conj(x));
  same(st::empty_like(x), st::zeros_like(x));
  same(st::copy(x), x);
  // fabs: integers become floats; complex is refused (abs is the modulus).
  Array ints = st::array<int32_t>({-3, 0, 7}, {3});
  expect_exact(st::fabs(ints), {3}, st::f32, {3, 0, 7});
  st::testing::expect_error([&] { st::fabs(st::complex(x, y)); }, "fabs: expects a real operand, but got c128[6]");
  st::testing::expect_error([&] { st::positive(x > 0.0); }, "positive: expects a numeric operand, but got bool[6]");
}

TEST(Aliases, BitwiseAndShifts) {
  Array a = st::array<int32_t>({12, -8, 5, -1}, {4}), b = st::array<int32_t>({10, 3, 1, 0}, {4});
  expect_exact(st::bitwise_and(a, b), {4}, st::i32, {8, 0, 1, 0});
  expect_exact(st::bitwise_or(a, b), {4}, st::i32, {14, -5, 5, -1});
  expect_exact(st::bitwise_xor(a, b), {4}, st::i32, {6, -5, 4, -1});
  expect_exact(st::bitwise_not(a), {4}, st::i32, {-13, 7, -6, 0});
  expect_exact(st::invert(a), {4}, st::i32, {-13, 7, -6, 0});
  Array t = st::array<bool>({true, false, true, false}, {4}), f = st::array<bool>({true, true, false, false}, {4});
  expect_exact(st::bitwise_and(t, f), {4}, st::bool_, {1, 0, 0, 0});
  expect_exact(st::bitwise_not(t), {4}, st::bool_, {0, 1, 0, 1});
  // Shifts by 1, 4, 31 and 32 (past the width: 0, or the sign fill for arithmetic).
  Array s = st::array<int32_t>({1, 4, 31, 32}, {4});
  Array v = st::full({4}, -8.0, st::i32);
  expect_exact(st::shift_right_logical(v, s), {4}, st::i32, {2147483644, 268435455, 1, 0});
  expect_exact(st::right_shift(v, s), {4}, st::i32, {-4, -1, -1, -1});
  expect_exact(st::bitwise_right_shift(v, s), {4}, st::i32, {-4, -1, -1, -1});
  expect_exact(st::left_shift(st::full({4}, 3.0, st::i32), s), {4}, st::i32, {6, 48, -2147483648.0, 0});
  expect_exact(st::bitwise_left_shift(st::full({4}, 3.0, st::i32), s), {4}, st::i32, {6, 48, -2147483648.0, 0});
  // Unsigned: right_shift is logical.
  Array u = st::full({4}, 4294967288.0, st::u32);  // 2^32 - 8
  expect_exact(st::right_shift(u, st::astype(s, st::u32)), {4}, st::u32, {2147483644, 268435455, 1, 0});
  // Traced: the same program under jit.
  auto f_jit = st::jit([](const Array& p, const Array& q) { return st::shift_right_logical(p, q); });
  expect_exact(f_jit(v, s), {4}, st::i32, {2147483644, 268435455, 1, 0});
  st::testing::expect_error([&] { st::shift_right_logical(st::full({2}, 1.0), st::full({2}, 1.0)); },
                            "shift_right_logical: expects integer operands, but got f32[2]");
  st::testing::expect_error([&] { st::bitwise_and(st::full({2}, 1.0), st::full({2}, 1.0)); }, "f32");
}

}  // namespace
