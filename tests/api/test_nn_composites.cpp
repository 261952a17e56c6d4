// The nn composites of issue 14 (log_softmax, softplus, silu/swish, elu, leaky_relu, celu, glu,
// exact gelu, var/std, layer_norm, rms_norm, dropout, dot_product_attention) against plain loops
// in double, f32 and f64, jit against eager, derivatives against finite differences, relu's
// derivative at 0, and the values JAX 0.10.2 prints on one fixed input (pasted once, with the
// expression in a comment).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

const std::vector<double> kX = {-3, -1, -0.5, 0, 0.5, 1, 3};

double sigm(double v) { return 1 / (1 + std::exp(-v)); }

struct Unary {
  const char* name;
  std::function<Array(const Array&)> f;
  std::function<double(double)> ref;
};

std::vector<Unary> unaries() {
  return {
      {"softplus", [](const Array& x) { return st::softplus(x); }, [](double v) { return std::log1p(std::exp(v)); }},
      {"silu", [](const Array& x) { return st::silu(x); }, [](double v) { return v * sigm(v); }},
      {"swish", [](const Array& x) { return st::swish(x); }, [](double v) { return v * sigm(v); }},
      {"elu", [](const Array& x) { return st::elu(x, 0.7); }, [](double v) { return v > 0 ? v : 0.7 * std::expm1(v); }},
      {"leaky_relu", [](const Array& x) { return st::leaky_relu(x, 0.1); }, [](double v) { return v >= 0 ? v : 0.1 * v; }},
      {"celu", [](const Array& x) { return st::celu(x, 1.5); },
       [](double v) { return std::max(v, 0.0) + 1.5 * std::expm1(std::min(v, 0.0) / 1.5); }},
      {"gelu exact", [](const Array& x) { return st::gelu(x, false); }, [](double v) { return 0.5 * v * std::erfc(-v / std::sqrt(2.0)); }},
      {"gelu tanh", [](const Array& x) { return st::gelu(x); },
       [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); }},
  };
}

TEST(NNComposites, ActivationsAgainstLoops) {
  std::vector<double> x = st::testing::test_values(80, -8, 8, 5);
  x.insert(x.end(), kX.begin(), kX.end());
  for (st::DType t : {st::f32, st::f64}) {
    std::vector<double> xr = st::testing::round_all(x, t);
    Array a = st::array(xr, {static_cast<int64_t>(xr.size())}, t);
    for (const Unary& u : unaries()) {
      SCOPED_TRACE(std::string(u.name) + " " + std::string(st::short_name(t)));
      Array r = u.f(a);
      ASSERT_EQ(r.dtype(), t);
      std::vector<double> got = values(r), jitted = values(st::jit(u.f)(a));
      double eps = t == st::f32 ? 0x1p-24 : 0x1p-53;
      for (size_t i = 0; i < xr.size(); ++i) {
        double want = u.ref(xr[i]);
        EXPECT_NEAR(got[i], want, 16 * eps * (std::fabs(want) + std::fabs(xr[i]) + 1)) << "x = " << xr[i];
        EXPECT_NEAR(jitted[i], got[i], 8 * eps * (std::fabs(want) + std::fabs(xr[i]) + 1)) << "jit, x = " << xr[i];
      }
    }
  }
  // Integers promote; weak f32 scalars stay weak f32.
  EXPECT_EQ(st::silu(st::array({1, 2}, {2})).dtype(), st::f32);
  EXPECT_TRUE(st::elu(st::Array(-1.0f)).weak_type());
  EXPECT_EQ(st::elu(st::Array(-1.0f)).dtype(), st::f32);
  // No overflow in the unused branch: elu(1000) is finite, softplus(1000) is 1000.
  EXPECT_EQ(st::elu(st::Array(1000.0f)).item<float>(), 1000.0f);
  EXPECT_EQ(st::softplus(st::Array(1000.0f)).item<float>(), 1000.0f);
}

