// The integer bit operations shift_left, shift_right_arithmetic (jax.lax semantics: out-of-range
// shift amounts) and xor (operator^, also on bools) against plain-loop references over i32 and
// i64, jit against eager, and their dtype errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

template <class T>
std::vector<T> amounts() {
  const T w = static_cast<T>(sizeof(T) * 8);
  return {0, 1, 3, static_cast<T>(w - 1), w, static_cast<T>(w + 1), 100, -1, -5, std::numeric_limits<T>::min()};
}

template <class T>
std::vector<T> operands() {
  return {0, 1, -1, 5, -6, 12345, -98765, std::numeric_limits<T>::max(), std::numeric_limits<T>::min()};
}

template <class T>
T ref_shl(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (b < 0 || b >= static_cast<T>(sizeof(T) * 8)) return 0;
  U r = static_cast<U>(a);
  for (T i = 0; i < b; ++i) r = static_cast<U>(r * 2u);  // multiplication, not <<, as the reference
  return static_cast<T>(r);
}

template <class T>
T ref_sra(T a, T b) {
  if (b < 0 || b >= static_cast<T>(sizeof(T) * 8)) return a < 0 ? T(-1) : T(0);
  T r = a;
  for (T i = 0; i < b; ++i) r = static_cast<T>(r < 0 ? -((-(r + 1)) / 2) - 1 : r / 2);  // floor(r / 2)
  return r;
}

template <class T>
void check(st::DType t) {
  SCOPED_TRACE(st::short_name(t));
  std::vector<T> xs, ys;
  for (T a : operands<T>())
    for (T b : amounts<T>()) xs.push_back(a), ys.push_back(b);
  int64_t n = static_cast<int64_t>(xs.size());
  Array x = st::array(std::vector<T>(xs), {n}), y = st::array(std::vector<T>(ys), {n});
  ASSERT_EQ(x.dtype(), t);
  auto shl = [](const Array& a, const Array& b) { return st::shift_left(a, b); };
  auto sra = [](const Array& a, const Array& b) { return st::shift_right_arithmetic(a, b); };
  auto xr = [](const Array& a, const Array& b) { return a ^ b; };
  std::vector<T> l = shl(x, y).template to_vector<T>(), r = sra(x, y).template to_vector<T>(), e = xr(x, y).template to_vector<T>();
  std::vector<T> lj = st::jit(shl)(x, y).template to_vector<T>(), rj = st::jit(sra)(x, y).template to_vector<T>(), ej = st::jit(xr)(x, y).template to_vector<T>();
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_EQ(l[i], ref_shl(xs[i], ys[i])) << xs[i] << " << " << ys[i];
    EXPECT_EQ(r[i], ref_sra(xs[i], ys[i])) << xs[i] << " >> " << ys[i];
    EXPECT_EQ(e[i], static_cast<T>(xs[i] ^ ys[i])) << xs[i] << " ^ " << ys[i];
    EXPECT_EQ(lj[i], l[i]) << "jit " << xs[i] << " << " << ys[i];
    EXPECT_EQ(rj[i], r[i]) << "jit " << xs[i] << " >> " << ys[i];
    EXPECT_EQ(ej[i], e[i]) << "jit " << xs[i] << " ^ " << ys[i];
  }
}

}  // namespace

TEST(BitOps, ShiftsAndXorOverIntegerDtypes) {
  check<int32_t>(st::i32);
  check<int64_t>(st::i64);
}

namespace {

template <class T>
void check_counts(st::DType t) {
  SCOPED_TRACE(st::short_name(t));
  std::vector<T> xs = operands<T>();
  for (T v : {T(2), T(255), T(256), T(-256), static_cast<T>(T(1) << (sizeof(T) * 8 - 2))}) xs.push_back(v);
  int64_t n = static_cast<int64_t>(xs.size());
  Array x = st::array(std::vector<T>(xs), {n});
  auto pc = [](const Array& a) { return st::population_count(a); };
  auto lz = [](const Array& a) { return st::clz(a); };
  std::vector<T> p = pc(x).template to_vector<T>(), z = lz(x).template to_vector<T>();
  std::vector<T> pj = st::jit(pc)(x).template to_vector<T>(), zj = st::jit(lz)(x).template to_vector<T>();
  ASSERT_EQ(pc(x).dtype(), t);
  for (size_t i = 0; i < xs.size(); ++i) {
    // References bit by bit, from the top.
    using U = std::make_unsigned_t<T>;
    U u = static_cast<U>(xs[i]);
    T ones = 0, lead = 0;
    bool seen = false;
    for (int k = static_cast<int>(sizeof(T) * 8) - 1; k >= 0; --k) {
      bool bit = (u >> k) & 1u;
      ones = static_cast<T>(ones + bit);
      seen = seen || bit;
      if (!seen) ++lead;
    }
    EXPECT_EQ(p[i], ones) << "population_count(" << xs[i] << ")";
    EXPECT_EQ(z[i], lead) << "clz(" << xs[i] << ")";
    EXPECT_EQ(pj[i], p[i]) << "jit population_count(" << xs[i] << ")";
    EXPECT_EQ(zj[i], z[i]) << "jit clz(" << xs[i] << ")";
  }
}

}  // namespace

TEST(BitOps, PopulationCountAndClz) {
  check_counts<int32_t>(st::i32);
  check_counts<int64_t>(st::i64);
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { st::clz(st::array({1.0f}, {1})); }), "clz");
  st::testing::expect_contains(
      st::testing::error_message<st::DTypeError>([&] { st::population_count(st::array({1}, {1}, st::bool_)); }), "population_count");
}

TEST(BitOps, XorOfBoolsAndBroadcasting) {
  Array a = st::array({0, 0, 1, 1}, {4}, st::bool_), b = st::array({0, 1, 0, 1}, {4}, st::bool_);
  Array r = a ^ b;
  EXPECT_EQ(r.dtype(), st::bool_);
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(st::jit([](const Array& u, const Array& v) { return u ^ v; })(a, b).to_vector<double>(), (std::vector<double>{0, 1, 1, 0}));
  // A weak scalar broadcasts and keeps the array's dtype.
  Array s = st::shift_left(st::array({1, 2, 3}, {3}, st::i64), st::Array(2));
  EXPECT_EQ(s.dtype(), st::i64);
  EXPECT_EQ(s.to_vector<double>(), (std::vector<double>{4, 8, 12}));
  EXPECT_EQ((st::array({6, 5}, {2}) ^ 3).to_vector<double>(), (std::vector<double>{5, 6}));
}

TEST(BitOps, RejectFloatOperands) {
  Array f = st::array({1.0f}, {1}), i = st::array({1}, {1});
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)(f ^ i); }), "operator^");
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { st::shift_left(f, i); }), "shift_left");
  st::testing::expect_contains(
      st::testing::error_message<st::DTypeError>([&] { st::shift_right_arithmetic(i, st::array({1}, {1}, st::bool_)); }),
      "shift_right_arithmetic");
}
