// Comparisons (bool results, nan compares unequal), NumPy's logical ops, the bitwise operators,
// where with three-way broadcasting, and astype's conversions, against references written here.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <functional>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_array;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::identical;
using st::testing::ref_round;
using st::testing::round_all;
using st::testing::test_values;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }

std::vector<bool> as_bools(const std::vector<double>& v) {
  std::vector<bool> r;
  for (double x : v) r.push_back(x != 0);
  return r;
}

// Round-to-nearest-even of an integer to a float dtype, in integer arithmetic (exact for
// every i64, unlike a detour through double).
double round_int(int64_t v, st::DType to) {
  if (v == 0) return 0;
  int p = to == st::f64 ? 53 : to == st::f32 ? 24 : to == st::f16 ? 11 : 8;
  uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int msb = 63 - __builtin_clzll(u);
  double r;
  if (msb < p) {
    r = static_cast<double>(u);
  } else {
    int shift = msb - (p - 1);
    uint64_t q = u >> shift, rem = u & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
    r = std::ldexp(static_cast<double>(q), shift);
  }
  if (to == st::f16 && r > 65504) r = INFINITY;
  return v < 0 ? -r : r;
}

struct Compare {
  const char* name;
  std::function<st::Array(const st::Array&, const st::Array&)> op;
  bool (*ref)(double, double);
};

std::vector<Compare> compare_cases() {
  return {
      {"equal", [](auto& a, auto& b) { return st::equal(a, b); }, [](double a, double b) { return a == b; }},
      {"not_equal", [](auto& a, auto& b) { return st::not_equal(a, b); }, [](double a, double b) { return a != b; }},
      {"less", [](auto& a, auto& b) { return st::less(a, b); }, [](double a, double b) { return a < b; }},
      {"less_equal", [](auto& a, auto& b) { return st::less_equal(a, b); }, [](double a, double b) { return a <= b; }},
      {"greater", [](auto& a, auto& b) { return st::greater(a, b); }, [](double a, double b) { return a > b; }},
      {"greater_equal", [](auto& a, auto& b) { return st::greater_equal(a, b); }, [](double a, double b) { return a >= b; }},
      {"operator==", [](auto& a, auto& b) { return a == b; }, [](double a, double b) { return a == b; }},
      {"operator!=", [](auto& a, auto& b) { return a != b; }, [](double a, double b) { return a != b; }},
      {"operator<", [](auto& a, auto& b) { return a < b; }, [](double a, double b) { return a < b; }},
      {"operator<=", [](auto& a, auto& b) { return a <= b; }, [](double a, double b) { return a <= b; }},
      {"operator>", [](auto& a, auto& b) { return a > b; }, [](double a, double b) { return a > b; }},
      {"operator>=", [](auto& a, auto& b) { return a >= b; }, [](double a, double b) { return a >= b; }},
  };
}

std::vector<double> compare_values(st::DType t) {
  if (t == st::bool_) return {0, 1};
  if (t == st::i32) return {0, 1, -1, 7, INT_MAX, INT_MIN};
  if (t == st::i64) return {0, 1, -1, 7, 9007199254740992.0, -9007199254740992.0};
  return round_all({0.0, -0.0, 1.0, -1.0, 1.5, 1e-3, NAN, INFINITY, -INFINITY, 1e-40, 65504}, t);
}

TEST(Compare, AllPairsOverEveryDtype) {
  for (const Compare& c : compare_cases()) {
    for (st::DType t : st::kRealDTypes) {  // ordered comparisons (complex: Complex.* tests)
      SCOPED_TRACE(std::string(c.name) + " " + name(t));
      std::vector<double> v = compare_values(t);
      int64_t n = static_cast<int64_t>(v.size());
      st::Array r = c.op(st::array(v, {n, 1}, t), st::array(v, {1, n}, t));
      ASSERT_EQ(r.dtype(), st::bool_);
      ASSERT_EQ(r.shape(), (st::Shape{n, n}));
      EXPECT_FALSE(r.weak_type());
      std::vector<bool> got = r.to_vector<bool>();
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          EXPECT_EQ(got[static_cast<size_t>(i * n + j)], c.ref(v[static_cast<size_t>(i)], v[static_cast<size_t>(j)]))
              << c.name << "(" << v[static_cast<size_t>(i)] << ", " << v[static_cast<size_t>(j)] << ")";
    }
  }
}