TEST(NNComposites, ValuesJaxPrints) {
  Array x = st::array(kX, {7}, st::f32);
  struct Case {
    const char* expr;
    Array got;
    std::vector<double> want;
  };
  std::vector<Case> cases = {
      // jax.nn.softplus(x)
      {"jax.nn.softplus(x)", st::softplus(x), {0.04858735203742981, 0.3132616877555847, 0.4740769863128662, 0.6931471824645996, 0.9740769863128662, 1.3132617473602295, 3.0485873222351074}},
      // jax.nn.silu(x)
      {"jax.nn.silu(x)", st::silu(x), {-0.14227762818336487, -0.2689414322376251, -0.1887703388929367, 0.0, 0.3112296760082245, 0.7310585975646973, 2.857722282409668}},
      // jax.nn.elu(x, 0.7)
      {"jax.nn.elu(x, 0.7)", st::elu(x, 0.7), {-0.6651490330696106, -0.44248437881469727, -0.27542853355407715, 0.0, 0.5, 1.0, 3.0}},
      // jax.nn.leaky_relu(x, 0.1)
      {"jax.nn.leaky_relu(x, 0.1)", st::leaky_relu(x, 0.1), {-0.30000001192092896, -0.10000000149011612, -0.05000000074505806, 0.0, 0.5, 1.0, 3.0}},
      // jax.nn.celu(x, 1.5)
      {"jax.nn.celu(x, 1.5)", st::celu(x, 1.5), {-1.2969970703125, -0.729874312877655, -0.42520299553871155, 0.0, 0.5, 1.0, 3.0}},
      // jax.nn.gelu(x)
      {"jax.nn.gelu(x)", st::gelu(x), {-0.003637343645095825, -0.15880796313285828, -0.1542859971523285, 0.0, 0.3457140028476715, 0.8411920070648193, 2.9963626861572266}},
      // jax.nn.gelu(x, approximate=False)
      {"jax.nn.gelu(x, approximate=False)", st::gelu(x, false), {-0.0040496960282325745, -0.15865527093410492, -0.1542687714099884, 0.0, 0.3457312285900116, 0.8413447141647339, 2.995950222015381}},
      // jax.nn.log_softmax(x)
      {"jax.nn.log_softmax(x)", st::log_softmax(x), {-6.276266574859619, -4.276266574859619, -3.776266574859619, -3.276266574859619, -2.776266574859619, -2.276266574859619, -0.27626651525497437}},
      // jax.nn.glu(x[:6])
      {"jax.nn.glu(x[:6])", st::glu(st::slice(x, {0}, {6})), {-1.5, -0.622459352016449, -0.36552929878234863}},
      // jnp.var(x)
      {"jnp.var(x)", st::var(x), {2.9285714626312256}},
      // jnp.std(x, ddof=1)
      {"jnp.std(x, ddof=1)", st::std(x, {}, 1), {1.8484227657318115}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    std::vector<double> g = values(c.got);
    ASSERT_EQ(g.size(), c.want.size());
    // Float32 results of a few ops each: within 4 ulps of JAX's.
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], c.want[i], 4 * 0x1p-23 * std::max(std::fabs(c.want[i]), 0x1p-10)) << i;
  }
}

TEST(NNComposites, ReluDerivativeAtZeroIsZero) {
  for (st::DType t : {st::f32, st::f64}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    Array x = st::array({-1.0, 0.0, 2.0}, {3}, t);
    auto f = [](const Array& v) { return st::sum(st::relu(v)); };
    EXPECT_EQ(values(st::grad(f)(x)), (std::vector<double>{0, 0, 1}));
    EXPECT_EQ(values(st::jit(st::grad(f))(x)), (std::vector<double>{0, 0, 1}));
    auto [y, dy] = st::jvp([](const Array& v) { return st::relu(v); }, std::make_tuple(x), std::make_tuple(st::ones({3}, t)));
    EXPECT_EQ(values(dy), (std::vector<double>{0, 0, 1}));
    auto [y2, back] = st::vjp([](const Array& v) { return st::relu(v); }, x);
    EXPECT_EQ(values(std::get<0>(back(st::ones({3}, t)))), (std::vector<double>{0, 0, 1}));
  }
  // relu keeps nan and maps -inf to 0.
  std::vector<double> r = values(st::relu(st::array(std::vector<double>{NAN, -INFINITY, INFINITY}, {3}, st::f32)));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[2], INFINITY);
}

