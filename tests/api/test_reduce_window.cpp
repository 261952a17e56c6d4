// reduce_window_sum/max/min (jax.lax.reduce_window) and their derivatives
// select_and_scatter_add / select_and_gather_add: against plain-loop references over random
// shapes, windows, strides, base and window dilations and padding (eager and jit), edge values
// (-inf, nan, integer extremes), derivatives against finite differences, vmap, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "autodiff/check_grads.h"
#include "conv_reference.h"
#include "test_util.h"

namespace st = strata;
using namespace strata::testing;

namespace {

enum class K { kSum, kMax, kMin };

struct Win {
  st::Shape shape;
  std::vector<int64_t> window, strides, base, dil;
  std::vector<std::pair<int64_t, int64_t>> pads;
};

st::Shape out_shape(const Win& w) {
  st::Shape o;
  for (size_t d = 0; d < w.shape.size(); ++d) {
    int64_t n = w.shape[d] == 0 ? 0 : (w.shape[d] - 1) * w.base[d] + 1;
    int64_t padded = n + w.pads[d].first + w.pads[d].second, ext = (w.window[d] - 1) * w.dil[d] + 1;
    o.push_back(padded < ext ? 0 : (padded - ext) / w.strides[d] + 1);
  }
  return o;
}

std::vector<int64_t> digits(int64_t flat, const st::Shape& s) {
  std::vector<int64_t> r(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    r[d] = flat % s[d];
    flat /= s[d];
  }
  return r;
}

// Calls f(operand offset or -1 for padding/holes) for each tap of result element `o`, row-major.
template <class F> void taps(const Win& w, const std::vector<int64_t>& o, F f) {
  st::Shape ws(w.window.begin(), w.window.end());
  std::vector<int64_t> xs = strides_of(w.shape);
  for (int64_t t = 0; t < count_of(ws); ++t) {
    std::vector<int64_t> k = digits(t, ws);
    int64_t off = 0;
    for (size_t d = 0; d < o.size() && off >= 0; ++d) {
      int64_t p = o[d] * w.strides[d] + k[d] * w.dil[d] - w.pads[d].first;
      if (p < 0 || p % w.base[d] != 0 || p / w.base[d] >= w.shape[d]) off = -1;
      else off += p / w.base[d] * xs[d];
    }
    f(off);
  }
}

// The plain-loop reduce_window: padding and holes read the identity; max/min give nan if any
// element is nan.
std::vector<double> reference(K k, const std::vector<double>& x, const Win& w, double lowest, double highest) {
  st::Shape os = out_shape(w);
  std::vector<double> y;
  for (int64_t i = 0; i < count_of(os); ++i) {
    double acc = k == K::kSum ? 0.0 : k == K::kMax ? lowest : highest;
    taps(w, digits(i, os), [&](int64_t off) {
      if (off < 0) return;
      double v = x[static_cast<size_t>(off)];
      if (k == K::kSum) acc += v;
      else if (std::isnan(acc) || std::isnan(v)) acc = NAN;
      else acc = k == K::kMax ? std::max(acc, v) : std::min(acc, v);
    });
    y.push_back(acc);
  }
  return y;
}

st::Padding padding_of(const Win& w) { return st::Padding(w.pads); }

st::Array apply(K k, const st::Array& x, const Win& w) {
  switch (k) {
    case K::kSum: return st::reduce_window_sum(x, w.window, w.strides, padding_of(w), w.base, w.dil);
    case K::kMax: return st::reduce_window_max(x, w.window, w.strides, padding_of(w), w.base, w.dil);
    case K::kMin: return st::reduce_window_min(x, w.window, w.strides, padding_of(w), w.base, w.dil);
  }
  return x;
}

Win random_win(std::mt19937& rng, bool dilations = true) {
  std::uniform_int_distribution<int> rank_d(1, 3), size_d(0, 6), win_d(1, 3), str_d(1, 3), dil_d(1, 2), pad_d(0, 2);
  Win w;
  int r = rank_d(rng);
  for (int d = 0; d < r; ++d) {
    int64_t n = size_d(rng);
    if (n == 0 && rng() % 4 != 0) n = 3;  // an empty dimension now and then
    w.shape.push_back(n);
    w.window.push_back(win_d(rng));
    w.strides.push_back(str_d(rng));
    w.base.push_back(dilations ? dil_d(rng) : 1);
    w.dil.push_back(dilations ? dil_d(rng) : 1);
    w.pads.push_back({pad_d(rng), pad_d(rng)});
  }
  return w;
}

std::string describe(const Win& w) {
  auto l = [](const std::vector<int64_t>& v) { return st::shape_string(st::Shape(v.begin(), v.end())); };
  std::string p;
  for (auto [a, b] : w.pads) p += "(" + std::to_string(a) + "," + std::to_string(b) + ")";
  return "x" + l(w.shape) + " window" + l(w.window) + " strides" + l(w.strides) + " base" + l(w.base) + " dil" +
         l(w.dil) + " pad" + p;
}

void expect_values(const std::vector<double>& got, const std::vector<double>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << what << " " << i;
    else if (std::isinf(want[i])) EXPECT_EQ(got[i], want[i]) << what << " " << i;
    else EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << what << " " << i;
  }
}