TEST(Compare, NanComparesUnequalToEverything) {
  st::Array n = st::array(std::vector<double>{NAN, NAN, NAN}, {3}), x = st::array(std::vector<double>{NAN, 1.0, INFINITY}, {3});
  EXPECT_EQ((n == x).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  EXPECT_EQ((n != x).to_vector<bool>(), (std::vector<bool>{true, true, true}));
  EXPECT_EQ((n < x).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  EXPECT_EQ((n >= x).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  // ±0 are equal.
  EXPECT_TRUE((st::Array(0.0f) == -0.0f).item<bool>());
  EXPECT_FALSE((st::Array(-0.0f) < 0.0f).item<bool>());
}

TEST(Compare, MixedDtypesAndScalarsPromoteFirst) {
  // i32 with f64: compared exactly in f64.
  st::Array i = st::array({16777217, 3}, {2});
  EXPECT_EQ((i == st::array({16777217.0, 3.5}, {2})).to_vector<bool>(), (std::vector<bool>{true, false}));
  // An int array with a weak float scalar: float comparison.
  EXPECT_EQ((i < 3.5f).to_vector<bool>(), (std::vector<bool>{false, true}));
  EXPECT_EQ((2.5 < st::array({2, 3}, {2})).to_vector<bool>(), (std::vector<bool>{false, true}));
  // bool with int: as 0 and 1.
  EXPECT_EQ((st::array({true, false}, {2}) == st::array({1, 1}, {2})).to_vector<bool>(), (std::vector<bool>{true, false}));
  // Broadcasting and empty shapes.
  st::Array r = st::less(st::array({1.f, 2.f, 3.f}, {3, 1}), st::array({2.f, 2.f}, {1, 2}));
  EXPECT_EQ(r.shape(), (st::Shape{3, 2}));
  EXPECT_EQ(r.to_vector<bool>(), (std::vector<bool>{true, true, false, false, false, false}));
  EXPECT_EQ(st::equal(st::zeros({0, 2}), st::zeros({2})).shape(), (st::Shape{0, 2}));
  EXPECT_EQ(st::equal(st::zeros({0, 2}), st::zeros({2})).dtype(), st::bool_);
  // Two scalars: a 0-d bool, never weak.
  st::Array s = st::Array(1) < 2;
  EXPECT_EQ(s.shape(), st::Shape{});
  EXPECT_FALSE(s.weak_type());
  EXPECT_TRUE(s.item<bool>());
}

TEST(Compare, Errors) {
  expect_contains(error_message<st::ShapeError>([] { st::equal(st::zeros({2}), st::zeros({3})); }),
                  "equal: shapes f32[2] and f32[3] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([] { (void)(st::zeros({2, 2}) < st::zeros({3})); }),
                  "less: shapes f32[2,2] and f32[3] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([] { st::greater_equal(st::zeros({4}, st::i32), st::zeros({3})); }),
                  "greater_equal: shapes i32[4] and f32[3]");
}

// ---- Logic ----

TEST(Logic, TruthValuesFollowNumPy) {
  // Non-zero is true (nan included), ±0 are false; results are bool.
  for (st::DType t : st::kAllDTypes) {
    SCOPED_TRACE(name(t));
    std::vector<double> a = t == st::bool_ ? std::vector<double>{0, 1, 0, 1} : std::vector<double>{0, 3, -0.0, -2};
    std::vector<double> b = t == st::bool_ ? std::vector<double>{0, 0, 1, 1} : std::vector<double>{0, 0, 5, -1};
    if (st::supports_nan(t)) a[3] = NAN;
    if (st::is_unsigned_integer(t)) a[3] = 2, b[3] = 1;  // -2.0 would convert to 0
    st::Array x = st::array(a, {4}, t), y = st::array(b, {4}, t);
    st::Array land = st::logical_and(x, y), lor = st::logical_or(x, y), lnot = st::logical_not(x);
    for (const st::Array* r : {&land, &lor, &lnot}) {
      EXPECT_EQ(r->dtype(), st::bool_);
      EXPECT_EQ(r->shape(), st::Shape{4});
    }
    // The values as stored (e8m0fnu's zeros are nan: true).
    std::vector<bool> ta = as_bools(round_all(a, t)), tb = as_bools(round_all(b, t)), want_and, want_or, want_not;
    for (size_t i = 0; i < 4; ++i) {
      want_and.push_back(ta[i] && tb[i]);
      want_or.push_back(ta[i] || tb[i]);
      want_not.push_back(!ta[i]);
    }
    EXPECT_EQ(land.to_vector<bool>(), want_and);
    EXPECT_EQ(lor.to_vector<bool>(), want_or);
    EXPECT_EQ(lnot.to_vector<bool>(), want_not);
  }
}

TEST(Logic, MixedDtypesBroadcastAndScalars) {
  st::Array f = st::array({0.f, 0.5f, NAN}, {3, 1}), i = st::array({0, 7}, {1, 2});
  st::Array r = st::logical_or(f, i);
  EXPECT_EQ(r.shape(), (st::Shape{3, 2}));
  EXPECT_EQ(r.to_vector<bool>(), (std::vector<bool>{false, true, true, true, true, true}));
  EXPECT_EQ(st::logical_and(f, i).to_vector<bool>(), (std::vector<bool>{false, false, false, true, false, true}));
  EXPECT_EQ(st::logical_and(st::array({1, 0}, {2}), 2.5f).to_vector<bool>(), (std::vector<bool>{true, false}));
  EXPECT_EQ(st::logical_not(st::Array(0.0)).item<bool>(), true);
  EXPECT_EQ(st::logical_not(st::zeros({0, 3})).shape(), (st::Shape{0, 3}));
  expect_contains(error_message<st::ShapeError>([] { st::logical_and(st::zeros({2}), st::zeros({3})); }),
                  "logical_and: shapes");
}

TEST(Logic, BitwiseOperatorsOnIntegersAndBools) {
  for (st::DType t : {st::i32, st::i64}) {
    SCOPED_TRACE(name(t));
    std::vector<int64_t> a = {12, 12, -1, 0, 5, INT_MIN}, b = {10, -16, 7, -1, 3, -1};
    st::Array x = st::array(a, {6}, t), y = st::array(b, {6}, t);
    std::vector<int64_t> want_and, want_or, want_not;
    for (size_t i = 0; i < a.size(); ++i) {
      want_and.push_back(a[i] & b[i]);
      want_or.push_back(a[i] | b[i]);
      want_not.push_back(~a[i]);
    }
    st::Array rand = x & y, ror = x | y, rnot = ~x;
    for (const st::Array* r : {&rand, &ror, &rnot}) EXPECT_EQ(r->dtype(), t);
    EXPECT_EQ(rand.to_vector<int64_t>(), want_and);
    EXPECT_EQ(ror.to_vector<int64_t>(), want_or);
    EXPECT_EQ(rnot.to_vector<int64_t>(), want_not);
  }
  // i64 bits above 32.
  int64_t hi = (int64_t{1} << 40) | 5;
  EXPECT_EQ((st::array(std::vector<int64_t>{hi}, {1}) & st::array(std::vector<int64_t>{int64_t{1} << 40}, {1})).to_vector<int64_t>()[0],
            int64_t{1} << 40);
  // Bools: logical.
  st::Array p = st::array({true, true, false, false}, {4}), q = st::array({true, false, true, false}, {4});
  EXPECT_EQ((p & q).dtype(), st::bool_);
  EXPECT_EQ((p & q).to_vector<bool>(), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ((p | q).to_vector<bool>(), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ((~p).to_vector<bool>(), (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ((~p).dtype(), st::bool_);
  // Mixed bool and int promote to int; scalars and broadcasting.
  st::Array m = p & st::array({3, 2, 1, 0}, {4});
  EXPECT_EQ(m.dtype(), st::i32);
  EXPECT_EQ(m.to_vector<int>(), (std::vector<int>{1, 0, 0, 0}));
  EXPECT_EQ((st::array({6, 5}, {2, 1}) | st::array({1, 8}, {1, 2})).to_vector<int>(), (std::vector<int>{7, 14, 5, 13}));
  EXPECT_EQ((st::array({6, 5}, {2}) & 4).to_vector<int>(), (std::vector<int>{4, 4}));
  EXPECT_EQ((3 | st::array({4}, {1})).to_vector<int>(), (std::vector<int>{7}));
  EXPECT_EQ((~st::zeros({0}, st::i32)).shape(), st::Shape{0});
}

TEST(Logic, BitwiseOperatorsRejectFloats) {
  st::Array f = st::zeros({2}), i = st::zeros({2}, st::i32), h = st::zeros({3}, st::f16);
  expect_contains(error_message<st::DTypeError>([&] { (void)(f & i); }), "operator&: expects bool or integer operands, but got f32[2]");
  expect_contains(error_message<st::DTypeError>([&] { (void)(i & f); }), "operator&: expects bool or integer operands, but got f32[2]");
  expect_contains(error_message<st::DTypeError>([&] { (void)(i | h); }), "operator|: expects bool or integer operands, but got f16[3]");
  expect_contains(error_message<st::DTypeError>([&] { (void)(~f); }), "operator~: expects bool or integer operands, but got f32[2]");
  expect_contains(error_message<st::DTypeError>([&] { (void)(i & 1.5f); }), "operator&: expects bool or integer operands, but got f32[]");
  expect_contains(error_message<st::ShapeError>([&] { (void)(i | st::zeros({3}, st::i32)); }), "shapes i32[2] and i32[3] cannot be broadcast");
}

// ---- where ----

TEST(Where, ThreeWayBroadcasting) {
  struct Case {
    st::Shape c, x, y;
  };
  const Case cases[] = {{{3, 1}, {1, 4}, {}},  {{4}, {3, 1}, {3, 4}}, {{}, {2, 3}, {3}},    {{2, 1, 1}, {1, 3, 1}, {1, 1, 4}},
                        {{3, 4}, {}, {}},       {{1}, {5}, {1}},       {{0, 1}, {1, 3}, {3}}, {{2, 3}, {2, 3}, {2, 3}}};
  for (const Case& k : cases) {
    SCOPED_TRACE(st::shape_string(k.c) + " " + st::shape_string(k.x) + " " + st::shape_string(k.y));
    std::vector<double> cv = test_values(static_cast<size_t>(st::num_elements(k.c)), -1, 1, 5);
    for (double& v : cv) v = v > 0 ? 1 : 0;
    std::vector<double> xv = test_values(static_cast<size_t>(st::num_elements(k.x)), 0, 10, 6);
    std::vector<double> yv = test_values(static_cast<size_t>(st::num_elements(k.y)), -10, 0, 7);
    using st::testing::ref_broadcast_index;
    using st::testing::ref_broadcast_shape;
    st::Shape out = ref_broadcast_shape(k.c, ref_broadcast_shape(k.x, k.y));
    std::vector<double> want(static_cast<size_t>(st::num_elements(out)));
    for (int64_t i = 0; i < static_cast<int64_t>(want.size()); ++i)
      want[static_cast<size_t>(i)] = cv[static_cast<size_t>(ref_broadcast_index(out, k.c, i))] != 0
                                         ? xv[static_cast<size_t>(ref_broadcast_index(out, k.x, i))]
                                         : yv[static_cast<size_t>(ref_broadcast_index(out, k.y, i))];
    st::Array r = st::where(st::array(cv, k.c, st::bool_), st::array(xv, k.x, st::f64), st::array(yv, k.y, st::f64));
    expect_exact(r, out, st::f64, want);
  }
}

TEST(Where, ConditionTruthAndPromotion) {
  // A non-bool condition is its truth value (nan is true, -0 false).
  st::Array c = st::array({0.0f, -0.0f, NAN, 2.0f}, {4});
  expect_exact(st::where(c, 1.0f, 0.0f), {4}, st::f32, {0, 0, 1, 1});
  // Branch dtypes promote: i32 with a weak float scalar gives a float; f16 with f32 gives f32.
  st::Array r = st::where(st::array({true, false}, {2}), st::array({1, 2}, {2}), 2.5f);
  EXPECT_TRUE(st::is_floating(r.dtype()));
  expect_exact(r, {2}, r.dtype(), {1, 2.5});
  r = st::where(st::array({true, false}, {2}), st::array({1.0, 2.0}, {2}, st::f16), st::array({3.0, 4.0}, {2}, st::f32));
  expect_exact(r, {2}, st::f32, {1, 4});
  r = st::where(st::array({false, true}, {2}), st::array({1.0, 2.0}, {2}, st::bf16), 7);
  expect_exact(r, {2}, st::bf16, {7, 2});
  r = st::where(st::Array(true), st::array({1, 2}, {2}), st::array(std::vector<int64_t>{3, 4}, {2}));
  EXPECT_EQ(r.dtype(), st::i64);
  EXPECT_EQ(r.to_vector<int64_t>(), (std::vector<int64_t>{1, 2}));
  // nan and signed zero pass through untouched.
  expect_exact(st::where(st::array({true, false}, {2}), st::array(std::vector<double>{NAN, 1.0}, {2}), st::array({0.0, -0.0}, {2})), {2}, st::f64,
               {NAN, -0.0});
  // Bool branches.
  EXPECT_EQ(st::where(st::array({true, false}, {2}), st::Array(true), st::Array(false)).to_vector<bool>(),
            (std::vector<bool>{true, false}));
}

TEST(Where, Errors) {
  expect_contains(error_message<st::ShapeError>([] { st::where(st::zeros({2}, st::bool_), st::zeros({3}), 0.0f); }),
                  "where: shapes bool[2], f32[3] and f32[] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([] { st::where(st::zeros({2}, st::bool_), st::zeros({3}), st::zeros({4})); }),
                  "where: shapes bool[2], f32[3] and f32[4]");
}

// ---- astype ----

TEST(Astype, FloatToIntTruncatesSaturatesAndMapsNanToZero) {
  for (st::DType from : st::testing::kFloatTypes) {
    SCOPED_TRACE(name(from));
    std::vector<double> x = round_all({2.7, -2.7, 0.5, -0.5, -0.0, 1e10, -1e10, NAN, INFINITY, -INFINITY, 100.25, -99.75}, from);
    st::Array a = st::array(x, {static_cast<int64_t>(x.size())}, from);
    auto ref = [&](double v, double lo, double hi) {
      if (std::isnan(v)) return 0.0;
      if (v <= lo) return lo;
      if (v >= hi) return hi;
      return std::trunc(v);
    };
    std::vector<int32_t> w32;
    std::vector<int64_t> w64;
    for (double v : x) {
      w32.push_back(static_cast<int32_t>(ref(v, INT_MIN, INT_MAX)));
      w64.push_back(v >= 9223372036854775807.0 ? std::numeric_limits<int64_t>::max()
                    : v <= -9223372036854775808.0 ? std::numeric_limits<int64_t>::min()
                    : static_cast<int64_t>(ref(v, -9223372036854775808.0, 9223372036854775807.0)));
    }
    st::Array r32 = st::astype(a, st::i32), r64 = st::astype(a, st::i64);
    EXPECT_EQ(r32.dtype(), st::i32);
    EXPECT_EQ(r64.dtype(), st::i64);
    EXPECT_EQ(r32.to_vector<int32_t>(), w32);
    EXPECT_EQ(r64.to_vector<int64_t>(), w64);
  }
  // The edges of the integer ranges.
  EXPECT_EQ(st::astype(st::array({2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f}, {4}), st::i32).to_vector<int32_t>(),
            (std::vector<int32_t>{2147483520, INT_MAX, INT_MIN, INT_MIN}));
  EXPECT_EQ(st::astype(st::array({2147483647.9, -2147483648.9, 9.3e18, -9.3e18}, {4}), st::i32).to_vector<int32_t>(),
            (std::vector<int32_t>{INT_MAX, INT_MIN, INT_MAX, INT_MIN}));
  EXPECT_EQ(st::astype(st::array({9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0, 1e300}, {4}), st::i64)
                .to_vector<int64_t>(),
            (std::vector<int64_t>{9223372036854774784, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max()}));
}

TEST(Astype, ToBoolIsNonZeroAndBoolToNumberIsZeroOrOne) {
  for (st::DType from : st::kAllDTypes) {
    SCOPED_TRACE(name(from));
    std::vector<double> x = from == st::bool_ ? std::vector<double>{0, 1} : std::vector<double>{0, -0.0, 1, -3, 0.25};
    if (st::is_floating(from)) x.insert(x.end(), {NAN, INFINITY, -INFINITY, 1e-40});
    x = round_all(x, from);
    st::Array b = st::astype(st::array(x, {static_cast<int64_t>(x.size())}, from), st::bool_);
    EXPECT_EQ(b.dtype(), st::bool_);
    EXPECT_EQ(b.to_vector<bool>(), as_bools(x));
  }
  st::Array t = st::array({true, false, true}, {3});
  for (st::DType to : st::kAllDTypes) {
    SCOPED_TRACE(name(to));
    expect_exact(st::astype(t, to), {3}, to, round_all({1, 0, 1}, to));  // e8m0fnu's 0 is nan
  }
}

TEST(Astype, RoundsToNearestEvenInBf16AndF16) {
  // The reference rounds with frexp/nearbyint, independently of the library's conversion.
  for (st::DType to : {st::bf16, st::f16, st::f32}) {
    SCOPED_TRACE(name(to));
    std::vector<double> x = test_values(2000, -3, 3, 21);
    for (double& v : x) v = std::ldexp(v, static_cast<int>(std::fmod(std::fabs(v) * 1e6, 40)) - 20);
    // Ties and near-ties at 1 and in the subnormals, overflow thresholds, specials.
    for (double e : {-7.0, -10.0, -23.0}) {
      double h = std::ldexp(1.0, static_cast<int>(e) - 1);  // half an ULP of 1
      x.insert(x.end(), {1 + h, 1 + 3 * h, 1 + h + std::ldexp(1.0, -40), 1 + h - std::ldexp(1.0, -40), -(1 + h), 2 - h / 2});
    }
    x.insert(x.end(), {65504, 65519.99, 65520, 1e5, 3.3895313892515355e38, 3.4e38, 1e39, std::ldexp(1.0, -24), std::ldexp(1.0, -25),
                       std::ldexp(3.0, -26), std::ldexp(1.0, -133), std::ldexp(1.0, -134), std::ldexp(3.0, -135), std::ldexp(1.0, -149),
                       std::ldexp(1.0, -150), std::ldexp(3.0, -151), 1e-300, -0.0, 0.0, NAN, INFINITY, -INFINITY, 0.1, 1.0 / 3});
    std::vector<double> want;
    for (double v : x) want.push_back(ref_round(v, to));
    st::Array a = st::array(x, {static_cast<int64_t>(x.size())}, st::f64);
    expect_exact(st::astype(a, to), {static_cast<int64_t>(x.size())}, to, want);
    // Also straight from the data, as array() converts.
    expect_exact(st::array(x, {static_cast<int64_t>(x.size())}, to), {static_cast<int64_t>(x.size())}, to, want);
  }
}

TEST(Astype, BetweenHalfTypesAndFromIntegers) {
  // f32 → bf16/f16 and between the two half types: one rounding of the exact value.
  std::vector<double> x = round_all(test_values(500, -70000, 70000, 31), st::f32);
  for (st::DType from : {st::f32, st::f16, st::bf16}) {
    std::vector<double> src = round_all(x, from);
    for (st::DType to : {st::f32, st::f16, st::bf16, st::f64}) {
      SCOPED_TRACE(name(from) + " -> " + name(to));
      std::vector<double> want;
      for (double v : src) want.push_back(ref_round(v, to));
      expect_exact(st::astype(st::array(src, {500}, from), to), {500}, to, want);
    }
  }
  // Integers: exact below 2^24 in f32, rounded to nearest even above; to the half types with
  // one rounding (no double rounding through f32).
  std::vector<int64_t> ints = {0, 1, -1, 16777217, 16777219, -16777217, 65505, 65519, 65520, 65536, 300, 257, 259,
                               (1 << 24) + (1 << 16) + 1, INT_MAX, INT_MIN};
  std::vector<int64_t> longs = ints;
  longs.insert(longs.end(), {(int64_t{1} << 60) + 1, (int64_t{1} << 53) + 1, -(int64_t{1} << 62) - 3,
                             (int64_t{1} << 40) + (int64_t{1} << 32) + 1, std::numeric_limits<int64_t>::max()});
  for (st::DType from : {st::i32, st::i64}) {
    const std::vector<int64_t>& src = from == st::i32 ? ints : longs;
    for (st::DType to : {st::f64, st::f32, st::f16, st::bf16}) {
      SCOPED_TRACE(name(from) + " -> " + name(to));
      std::vector<double> want;
      for (int64_t v : src) want.push_back(round_int(v, to));
      st::Array r = st::astype(st::array(src, {static_cast<int64_t>(src.size())}, from), to);
      expect_exact(r, {static_cast<int64_t>(src.size())}, to, want);
    }
  }
}

TEST(Astype, SameDtypeAndWeakness) {
  st::Array x = st::array({1.f, 2.f}, {2});
  st::Array y = st::astype(x, st::f32);
  EXPECT_EQ(y.to_vector<float>(), x.to_vector<float>());
  // astype makes a strong type.
  st::Array w = st::astype(st::Array(2.0f), st::f32);
  EXPECT_FALSE(w.weak_type());
  EXPECT_EQ(st::astype(st::Array(3), st::f16).dtype(), st::f16);
  EXPECT_FALSE(st::astype(st::Array(3), st::f16).weak_type());
  // Empty arrays and size-1 dims keep their shape.
  EXPECT_EQ(st::astype(st::zeros({2, 0}), st::i64).shape(), (st::Shape{2, 0}));
  EXPECT_EQ(st::astype(st::zeros({1, 1}), st::bool_).shape(), (st::Shape{1, 1}));
}

}  // namespace