// Per-slice reference of normalisations and variance over the last axis of [R, C].
TEST(NNComposites, VarStdLayerNormRmsNorm) {
  const int64_t R = 4, C = 6;
  std::vector<double> x = st::testing::test_values(R * C, -3, 5, 17);
  std::vector<double> scale = st::testing::test_values(C, 0.5, 2, 3), bias = st::testing::test_values(C, -1, 1, 4);
  for (st::DType t : {st::f32, st::f64}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    double tol = t == st::f32 ? 2e-6 : 1e-13;
    std::vector<double> xr = st::testing::round_all(x, t);
    Array a = st::array(xr, {R, C}, t), sc = st::array(scale, {C}, t), bi = st::array(bias, {C}, t);
    std::vector<double> ln = values(st::layer_norm(a, sc, bi, -1, 1e-5)), rn = values(st::rms_norm(a, sc, -1, 1e-6));
    std::vector<double> v1 = values(st::var(a, 1, 1)), s0 = values(st::std(a, 1, 0, true));
    ASSERT_EQ(st::std(a, 1, 0, true).shape(), (st::Shape{R, 1}));
    for (int64_t r = 0; r < R; ++r) {
      double m = 0, ss = 0, sq = 0;
      for (int64_t c = 0; c < C; ++c) m += xr[static_cast<size_t>(r * C + c)] / C;
      for (int64_t c = 0; c < C; ++c) {
        double d = xr[static_cast<size_t>(r * C + c)] - m;
        ss += d * d;
        sq += xr[static_cast<size_t>(r * C + c)] * xr[static_cast<size_t>(r * C + c)];
      }
      EXPECT_NEAR(v1[static_cast<size_t>(r)], ss / (C - 1), tol * 10);
      EXPECT_NEAR(s0[static_cast<size_t>(r)], std::sqrt(ss / C), tol * 10);
      for (int64_t c = 0; c < C; ++c) {
        size_t i = static_cast<size_t>(r * C + c);
        double want = (xr[i] - m) / std::sqrt(ss / C + 1e-5) * scale[static_cast<size_t>(c)] + bias[static_cast<size_t>(c)];
        EXPECT_NEAR(ln[i], want, tol * 10);
        double wr = xr[i] / std::sqrt(sq / C + 1e-6) * scale[static_cast<size_t>(c)];
        EXPECT_NEAR(rn[i], wr, tol * 10);
      }
    }
    // Over all axes, and without scale/bias.
    Array all = st::layer_norm(a, std::nullopt, std::nullopt, st::Axes{0, 1});
    EXPECT_NEAR(st::mean(all).item<double>(), 0, tol * 10);
    EXPECT_NEAR(st::var(all).item<double>(), 1, 1e-4);
    // jit ≡ eager.
    auto f = [](const Array& v, const Array& s, const Array& b) { return st::layer_norm(v, s, b); };
    std::vector<double> jl = values(st::jit(f)(a, sc, bi)), el = values(f(a, sc, bi));
    for (size_t i = 0; i < jl.size(); ++i) EXPECT_NEAR(jl[i], el[i], tol * 10);
  }
  EXPECT_EQ(st::var(st::array({1, 2, 3, 4}, {4})).dtype(), st::f32);
  EXPECT_NEAR(st::var(st::array({1, 2, 3, 4}, {4})).item<float>(), 1.25f, 1e-6);
}

TEST(NNComposites, LogSoftmaxAndGlu) {
  std::vector<double> x = st::testing::test_values(24, -10, 10, 23);
  for (st::DType t : {st::f32, st::f64}) {
    Array a = st::array(st::testing::round_all(x, t), {4, 6}, t);
    std::vector<double> ls = values(st::log_softmax(a)), sm = values(st::softmax(a));
    for (size_t i = 0; i < ls.size(); ++i) EXPECT_NEAR(ls[i], std::log(sm[i]), t == st::f32 ? 1e-5 : 1e-12);
    // Stable for huge logits.
    std::vector<double> big = values(st::log_softmax(st::array({1000.0, 0.0}, {2}, t)));
    EXPECT_EQ(big[0], 0);
    EXPECT_EQ(big[1], -1000);
    Array g = st::glu(a, 1);
    ASSERT_EQ(g.shape(), (st::Shape{4, 3}));
    std::vector<double> gv = values(g), av = values(a);
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(gv[static_cast<size_t>(r * 3 + c)], av[static_cast<size_t>(r * 6 + c)] * sigm(av[static_cast<size_t>(r * 6 + c + 3)]),
                    t == st::f32 ? 1e-5 : 1e-13);
  }
  st::testing::expect_contains(st::testing::error_message<st::ValueError>([] { st::glu(st::zeros({2, 3})); }),
                               "glu: axis -1 of f32[2,3] must have an even size");
}