TEST(ReduceWindow, RandomConfigurationsMatchLoopsEagerAndJit) {
  std::mt19937 rng(7);
  for (int c = 0; c < 120; ++c) {
    Win w = random_win(rng);
    SCOPED_TRACE(describe(w));
    for (K k : {K::kSum, K::kMax, K::kMin})
      for (st::DType t : {st::f32, st::f64, st::i32}) {
        std::vector<double> xv = random_values(count_of(w.shape), rng);
        if (t == st::i32)
          for (double& v : xv) v = std::round(v * 10);
        st::Array x = st::astype(st::array(xv, w.shape, st::f64), t);
        xv = st::astype(x, st::f64).to_vector<double>();
        double lo = t == st::i32 ? -2147483648.0 : -INFINITY, hi = t == st::i32 ? 2147483647.0 : INFINITY;
        std::vector<double> want = reference(k, xv, w, lo, hi);
        st::Array eager = apply(k, x, w);
        ASSERT_EQ(eager.shape(), out_shape(w));
        ASSERT_EQ(eager.dtype(), t);
        double tol = t == st::f32 ? 1e-6 : t == st::f64 ? 1e-14 : 0;
        expect_values(st::astype(eager, st::f64).to_vector<double>(), want, tol, "eager");
        if (c % 3 == 0) {  // compiling every case would take minutes
          st::Array jitted = st::jit([k, w](const st::Array& a) { return apply(k, a, w); })(x);
          expect_values(st::astype(jitted, st::f64).to_vector<double>(), st::astype(eager, st::f64).to_vector<double>(),
                        tol, "jit");
        }
      }
  }
}

TEST(ReduceWindow, HalfPrecisionAccumulatesInF32) {
  Win w{{2, 9}, {1, 4}, {1, 2}, {1, 1}, {1, 1}, {{0, 0}, {1, 2}}};
  for (st::DType t : {st::bf16, st::f16}) {
    st::Array x = st::astype(st::array(test_values(18, -3, 3, 5), {2, 9}, st::f64), t);
    std::vector<double> xv = st::astype(x, st::f64).to_vector<double>();
    for (K k : {K::kSum, K::kMax}) {
      std::vector<double> want = round_all(reference(k, xv, w, -INFINITY, INFINITY), t);
      std::vector<double> e = st::astype(apply(k, x, w), st::f64).to_vector<double>();
      std::vector<double> j =
          st::astype(st::jit([k, w](const st::Array& a) { return apply(k, a, w); })(x), st::f64).to_vector<double>();
      expect_values(e, want, 0, "eager");
      expect_values(j, want, 0, "jit");
    }
  }
}

TEST(ReduceWindow, EdgeValuesForMaxAndMin) {
  // -inf everywhere, nan in one window, +inf, and windows that see only padding.
  std::vector<double> xv{-INFINITY, -INFINITY, 1.0, NAN, 2.0, INFINITY, -0.0, 0.0, -INFINITY, 5.0};
  Win w{{10}, {3}, {2}, {1}, {1}, {{4, 4}}};
  st::Array x = st::array(xv, {10}, st::f32);
  for (K k : {K::kMax, K::kMin}) {
    std::vector<double> want = reference(k, xv, w, -INFINITY, INFINITY);
    expect_values(apply(k, x, w).to_vector<double>(), want, 0, "eager");
    expect_values(st::jit([k, w](const st::Array& a) { return apply(k, a, w); })(x).to_vector<double>(), want, 0, "jit");
  }
  // Integers: padding reads the extremes, so an all-padding window gives them.
  st::Array xi = st::array({3.0, -7.0, 2.0}, {3}, st::i32);
  Win wi{{3}, {2}, {1}, {1}, {1}, {{2, 0}}};
  std::vector<double> mx = apply(K::kMax, xi, wi).to_vector<double>();
  EXPECT_EQ(mx, (std::vector<double>{-2147483648.0, 3.0, 3.0, 2.0}));
  EXPECT_EQ(st::jit([wi](const st::Array& a) { return apply(K::kMax, a, wi); })(xi).to_vector<double>(), mx);
}

