// The decompositions (cholesky, triangular_solve, lu, qr, eigh, svd) against their defining
// identities over f32/f64, batched, edge cases (1×1, empty, singular or indefinite input);
// jit ≡ eager; vmap ≡ the batched primitive; bad shapes raise ShapeError naming the op.
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::DType;
using namespace st::testing;

namespace {

constexpr DType kTypes[] = {st::f32, st::f64};

TEST(Cholesky, LowerFactorReproducesTheMatrix) {
  for (DType t : kTypes)
    for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{2, 3, 5, 5}, st::Shape{1, 1}}) {
      Array a = spd(s, t, 1);
      Array l = la::cholesky(a);
      EXPECT_EQ(l.dtype(), t);
      expect_near(st::matmul(l, mT(l)), a, tol(t), "L Lᵀ = A");
      expect_near(st::triu(l, 1), st::zeros(s, t), 0, "zeros above the diagonal");
      for (double d : st::sum(st::multiply(l, st::astype(st::eye(s.back()), t)), -1).to_vector<double>()) EXPECT_GT(d, 0);
    }
}

TEST(Cholesky, EdgeCases) {
  EXPECT_EQ(la::cholesky(st::zeros({0, 3, 3})).shape(), (st::Shape{0, 3, 3}));
  EXPECT_EQ(la::cholesky(st::zeros({0, 0})).shape(), (st::Shape{0, 0}));
  // Not positive definite: a NaN-filled factor (as JAX), for that matrix of the batch only.
  Array a = st::stack({spd({3, 3}, st::f64, 2), st::array(std::vector<double>{1, 2, 0, 2, 1, 0, 0, 0, 1}, {3, 3}, st::f64)});
  Array l = la::cholesky(a);
  expect_all_nan(l[1], "indefinite");
  for (double v : l[0].to_vector<double>()) EXPECT_FALSE(std::isnan(v));
  expect_all_nan(la::cholesky(st::full({2, 2}, NAN, st::f32)), "nan input");
  // Integers are promoted to a float.
  EXPECT_EQ(la::cholesky(st::astype(st::eye(3), st::i32)).dtype(), st::f32);
}

TEST(Cholesky, BadShapesRaiseShapeError) {
  expect_error<st::ShapeError>([] { la::cholesky(st::zeros({3})); }, {"cholesky", "f32[3]"});
  expect_error<st::ShapeError>([] { la::cholesky(st::zeros({2, 3})); }, {"cholesky", "f32[2,3]"});
  expect_error<st::DTypeError>([] { la::cholesky(st::zeros({2, 2}, st::f16)); }, {"cholesky", "f16[2,2]"});
}

// op(a) x = b or x op(a) = b for every flag, with garbage in the triangle not read.
TEST(TriangularSolve, EveryFlagSolvesItsSystem) {
  for (DType t : kTypes)
    for (int f = 0; f < 16; ++f) {
      bool left = f & 1, lower = f & 2, trans = f & 4, unit = f & 8;
      Array full = st::add(rnd({2, 4, 4}, t, 10 + f), st::astype(st::eye(4) * 4.0f, t));
      Array tri = lower ? st::tril(full) : st::triu(full);
      if (unit) tri = st::add(st::subtract(tri, st::multiply(tri, st::astype(st::eye(4), t))), st::astype(st::eye(4), t));
      Array b = rnd(left ? st::Shape{2, 4, 3} : st::Shape{2, 3, 4}, t, 40 + f);
      Array x = la::triangular_solve(full, b, left, lower, trans, unit);
      Array op = trans ? mT(tri) : tri;
      expect_near(left ? st::matmul(op, x) : st::matmul(x, op), b, tol(t, 10), "flags " + std::to_string(f));
    }
}

