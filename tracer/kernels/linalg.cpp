// tracer/kernels/linalg.cpp — see linalg.h. Eigen's LLT, triangular solves, PartialPivLU (an
// unblocked LAPACK getf2 for non-square LU, a blocked getrf for complex), HouseholderQR,
// SelfAdjointEigenSolver and BDCSVD; each templated on the scalar S (float, double or
// std::complex of them), R its real type. Large matrices go to the blocked kernels:
// blocked_linalg.h (Cholesky, LU, triangular solves), householder.h (real QR) and
// symmetric_eigen.h (eigh); eig and schur to nonsymmetric_eigen.h (real) and complex_eigen.h;
// real svd to bidiagonal.h (BDCSVD stays for complex and small matrices).
#include "linalg.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <complex>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "bidiagonal.h"
#include "blocked_linalg.h"
#include "hessenberg.h"
#include "householder.h"
#include "complex_eigen.h"
#include "complex_hessenberg.h"
#include "nonsymmetric_eigen.h"
#include "symmetric_eigen.h"
#include "complex_math.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

using linalg_rules::Kind;
namespace lr = linalg_rules;

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using MapC = Eigen::Map<const Mat<T>>;
template <class T>
using MapM = Eigen::Map<Mat<T>>;

template <class S>
using Real = typename Eigen::NumTraits<S>::Real;
template <class S>
constexpr bool kComplex = Eigen::NumTraits<S>::IsComplex;

template <class S>
void fill_nan(S* p, int64_t n) {
  const Real<S> nan = std::numeric_limits<Real<S>>::quiet_NaN();
  if constexpr (kComplex<S>)
    std::fill(p, p + n, S(nan, nan));
  else
    std::fill(p, p + n, nan);
}

template <class S>
bool all_finite(const S* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(std::real(p[i])) || !std::isfinite(std::imag(p[i]))) return false;
  return true;
}

