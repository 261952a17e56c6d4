// jax.scipy.linalg's algorithms on the Schur form (strata/linalg.h): rsf2csf, sqrtm, funm and
// solve_sylvester. Composites of schur (the primitive) and the matrix ops; the recurrences
// run one superdiagonal (sqrtm, funm), one 2×2 block (rsf2csf) or one column (the Sylvester
// solve) at a time, unrolled over the static size, so each step is a few whole-array ops.
#include <cmath>
#include <limits>

#include "linalg_shapes.h"
#include "op_helpers.h"
#include "primitives/linalg_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/selection.h"
#include "strata/vectorize.h"

namespace strata::linalg {
namespace {

// Rows [lo, hi) of a matrix, and columns.
Array rows(const Array& x, int64_t lo, int64_t hi) { return index(x, {Slice(lo, hi)}); }
Array cols(const Array& x, int64_t lo, int64_t hi) { return index(x, {Slice(), Slice(lo, hi)}); }

// x with `v` [n - p] added on its p-th superdiagonal.
Array add_superdiagonal(const Array& x, const Array& v, int64_t p) { return x + diag(v, p); }

// rsf2csf of one matrix pair (complex).
SchurResult rsf2csf_2d(Array t, Array z, const SourceLocation& loc) {
  const int64_t n = t.shape()[0];
  const double eps = finfo(t.dtype()).eps;
  Array col = reshape(arange(n), {1, n}), row = reshape(arange(n), {n, 1});
  for (int64_t m = n - 1; m >= 1; --m) {
    Array a = t[m - 1][m - 1], b = t[m - 1][m], c = t[m][m - 1], d = t[m][m];
    Array converged = abs(c) <= eps * (abs(a) + abs(d));
    // mu = λ - d for the block's eigenvalue λ with the positive imaginary part (LAPACK's
    // first): the rotation G = [[conj(cs), sn], [-sn, cs]] moves it to position m-1.
    Array half = (a - d) * 0.5;
    Array mu = half + sqrt(half * half + b * c);
    Array r = astype(sqrt(real(mu * conj(mu)) + real(c * conj(c))), t.dtype());
    r = where(converged, ones_like(r), r);  // no rotation there: keep its arithmetic finite
    Array cs = mu / r, sn = c / r;
    Array g = stack({stack({conj(cs), sn}), stack({-sn, cs})});
    // Rows m-1, m from column m-1 on, then columns m-1, m down to row m, then z's columns.
    Array block = rows(t, m - 1, m + 1);
    Array rotated = where(col >= m - 1, matmul(g, block), block);
    Array t1 = concatenate({rows(t, 0, m - 1), rotated, rows(t, m + 1, n)}, 0, loc);
    Array cblock = cols(t1, m - 1, m + 1);
    Array crotated = where(row < m + 1, matmul(cblock, linalg_prim::mH(g)), cblock);
    Array t2 = concatenate({cols(t1, 0, m - 1), crotated, cols(t1, m + 1, n)}, 1, loc);
    Array z2 = concatenate({cols(z, 0, m - 1), matmul(cols(z, m - 1, m + 1), linalg_prim::mH(g)), cols(z, m + 1, n)}, 1, loc);
    t = where(converged, t, t2);
    z = where(converged, z, z2);
    t = t.at({m, m - 1}).set(zeros({}, t.dtype()));
  }
  return {t, z};
}

}  // namespace

SchurResult rsf2csf(const Array& t_in, const Array& z_in, SourceLocation loc) {
  const AbstractValue& tv = square_matrices(t_in, "rsf2csf");
  const AbstractValue& zv = square_matrices(z_in, "rsf2csf");
  if (tv.shape.back() != zv.shape.back())
    throw ShapeError("rsf2csf: expects t and z of one size, but got " + tv.str() + " and " + zv.str());
  auto [t, z] = api::promote_inexact_dtypes("rsf2csf", t_in, z_in, loc);
  if (!is_complex(t.dtype())) {
    t = astype(t, complex_dtype(t.dtype()), loc);
    z = astype(z, complex_dtype(z.dtype()), loc);
  }
  auto each = vectorize(
      [&loc](const Array& tm, const Array& zm) {
        SchurResult r = rsf2csf_2d(tm, zm, loc);
        return std::make_tuple(r.t, r.z);
      },
      "(n,n),(n,n)->(n,n),(n,n)");
  auto [tc, zc] = each(t, z);
  return {tc, zc};
}

Array sqrtm(const Array& a, SourceLocation loc) {
  square_matrices(a, "sqrtm");
  return vectorize(
      [&loc](const Array& m) {
        SchurResult s = schur(m, "complex", loc);
        const int64_t n = m.shape()[0];
        // Björck–Hammarling: u_ii = √t_ii; u_ij = (t_ij − Σ_{i<k<j} u_ik u_kj) / (u_ii + u_jj),
        // all of one superdiagonal at once (the sum reads only the diagonals before it).
        Array d = sqrt(diagonal(s.t), loc);
        Array u = diag(d);
        for (int64_t p = 1; p < n; ++p) {
          Array partial = sum(rows(u, 0, n - p) * matrix_transpose(cols(u, p, n)), -1);
          Array tp = diagonal(s.t, p);
          Array dp = index(d, {Slice(0, n - p)}) + index(d, {Slice(p, n)});
          u = add_superdiagonal(u, where(tp == partial, zeros_like(tp), (tp - partial) / dp), p);
        }
        return matmul(matmul(s.z, u), linalg_prim::mH(s.z));
      },
      "(n,n)->(n,n)")(a);
}

namespace detail {

SchurResult funm_schur(const Array& a, const SourceLocation& loc) {
  const AbstractValue& av = square_matrices(a, "funm");
  if (av.ndim() != 2) throw ShapeError("funm: expects one square matrix [n, n], but got " + av.str());
  SchurResult s = schur(a, "real", loc);
  return rsf2csf(s.t, s.z, loc);
}

Array funm_parlett(const SchurResult& s, const Array& f_of_eigenvalues, const SourceLocation& loc) {
  const int64_t n = s.t.shape()[0];
  const AbstractValue& fv = api::aval(f_of_eigenvalues, "funm");
  if (fv.shape != Shape{n})
    throw ShapeError("funm: expects func to map the eigenvalues [" + std::to_string(n) + "] to as many values, but got " +
                     fv.str());
  // Parlett: f(t) commutes with t, so f_ij = (t f − f t)_ij / (t_jj − t_ii) with f_ij unset,
  // one superdiagonal at a time (Golub & Van Loan, algorithm 11.1.1).
  Array f = diag(astype(f_of_eigenvalues, s.t.dtype(), loc));
  Array tdiag = diagonal(s.t);
  for (int64_t p = 1; p < n; ++p) {
    Array c = sum(rows(s.t, 0, n - p) * matrix_transpose(cols(f, p, n)) -
                      rows(f, 0, n - p) * matrix_transpose(cols(s.t, p, n)),
                  -1);
    Array den = index(tdiag, {Slice(p, n)}) - index(tdiag, {Slice(0, n - p)});
    f = add_superdiagonal(f, where(den != zeros_like(den), c / den, c), p);
  }
  return matmul(matmul(s.z, f), linalg_prim::mH(s.z));
}

}  // namespace detail

Array solve_sylvester(const Array& a_in, const Array& b_in, const Array& c_in, const std::string& method, double tol,
                      SourceLocation loc) {
  const char* op = "solve_sylvester";
  if (method != "schur" && method != "eigen")
    throw ValueError("solve_sylvester: expects method \"schur\" or \"eigen\", but got \"" + method + "\"");
  const AbstractValue& av = square_matrices(a_in, op);
  const AbstractValue& bv = square_matrices(b_in, op);
  const AbstractValue& cv = api::aval(c_in, op);
  if (cv.ndim() < 2 || cv.shape[cv.shape.size() - 2] != av.shape.back() || cv.shape.back() != bv.shape.back())
    throw ShapeError("solve_sylvester: expects a [..., m, m], b [..., n, n] and c [..., m, n], but got " + av.str() +
                     ", " + bv.str() + " and " + cv.str());
  // One dtype for the three (inexact), as JAX's promote_dtypes_inexact.
  auto [a1, b1] = api::promote_inexact_dtypes(op, a_in, b_in, loc);
  auto [a2, c] = api::promote_inexact_dtypes(op, a1, c_in, loc);
  Array a = a2, b = astype(b1, a2.dtype(), loc);
  const bool real_result = !is_complex(c.dtype());
  return vectorize(
      [&](const Array& am, const Array& bm, const Array& cm) {
        const int64_t m = cm.shape()[0], n = cm.shape()[1];
        Array x;
        if (method == "schur") {
          // Bartels–Stewart: r y + y s = f with r = schur(a) upper and s = schur(bᴴ)ᴴ lower
          // triangular, solved column by column from the last: (r + s_jj I) y_j = f_j − Σ_{k>j} y_k s_kj.
          SchurResult ra = schur(am, "complex", loc), rb = schur(linalg_prim::mH(bm), "complex", loc);
          Array s = linalg_prim::mH(rb.t);
          Array f = matmul(matmul(linalg_prim::mH(ra.z), astype(cm, ra.t.dtype(), loc)), rb.z);
          Array ident = eye(m, m, 0, ra.t.dtype());
          std::vector<Array> y(static_cast<size_t>(n));
          for (int64_t j = n - 1; j >= 0; --j) {
            Array rhs = index(f, {Slice(), j});
            if (j + 1 < n) {
              std::vector<Array> later(y.begin() + j + 1, y.end());
              rhs = rhs - matmul(stack(later, 1), index(s, {Slice(j + 1, n), j}));
            }
            y[static_cast<size_t>(j)] = solve_triangular(ra.t + s[j][j] * ident, rhs, 0, false, false, loc);
          }
          x = matmul(matmul(ra.z, stack(y, 1)), linalg_prim::mH(rb.z));
        } else {
          EigResult ea = eig(am, false, true, loc), eb = eig(bm, false, true, loc);
          Array f = solve(ea.eigenvectors, matmul(astype(cm, ea.eigenvalues.dtype(), loc), eb.eigenvectors), loc);
          Array y = f / (reshape(ea.eigenvalues, {m, 1}) + reshape(eb.eigenvalues, {1, n}));
          x = matmul(matmul(ea.eigenvectors, y), inv(eb.eigenvectors, loc));
        }
        if (real_result) x = real(x);
        Array sums = abs(reshape(eigvals(am, loc), {m, 1}) + reshape(eigvals(bm, loc), {1, n}));
        return where(any(sums < tol), full_like(x, std::numeric_limits<double>::quiet_NaN()), x);
      },
      "(m,m),(n,n),(m,n)->(m,n)")(a, b, c);
}

}  // namespace strata::linalg