TEST(NNComposites, Dropout) {
  Array x = st::full({200, 100}, 2.0f);
  Array k = st::random::key(3);
  std::vector<double> d = values(st::dropout(k, 0.25, x));
  size_t kept = 0;
  for (double v : d) {
    ASSERT_TRUE(v == 0 || std::fabs(v - 2 / 0.75) < 1e-6) << v;
    kept += v != 0;
  }
  EXPECT_NEAR(kept / 20000.0, 0.75, 5 * std::sqrt(0.75 * 0.25 / 20000));
  // The mask is bernoulli(key, 1 - rate): the same key gives the same mask, jit too.
  EXPECT_EQ(d, values(st::dropout(k, 0.25, x)));
  EXPECT_EQ(d, values(st::jit([](const Array& key, const Array& v) { return st::dropout(key, 0.25, v); })(k, x)));
  EXPECT_EQ(values(st::dropout(k, 0.25, x, true)), values(x));
  EXPECT_EQ(values(st::dropout(k, 0.0, x)), values(x));
  for (double v : values(st::dropout(k, 1.0, x))) ASSERT_EQ(v, 0);
  st::testing::expect_contains(st::testing::error_message<st::ValueError>([&] { st::dropout(k, 1.5, x); }),
                               "dropout: expects a rate in [0, 1], but got 1.5");
  // Gradient: the kept entries' scale.
  Array g = st::grad([&](const Array& v) { return st::sum(st::dropout(k, 0.25, v)); })(x);
  std::vector<double> gv = values(g);
  for (size_t i = 0; i < gv.size(); ++i) ASSERT_NEAR(gv[i], d[i] / 2, 1e-6);
}

// Attention in double by loops: q [B,T,N,H], k/v [B,S,K,H]; bias/mask [B,N,T,S] (flat).
std::vector<double> ref_attention(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                                  int B, int T, int N, int H, int S, int K, const std::vector<double>* bias,
                                  const std::vector<bool>* mask, bool causal) {
  std::vector<double> out(static_cast<size_t>(B * T * N * H), 0);
  int G = N / K;
  for (int b = 0; b < B; ++b)
    for (int n = 0; n < N; ++n)
      for (int t = 0; t < T; ++t) {
        std::vector<double> logit(static_cast<size_t>(S));
        for (int s = 0; s < S; ++s) {
          double d = 0;
          for (int h = 0; h < H; ++h) d += q[static_cast<size_t>(((b * T + t) * N + n) * H + h)] * k[static_cast<size_t>(((b * S + s) * K + n / G) * H + h)];
          d /= std::sqrt(static_cast<double>(H));
          size_t bi = static_cast<size_t>(((b * N + n) * T + t) * S + s);
          if (bias) d += (*bias)[bi];
          bool keep = (!mask || (*mask)[bi]) && (!causal || s <= t);
          logit[static_cast<size_t>(s)] = keep ? d : -0.7 * 3.4028234663852886e38;
        }
        double m = *std::max_element(logit.begin(), logit.end()), z = 0;
        for (double& l : logit) z += std::exp(l - m);
        for (int s = 0; s < S; ++s) {
          double p = std::exp(logit[static_cast<size_t>(s)] - m) / z;
          for (int h = 0; h < H; ++h)
            out[static_cast<size_t>(((b * T + t) * N + n) * H + h)] += p * v[static_cast<size_t>(((b * S + s) * K + n / G) * H + h)];
        }
      }
  return out;
}