TEST(TriangularSolve, SingularAndBadShapes) {
  Array x = la::triangular_solve(st::zeros({2, 2}, st::f64), st::ones({2, 1}, st::f64), true, true);
  for (double v : x.to_vector<double>()) EXPECT_FALSE(std::isfinite(v));
  EXPECT_EQ(la::triangular_solve(st::zeros({0, 0}), st::zeros({0, 2}), true).shape(), (st::Shape{0, 2}));
  expect_error<st::ShapeError>([] { la::triangular_solve(st::zeros({3, 3}), st::zeros({2, 3}), true); },
                               {"triangular_solve", "[3,3]", "[2,3]"});
  expect_error<st::ShapeError>([] { la::triangular_solve(st::zeros({2, 3, 3}), st::zeros({4, 3, 1}), true); },
                               {"triangular_solve", "batch"});
  expect_error<st::ShapeError>([] { la::triangular_solve(st::zeros({3, 2}), st::zeros({3, 2}), true); },
                               {"triangular_solve", "square"});
}

// a[permutation] = L U; the pivots are the row swaps that make the permutation.
void check_lu(const Array& a, DType t, const std::string& what) {
  SCOPED_TRACE(what);
  la::LuResult f = la::lu(a);
  int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  EXPECT_EQ(f.pivots.dtype(), st::i32);
  EXPECT_EQ(f.permutation.dtype(), st::i32);
  int rank = a.ndim();
  std::vector<int64_t> start(rank, 0), stop(a.shape().begin(), a.shape().end());
  stop[rank - 1] = k;
  Array l = st::add(st::tril(st::slice(f.lu, start, stop), -1), st::astype(st::eye(m, k), t));
  stop = std::vector<int64_t>(a.shape().begin(), a.shape().end());
  stop[rank - 2] = k;
  Array u = st::triu(st::slice(f.lu, start, stop));
  Array pa = st::take_along_axis(a, st::broadcast_to(st::expand_dims(f.permutation, -1), a.shape()), -2);
  expect_near(st::matmul(l, u), pa, tol(t, 10), "P A = L U");
  // Replaying the pivots gives the permutation.
  std::vector<double> piv = f.pivots.to_vector<double>(), perm = f.permutation.to_vector<double>();
  int64_t batch = f.pivots.size() / std::max<int64_t>(k, 1);
  for (int64_t b = 0; b < (k ? batch : 0); ++b) {
    std::vector<int> p(m);
    for (int i = 0; i < m; ++i) p[i] = i;
    for (int64_t i = 0; i < k; ++i) std::swap(p[i], p[static_cast<int>(piv[b * k + i])]);
    for (int i = 0; i < m; ++i) EXPECT_EQ(p[i], perm[b * m + i]);
  }
}

TEST(Lu, PermutedMatrixIsLTimesU) {
  for (DType t : kTypes) {
    check_lu(rnd({5, 5}, t, 1), t, "square");
    check_lu(rnd({2, 3, 4, 4}, t, 2), t, "batched");
    check_lu(rnd({6, 3}, t, 3), t, "tall");
    check_lu(rnd({2, 3, 6}, t, 4), t, "wide");
    check_lu(rnd({1, 1}, t, 5), t, "1x1");
    check_lu(st::astype(st::array(std::vector<double>{1, 2, 3, 2, 4, 6, 1, 1, 1}, {3, 3}), t), t, "singular");
  }
  EXPECT_EQ(la::lu(st::zeros({0, 0})).lu.shape(), (st::Shape{0, 0}));
  EXPECT_EQ(la::lu(st::zeros({0, 3, 3})).permutation.shape(), (st::Shape{0, 3}));
  expect_error<st::ShapeError>([] { la::lu(st::zeros({4})); }, {"lu", "f32[4]"});
}

