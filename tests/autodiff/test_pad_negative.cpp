// lax.pad with negative edge padding (it crops, as in JAX and StableHLO): eager against a
// plain-loop reference, jit against eager, and derivatives against finite differences.
#include <gtest/gtest.h>

#include "check_grads.h"
#include "lax.h"
#include "strata/strata.h"

namespace st = strata;
namespace lax = strata::lax;

namespace {

// out[o] = x[i] where o = lo + i * (interior + 1) along each dimension, else v.
std::vector<double> reference(const std::vector<double>& x, const st::Shape& s, double v, const st::IntList& lo,
                              const st::IntList& interior, const st::Shape& os) {
  int64_t n = 1;
  for (int64_t d : os) n *= d;
  std::vector<double> out(static_cast<size_t>(n), v);
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t rem = static_cast<int64_t>(i), o = 0, stride = 1;
    bool inside = true;
    std::vector<int64_t> idx(s.size());
    for (size_t d = s.size(); d-- > 0;) idx[d] = rem % s[d], rem /= s[d];
    for (size_t d = s.size(); d-- > 0;) {
      int64_t pos = lo[d] + idx[d] * (interior[d] + 1);
      inside = inside && pos >= 0 && pos < os[d];
      o += pos * stride;
      stride *= os[d];
    }
    if (inside) out[static_cast<size_t>(o)] = x[i];
  }
  return out;
}

struct PadCase {
  st::Shape shape;
  st::IntList lo, hi, interior;
};
const PadCase kCases[] = {
    {{5}, {-2}, {1}, {0}},         {{5}, {1}, {-3}, {1}},        {{4, 3}, {-1, 2}, {0, -2}, {1, 0}},
    {{2, 3}, {0, -2}, {0, -3}, {0, 1}},  // StableHLO's interpret/pad.mlir shape of case
    {{3}, {-3}, {0}, {0}},  // crops everything: a 0-sized result
    {{6}, {-4}, {-4}, {2}},
};

TEST(PadNegative, EagerMatchesLoopsAndJitMatchesEager) {
  for (const PadCase& c : kCases) {
    int64_t n = 1;
    for (int64_t d : c.shape) n *= d;
    std::vector<double> xs;
    for (int64_t i = 0; i < n; ++i) xs.push_back(static_cast<double>(i + 1));
    st::Array x = st::array(xs, c.shape, st::f32);
    st::Array v = st::Array(-7.0f);
    auto f = [&c](const st::Array& a, const st::Array& p) { return lax::pad(a, p, c.lo, c.hi, c.interior); };
    st::Array y = f(x, v);
    EXPECT_EQ(y.to_vector<double>(), reference(xs, c.shape, -7.0, c.lo, c.interior, y.shape()))
        << st::shape_string(c.shape);
    EXPECT_EQ(st::jit(f)(x, v).to_vector<double>(), y.to_vector<double>()) << st::shape_string(c.shape);
  }
}

TEST(PadNegative, DerivativesMatchFiniteDifferences) {
  for (const PadCase& c : kCases) {
    st::Array x = st::random::normal(st::random::key(3), c.shape, st::f64);
    st::testing::check_grads(
        [&c](const std::vector<st::Array>& a) { return st::sum(st::sin(lax::pad(a[0], a[1], c.lo, c.hi, c.interior))); },
        {x, st::Array(0.5)}, "pad " + st::shape_string(c.shape));
  }
}

TEST(PadNegative, CroppingPastNothingIsAShapeError) {
  EXPECT_THROW(lax::pad(st::zeros({2}), st::Array(0.0f), {-2}, {-1}, {0}), st::ShapeError);
}

}  // namespace
