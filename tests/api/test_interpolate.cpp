// st::interpolate::RegularGridInterpolator (jax.scipy.interpolate) against the values JAX 0.10.2
// prints (x64; tests/api/interpolate_jax_values.py): linear and nearest in 1 to 3 dimensions,
// fill values and extrapolation, trailing value dimensions, batched points; exactness on linear
// data, jit and vmap with the interpolator as a pytree, derivatives, and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::JaxCase;
using st::testing::sin_sequence;
using st::testing::values;
using RGI = st::interpolate::RegularGridInterpolator;

namespace {

Array f64(const std::vector<double>& v) { return st::array(v, {static_cast<int64_t>(v.size())}, st::f64); }

#define INTERP_INPUTS                                                                                         \
  Array X = f64({0.0, 0.5, 1.5, 2.0}), Y = f64({-1.0, 0.0, 2.0}), Z = f64({0.0, 1.0, 3.0, 4.5, 5.0});        \
  Array V2 = sin_sequence({4, 3}, 0.7, 0.1), V3 = sin_sequence({4, 3, 5}, 0.41, 0.3);                        \
  Array VT = sin_sequence({4, 3, 2}, 0.93, 0.6);                                                             \
  Array P2 = st::array(std::vector<double>{0.2, -0.5, 1.9, 1.5, 0.5, 0.0, 2.5, 1.0, -0.1, 0.3, 1.0, 2.0}, {6, 2}, st::f64); \
  Array P3 = st::array(std::vector<double>{0.3, 0.7, 2.2, 1.7, -0.9, 4.9, 1.0, 1.5, 0.1, 0.0, 2.0, 5.0}, {4, 3}, st::f64)

TEST(Interpolate, AsJax) {
  INTERP_INPUTS;
  st::testing::expect_jax_cases({
    {"RGI({X, Y}, V2)(P2)", RGI({X, Y}, V2)(P2), {0.4547059988706198, 0.6143707701271353, 0.23924932921398243, NAN, NAN, -0.49660299294624544}, {6}},
    {"RGI({X, Y}, V2, \"nearest\")(P2)", RGI({X, Y}, V2, "nearest")(P2), {0.09983341664682815, 0.9985433453746049, 0.23924932921398243, NAN, NAN, -0.44252044329485246}, {6}},
    {"RGI({X, Y}, V2, \"linear\", std::nullopt)(P2)", RGI({X, Y}, V2, "linear", std::nullopt)(P2), {0.4547059988706198, 0.6143707701271353, 0.23924932921398243, 2.482317294130869, 0.8838555376387115, -0.49660299294624544}, {6}},
    {"RGI({X, Y}, V2, \"linear\", -7.0)(P2)", RGI({X, Y}, V2, "linear", -7.0)(P2), {0.4547059988706198, 0.6143707701271353, 0.23924932921398243, -7.0, -7.0, -0.49660299294624544}, {6}},
    {"RGI({X, Y, Z}, V3)(P3)", RGI({X, Y, Z}, V3)(P3), {-0.19478197699700367, 0.8430238361166354, -0.4599701220895104, -0.24079542513416005}, {4}},
    {"RGI({X, Y, Z}, V3)(P3, \"nearest\")", RGI({X, Y, Z}, V3)(P3, "nearest"), {0.10458634988363526, 0.9947173386525218, -0.9023633099588236, -0.24079542513416005}, {4}},
    {"RGI({X, Y}, VT)(P2)", RGI({X, Y}, VT)(P2), {0.534351154485431, 0.46100039196371856, 0.6274068897594012, 0.14125103662261096, 0.9827484160758618, 0.43926285378684055, NAN, NAN, NAN, NAN, -0.11577096963981438, -0.8160489965890543}, {6, 2}},
    {"RGI({X}, st::reshape(V2, {4, 3}))(st::reshape(X * 0.9, {4, 1}))", RGI({X}, st::reshape(V2, {4, 3}))(st::reshape(X * 0.9, {4, 1})), {0.09983341664682815, 0.7173560908995227, 0.9974949866040544, 0.7376301051023142, 0.2870600053825364, -0.29851890030496175, -0.657466585664098, -0.7791982340815706, -0.5344607777022204, -0.2965368517894861, 0.0538117142102702, 0.3788517901857078}, {4, 3}},
    {"RGI({X, Y}, V2)(st::reshape(P2, {2, 3, 2}))", RGI({X, Y}, V2)(st::reshape(P2, {2, 3, 2})), {0.4547059988706198, 0.6143707701271353, 0.23924932921398243, NAN, NAN, -0.49660299294624544}, {2, 3}},
  }, [](const JaxCase&, double want) { return 1e-14 * std::fabs(want) + 1e-15; });
}

TEST(Interpolate, ExactOnLinearDataJitVmapGrad) {
  INTERP_INPUTS;
  // Multilinear data is reproduced exactly inside the grid (and extrapolated without a fill).
  Array lin = 2.0 * st::reshape(X, {4, 1}) - 3.0 * st::reshape(Y, {1, 3}) + 0.5;
  RGI f({X, Y}, lin, "linear", std::nullopt);
  Array px = f64({0.1, 1.2, 1.9, 2.4}), py = f64({-0.7, 1.1, 0.0, 3.0});
  st::testing::expect_relative(f({px, py}), values(2.0 * px - 3.0 * py + 0.5), 1e-14, 1e-14);
  // The interpolator is a pytree: through jit and vmap (over batches of values).
  RGI g({X, Y}, V2);
  auto call = [](const RGI& r, const Array& p) { return r(p); };
  st::testing::expect_relative(st::jit(call)(g, P2), values(g(P2)), 0, 0);
  Array vs = st::stack({V2, V2 * 2.0});
  Array batched = st::vmap([&](const Array& v) { return RGI({X, Y}, v)(P2); })(vs);
  st::testing::expect_relative(batched[1], values(RGI({X, Y}, V2 * 2.0)(P2)), 1e-15, 0);
  // Derivatives in the values and in the points (inside the grid, off the grid lines).
  using V = std::vector<Array>;
  Array inside = st::array(std::vector<double>{0.2, -0.5, 1.2, 1.5, 0.9, 0.3}, {3, 2}, st::f64);
  st::testing::check_grads([&](const V& v) { return RGI({X, Y}, v[0])(v[1]); }, {V2, inside}, "RegularGridInterpolator");
  EXPECT_EQ(RGI({X, Y}, st::astype(V2, st::f32))(P2).dtype(), st::f64);  // points f64: weights f64, as JAX
}

TEST(Interpolate, Errors) {
  INTERP_INPUTS;
  st::testing::expect_error([&] { RGI({X, Y}, V2, "cubic"); }, "RegularGridInterpolator: expects method \"linear\" or \"nearest\"");
  st::testing::expect_error([&] { RGI({X, Y, Z}, V2); }, "there are 3 point arrays, but values f64[4,3] has 2 dimensions");
  st::testing::expect_error([&] { RGI({Y, X}, V2); }, "expects the points of dimension 0 to be 1-d with 4 elements");
  st::testing::expect_error([&] { RGI({X, Y}, V2)(P3); }, "expects sample points [..., 2], but got f64[4,3]");
}

}  // namespace
