// qr of matrices large enough for the blocked Householder kernel (tracer/kernels/
// householder.cpp: householder_qr_suits, about 250² and up, 384 rows for wide ones): q r = a, orthonormal q, r upper triangular with exact
// zeros below, over f32/f64, square, tall and wide, reduced and full; rank-deficient columns;
// tiny and huge scales; batched ≡ one by one and jit ≡ eager bit for bit; the derivative
// against finite differences. And svd of matrices twice as tall as wide (or wide), which goes
// through this QR first. Small sizes (Eigen's HouseholderQR) are in test_decompositions.cpp.
#include <algorithm>
#include <cmath>

#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::DType;
using namespace st::testing;

namespace {

void check_qr(const Array& a, bool full, const std::string& what) {
  SCOPED_TRACE(what + (full ? " full" : " reduced"));
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n), qc = full ? m : k;
  la::QrResult f = la::qr(a, full);
  ASSERT_EQ(f.q.shape().back(), qc);
  ASSERT_EQ(f.r.shape()[f.r.ndim() - 2], qc);
  const double scale = std::max(max_abs(a), 1e-300), e0 = eps(a.dtype());
  EXPECT_LE(max_abs(st::subtract(st::matmul(f.q, f.r), a)), 10 * e0 * std::max(m, n) * scale) << "q r = a";
  EXPECT_LE(max_abs(st::subtract(st::matmul(mT(f.q), f.q), st::astype(st::eye(qc), a.dtype()))), 10 * e0 * m)
      << "qᵀ q = I";
  EXPECT_EQ(max_abs(st::tril(f.r, -1)), 0.0) << "r upper triangular";
}

TEST(HouseholderQr, ShapesAndModes) {
  for (DType t : {st::f32, st::f64})
    for (bool full : {false, true}) {
      const std::string name(st::short_name(t));
      check_qr(rnd({260, 260}, t, 1), full, name + " 260x260");
      check_qr(rnd({700, 100}, t, 2), full, name + " 700x100");
      check_qr(rnd({400, 700}, t, 3), full, name + " 400x700");
      check_qr(rnd({700, 97}, t, 4), full, name + " 700x97 (partial blocks)");
    }
}

TEST(HouseholderQr, RankDeficientAndScaled) {
  for (DType t : {st::f32, st::f64}) {
    const std::string name(st::short_name(t));
    // Repeated and zero columns: a reflector with nothing below its diagonal (tau = 0).
    Array x = rnd({600, 40}, t, 5);
    Array a = st::concatenate({x, x, st::zeros({600, 40}, t), st::multiply(x, st::full({}, 2.0, t))}, 1);
    check_qr(a, false, name + " rank 40 of 160");
    check_qr(st::zeros({260, 260}, t), false, name + " zeros");
    check_qr(st::astype(st::eye(260), t), true, name + " identity");
    Array r = rnd({400, 200}, t, 6);
    check_qr(st::multiply(r, st::full({}, t == st::f32 ? 1e-30 : 1e-250, t)), false, name + " tiny");
    check_qr(st::multiply(r, st::full({}, t == st::f32 ? 1e30 : 1e250, t)), false, name + " huge");
  }
}

TEST(HouseholderQr, BatchedAndJitAreTheSameBits) {
  expect_batch_and_jit_same_bits(
      [](const Array& m) {
        la::QrResult f = la::qr(m);
        return std::vector<Array>{f.q, f.r};
      },
      rnd({3, 300, 220}, st::f32, 7));
}

TEST(HouseholderQr, DerivativeMatchesFiniteDifferences) {
  Array a = rnd({1000, 70}, st::f64, 8);
  Array cq = rnd({1000, 70}, st::f64, 9), cr = rnd({70, 70}, st::f64, 10), dir = rnd({1000, 70}, st::f64, 11);
  auto f = [cq, cr](const Array& m) {
    la::QrResult r = la::qr(m);
    return st::add(st::sum(st::multiply(cq, r.q)), st::sum(st::multiply(cr, r.r)));
  };
  Array g = st::grad(f)(a);
  const double h = 1e-6;
  const Array step = st::multiply(dir, st::full({}, h, st::f64));
  const double fd = (f(st::add(a, step)).item<double>() - f(st::subtract(a, step)).item<double>()) / (2 * h);
  EXPECT_NEAR(st::sum(st::multiply(g, dir)).item<double>(), fd, 1e-5 * std::max(1.0, std::abs(fd)));
}

void check_svd(const Array& a, bool full, const std::string& what) {
  SCOPED_TRACE(what + (full ? " full" : " reduced"));
  const int64_t m = a.shape()[0], n = a.shape()[1], k = std::min(m, n);
  la::SvdResult f = la::svd(a, full);
  ASSERT_EQ(f.u.shape(), (st::Shape{m, full ? m : k}));
  ASSERT_EQ(f.vt.shape(), (st::Shape{full ? n : k, n}));
  const double scale = max_abs(a), e0 = eps(a.dtype());
  Array us = st::multiply(st::slice(f.u, {0, 0}, {m, k}), st::expand_dims(f.s, 0));
  EXPECT_LE(max_abs(st::subtract(st::matmul(us, st::slice(f.vt, {0, 0}, {k, n})), a)), 20 * e0 * std::max(m, n) * scale)
      << "u Σ vt = a";
  const int64_t uc = f.u.shape()[1], vr = f.vt.shape()[0];
  auto identity = [&](int64_t size) { return st::astype(st::eye(size), a.dtype()); };
  EXPECT_LE(max_abs(st::subtract(st::matmul(mT(f.u), f.u), identity(uc))), 20 * e0 * m) << "uᵀu";
  EXPECT_LE(max_abs(st::subtract(st::matmul(f.vt, mT(f.vt)), identity(vr))), 20 * e0 * n) << "v vᵀ";
  std::vector<double> sv = f.s.to_vector<double>(), s64 = la::svdvals(st::astype(a, st::f64)).to_vector<double>(),
                      values = la::svdvals(a).to_vector<double>();
  for (int64_t i = 0; i < k; ++i) {
    if (i) EXPECT_GE(sv[i - 1], sv[i]);
    EXPECT_NEAR(sv[i], s64[i], 20 * e0 * std::max(m, n) * scale) << i;
    EXPECT_NEAR(values[i], sv[i], 20 * e0 * std::max(m, n) * scale) << "svdvals " << i;
  }
}

TEST(HouseholderQr, SvdOfTallAndWideMatricesGoesThroughIt) {
  for (DType t : {st::f32, st::f64})
    for (bool full : {false, true}) {
      const std::string name(st::short_name(t));
      check_svd(rnd({600, 150}, t, 12), full, name + " 600x150");
      check_svd(rnd({150, 600}, t, 13), full, name + " 150x600");
      Array x = rnd({800, 50}, t, 14);  // rank 50 of 100: zero singular values
      check_svd(st::concatenate({x, x}, 1), full, name + " 800x100 rank 50");
    }
}

}  // namespace