// The position select_and_scatter_add picks in each window (ge: the first largest; padding never
// selected), and the one select_and_gather_add (JAX's reducer from -inf) picks, or -1.
int64_t scatter_choice(const std::vector<double>& x, const Win& w, const std::vector<int64_t>& o, bool ge) {
  int64_t sel = -1;
  double cur = 0;
  taps(w, o, [&](int64_t off) {
    if (off < 0) return;
    double v = x[static_cast<size_t>(off)];
    if (sel < 0 || !(ge ? cur >= v : cur <= v)) {
      sel = off;
      cur = v;
    }
  });
  return sel;
}
int64_t gather_choice(const std::vector<double>& x, const Win& w, const std::vector<int64_t>& o, bool ge) {
  int64_t sel = -1;
  double cur = ge ? -INFINITY : INFINITY;
  taps(w, o, [&](int64_t off) {
    double v = off < 0 ? (ge ? -INFINITY : INFINITY) : x[static_cast<size_t>(off)];
    if (!(ge ? cur >= v : cur <= v)) {
      sel = off;
      cur = v;
    }
  });
  return sel;
}

TEST(ReduceWindow, MaxMinGradientIsSelectAndScatterAdd) {
  std::mt19937 rng(19);
  for (int c = 0; c < 60; ++c) {
    Win w = random_win(rng, /*dilations=*/false);
    SCOPED_TRACE(describe(w));
    st::Shape os = out_shape(w);
    // Repeated values (ties: the first wins), an -inf and a nan now and then.
    std::vector<double> xv = random_values(count_of(w.shape), rng);
    for (double& v : xv) v = std::round(v * 2);
    if (!xv.empty() && c % 4 == 1) xv[rng() % xv.size()] = -INFINITY;
    if (!xv.empty() && c % 4 == 2) xv[rng() % xv.size()] = NAN;
    std::vector<double> gv = random_values(count_of(os), rng);
    st::Array x = st::array(xv, w.shape, st::f64), g = st::array(gv, os, st::f64);
    for (K k : {K::kMax, K::kMin}) {
      bool ge = k == K::kMax;
      std::vector<double> want(xv.size(), 0.0), want_t;
      for (int64_t i = 0; i < count_of(os); ++i) {
        int64_t s = scatter_choice(xv, w, digits(i, os), ge);
        if (s >= 0) want[static_cast<size_t>(s)] += gv[static_cast<size_t>(i)];
      }
      auto loss = [k, w, g](const st::Array& a) { return st::sum(apply(k, a, w) * g); };
      expect_values(st::grad(loss)(x).to_vector<double>(), want, 1e-14, "grad eager");
      expect_values(st::jit(st::grad(loss))(x).to_vector<double>(), want, 1e-14, "grad jit");
      // The JVP (select_and_gather_add) with the tangent g' on x.
      std::vector<double> tv = random_values(count_of(w.shape), rng);
      for (int64_t i = 0; i < count_of(os); ++i) {
        int64_t s = gather_choice(xv, w, digits(i, os), ge);
        want_t.push_back(s < 0 ? 0.0 : tv[static_cast<size_t>(s)]);
      }
      st::Array t = st::array(tv, w.shape, st::f64);
      auto f = [k, w](const st::Array& a) { return apply(k, a, w); };
      expect_values(st::jvp(f, x, t).second.to_vector<double>(), want_t, 0, "jvp eager");
      auto jf = st::jit([f](const st::Array& a, const st::Array& b) { return st::jvp(f, a, b).second; });
      expect_values(jf(x, t).to_vector<double>(), want_t, 0, "jvp jit");
    }
  }
}