// Above 256 rows the factorizations are blocked (tracer/kernels/blocked_linalg.h, where the
// packed GEMM is built): the same identities, a batch, the indefinite case, jit ≡ eager.
TEST(Decompositions, LargeMatricesFactorBlocked) {
  for (DType t : kTypes) {
    Array a = spd({2, 300, 300}, t, 11);
    Array l = la::cholesky(a);
    expect_near(st::matmul(l, mT(l)), a, tol(t, 30), "L Lᵀ = A");
    expect_near(st::triu(l, 1), st::zeros_like(l), 0, "zeros above the diagonal");
    expect_same(st::jit([](const Array& x) { return la::cholesky(x); })(a), l, "cholesky jit");
    check_lu(rnd({2, 300, 300}, t, 12), t, "lu 300");
    Array b = rnd({300, 3}, t, 13);
    expect_near(st::matmul(a[0], la::solve(a[0], b)), b, tol(t, 300), "A solve(A, b) = b");
    Array c = rnd({2, 40, 300}, t, 15);
    Array x = la::triangular_solve(l, c, false, true, true);  // x Lᵀ = c
    expect_near(st::matmul(x, mT(l)), c, tol(t, 30), "x Lᵀ = c");
    expect_same(st::jit([](const Array& p, const Array& q) { return la::triangular_solve(p, q, false, true, true); })(l, c),
                x, "triangular_solve jit");
  }
  Array bad = spd({300, 300}, st::f32, 14) - st::eye(300) * 1000.0f;  // eigenvalues about 300 .. 1500
  expect_all_nan(la::cholesky(bad), "indefinite 300");
}

void check_qr(const Array& a, bool full, DType t, const std::string& what) {
  SCOPED_TRACE(what);
  la::QrResult f = la::qr(a, full);
  int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  EXPECT_EQ(f.q.shape(-1), full ? m : k);
  EXPECT_EQ(f.r.shape(-2), full ? m : k);
  expect_near(st::matmul(f.q, f.r), a, tol(t, 10), "Q R = A");
  expect_near(st::matmul(mT(f.q), f.q), st::astype(st::eye(f.q.shape(-1)), t) * st::ones_like(st::matmul(mT(f.q), f.q)),
              tol(t, 10), "Qᵀ Q = I");
  expect_near(st::tril(f.r, -1), st::zeros_like(f.r), 0, "R upper triangular");
}

TEST(Qr, OrthonormalTimesUpperTriangular) {
  for (DType t : kTypes)
    for (bool full : {false, true}) {
      check_qr(rnd({5, 5}, t, 1), full, t, "square");
      check_qr(rnd({2, 3, 6, 4}, t, 2), full, t, "batched tall");
      check_qr(rnd({3, 5}, t, 3), full, t, "wide");
      check_qr(rnd({1, 1}, t, 4), full, t, "1x1");
      check_qr(st::zeros({3, 3}, t), full, t, "zeros");
    }
  EXPECT_EQ(la::qr(st::zeros({0, 4, 4})).q.shape(), (st::Shape{0, 4, 4}));
  EXPECT_EQ(la::qr(st::zeros({3, 0}), true).q.shape(), (st::Shape{3, 3}));
  expect_error<st::ShapeError>([] { la::qr(st::zeros({4})); }, {"qr", "f32[4]"});
}

TEST(Eigh, EigenvectorsAndAscendingEigenvalues) {
  for (DType t : kTypes)
    for (const st::Shape& s : {st::Shape{5, 5}, st::Shape{2, 3, 4, 4}, st::Shape{1, 1}}) {
      Array x = rnd(s, t, 3);
      Array a = st::add(x, mT(x));
      la::EighResult e = la::eigh(a);
      Array av = st::matmul(a, e.eigenvectors);
      Array vl = st::multiply(e.eigenvectors, st::expand_dims(e.eigenvalues, -2));
      expect_near(av, vl, tol(t, 10), "A v = λ v");
      Array vtv = st::matmul(mT(e.eigenvectors), e.eigenvectors);
      expect_near(vtv, st::astype(st::eye(s.back()), t) * st::ones_like(vtv), tol(t, 10), "Vᵀ V = I");
      std::vector<double> w = e.eigenvalues.to_vector<double>();
      int64_t n = s.back();
      for (size_t i = 0; i < w.size(); ++i)
        if (i % n) EXPECT_LE(w[i - 1], w[i]);
    }
  expect_all_nan(la::eigh(st::full({3, 3}, NAN)).eigenvalues, "nan input");
  EXPECT_EQ(la::eigh(st::zeros({0, 0})).eigenvalues.shape(), (st::Shape{0}));
  expect_error<st::ShapeError>([] { la::eigh(st::zeros({2, 3})); }, {"eigh", "f32[2,3]"});
}