template <class T>
void cholesky(const T* a, T* l, int64_t n) {
  MapM<T> L(l, n, n);
  L = MapC<T>(a, n, n);
  if (!all_finite(a, n * n)) return fill_nan(l, n * n);
  // Row by row (Eigen's triangularView<StrictlyUpper>().setZero() walks columns: strided
  // stores, 6 ms of a 2048² factorization).
  auto zero_upper = [&] {
    for (int64_t i = 0; i + 1 < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
  };
  if constexpr (!kComplex<T>)
    if (blocked_linalg_suits(n)) {
      if (!blocked_cholesky(l, n)) return fill_nan(l, n * n);
      return zero_upper();
    }
  // In place on the column-major view M = aᵀ (Eigen's blocked LLT is fastest there): its upper
  // triangle is a's lower one, and the upper factor U it leaves (M = Uᴴ U) read row-major is
  // L = Uᵀ, with L Lᴴ = conj(M) = a (a Hermitian: aᵀ = conj(a); real: a = Uᵀ U).
  using ColMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
  Eigen::Map<ColMat> M(l, n, n);
  Eigen::LLT<Eigen::Ref<ColMat>, Eigen::Upper> llt(M);
  if (llt.info() != Eigen::Success) return fill_nan(l, n * n);
  zero_upper();
}

template <int Mode, class A, class X>
void solve_view(const A& a, X& x, bool left) {
  if (left)
    a.template triangularView<Mode>().solveInPlace(x);
  else
    a.template triangularView<Mode>().template solveInPlace<Eigen::OnTheRight>(x);
}

template <class A, class X>
void solve_mode(const A& a, X& x, bool left, bool lower, bool unit) {
  if (lower && unit) return solve_view<Eigen::UnitLower>(a, x, left);
  if (lower) return solve_view<Eigen::Lower>(a, x, left);
  if (unit) return solve_view<Eigen::UnitUpper>(a, x, left);
  solve_view<Eigen::Upper>(a, x, left);
}

template <class T>
void triangular_solve(const T* a, const T* b, T* x, int64_t m, int64_t rows, int64_t cols, int64_t flags) {
  MapC<T> A(a, m, m);
  MapM<T> X(x, rows, cols);
  X = MapC<T>(b, rows, cols);
  if (rows == 0 || cols == 0) return;
  bool left = flags & lr::kLeftSide, lower = flags & lr::kLower, unit = flags & lr::kUnitDiagonal;
  bool trans = flags & lr::kTransposeA;
  if constexpr (kComplex<T>) {
    if (flags & lr::kConjugateA) {  // op(a) = conj(a) or aᴴ (conjugate_a of a real a changes nothing)
      if (trans) return solve_mode(A.adjoint(), X, left, !lower, unit);
      return solve_mode(A.conjugate(), X, left, lower, unit);
    }
  } else if (blocked_linalg_suits(m)) {
    return blocked_triangular_solve(a, x, m, rows, cols, left, lower, trans, unit);
  }
  // op(a) = aᵀ: its triangle is the other one.
  if (trans)
    solve_mode(A.transpose(), X, left, !lower, unit);
  else
    solve_mode(A, X, left, lower, unit);
}

// LAPACK's getf2 (partial pivoting, the first largest pivot by LAPACK's |re| + |im|, which is
// |x| for reals; a zero pivot column is skipped) on columns [c0, c1) (all: the whole
// factorization), rows swapped whole, updates kept to those columns.
template <class T>
void getf2(MapM<T>& A, int32_t* pivots, int64_t c0 = 0, int64_t c1 = -1) {
  int64_t m = A.rows();
  if (c1 < 0) c1 = A.cols();
  auto size = [](T x) { return std::abs(std::real(x)) + std::abs(std::imag(x)); };
  for (int64_t j = c0; j < std::min(m, c1); ++j) {
    int64_t p = j;
    Real<T> best = size(A(j, j));
    for (int64_t i = j + 1; i < m; ++i)
      if (size(A(i, j)) > best) {
        best = size(A(i, j));
        p = i;
      }
    pivots[j] = static_cast<int32_t>(p);
    if (p != j) A.row(j).swap(A.row(p));
    if (A(j, j) != T(0)) A.col(j).tail(m - j - 1) /= A(j, j);
    // The rank-1 update row by row (rows are contiguous). Not Eigen's outer product: its
    // AVX-512 complex<float> broadcast loads the scalar as a double, from wherever the
    // expression keeps it (4-byte aligned: undefined behaviour, which UBSan reports).
    const T* u = &A(j, 0);
    for (int64_t r = j + 1; r < m && j + 1 < c1; ++r) {
      const T l = A(r, j);
      T* row = &A(r, 0);
      for (int64_t c = j + 1; c < c1; ++c) row[c] -= plain_mul(l, u[c]);
    }
  }
}

// LAPACK's getrf: panels of nb columns by getf2 (so the same pivots), each followed by the
// triangular solve for its rows of U and one GEMM update of the rest (Eigen's, for complex
// matrices, which the real blocked kernels do not take).
template <class T>
void getrf(MapM<T>& A, int32_t* pivots, int64_t nb = 32) {
  int64_t m = A.rows(), n = A.cols(), k = std::min(m, n);
  for (int64_t j = 0; j < k; j += nb) {
    int64_t jb = std::min(nb, k - j), rest = n - j - jb, below = m - j - jb;
    getf2(A, pivots, j, j + jb);
    if (rest <= 0) continue;
    auto u12 = A.block(j, j + jb, jb, rest);
    A.block(j, j, jb, jb).template triangularView<Eigen::UnitLower>().solveInPlace(u12);
    if (below > 0) A.block(j + jb, j + jb, below, rest).noalias() -= A.block(j + jb, j, below, jb) * u12;
  }
}

template <class T>
void lu(const T* a, T* out, int32_t* pivots, int32_t* perm, int64_t m, int64_t n) {
  MapM<T> A(out, m, n);
  A = MapC<T>(a, m, n);
  int64_t k = std::min(m, n);
  // Complex: LAPACK's blocked getrf, so that the pivots are LAPACK's (Eigen pivots on |x|).
  if constexpr (kComplex<T>) {
    getrf(A, pivots);
  } else if (m == n && blocked_linalg_suits(n)) {
    blocked_lu(out, n, pivots);
  } else if (m == n && m > 0 && all_finite(a, m * n)) {
    // Blocked, in place; P a = L U. Eigen's P sends row i to indices[i]: the row at i came from
    // inverse[i]. The LAPACK pivots are the swaps that bring each row into place in turn.
    Eigen::PartialPivLU<Eigen::Ref<Mat<T>>> f(A);
    const auto& ind = f.permutationP().indices();
    for (int64_t i = 0; i < m; ++i) perm[ind[i]] = static_cast<int32_t>(i);
    std::vector<int32_t> at(m), row(m);  // at[r]: where original row r is now; row[p]: which row is at p
    std::iota(at.begin(), at.end(), 0);
    std::iota(row.begin(), row.end(), 0);
    for (int64_t i = 0; i < k; ++i) {
      int32_t j = at[perm[i]];
      pivots[i] = j;
      std::swap(row[i], row[j]);
      at[row[i]] = static_cast<int32_t>(i);
      at[row[j]] = j;
    }
    return;
  } else {
    getf2(A, pivots);
  }
  std::iota(perm, perm + m, 0);
  for (int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[pivots[i]]);
}

template <class T>
void set_identity(T* p, int64_t n) {
  MapM<T>(p, n, n).setIdentity();
}

template <class T>
void qr(const T* a, T* q, T* r, int64_t m, int64_t n, bool full) {
  int64_t k = std::min(m, n), qc = full ? m : k, rr = full ? m : k;
  MapM<T> Q(q, m, qc), R(r, rr, n);
  if (!all_finite(a, m * n)) {
    fill_nan(q, m * qc);
    return fill_nan(r, rr * n);
  }
  if constexpr (!kComplex<T>) {
    if (householder_qr_suits(m, n)) return householder_qr(a, q, r, m, n, full);
  }
  Eigen::HouseholderQR<Mat<T>> f(MapC<T>(a, m, n));
  Q.setIdentity();
  if (m > 0 && qc > 0) Q.applyOnTheLeft(f.householderQ());
  R = f.matrixQR().topRows(rr).template triangularView<Eigen::Upper>();
}

template <class T>
void eigh(const T* a, T* v, Real<T>* w, int64_t n) {
  if (n == 0) return;
  if (!all_finite(a, n * n)) {  // the solver's iteration is not guarded against nan
    fill_nan(v, n * n);
    return fill_nan(w, n);
  }
  if (symmetric_eigen_suits(n)) {
    if (!symmetric_eigen(a, v, w, n)) fill_nan(v, n * n), fill_nan(w, n);
    return;
  }
  Eigen::SelfAdjointEigenSolver<Mat<T>> es(MapC<T>(a, n, n), Eigen::ComputeEigenvectors);  // lower triangle
  if (es.info() != Eigen::Success) {
    fill_nan(v, n * n);
    return fill_nan(w, n);
  }
  MapM<T>(v, n, n) = es.eigenvectors();
  Eigen::Map<Eigen::Matrix<Real<T>, Eigen::Dynamic, 1>>(w, n) = es.eigenvalues();
}

// u Σ vt = a, vt = Vᴴ (Vᵀ for reals), as LAPACK's gesdd.
template <class T>
void svd(const T* a, Real<T>* s, T* u, T* vt, int64_t m, int64_t n, int64_t flags) {
  int64_t k = std::min(m, n);
  bool uv = flags & lr::kComputeUv, full = flags & lr::kFullMatrices;
  int64_t uc = full ? m : k, vr = full ? n : k;
  auto nan_all = [&] {
    fill_nan(s, k);
    if (uv) fill_nan(u, m * uc), fill_nan(vt, vr * n);
  };
  if (k == 0) {  // nothing to decompose: the full factors are identities
    if (uv && full) set_identity(u, m), set_identity(vt, n);
    return;
  }
  if (!all_finite(a, m * n)) return nan_all();
  if constexpr (!kComplex<T>) {  // gebrd, then dqds or divide and conquer (bidiagonal.h)
    if (svd_by_bidiagonalization_suits(m, n, uv)) {
      if (!(uv ? singular_value_decomposition(a, m, n, s, u, vt, full) : singular_values(a, m, n, s))) nan_all();
      return;
    }
  }
  unsigned opts = uv ? (full ? Eigen::ComputeFullU | Eigen::ComputeFullV : Eigen::ComputeThinU | Eigen::ComputeThinV) : 0;
  Eigen::BDCSVD<Mat<T>> f(MapC<T>(a, m, n), opts);
  if (f.info() != Eigen::Success) return nan_all();
  Eigen::Map<Eigen::Matrix<Real<T>, Eigen::Dynamic, 1>>(s, k) = f.singularValues();
  if (!uv) return;
  MapM<T>(u, m, uc) = f.matrixU();
  MapM<T>(vt, vr, n) = f.matrixV().adjoint();
}

// LAPACK geev's normalization of each column: unit Euclidean norm, and (a vector of a complex
// eigenvalue) its largest component real and positive.
template <class T>
void normalize_columns(Eigen::Matrix<std::complex<T>, Eigen::Dynamic, Eigen::Dynamic>& v) {
  for (Eigen::Index j = 0; j < v.cols(); ++j) {
    auto col = v.col(j);
    T norm = col.norm();
    if (!(norm > T(0))) continue;
    col /= norm;
    if (col.imag().cwiseAbs().maxCoeff() == T(0)) continue;  // a real vector stays as it is
    Eigen::Index k;
    col.cwiseAbs2().maxCoeff(&k);
    col *= std::conj(col(k)) / std::abs(col(k));
    col(k) = std::complex<T>(col(k).real(), T(0));  // exactly real
  }
}

// jax.lax.linalg.eig (LAPACK geev's contract): w, then the left eigenvectors (u_jᴴ a = w_j u_jᴴ,
// the columns of vl) and the right ones (a v_j = w_j v_j, columns of vr), as asked. A real
// matrix through nonsymmetric_eigen.h (LAPACK's geev: dlahqr/dlaqr5 with dlaqr3's deflation, and
// dtrevc's substitutions for both vector sets); a complex one through complex_eigen.h (zgeev's
// zlahqr and ztrevc, unbalanced).
template <class S>
void eig(const S* a, std::complex<Real<S>>* w, std::complex<Real<S>>* vl, std::complex<Real<S>>* vr, int64_t n) {
  using T = Real<S>;
  using CMat = Eigen::Matrix<std::complex<T>, Eigen::Dynamic, Eigen::Dynamic>;
  using CRow = Eigen::Matrix<std::complex<T>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  if (n == 0) return;
  auto nan_all = [&] {
    const std::complex<T> nan(std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN());
    std::fill(w, w + n, nan);
    if (vl) std::fill(vl, vl + n * n, nan);
    if (vr) std::fill(vr, vr + n * n, nan);
  };
  if (!all_finite(a, n * n)) return nan_all();
  auto store = [n](CMat& m, std::complex<T>* out) {
    normalize_columns<T>(m);
    Eigen::Map<CRow>(out, n, n) = m;
  };
  if constexpr (!kComplex<S>) {
    // Row j of vt (ut) is column j of LAPACK's real VR (VL): a complex pair's real and
    // imaginary parts in two rows.
    std::vector<T> wr(n), wi(n), vt(vr ? n * n : 0), ut(vl ? n * n : 0);
    if (!nonsymmetric_eigen(a, wr.data(), wi.data(), vr ? vt.data() : nullptr, n, vl ? ut.data() : nullptr))
      return nan_all();
    for (int64_t j = 0; j < n; ++j) w[j] = std::complex<T>(wr[j], wi[j]);
    auto complex_columns = [&](const std::vector<T>& rows) {
      CMat v(n, n);
      for (int64_t j = 0; j < n; ++j) {
        const T* re = rows.data() + j * n;
        if (wi[j] == T(0)) {
          for (int64_t i = 0; i < n; ++i) v(i, j) = std::complex<T>(re[i], T(0));
          continue;
        }
        const T* im = re + n;  // the pair's second row: w_{j+1} = conj(w_j), its vector conjugated
        for (int64_t i = 0; i < n; ++i) v(i, j) = std::complex<T>(re[i], im[i]), v(i, j + 1) = std::conj(v(i, j));
        ++j;
      }
      return v;
    };
    if (vl) {
      CMat u = complex_columns(ut);
      store(u, vl);
    }
    if (vr) {
      CMat v = complex_columns(vt);
      store(v, vr);
    }
  } else {
    // complex_eigen.h: zlahqr and ztrevc; row j of vt (ut) is vector j.
    std::vector<S> vt(vr ? n * n : 0), ut(vl ? n * n : 0);
    if (!complex_eigen(a, w, vr ? vt.data() : nullptr, vl ? ut.data() : nullptr, n)) return nan_all();
    if (vl) {
      CMat u = Eigen::Map<const CRow>(ut.data(), n, n).transpose();
      store(u, vl);
    }
    if (vr) {
      CMat v = Eigen::Map<const CRow>(vt.data(), n, n).transpose();
      store(v, vr);
    }
  }
}

// The Schur decomposition a = z t zᴴ, z unitary: t upper triangular for complex a
// (complex_eigen.h's zlahqr), quasi-upper-triangular for real a (nonsymmetric_eigen.h's dlahqr: each 2×2
// diagonal block in LAPACK's standard form, one per complex conjugate pair of eigenvalues,
// equal diagonal entries). NaN when a is not finite or the QR iteration does not converge.
template <class S>
void schur(const S* a, S* t, S* z, int64_t n) {
  if (n == 0) return;
  auto nan_all = [&] {
    fill_nan(t, n * n);
    if (z) fill_nan(z, n * n);
  };
  if (!all_finite(a, n * n)) return nan_all();
  if constexpr (!kComplex<S>) {  // nonsymmetric_eigen.h: dlahqr leaves each 2×2 block standard
    if (!real_schur_form(a, t, z, n)) nan_all();
  } else if (!complex_schur_form(a, t, z, n)) {  // complex_eigen.h: zlahqr
    nan_all();
  }
}

// a = q h qᴴ with h upper Hessenberg (zero below the first subdiagonal) and q unitary, by
// Householder reflections: for real a hessenberg.h's blocked reduction (LAPACK's gehrd and
// orghr, its signs), scaled by a power of two where squares could overflow or underflow; for
// complex a complex_hessenberg.h's (zgehrd and zunghr) where it suits (from 160 rows, c64, or 112, c128), on a
// scaled by a power of two to a largest |re| or |im| in [1/2, 1), and Eigen's
// HessenbergDecomposition (LAPACK's up to signs) below, as complex eig chooses.
template <class S>
void hessenberg(const S* a, S* h, S* q, int64_t n) {
  using Col = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
  if (n == 0) return;
  if (!all_finite(a, n * n)) {
    fill_nan(h, n * n);
    fill_nan(q, n * n);
    return;
  }
  if constexpr (!kComplex<S>) {
    const int e = scaled_copy(a, n, n, h);
    kernels::hessenberg(h, q, n, false);
    for (int64_t i = 0; i < n * n; ++i) h[i] = scale_by_power_of_two(h[i], -e);
  } else if (kernels::complex_hessenberg_suits<typename S::value_type>(n)) {
    using R = typename S::value_type;
    R largest = 0;
    for (int64_t i = 0; i < n * n; ++i) largest = std::max({largest, std::abs(a[i].real()), std::abs(a[i].imag())});
    const int e = largest > R(0) ? std::ilogb(largest) + 1 : 0;
    for (int64_t i = 0; i < n * n; ++i) h[i] = scale_by_power_of_two(a[i], -e);
    std::vector<S> qt(static_cast<size_t>(n * n));
    kernels::complex_hessenberg(h, qt.data(), n);
    for (int64_t i = 0; i < n * n; ++i) h[i] = scale_by_power_of_two(h[i], e);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) q[i * n + j] = qt[static_cast<size_t>(j * n + i)];
  } else {
    Eigen::HessenbergDecomposition<Col> d(Col(MapC<S>(a, n, n)));
    MapM<S>(h, n, n) = d.matrixH();
    MapM<S>(q, n, n) = Col(d.matrixQ());
  }
}

