// The composites (solve, inv, det, slogdet, lstsq, pinv, norm, matrix_power) against their
// identities and independent references (plain loops, and values jnp.linalg printed for fixed
// inputs), jit ≡ eager, and bad shapes.
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::DType;
using namespace st::testing;

namespace {

constexpr DType kTypes[] = {st::f32, st::f64};

// Determinant by Gaussian elimination with partial pivoting in double (a plain loop).
double det_reference(std::vector<double> a, int n) {
  double d = 1;
  for (int j = 0; j < n; ++j) {
    int p = j;
    for (int i = j + 1; i < n; ++i)
      if (std::fabs(a[i * n + j]) > std::fabs(a[p * n + j])) p = i;
    if (a[p * n + j] == 0) return 0;
    if (p != j) {
      for (int c = 0; c < n; ++c) std::swap(a[j * n + c], a[p * n + c]);
      d = -d;
    }
    d *= a[j * n + j];
    for (int i = j + 1; i < n; ++i) {
      double f = a[i * n + j] / a[j * n + j];
      for (int c = j; c < n; ++c) a[i * n + c] -= f * a[j * n + c];
    }
  }
  return d;
}

TEST(Solve, SolvesBatchedAndBroadcastSystems) {
  for (DType t : kTypes) {
    Array a = st::add(rnd({2, 3, 4, 4}, t, 1), st::astype(st::eye(4) * 3.0f, t));
    Array b = rnd({2, 3, 4, 2}, t, 2);
    expect_near(st::matmul(a, la::solve(a, b)), b, tol(t, 10), "A x = b");
    // A vector b; batch dimensions that broadcast.
    Array v = rnd({4}, t, 3);
    Array xv = la::solve(a, v);
    EXPECT_EQ(xv.shape(), (st::Shape{2, 3, 4}));
    expect_near(st::squeeze(st::matmul(a, st::expand_dims(xv, -1)), -1), st::broadcast_to(v, {2, 3, 4}), tol(t, 10), "vector b");
    Array bb = rnd({3, 4, 5}, t, 4);
    expect_near(st::matmul(a, la::solve(a, bb)), st::broadcast_to(bb, {2, 3, 4, 5}), tol(t, 10), "broadcast b");
    expect_same(st::jit([](const Array& x, const Array& y) { return la::solve(x, y); })(a, b), la::solve(a, b), "jit");
  }
  // Singular: inf/nan, no crash.
  Array x = la::solve(st::zeros({2, 2}, st::f64), st::ones({2}, st::f64));
  for (double v : x.to_vector<double>()) EXPECT_FALSE(std::isfinite(v));
  expect_error<st::ShapeError>([] { la::solve(st::zeros({3, 3}), st::zeros({4})); }, {"solve", "f32[3,3]", "f32[4]"});
  expect_error<st::ShapeError>([] { la::solve(st::zeros({3, 2}), st::zeros({3})); }, {"solve", "square"});
}

TEST(Inv, TimesTheMatrixIsTheIdentity) {
  for (DType t : kTypes) {
    Array a = st::add(rnd({5, 3, 3}, t, 5), st::astype(st::eye(3) * 3.0f, t));
    Array ai = la::inv(a);
    Array prod = st::matmul(a, ai);
    expect_near(prod, st::astype(st::eye(3), t) * st::ones_like(prod), tol(t, 10), "A A⁻¹ = I");
    expect_same(st::jit([](const Array& x) { return la::inv(x); })(a), ai, "jit");
  }
  EXPECT_EQ(la::inv(st::zeros({0, 0})).shape(), (st::Shape{0, 0}));
  EXPECT_EQ(la::inv(st::ones({1, 1}) * 4.0f).item<float>(), 0.25f);
  expect_error<st::ShapeError>([] { la::inv(st::zeros({2, 3})); }, {"inv", "f32[2,3]"});
}

TEST(Det, MatchesEliminationInDouble) {
  for (DType t : kTypes)
    for (int n : {1, 2, 3, 5}) {
      Array a = rnd({3, n, n}, t, 10 + n);
      std::vector<double> d = la::det(a).to_vector<double>(), all = a.to_vector<double>();
      la::SlogdetResult sl = la::slogdet(a);
      std::vector<double> sg = sl.sign.to_vector<double>(), lg = sl.logabsdet.to_vector<double>();
      for (int b = 0; b < 3; ++b) {
        double want = det_reference(std::vector<double>(all.begin() + b * n * n, all.begin() + (b + 1) * n * n), n);
        EXPECT_NEAR(d[b], want, tol(t, 10) * std::max(1.0, std::fabs(want)));
        EXPECT_EQ(sg[b], want > 0 ? 1 : -1);
        EXPECT_NEAR(lg[b], std::log(std::fabs(want)), tol(t, 10));
      }
    }
  // Singular: det 0, slogdet (0, -inf); empty: det 1.
  Array s = st::array(std::vector<double>{1, 2, 2, 4}, {2, 2}, st::f64);
  EXPECT_EQ(la::det(s).item<double>(), 0);
  EXPECT_EQ(la::slogdet(s).sign.item<double>(), 0);
  EXPECT_EQ(la::slogdet(s).logabsdet.item<double>(), -INFINITY);
  EXPECT_EQ(la::det(st::zeros({0, 0})).item<float>(), 1);
  // A permutation: det -1.
  EXPECT_EQ(la::det(st::array(std::vector<double>{0, 1, 1, 0}, {2, 2}, st::f64)).item<double>(), -1);
  Array a = rnd({4, 4}, st::f64, 3);
  // The diagonal's product is a reduction, which compiled code may associate differently.
  expect_near(st::jit([](const Array& x) { return la::det(x); })(a), la::det(a), 1e-15, "jit det");
  expect_error<st::ShapeError>([] { la::det(st::zeros({3})); }, {"det", "f32[3]"});
  expect_error<st::ShapeError>([] { la::slogdet(st::zeros({2, 3})); }, {"slogdet", "f32[2,3]"});
}

TEST(Lstsq, MinimisesTheResidual) {
  for (DType t : kTypes) {
    Array a = rnd({8, 3}, t, 1), b = rnd({8, 2}, t, 2);
    la::LstsqResult r = la::lstsq(a, b);
    // The normal equations Aᵀ (A x - b) = 0.
    expect_near(st::matmul(mT(a), st::subtract(st::matmul(a, r.x), b)), st::zeros({3, 2}, t), tol(t, 100), "normal equations");
    EXPECT_EQ(r.rank.item<int32_t>(), 3);
    Array res = st::subtract(st::matmul(a, r.x), b);
    expect_near(r.residuals, st::sum(res * res, 0), tol(t, 10), "residuals");
    la::LstsqResult v = la::lstsq(a, rnd({8}, t, 3));
    EXPECT_EQ(v.x.shape(), (st::Shape{3}));
    EXPECT_EQ(v.residuals.shape(), (st::Shape{1}));
  }
  // Rank deficient: the duplicated column counts once.
  Array a = st::array(std::vector<double>{1, 1, 2, 2, 3, 3}, {3, 2}, st::f64);
  EXPECT_EQ(la::lstsq(a, st::ones({3}, st::f64)).rank.item<int32_t>(), 1);
  expect_error<st::ShapeError>([] { la::lstsq(st::zeros({3, 2}), st::zeros({4})); }, {"lstsq"});
}

TEST(Pinv, PenroseConditions) {
  for (DType t : kTypes)
    for (const st::Shape& s : {st::Shape{5, 3}, st::Shape{2, 3, 6}}) {
      Array a = rnd(s, t, 4);
      Array p = la::pinv(a);
      EXPECT_EQ(p.shape(-2), s.back());
      expect_near(st::matmul(st::matmul(a, p), a), a, tol(t, 100), "A A⁺ A = A");
      expect_near(st::matmul(st::matmul(p, a), p), p, tol(t, 100), "A⁺ A A⁺ = A⁺");
    }
  Array sq = st::add(rnd({3, 3}, st::f64, 5), st::eye(3, -1, 0, st::f64) * 3.0);
  expect_near(la::pinv(sq), la::inv(sq), 1e-10, "pinv = inv when invertible");
  EXPECT_EQ(la::pinv(st::zeros({0, 3})).shape(), (st::Shape{3, 0}));
}

// Values printed by jnp.linalg.norm (jax 0.10.2, x64) for the same inputs.
TEST(Norm, MatchesJax) {
  Array v = st::array(std::vector<double>{3, -4, 0, 1}, {4}, st::f64);
  EXPECT_NEAR(la::norm(v).item<double>(), 5.0990195135927845, 1e-12);
  EXPECT_NEAR(la::norm(v, 1).item<double>(), 8, 1e-12);
  EXPECT_NEAR(la::norm(v, INFINITY).item<double>(), 4, 1e-12);
  EXPECT_NEAR(la::norm(v, -INFINITY).item<double>(), 0, 1e-12);
  EXPECT_NEAR(la::norm(v, 0).item<double>(), 3, 1e-12);
  EXPECT_NEAR(la::norm(v, 3).item<double>(), 4.514357435474001, 1e-12);
  Array m = st::array(std::vector<double>{1, -2, 3, 4, 5, -6, -7, 8, 9.5}, {3, 3}, st::f64);
  EXPECT_NEAR(la::norm(m).item<double>(), 17.153716798408443, 1e-10);
  EXPECT_NEAR(la::norm(m, "fro").item<double>(), 17.153716798408443, 1e-10);
  EXPECT_NEAR(la::norm(m, "nuc").item<double>(), 25.496705212297357, 1e-10);
  EXPECT_NEAR(la::norm(m, 1).item<double>(), 18.5, 1e-12);
  EXPECT_NEAR(la::norm(m, -1).item<double>(), 12, 1e-12);
  EXPECT_NEAR(la::norm(m, INFINITY).item<double>(), 24.5, 1e-12);
  EXPECT_NEAR(la::norm(m, -INFINITY).item<double>(), 6, 1e-12);
  EXPECT_NEAR(la::norm(m, 2).item<double>(), 14.779356502856967, 1e-10);
  EXPECT_NEAR(la::norm(m, -2).item<double>(), 2.32636173218374, 1e-10);
  // Axes and keepdims.
  Array x = st::reshape(st::arange(24, st::f64) - 11.5, {2, 3, 4});
  Array n1 = la::norm(x, 2, std::vector<int>{1}, true);
  EXPECT_EQ(n1.shape(), (st::Shape{2, 1, 4}));
  EXPECT_NEAR(n1.to_vector<double>()[0], 14.168627315304754, 1e-10);
  Array n2 = la::norm(x, 1, std::vector<int>{2, 1});
  EXPECT_EQ(n2.shape(), (st::Shape{2}));
  EXPECT_NEAR(n2.to_vector<double>()[0], 40.0, 1e-10);
  Array n3 = la::norm(x, "fro", std::vector<int>{0, 2}, true);
  EXPECT_EQ(n3.shape(), (st::Shape{1, 3, 1}));
  EXPECT_EQ(la::norm(x, {}, std::nullopt, true).shape(), (st::Shape{1, 1, 1}));
  expect_error<st::ValueError>([&] { la::norm(x, 2); }, {"norm"});
  expect_error<st::ValueError>([&] { la::norm(v, "nuc"); }, {"norm"});
  expect_error<st::ValueError>([&] { la::norm(m, 3); }, {"norm"});
}

TEST(MatrixPower, RepeatedProducts) {
  Array a = st::add(rnd({2, 3, 3}, st::f64, 6), st::eye(3, -1, 0, st::f64) * 2.0);
  Array p = a;
  for (int k = 1; k <= 5; ++k) {
    expect_near(la::matrix_power(a, k), p, 1e-10, "power " + std::to_string(k));
    p = st::matmul(p, a);
  }
  Array eye = st::broadcast_to(st::eye(3, -1, 0, st::f64), {2, 3, 3});
  expect_same(la::matrix_power(a, 0), eye, "power 0");
  expect_near(st::matmul(la::matrix_power(a, -3), st::matmul(a, st::matmul(a, a))), eye, 1e-9, "power -3");
  EXPECT_EQ(la::matrix_power(st::astype(st::eye(2), st::i32), 3).dtype(), st::i32);
  expect_error<st::ShapeError>([] { la::matrix_power(st::zeros({2, 3}), 2); }, {"matrix_power", "f32[2,3]"});
}

}  // namespace

