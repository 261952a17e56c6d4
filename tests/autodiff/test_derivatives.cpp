// Every differentiable primitive and composite: JVP against finite differences and VJP against
// JVP (check_grads), at points including broadcasting and reductions over different axes; and
// second derivatives of the elementwise ops.
#include <gtest/gtest.h>

#include <cmath>

#include "check_grads.h"
#include "strata/strata.h"

namespace st = strata;
using st::Array;
using st::testing::check_grads;
using V = std::vector<Array>;

namespace {

Array rnd(std::vector<int64_t> shape, uint64_t seed, double lo = -2, double hi = 2) {
  return st::random::uniform(st::random::key(seed), shape, st::f64, lo, hi);
}

TEST(Derivatives, UnaryElementwise) {
  Array x = rnd({3, 4}, 1), pos = rnd({3, 4}, 2, 0.5, 3), away = rnd({3, 4}, 3, 0.5, 2) * st::sign(rnd({3, 4}, 4));
  Array unit = rnd({3, 4}, 7, -0.8, 0.8);  // inside (-1, 1): asin, acos, atanh
  check_grads([](const V& v) { return -v[0]; }, {x}, "neg");
  check_grads([](const V& v) { return st::exp(v[0]); }, {x}, "exp");
  check_grads([](const V& v) { return st::log(v[0]); }, {pos}, "log");
  check_grads([](const V& v) { return st::log1p(v[0]); }, {pos}, "log1p");
  check_grads([](const V& v) { return st::expm1(v[0]); }, {x}, "expm1");
  check_grads([](const V& v) { return st::tanh(v[0]); }, {x}, "tanh");
  check_grads([](const V& v) { return st::erf(v[0]); }, {x}, "erf");
  check_grads([](const V& v) { return st::erfc(v[0]); }, {x}, "erfc");
  check_grads([](const V& v) { return st::exp2(v[0]); }, {x}, "exp2");
  check_grads([](const V& v) { return st::sinh(v[0]); }, {x}, "sinh");
  check_grads([](const V& v) { return st::cosh(v[0]); }, {x}, "cosh");
  check_grads([](const V& v) { return st::asinh(v[0]); }, {x}, "asinh");
  check_grads([](const V& v) { return st::acosh(v[0]); }, {rnd({3, 4}, 6, 1.2, 3)}, "acosh");
  check_grads([](const V& v) { return st::atanh(v[0]); }, {unit}, "atanh");
  check_grads([](const V& v) { return st::tan(v[0]); }, {rnd({3, 4}, 8, -1.3, 1.3)}, "tan");
  check_grads([](const V& v) { return st::asin(v[0]); }, {unit}, "asin");
  check_grads([](const V& v) { return st::acos(v[0]); }, {unit}, "acos");
  check_grads([](const V& v) { return st::atan(v[0]); }, {x}, "atan");
  check_grads([](const V& v) { return st::cbrt(v[0]); }, {away}, "cbrt");
  check_grads([](const V& v) { return st::erf_inv(v[0]); }, {unit}, "erf_inv");
  for (int64_t n : {0, 1, 2, 3, 5, 8, -1, -2, -3})
    check_grads([n](const V& v) { return st::integer_pow(v[0], n); }, {away}, "integer_pow " + std::to_string(n));
  check_grads([](const V& v) { return st::logistic(v[0]); }, {x}, "logistic");
  check_grads([](const V& v) { return st::sin(v[0]); }, {x}, "sin");
  check_grads([](const V& v) { return st::cos(v[0]); }, {x}, "cos");
  check_grads([](const V& v) { return st::sqrt(v[0]); }, {pos}, "sqrt");
  check_grads([](const V& v) { return st::rsqrt(v[0]); }, {pos}, "rsqrt");
  check_grads([](const V& v) { return st::abs(v[0]); }, {away}, "abs");
  // Piecewise constant: zero derivative (floor, ceil, sign), away from the jumps.
  Array mid = st::floor(rnd({5}, 5, -3, 3)) + 0.5;
  check_grads([](const V& v) { return st::floor(v[0]) + v[0]; }, {mid}, "floor");
  check_grads([](const V& v) { return st::ceil(v[0]) * v[0]; }, {mid}, "ceil");
  check_grads([](const V& v) { return st::round(v[0]) * v[0]; }, {mid + 0.25}, "round");
  check_grads([](const V& v) { return st::round(v[0], st::RoundingMethod::away_from_zero) + v[0]; }, {mid + 0.25}, "round away");
  check_grads([](const V& v) { return st::sign(v[0]) * v[0]; }, {away}, "sign");
}

TEST(Derivatives, BinaryElementwiseWithBroadcasting) {
  Array a = rnd({3, 4}, 11), b = rnd({4}, 12), col = rnd({3, 1}, 13), s = rnd({}, 14);
  Array pos = rnd({3, 4}, 15, 0.5, 2), bpos = rnd({4}, 16, 0.5, 2);
  for (auto [x, y, name] : {std::tuple{a, b, "row"}, {a, col, "col"}, {col, b, "outer"}, {a, s, "scalar"}, {s, a, "scalar-left"}}) {
    check_grads([](const V& v) { return v[0] + v[1]; }, {x, y}, std::string("add ") + name);
    check_grads([](const V& v) { return v[0] - v[1]; }, {x, y}, std::string("sub ") + name);
    check_grads([](const V& v) { return v[0] * v[1]; }, {x, y}, std::string("mul ") + name);
    check_grads([](const V& v) { return st::maximum(v[0], v[1]); }, {x, y}, std::string("maximum ") + name);
    check_grads([](const V& v) { return st::minimum(v[0], v[1]); }, {x, y}, std::string("minimum ") + name);
  }
  check_grads([](const V& v) { return v[0] / v[1]; }, {a, bpos}, "div");
  check_grads([](const V& v) { return v[1] / v[0]; }, {pos, s}, "div scalar numerator");
  check_grads([](const V& v) { return st::power(v[0], v[1]); }, {pos, b}, "pow");
  // rem: away from the jumps of trunc(x / y).
  Array num = st::array({2.3, -4.7, 5.2, -1.1}, {4}), den = st::array({1.1, 1.9, -2.4, 0.7}, {4});
  check_grads([](const V& v) { return st::remainder(v[0], v[1]); }, {num, den}, "rem");
  // atan2 in all four quadrants, away from the origin; and with broadcasting.
  Array ys = st::array({0.7, -1.3, 2.1, -0.4, 0.9}, {5}), xs = st::array({1.1, 0.6, -1.7, -2.2, 0.0}, {5});
  check_grads([](const V& v) { return st::atan2(v[0], v[1]); }, {ys, xs}, "atan2");
  check_grads([](const V& v) { return st::atan2(v[0], v[1]); }, {a, bpos}, "atan2 row");
}

TEST(Derivatives, SelectionAndConversion) {
  Array x = rnd({3, 4}, 21), y = rnd({3, 4}, 22), c = rnd({4}, 23) > 0.0;
  check_grads([c](const V& v) { return st::where(c, v[0], v[1]); }, {x, y}, "where");
  check_grads([](const V& v) { return st::where(v[0] > 0.0, v[0] * v[0], v[1]); }, {x, y}, "where on data");
  check_grads([](const V& v) { return st::astype(st::astype(v[0], st::f32), st::f64) * v[0]; }, {x}, "astype f32", 1e-4);
  check_grads([](const V& v) { return st::astype(st::astype(v[0], st::i32), st::f64) + v[0]; }, {x + 0.5}, "astype i32");
}

TEST(Derivatives, ShapeOps) {
  Array x = rnd({2, 3, 4}, 31), v3 = rnd({3}, 32);
  check_grads([](const V& v) { return st::broadcast_to(v[0], {2, 4, 3}); }, {v3}, "broadcast_to");
  check_grads([](const V& v) { return st::broadcast_to(st::reshape(v[0], {3, 1}), {2, 3, 5}); }, {v3}, "broadcast size-1");
  check_grads([](const V& v) { return st::reshape(v[0], {4, -1}); }, {x}, "reshape");
  check_grads([](const V& v) { return st::transpose(v[0], {2, 0, 1}); }, {x}, "transpose");
  check_grads([](const V& v) { return st::squeeze(st::expand_dims(v[0], 1), 1); }, {x}, "expand/squeeze");
  check_grads([](const V& v) { return st::slice(v[0], {0, 1, 0}, {2, 3, 4}, {1, 1, 2}); }, {x}, "strided slice");
  check_grads([](const V& v) { return st::slice(v[0], {1, -2}, {2, 4}); }, {x}, "slice");
  check_grads([](const V& v) { return st::concatenate({v[0], v[1] * 2.0, v[0]}, 1); },
              {rnd({2, 3}, 33), rnd({2, 5}, 34)}, "concatenate");
}

TEST(Derivatives, Reductions) {
  Array x = rnd({3, 4, 5}, 41);
  for (st::Axes axes : {st::Axes{}, st::Axes{0}, st::Axes{1}, st::Axes{-1}, st::Axes{0, 2}, st::Axes{1, 2}}) {
    std::string name = axes.list ? std::to_string(axes.list->size()) + " axes" : "all";
    check_grads([axes](const V& v) { return st::sum(v[0], axes); }, {x}, "sum " + name);
    check_grads([axes](const V& v) { return st::mean(v[0], axes, true); }, {x}, "mean keepdims " + name);
    check_grads([axes](const V& v) { return st::max(v[0], axes); }, {x}, "max " + name);
    check_grads([axes](const V& v) { return st::min(v[0], axes); }, {x}, "min " + name);
    check_grads([axes](const V& v) { return st::prod(v[0], axes); }, {rnd({3, 4, 5}, 42, 0.5, 1.5)}, "prod " + name);
  }
}

TEST(Derivatives, ProdWithZerosIsExact) {
  // d prod / dx_i = product of the others, also where some x are 0.
  Array x = st::array({2.0, 0.0, 3.0, 4.0}, {4});
  auto [p, f_vjp] = st::vjp([](const Array& v) { return st::prod(v); }, x);
  EXPECT_EQ(std::get<0>(f_vjp(st::array({1.0}, {}))).to_vector<double>(), (std::vector<double>{0, 24, 0, 0}));
  Array two_zeros = st::array({0.0, 5.0, 0.0}, {3});
  auto [q, g_vjp] = st::vjp([](const Array& v) { return st::prod(v); }, two_zeros);
  EXPECT_EQ(std::get<0>(g_vjp(st::array({1.0}, {}))).to_vector<double>(), (std::vector<double>{0, 0, 0}));
}

TEST(Derivatives, MaxSplitsTiesEvenly) {
  Array x = st::array({1.0, 3.0, 3.0, 2.0}, {4});
  EXPECT_EQ(st::grad([](const Array& v) { return st::max(v); })(x).to_vector<double>(), (std::vector<double>{0, 0.5, 0.5, 0}));
}

// Elementwise max and min as JAX: the operand equal to the result gets the derivative, ties
// split it, and a nan operand (the result nan) passes none to the other.
TEST(Derivatives, ElementwiseExtremaSplitTiesEvenly) {
  Array a = st::array({1.0, 2.0, 3.0, std::nan("")}, {4}), b = st::array({2.0, 2.0, 1.0, 5.0}, {4});
  auto sum_max = [](const Array& x, const Array& y) { return st::sum(st::maximum(x, y)); };
  auto sum_min = [](const Array& x, const Array& y) { return st::sum(st::minimum(x, y)); };
  auto [ga, gb] = st::grad(sum_max, st::argnums<0, 1>)(a, b);
  EXPECT_EQ(ga.to_vector<double>(), (std::vector<double>{0, 0.5, 1, 0}));
  EXPECT_EQ(gb.to_vector<double>(), (std::vector<double>{1, 0.5, 0, 0}));
  auto [ha, hb] = st::grad(sum_min, st::argnums<0, 1>)(a, b);
  EXPECT_EQ(ha.to_vector<double>(), (std::vector<double>{1, 0.5, 0, 0}));
  EXPECT_EQ(hb.to_vector<double>(), (std::vector<double>{0, 0.5, 1, 0}));
}

TEST(Derivatives, LinearAlgebra) {
  check_grads([](const V& v) { return st::matmul(v[0], v[1]); }, {rnd({3, 4}, 51), rnd({4, 5}, 52)}, "matmul");
  check_grads([](const V& v) { return st::matmul(v[0], v[1]); }, {rnd({2, 3, 4}, 53), rnd({4, 2}, 54)}, "batched matmul broadcast");
  check_grads([](const V& v) { return st::matmul(v[0], v[1]); }, {rnd({4}, 55), rnd({4, 3}, 56)}, "vector-matrix");
  check_grads([](const V& v) { return st::matmul(v[0], v[1]); }, {rnd({2, 4}, 57), rnd({4}, 58)}, "matrix-vector");
  // Contracting and batch dimensions in unusual positions.
  check_grads([](const V& v) {
    return st::dot_general(v[0], v[1], {.lhs_contract = {0, 3}, .rhs_contract = {2, 0}, .lhs_batch = {2}, .rhs_batch = {1}});
  }, {rnd({3, 2, 5, 4}, 59), rnd({4, 5, 3, 6}, 60)}, "dot_general general");
}

TEST(Derivatives, Composites) {
  Array x = rnd({3, 5}, 61);
  check_grads([](const V& v) { return st::relu(v[0]); }, {x}, "relu");
  check_grads([](const V& v) { return st::sigmoid(v[0]); }, {x}, "sigmoid");
  check_grads([](const V& v) { return st::gelu(v[0]); }, {x}, "gelu");
  check_grads([](const V& v) { return st::softmax(v[0]); }, {x}, "softmax");
  check_grads([](const V& v) { return st::softmax(v[0], 0); }, {x}, "softmax axis 0");
  check_grads([](const V& v) { return st::logsumexp(v[0], 1); }, {x}, "logsumexp");
  check_grads([](const V& v) { return st::relu(st::matmul(v[0], v[1]) + v[2]); },
              {rnd({4, 3}, 62), rnd({3, 6}, 63), rnd({6}, 64)}, "seed line");
}

// Second derivatives: grad of grad, against finite differences of the first derivative.
TEST(Derivatives, SecondDerivativesOfElementwiseOps) {
  struct Case {
    const char* name;
    Array (*f)(const Array&);
    double lo, hi;
  };
  const Case cases[] = {
      {"exp", [](const Array& v) { return st::exp(v); }, -1, 1},
      {"log", [](const Array& v) { return st::log(v); }, 0.5, 2},
      {"log1p", [](const Array& v) { return st::log1p(v); }, 0.5, 2},
      {"expm1", [](const Array& v) { return st::expm1(v); }, -1, 1},
      {"tanh", [](const Array& v) { return st::tanh(v); }, -1, 1},
      {"erf", [](const Array& v) { return st::erf(v); }, -1.5, 1.5},
      {"erfc", [](const Array& v) { return st::erfc(v); }, -1.5, 1.5},
      {"exp2", [](const Array& v) { return st::exp2(v); }, -1, 1},
      {"sinh", [](const Array& v) { return st::sinh(v); }, -2, 2},
      {"cosh", [](const Array& v) { return st::cosh(v); }, -2, 2},
      {"asinh", [](const Array& v) { return st::asinh(v); }, -2, 2},
      {"acosh", [](const Array& v) { return st::acosh(v); }, 1.5, 3},
      {"atanh", [](const Array& v) { return st::atanh(v); }, -0.7, 0.7},
      {"tan", [](const Array& v) { return st::tan(v); }, -1, 1},
      {"asin", [](const Array& v) { return st::asin(v); }, -0.7, 0.7},
      {"acos", [](const Array& v) { return st::acos(v); }, -0.7, 0.7},
      {"atan", [](const Array& v) { return st::atan(v); }, -2, 2},
      {"cbrt", [](const Array& v) { return st::cbrt(v); }, 0.5, 2},
      {"erf_inv", [](const Array& v) { return st::erf_inv(v); }, -0.8, 0.8},
      {"integer_pow 3", [](const Array& v) { return st::integer_pow(v, 3); }, -2, 2},
      {"integer_pow -2", [](const Array& v) { return st::integer_pow(v, -2); }, 0.5, 2},
      {"atan2 y", [](const Array& v) { return st::atan2(v, st::Array(0.7)); }, -2, 2},
      {"atan2 x", [](const Array& v) { return st::atan2(st::Array(-1.3), v); }, -2, 2},
      {"logistic", [](const Array& v) { return st::logistic(v); }, -2, 2},
      {"sin", [](const Array& v) { return st::sin(v); }, -2, 2},
      {"cos", [](const Array& v) { return st::cos(v); }, -2, 2},
      {"sqrt", [](const Array& v) { return st::sqrt(v); }, 0.5, 2},
      {"rsqrt", [](const Array& v) { return st::rsqrt(v); }, 0.5, 2},
      {"square", [](const Array& v) { return v * v; }, -2, 2},
      {"reciprocal", [](const Array& v) { return 1.0 / v; }, 0.5, 2},
      {"pow", [](const Array& v) { return st::power(v, 3.5); }, 0.5, 2},
      {"pow exponent", [](const Array& v) { return st::power(2.0, v); }, -1, 1},
      {"gelu", [](const Array& v) { return st::gelu(v); }, -2, 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto f = c.f;
    auto df = [f](const Array& v) { return st::grad([f](const Array& u) { return st::sum(f(u)); })(v); };
    auto d2f = st::grad([df](const Array& v) { return st::sum(df(v)); });
    Array x = rnd({6}, 71, c.lo, c.hi);
    std::vector<double> got = d2f(x).to_vector<double>();
    const double eps = 1e-5;
    std::vector<double> fd = ((df(x + eps) - df(x - eps)) / (2 * eps)).to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], fd[i], 1e-5 * std::max(1.0, std::fabs(fd[i]))) << i;
    // And through check_grads: the first derivative's own JVP and VJP are consistent.
    check_grads([df](const V& v) { return df(v[0]); }, {x}, std::string("d/dx ") + c.name, 1e-5);
  }
}

}  // namespace