void check_svd(const Array& a, bool full, DType t, const std::string& what) {
  SCOPED_TRACE(what);
  la::SvdResult f = la::svd(a, full);
  int64_t m = a.shape(-2), n = a.shape(-1), k = std::min(m, n);
  EXPECT_EQ(f.u.shape(-1), full ? m : k);
  EXPECT_EQ(f.vt.shape(-2), full ? n : k);
  // U Σ Vᵀ from the first k columns of u and rows of vt.
  int rank = a.ndim();
  std::vector<int64_t> start(rank, 0), su(f.u.shape().begin(), f.u.shape().end()), sv(f.vt.shape().begin(), f.vt.shape().end());
  su[rank - 1] = k;
  sv[rank - 2] = k;
  Array us = st::multiply(st::slice(f.u, start, su), st::expand_dims(f.s, -2));
  expect_near(st::matmul(us, st::slice(f.vt, start, sv)), a, tol(t, 10), "U Σ Vᵀ = A");
  Array utu = st::matmul(mT(f.u), f.u), vvt = st::matmul(f.vt, mT(f.vt));
  expect_near(utu, st::astype(st::eye(utu.shape(-1)), t) * st::ones_like(utu), tol(t, 10), "Uᵀ U = I");
  expect_near(vvt, st::astype(st::eye(vvt.shape(-1)), t) * st::ones_like(vvt), tol(t, 10), "V Vᵀ = I");
  std::vector<double> s = f.s.to_vector<double>();
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_GE(s[i], 0);
    if (k && i % k) EXPECT_GE(s[i - 1], s[i]);
  }
  expect_near(la::svdvals(a), f.s, tol(t), "compute_uv=false gives the same values");
}

TEST(Svd, FactorsReproduceTheMatrix) {
  for (DType t : kTypes)
    for (bool full : {false, true}) {
      check_svd(rnd({5, 5}, t, 1), full, t, "square");
      check_svd(rnd({2, 3, 6, 4}, t, 2), full, t, "batched tall");
      check_svd(rnd({3, 5}, t, 3), full, t, "wide");
      check_svd(rnd({1, 1}, t, 4), full, t, "1x1");
      check_svd(rnd({40, 30}, t, 5), full, t, "larger (divide and conquer)");
      check_svd(rnd({130, 130}, t, 6), full, t, "past the bidiagonal reduction's first panels");
      check_svd(rnd({200, 300}, t, 7), full, t, "wide, several merges");
      check_svd(rnd({500, 120}, t, 8), full, t, "tall enough for the QR first");
      check_svd(st::matmul(rnd({150, 40}, t, 9), rnd({40, 130}, t, 10)), full, t, "rank 40 of 130");
    }
  la::SvdResult z = la::svd(st::zeros({3, 0}));
  EXPECT_EQ(z.u.shape(), (st::Shape{3, 3}));
  EXPECT_EQ(z.s.shape(), (st::Shape{0}));
  expect_all_nan(la::svdvals(st::full({2, 2}, NAN)), "nan input");
  expect_error<st::ShapeError>([] { la::svd(st::zeros({4})); }, {"svd", "f32[4]"});
}

