// st::nn::max_pool and avg_pool: against loop references over windows, strides and padding
// (1-d and 2-d), jit against eager, derivatives against finite differences, vmap.
#include <gtest/gtest.h>

#include <random>

#include "autodiff/check_grads.h"
#include "conv_reference.h"
#include "test_util.h"

namespace st = strata;
using namespace strata::testing;

namespace {

// (batch, spatial..., features) pooled by loops; `avg` divides by the window's size.
std::vector<double> pool_reference(const std::vector<double>& x, const st::Shape& s, const std::vector<int64_t>& win,
                                   const std::vector<int64_t>& str, const std::vector<std::pair<int64_t, int64_t>>& pad,
                                   bool avg, st::Shape& out_shape) {
  const size_t nsp = win.size();
  out_shape = {s[0]};
  for (size_t i = 0; i < nsp; ++i) {
    int64_t padded = s[i + 1] + pad[i].first + pad[i].second;
    out_shape.push_back(padded < win[i] ? 0 : (padded - win[i]) / str[i] + 1);
  }
  out_shape.push_back(s.back());
  const std::vector<int64_t> xs = strides_of(s), ys = strides_of(out_shape);
  std::vector<double> y(static_cast<size_t>(count_of(out_shape)));
  int64_t taps = 1;
  for (int64_t w : win) taps *= w;
  for (int64_t f = 0; f < static_cast<int64_t>(y.size()); ++f) {
    std::vector<int64_t> idx(out_shape.size());
    for (size_t d = 0, r = f; d < idx.size(); ++d) {
      idx[d] = static_cast<int64_t>(r) / ys[d];
      r %= ys[d];
    }
    double acc = avg ? 0.0 : -INFINITY;
    for (int64_t t = 0; t < taps; ++t) {
      int64_t off = idx[0] * xs[0] + idx.back() * xs.back();
      bool inside = true;
      for (size_t i = nsp, r = t; i-- > 0;) {
        int64_t k = static_cast<int64_t>(r) % win[i];
        r /= win[i];
        int64_t pos = idx[i + 1] * str[i] + k - pad[i].first;
        inside = inside && pos >= 0 && pos < s[i + 1];
        off += pos * xs[i + 1];
      }
      if (!inside) continue;
      acc = avg ? acc + x[off] : std::max(acc, x[off]);
    }
    y[f] = avg ? acc / static_cast<double>(taps) : acc;
  }
  return y;
}

struct PoolCase {
  st::Shape shape;
  std::vector<int64_t> window, strides;
  std::string mode;  // "SAME", "VALID" or "" (explicit pads)
  std::vector<std::pair<int64_t, int64_t>> pads;
};

std::vector<PoolCase> pool_cases() {
  return {{{2, 6, 6, 3}, {2, 2}, {2, 2}, "VALID", {}},
          {{1, 7, 5, 2}, {3, 3}, {2, 1}, "SAME", {}},
          {{2, 5, 4}, {2}, {1}, "SAME", {}},
          {{1, 6, 7, 2}, {3, 2}, {3, 2}, "", {{1, 1}, {0, 2}}},
          {{3, 9, 1}, {4}, {3}, "VALID", {}}};
}

st::Padding padding_of(const PoolCase& c) { return c.mode.empty() ? st::Padding(c.pads) : st::Padding(c.mode); }

std::vector<std::pair<int64_t, int64_t>> pads_of(const PoolCase& c) {
  if (c.mode == "VALID") return std::vector<std::pair<int64_t, int64_t>>(c.window.size(), {0, 0});
  if (c.mode.empty()) return c.pads;
  std::vector<std::pair<int64_t, int64_t>> p;
  for (size_t i = 0; i < c.window.size(); ++i) {
    int64_t in = c.shape[i + 1], out = (in + c.strides[i] - 1) / c.strides[i];
    int64_t total = std::max<int64_t>((out - 1) * c.strides[i] + c.window[i] - in, 0);
    p.push_back({total / 2, total - total / 2});
  }
  return p;
}

TEST(Pool, MatchesReferenceEagerAndJit) {
  std::mt19937 rng(3);
  for (const PoolCase& c : pool_cases())
    for (bool avg : {false, true})
      for (st::DType t : {st::f32, st::f64}) {
        SCOPED_TRACE(std::string(avg ? "avg " : "max ") + std::string(st::short_name(t)) + " " + c.mode);
        std::vector<double> xv = random_values(count_of(c.shape), rng);
        st::Array x = st::astype(st::array(xv, c.shape, st::f64), t);
        xv = st::astype(x, st::f64).to_vector<double>();
        st::Shape want_shape;
        std::vector<double> want = pool_reference(xv, c.shape, c.window, c.strides, pads_of(c), avg, want_shape);
        auto f = [c, avg](const st::Array& a) {
          return avg ? st::nn::avg_pool(a, c.window, c.strides, padding_of(c))
                     : st::nn::max_pool(a, c.window, c.strides, padding_of(c));
        };
        st::Array eager = f(x), jitted = st::jit(f)(x);
        ASSERT_EQ(eager.shape(), want_shape);
        ASSERT_EQ(jitted.shape(), want_shape);
        std::vector<double> e = st::astype(eager, st::f64).to_vector<double>();
        std::vector<double> j = st::astype(jitted, st::f64).to_vector<double>();
        double tol = t == st::f32 ? 1e-6 : 1e-14;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_NEAR(e[i], want[i], tol) << "eager " << i;
          EXPECT_NEAR(j[i], e[i], tol) << "jit " << i;
        }
      }
}