TEST(NNComposites, DotProductAttention) {
  const int B = 2, T = 3, N = 4, H = 5, S = 6;
  for (int K : {4, 2}) {  // plain and grouped heads
    for (st::DType t : {st::f32, st::f64}) {
      std::vector<double> q = st::testing::test_values(B * T * N * H, -1, 1, 1), k = st::testing::test_values(B * S * K * H, -1, 1, 2),
                          v = st::testing::test_values(B * S * K * H, -2, 2, 3), bias = st::testing::test_values(B * N * T * S, -1, 1, 4);
      std::vector<bool> mask;
      for (int i = 0; i < B * N * T * S; ++i) mask.push_back(i % 5 != 1);
      std::vector<double> mask_d(mask.begin(), mask.end());
      Array qa = st::array(q, {B, T, N, H}, t), ka = st::array(k, {B, S, K, H}, t), va = st::array(v, {B, S, K, H}, t);
      Array ba = st::array(bias, {B, N, T, S}, t), ma = st::astype(st::array(mask_d, {B, N, T, S}), st::bool_);
      for (int variant = 0; variant < 4; ++variant) {
        SCOPED_TRACE("K " + std::to_string(K) + " " + std::string(st::short_name(t)) + " variant " + std::to_string(variant));
        bool causal = variant == 1 || variant == 3;
        bool with_bias = variant >= 2, with_mask = variant == 3;
        Array r = st::dot_product_attention(qa, ka, va, with_bias ? std::optional<Array>(ba) : std::nullopt,
                                            with_mask ? std::optional<Array>(ma) : std::nullopt, causal);
        ASSERT_EQ(r.shape(), (st::Shape{B, T, N, H}));
        EXPECT_EQ(r.dtype(), t);
        std::vector<double> want = ref_attention(q, k, v, B, T, N, H, S, K, with_bias ? &bias : nullptr, with_mask ? &mask : nullptr, causal);
        std::vector<double> got = values(r);
        for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-5) << i;  // softmax in f32, as JAX
        auto f = [&](const Array& a, const Array& b, const Array& c) {
          return st::dot_product_attention(a, b, c, with_bias ? std::optional<Array>(ba) : std::nullopt,
                                           with_mask ? std::optional<Array>(ma) : std::nullopt, causal);
        };
        std::vector<double> j = values(st::jit(f)(qa, ka, va));
        for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(j[i], got[i], 1e-5) << i;
      }
    }
  }
  // q = arange(48).reshape(2,3,2,4)/10 - 1, k = cos(arange(80)).reshape(2,5,2,4), v = sin(...)
  // jax.nn.dot_product_attention(q, k, v, is_causal=True)[0, :, 1, :]
  Array q = st::reshape(st::arange(48, st::f32), {2, 3, 2, 4}) / 10.0f - 1.0f;
  Array k = st::reshape(st::cos(st::arange(80, st::f32)), {2, 5, 2, 4}), v = st::reshape(st::sin(st::arange(80, st::f32)), {2, 5, 2, 4});
  Array r = st::dot_product_attention(q, k, v, std::nullopt, std::nullopt, true);
  std::vector<double> want = {-0.756802499294281, -0.9589242935180664, -0.279415488243103, 0.6569865942001343, -0.6630696058273315,
                              -0.3719629645347595, 0.26112470030784607, 0.654135525226593, -0.5429835319519043, -0.303223580121994,
                              0.2153187245130539, 0.535897970199585};
  std::vector<double> got = values(st::reshape(st::slice(r, {0, 0, 1, 0}, {1, 3, 2, 4}), {12}));
  for (size_t i = 0; i < 12; ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
  st::testing::expect_contains(st::testing::error_message<st::ShapeError>([&] { st::dot_product_attention(q, st::zeros({2, 5, 3, 4}), st::zeros({2, 5, 3, 4})); }),
                               "N a multiple of K");
}

TEST(NNComposites, DerivativesAgainstFiniteDifferences) {
  using V = std::vector<Array>;
  Array x = st::random::uniform(st::random::key(50), {3, 4}, st::f64, -2.0, 2.0);
  Array s = st::random::uniform(st::random::key(51), {4}, st::f64, 0.5, 1.5), b = st::random::normal(st::random::key(52), {4}, st::f64);
  st::testing::check_grads([](const V& v) { return st::softplus(v[0]); }, {x}, "softplus");
  st::testing::check_grads([](const V& v) { return st::silu(v[0]); }, {x}, "silu");
  st::testing::check_grads([](const V& v) { return st::elu(v[0], 0.7); }, {x}, "elu");
  st::testing::check_grads([](const V& v) { return st::leaky_relu(v[0], 0.1); }, {x}, "leaky_relu");
  st::testing::check_grads([](const V& v) { return st::celu(v[0], 1.5); }, {x}, "celu");
  st::testing::check_grads([](const V& v) { return st::gelu(v[0], false); }, {x}, "gelu exact");
  st::testing::check_grads([](const V& v) { return st::log_softmax(v[0]); }, {x}, "log_softmax");
  st::testing::check_grads([](const V& v) { return st::glu(v[0]); }, {x}, "glu");
  st::testing::check_grads([](const V& v) { return st::var(v[0], 1, 1); }, {x}, "var");
  st::testing::check_grads([](const V& v) { return st::std(v[0], 0); }, {x}, "std");
  st::testing::check_grads([](const V& v) { return st::layer_norm(v[0], v[1], v[2]); }, {x, s, b}, "layer_norm");
  st::testing::check_grads([](const V& v) { return st::rms_norm(v[0], v[1]); }, {x, s}, "rms_norm");
  Array q = st::random::normal(st::random::key(53), {1, 3, 2, 4}, st::f64), k = st::random::normal(st::random::key(54), {1, 5, 2, 4}, st::f64),
        vv = st::random::normal(st::random::key(55), {1, 5, 2, 4}, st::f64);
  // Attention's softmax runs in f32 (as JAX's): finite differences in f64 see that rounding.
  st::testing::check_grads([](const V& v) { return st::dot_product_attention(v[0], v[1], v[2], std::nullopt, std::nullopt, true); },
                           {q, k, vv}, "dot_product_attention", 1e-3);
}

}  // namespace