// svdvals of real matrices goes through strata's bidiagonal reduction and dqds, svd with
// vectors through the bidiagonal divide and conquer (small ones through Eigen's BDCSVD): the two agree on shapes that are square, tall, wide, tall
// enough for the QR first (both ways), past several of the reduction's panels; scaled to the
// ends of the exponent range (the values scale with the power of two, to rounding); rank-deficient
// (exact zeros stay at rounding level); a wide range of values (graded columns); jit ≡ eager.
TEST(Svd, ValuesWithoutVectors) {
  for (DType t : kTypes) {
    const double eps = t == st::f64 ? 2.2e-16 : 1.2e-7;
    for (const st::Shape& s : {st::Shape{300, 300}, st::Shape{260, 200}, st::Shape{200, 260}, st::Shape{700, 120},
                               st::Shape{120, 700}, st::Shape{2, 97, 97}, st::Shape{33, 1}, st::Shape{1, 40}}) {
      SCOPED_TRACE(std::string(st::short_name(t)) + " " + st::shape_string(s));
      Array a = rnd(s, t, 21);
      Array sv = la::svdvals(a), want = la::svd(a, false).s;
      const int64_t k = std::min(s[s.size() - 1], s[s.size() - 2]);
      expect_near(sv, want, 10 * eps * std::sqrt(double(k)), "svdvals = svd's s");  // (relative to the largest)
      expect_same(st::jit([](const Array& x) { return la::svdvals(x); })(a), sv, "jit = eager");
    }
    Array a = rnd({150, 130}, t, 22);
    Array sv = la::svdvals(a);
    for (double e : t == st::f64 ? std::vector<double>{-1000, 1000} : std::vector<double>{-120, 120}) {
      Array scaled = st::multiply(a, st::full({}, std::ldexp(1.0, int(e)), t));
      expect_near(st::multiply(la::svdvals(scaled), st::full({}, std::ldexp(1.0, -int(e)), t)), sv, 8 * eps,
                  "scaled by 2^" + std::to_string(int(e)));
    }
    // Rank 60 of 130: the 70 smallest values are rounding errors of the largest.
    Array low = st::matmul(rnd({150, 60}, t, 23), rnd({60, 130}, t, 24));
    std::vector<double> lv = la::svdvals(low).to_vector<double>(), full = la::svd(low, false).s.to_vector<double>();
    for (size_t i = 0; i < lv.size(); ++i) {
      if (i >= 60) EXPECT_LE(lv[i], 100 * eps * lv[0]) << "value " << i << " of a rank-60 matrix";
      else EXPECT_NEAR(lv[i], full[i], 100 * eps * lv[0]) << "value " << i;
    }
    // Columns graded from 1 to 1e-6 (f32: 1e-3): every value to the largest's rounding level.
    Array graded = st::multiply(rnd({90, 90}, t, 25),
                                st::exp(st::multiply(st::astype(st::arange(90), t), st::astype(st::full({}, t == st::f64 ? -0.15 : -0.075), t))));
    expect_near(la::svdvals(graded), la::svd(graded, false).s, 100 * eps, "graded columns");
  }
}