TEST(Pool, GradientsMatchFiniteDifferences) {
  uint64_t seed = 11;
  for (const PoolCase& c : pool_cases()) {
    // Distinct values, so that the maximum of each window is unique and differentiable.
    st::Array x = st::random::normal(st::random::key(seed++), c.shape, st::f64);
    check_grads([c](const std::vector<st::Array>& a) { return st::nn::max_pool(a[0], c.window, c.strides, padding_of(c)); },
                {x}, "max_pool " + c.mode);
    check_grads([c](const std::vector<st::Array>& a) { return st::nn::avg_pool(a[0], c.window, c.strides, padding_of(c)); },
                {x}, "avg_pool " + c.mode);
  }
}

TEST(Pool, VmapMatchesPerExample) {
  st::Array xs = st::random::normal(st::random::key(5), {3, 2, 6, 6, 2}, st::f64);
  auto g = [](const st::Array& a) { return st::nn::max_pool(a, {2, 2}, {2, 2}); };
  auto h = [](const st::Array& a) { return st::nn::avg_pool(a, {3, 3}, {1, 1}, "SAME"); };
  for (auto fn : {std::function<st::Array(const st::Array&)>(g), std::function<st::Array(const st::Array&)>(h)}) {
    std::vector<double> v = st::vmap(fn)(xs).to_vector<double>();
    size_t n = v.size() / 3;
    for (int64_t b = 0; b < 3; ++b) {
      std::vector<double> want = fn(st::squeeze(st::slice(xs, {b, 0, 0, 0, 0}, {b + 1, 2, 6, 6, 2}), 0)).to_vector<double>();
      ASSERT_EQ(want.size(), n);
      for (size_t i = 0; i < n; ++i) ASSERT_NEAR(v[b * n + i], want[i], 1e-14);
    }
  }
}

TEST(Pool, Errors) {
  expect_contains(error_message<st::ShapeError>([] { st::nn::max_pool(st::ones({4, 4}), {2, 2}); }),
                  "max_pool: expects (batch, spatial..., features) of rank 4");
  expect_contains(error_message<st::ValueError>([] { st::nn::avg_pool(st::ones({1, 4, 4, 1}), {2, 0}); }),
                  "positive window sizes");
  expect_contains(error_message<st::DTypeError>([] { st::nn::max_pool(st::ones({1, 4, 4, 1}, st::i32), {2, 2}); }),
                  "float operand");
}

}  // namespace