template <class T>
void one(const LinalgCall& c, const void* const* in, void* const* out, int64_t i) {
  int64_t m = c.m, n = c.n, k = std::min(m, n);
  const T* a = static_cast<const T*>(in[0]) + i * m * n;
  auto o = [&](int j, int64_t size) { return static_cast<T*>(out[j]) + i * size; };
  auto orl = [&](int j, int64_t size) { return static_cast<Real<T>*>(out[j]) + i * size; };
  auto oi = [&](int j, int64_t size) { return static_cast<int32_t*>(out[j]) + i * size; };
  bool full = c.flags & lr::kFullMatrices;
  switch (c.kind) {
    case Kind::kCholesky: return cholesky(a, o(0, n * n), n);
    case Kind::kTriangularSolve: {
      int64_t size = c.b_rows * c.b_cols;
      return triangular_solve(a, static_cast<const T*>(in[1]) + i * size, o(0, size), m, c.b_rows, c.b_cols, c.flags);
    }
    case Kind::kLu: return lu(a, o(0, m * n), oi(1, k), oi(2, m), m, n);
    case Kind::kQr: return qr(a, o(0, m * (full ? m : k)), o(1, (full ? m : k) * n), m, n, full);
    case Kind::kEigh: return eigh(a, o(0, n * n), orl(1, n), n);
    case Kind::kEig: {
      auto oc = [&](int j, int64_t size) { return static_cast<std::complex<Real<T>>*>(out[j]) + i * size; };
      bool left = c.flags & lr::kComputeLeft, right = c.flags & lr::kComputeRight;
      return eig(a, oc(0, n), left ? oc(1, n * n) : nullptr, right ? oc(left ? 2 : 1, n * n) : nullptr, n);
    }
    case Kind::kSchur: return schur(a, o(0, n * n), (c.flags & lr::kComputeSchurVectors) ? o(1, n * n) : nullptr, n);
    case Kind::kHessenberg: return hessenberg(a, o(0, n * n), o(1, n * n), n);
    case Kind::kSvd: {
      bool uv = c.flags & lr::kComputeUv;
      return svd(a, orl(0, k), uv ? o(1, m * (full ? m : k)) : nullptr, uv ? o(2, (full ? n : k) * n) : nullptr, m, n,
                 c.flags);
    }
  }
}

}  // namespace

void linalg(const LinalgCall& c, const void* const* in, void* const* out) {
  auto run = [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      if (c.complex)
        c.f64 ? one<std::complex<double>>(c, in, out, i) : one<std::complex<float>>(c, in, out, i);
      else
        c.f64 ? one<double>(c, in, out, i) : one<float>(c, in, out, i);
    }
  };
  if (c.batch <= 0) return;
  if (c.batch == 1) return run(0, 1);
  parallel_for(c.batch, 1, run);
}

}  // namespace strata::kernels