namespace {

// Composites under vmap (an unbatched operand broadcast by the primitives' batching rules) and
// jit(grad) through them.
TEST(LinalgComposites, VmapAndJitGrad) {
  Array a = st::add(rnd({4, 3, 3}, st::f64, 30), st::eye(3, -1, 0, st::f64) * 3.0);
  Array b = rnd({3}, st::f64, 31);
  Array xs = st::vmap([&](const Array& m) { return la::solve(m, b); })(a);
  expect_near(xs, la::solve(a, b), 1e-12, "vmap solve");
  Array ds = st::vmap([](const Array& m) { return la::det(m); })(a);
  expect_near(ds, la::det(a), 1e-12, "vmap det");
  Array ns = st::vmap([](const Array& m) { return la::norm(m, 2); })(a);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(ns.to_vector<double>()[i], la::norm(a[i], 2).item<double>(), 1e-12);
  auto loss = [&](const Array& m) { return st::sum(la::solve(m, b)) + la::slogdet(m).logabsdet; };
  expect_near(st::jit(st::grad(loss))(a[0]), st::grad(loss)(a[0]), 1e-12, "jit grad");
  // Non-finite input: NaN out of lu-based composites, no crash.
  Array bad = st::full({2, 2}, NAN, st::f64);
  for (double v : la::inv(bad).to_vector<double>()) EXPECT_TRUE(std::isnan(v));
  EXPECT_TRUE(std::isnan(la::det(bad).item<double>()));
}

}  // namespace
