// tests/test_util.h — helpers shared by the tests: building arrays, reading them back as
// doubles, and comparing against references computed independently in the test.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace strata::testing {

// The elements of `a` as doubles (bools as 0/1), row-major.
inline std::vector<double> values(const Array& a) { return a.to_vector<double>(); }

// Rounds `v` to what dtype `t` can hold (f32, bf16 or f16 rounding; integer truncation),
// so that references computed in double can be compared with results stored in `t`.
inline double round_to(double v, DType t) {
  Array a = array(std::vector<double>{v}, {1}, f64);
  return astype(a, t).to_vector<double>()[0];
}

// Units in the last place of dtype t near |v| (for float tolerances).
inline double ulp(double v, DType t) {
  int mant = t == f64 ? 52 : t == f32 ? 23 : t == f16 ? 10 : 7;
  double m = std::fabs(v);
  if (m < std::numeric_limits<double>::min() || !std::isfinite(m)) m = std::ldexp(1.0, t == f64 ? -1022 : t == f32 ? -126 : t == f16 ? -14 : -126);
  return std::ldexp(1.0, std::ilogb(m) - mant);
}

// True when got and want agree: both nan, equal infinities, or within `ulps` ULPs of t (or
// an absolute `atol`).
inline bool close(double got, double want, DType t, double ulps = 4, double atol = 0) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  if (std::isnan(got) || std::isinf(got)) return false;
  return std::fabs(got - want) <= std::max(ulps * ulp(want, t), atol);
}

// EXPECT that `a` has `shape`, `dtype` and elements close to `want`.
inline void expect_array(const Array& a, const Shape& shape, DType dtype, const std::vector<double>& want,
                         double ulps = 4, double atol = 0) {
  ASSERT_EQ(a.shape(), shape) << "shape of " << a;
  ASSERT_EQ(a.dtype(), dtype) << "dtype of " << a;
  std::vector<double> got = values(a);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(close(got[i], want[i], dtype, ulps, atol))
        << "element " << i << ": got " << got[i] << ", want " << want[i] << " (" << short_name(dtype) << ")";
}

// Runs `fn` and returns the message of the strata::Error subclass E it throws (fails the test
// when it throws nothing or something else).
template <class E, class Fn>
std::string error_message(Fn&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a different exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "did not throw";
  return {};
}

inline constexpr DType kFloatTypes[] = {f32, f64, bf16, f16};
inline constexpr DType kNumericTypes[] = {i32, i64, f32, f64, bf16, f16};

}  // namespace strata::testing