// Compiled code calls the eager kernels' code: the same bits.
TEST(Decompositions, JitMatchesEager) {
  for (DType t : kTypes) {
    Array a = spd({3, 4, 4}, t, 7), g = rnd({2, 5, 3}, t, 8), b = rnd({3, 4, 2}, t, 9);
    expect_same(st::jit([](const Array& x) { return la::cholesky(x); })(a), la::cholesky(a), "cholesky");
    expect_same(st::jit([](const Array& x, const Array& y) { return la::triangular_solve(x, y, true, true, true); })(a, b),
                la::triangular_solve(a, b, true, true, true), "triangular_solve");
    auto lu3 = [](const Array& x) {
      la::LuResult f = la::lu(x);
      return std::vector<Array>{f.lu, f.pivots, f.permutation};
    };
    std::vector<Array> lj = st::jit(lu3)(g), le = lu3(g);
    for (int i = 0; i < 3; ++i) expect_same(lj[i], le[i], "lu " + std::to_string(i));
    auto qr2 = [](const Array& x) {
      la::QrResult f = la::qr(x);
      return std::vector<Array>{f.q, f.r};
    };
    std::vector<Array> qj = st::jit(qr2)(g), qe = qr2(g);
    for (int i = 0; i < 2; ++i) expect_same(qj[i], qe[i], "qr " + std::to_string(i));
    auto eig = [](const Array& x) {
      la::EighResult f = la::eigh(x);
      return std::vector<Array>{f.eigenvalues, f.eigenvectors};
    };
    std::vector<Array> ej = st::jit(eig)(a), ee = eig(a);
    for (int i = 0; i < 2; ++i) expect_same(ej[i], ee[i], "eigh " + std::to_string(i));
    auto sv = [](const Array& x) {
      la::SvdResult f = la::svd(x, false);
      return std::vector<Array>{f.u, f.s, f.vt};
    };
    std::vector<Array> sj = st::jit(sv)(g), se = sv(g);
    for (int i = 0; i < 3; ++i) expect_same(sj[i], se[i], "svd " + std::to_string(i));
    // A NaN-filled factor in compiled code too.
    Array bad = st::astype(st::array(std::vector<double>{1, 2, 2, 1}, {2, 2}), t);
    expect_all_nan(st::jit([](const Array& x) { return la::cholesky(x); })(bad), "jit indefinite");
  }
}

// The runtime call reads its operands in place (LinalgToRuntime.cpp): a sliced operand (a strided
// view, which bufferization copies), a function argument used again after the call, and an
// operand that is also a later op's input all give eager's bits, and the argument is unchanged.
TEST(Decompositions, JitReadsOperandsInPlace) {
  for (DType t : kTypes) {
    Array a = spd({6, 6}, t, 11), b = rnd({6, 3}, t, 12);
    std::vector<double> before = a.to_vector<double>();
    auto f = [](const Array& x, const Array& y) {
      Array sliced = x[{st::Slice(1, 5), st::Slice(1, 5)}];  // rows and columns 1..4
      la::LuResult g = la::lu(sliced);
      Array z = la::triangular_solve(x, y, true, true);
      return std::vector<Array>{g.lu, z, x * 2.0, la::cholesky(x) + x};
    };
    std::vector<Array> got = st::jit(f)(a, b), want = f(a, b);
    for (size_t i = 0; i < want.size(); ++i) expect_same(got[i], want[i], "output " + std::to_string(i));
    EXPECT_EQ(a.to_vector<double>(), before);
  }
}

// vmap moves the batch dimension to the front: the same as the natively batched primitive.
TEST(Decompositions, VmapMatchesBatched) {
  Array a = spd({3, 4, 4}, st::f64, 11);
  Array at = st::transpose(a, {1, 0, 2});  // batch along axis 1
  Array b = rnd({4, 2}, st::f64, 12);
  expect_same(st::vmap([](const Array& x) { return la::cholesky(x); }, {1})(at), la::cholesky(a), "cholesky axis 1");
  // One operand batched, the other not.
  Array xs = st::vmap([&](const Array& x) { return la::triangular_solve(x, b, true, true); })(la::cholesky(a));
  for (int i = 0; i < 3; ++i) expect_near(xs[i], la::triangular_solve(la::cholesky(a)[i], b, true, true), 1e-12, "solve");
  Array s = st::vmap([](const Array& x) { return la::svdvals(x); })(a);
  expect_same(s, la::svdvals(a), "svdvals");
  Array w = st::vmap([](const Array& x) { return la::eigh(x).eigenvalues; })(a);
  expect_same(w, la::eigh(a).eigenvalues, "eigh");
  Array q = st::vmap([](const Array& x) { return la::qr(x).q; })(a);
  expect_same(q, la::qr(a).q, "qr");
  Array p = st::vmap([](const Array& x) { return la::lu(x).permutation; })(a);
  expect_same(p, la::lu(a).permutation, "lu");
}

}  // namespace