TEST(ReduceWindow, GradientsMatchFiniteDifferences) {
  uint64_t seed = 3;
  std::vector<Win> cases{{{2, 7, 6, 3}, {1, 3, 2, 1}, {1, 2, 2, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {{0, 0}, {1, 1}, {0, 1}, {0, 0}}},
                         {{9}, {3}, {2}, {2}, {2}, {{2, 1}}},
                         {{5, 4}, {2, 2}, {1, 3}, {1, 2}, {2, 1}, {{1, 0}, {0, 2}}},
                         {{6, 5}, {3, 2}, {3, 1}, {1, 1}, {1, 1}, {{1, 1}, {1, 0}}},
                         // Tiling windows (the sum's broadcast transpose), hanging over one end
                         // and leaving a remainder at the other.
                         {{7, 5}, {2, 2}, {2, 2}, {1, 1}, {1, 1}, {{0, 1}, {0, 0}}}};
  for (const Win& w : cases) {
    SCOPED_TRACE(describe(w));
    st::Array x = st::random::normal(st::random::key(seed++), w.shape, st::f64);
    check_grads([w](const std::vector<st::Array>& a) { return apply(K::kSum, a[0], w); }, {x}, "reduce_window_sum");
    bool unit = true;
    for (size_t d = 0; d < w.shape.size(); ++d) unit &= w.base[d] == 1 && w.dil[d] == 1;
    if (unit) {
      check_grads([w](const std::vector<st::Array>& a) { return apply(K::kMax, a[0], w); }, {x}, "reduce_window_max");
      check_grads([w](const std::vector<st::Array>& a) { return apply(K::kMin, a[0], w); }, {x}, "reduce_window_min");
    } else {
      // JVP only (JAX has no transpose with dilations); its error names the primitive.
      st::Array t = st::random::normal(st::random::key(seed++), w.shape, st::f64);
      double h = 1e-6;
      std::vector<double> fd = ((apply(K::kMax, x + h * t, w) - apply(K::kMax, x - h * t, w)) / (2 * h)).to_vector<double>();
      auto f = [w](const st::Array& a) { return apply(K::kMax, a, w); };
      expect_values(st::jvp(f, x, t).second.to_vector<double>(), fd, 1e-6, "jvp with dilations");
      expect_contains(error_message<st::ValueError>([&] { st::grad([w](const st::Array& a) { return st::sum(apply(K::kMax, a, w)); })(x); }),
                      "reduce_window_max: the gradient with base or window dilation is not implemented");
    }
  }
}

TEST(ReduceWindow, SecondDerivativesCompose) {
  // grad of grad through select_and_scatter_add / select_and_gather_add and the sum transpose.
  st::Array x = st::random::normal(st::random::key(41), {2, 6, 5, 2}, st::f64);
  Win w{{2, 6, 5, 2}, {1, 2, 2, 1}, {1, 2, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {{0, 0}, {0, 1}, {1, 0}, {0, 0}}};
  for (K k : {K::kSum, K::kMax}) {
    check_grads([w, k](const std::vector<st::Array>& a) {
                  return st::grad([w, k](const st::Array& b) { return st::sum(st::sin(apply(k, b, w))); })(a[0]);
                },
                {x}, "second derivative");
  }
}

TEST(ReduceWindow, VmapMatchesPerExample) {
  st::Array xs = st::random::normal(st::random::key(5), {3, 5, 6}, st::f64);
  st::Array gs = st::random::normal(st::random::key(6), {3, 3, 3}, st::f64);
  Win w{{5, 6}, {2, 3}, {2, 2}, {1, 1}, {1, 1}, {{1, 0}, {0, 1}}};
  for (K k : {K::kSum, K::kMax, K::kMin}) {
    auto f = [k, w](const st::Array& a) { return apply(k, a, w); };
    auto g = [k, w](const st::Array& a, const st::Array& c) { return st::grad([&](const st::Array& b) { return st::sum(apply(k, b, w) * c); })(a); };
    std::vector<double> v = st::vmap(f)(xs).to_vector<double>();
    std::vector<double> vg = st::vmap(g)(xs, gs).to_vector<double>();
    std::vector<double> vgj = st::jit(st::vmap(g))(xs, gs).to_vector<double>();
    for (int64_t b = 0; b < 3; ++b) {
      st::Array xb = st::squeeze(st::slice(xs, {b, 0, 0}, {b + 1, 5, 6}), 0);
      st::Array gb = st::squeeze(st::slice(gs, {b, 0, 0}, {b + 1, 3, 3}), 0);
      std::vector<double> want = f(xb).to_vector<double>(), want_g = g(xb, gb).to_vector<double>();
      for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(v[b * want.size() + i], want[i], 1e-14);
      for (size_t i = 0; i < want_g.size(); ++i) {
        ASSERT_NEAR(vg[b * want_g.size() + i], want_g[i], 1e-14);
        ASSERT_NEAR(vgj[b * want_g.size() + i], want_g[i], 1e-14);
      }
    }
    // The gradient operand batched, x not (select_and_scatter_add with one unbatched operand).
    st::Array x0 = st::squeeze(st::slice(xs, {0, 0, 0}, {1, 5, 6}), 0);
    std::vector<double> one = st::vmap([&](const st::Array& c) { return g(x0, c); })(gs).to_vector<double>();
    for (int64_t b = 0; b < 3; ++b) {
      std::vector<double> want = g(x0, st::squeeze(st::slice(gs, {b, 0, 0}, {b + 1, 3, 3}), 0)).to_vector<double>();
      for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(one[b * want.size() + i], want[i], 1e-14);
    }
  }
}

TEST(ReduceWindow, JaxprNamesJaxPrimitives) {
  auto f = [](const st::Array& a) { return st::sum(st::reduce_window_max(a, {2, 2}, {2, 2})); };
  std::string j = st::make_jaxpr(st::grad(f))(st::ones({4, 4})).to_string();
  expect_contains(j, "reduce_window_max[");
  expect_contains(j, "select_and_scatter_add[");
  expect_contains(j, "select_prim=ge");
}

TEST(ReduceWindow, Errors) {
  expect_contains(error_message<st::ValueError>([] { st::reduce_window_sum(st::ones({4, 4}), {2}); }),
                  "reduce_window_sum: expects window_dimensions of length 2");
  expect_contains(error_message<st::ShapeError>([] { st::reduce_window_max(st::ones({4, 4}), {2, 0}); }),
                  "reduce_window_max: expects positive window_dimensions");
  expect_contains(error_message<st::ShapeError>([] { st::reduce_window_min(st::ones({4, 4}), {2, 2}, {}, {{0, -1}, {0, 0}}); }),
                  "expects non-negative padding");
  expect_contains(error_message<st::DTypeError>([] { st::reduce_window_sum(st::ones({4}, st::bool_), {2}); }),
                  "numeric operand");
  expect_contains(error_message<st::ValueError>([] { st::reduce_window_sum(st::ones({4}), {2}, {1, 1}); }),
                  "expects window_strides of length 1");
}

// Complex sums (and avg_pool) are the sums of the parts, eagerly and under jit; the gradient
// of a real loss is JAX's ∂L/∂re − i ∂L/∂im.
TEST(ReduceWindow, ComplexSumsAreSumsOfTheParts) {
  st::Array re = st::reshape(st::astype(st::arange(24), st::f64) * 0.25 - 2.0, {2, 3, 4});
  st::Array im = st::reshape(st::cos(st::astype(st::arange(24), st::f64)), {2, 3, 4});
  st::Array z = st::complex(re, im);
  auto f = [](const st::Array& x) { return st::reduce_window_sum(x, {1, 2, 3}, {1, 1, 2}, {{0, 0}, {1, 0}, {1, 1}}, {1, 1, 2}); };
  for (const st::Array& y : {f(z), st::jit(f)(z)}) {
    ASSERT_EQ(y.dtype(), st::c128);
    EXPECT_EQ(st::real(y).to_vector<double>(), f(re).to_vector<double>());
    EXPECT_EQ(st::imag(y).to_vector<double>(), f(im).to_vector<double>());
  }
  st::Array p = st::nn::avg_pool(st::astype(z, st::c64), {2}, {1});
  st::Array pr = st::nn::avg_pool(st::astype(re, st::f32), {2}, {1});
  EXPECT_EQ(st::real(p).to_vector<float>(), pr.to_vector<float>());
  // L = Σ re(y)·im(y): dL/dre = window-sum transpose of im(y), dL/dim of re(y).
  auto loss = [&](const st::Array& x) {
    st::Array y = f(x);
    return st::sum(st::real(y) * st::imag(y));
  };
  st::Array g = st::grad(loss)(z);
  auto real_loss = [&](const st::Array& a, const st::Array& b) { return st::sum(f(a) * f(b)); };
  auto [ga, gb] = st::grad(real_loss, st::argnums<0, 1>)(re, im);
  std::vector<double> gr = st::real(g).to_vector<double>(), gi = st::imag(g).to_vector<double>();
  std::vector<double> wa = ga.to_vector<double>(), wb = gb.to_vector<double>();
  for (size_t i = 0; i < gr.size(); ++i) {
    EXPECT_NEAR(gr[i], wa[i], 1e-12) << i;
    EXPECT_NEAR(gi[i], -wb[i], 1e-12) << i;
  }
}

}  // namespace
