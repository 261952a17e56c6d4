// Polynomial arithmetic as jax.numpy writes it (coefficients highest power first):
// polyadd, polysub, polymul, polydiv, poly, roots (composites.h). polyval, polyder, polyint and
// polyfit live in ops_numeric.cpp.
#include <algorithm>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/selection.h"
#include "strata/sorting.h"

namespace strata {

namespace {

// p padded with zeros in front along axis 0 to length n (higher powers with 0 coefficients).
Array pad_front(const Array& p, int64_t n, const SourceLocation& loc) {
  int64_t have = p.shape()[0];
  if (have == n) return p;
  Shape zs = p.shape();
  zs[0] = n - have;
  return concatenate({zeros(zs, p.dtype()), p}, 0, loc);
}

// The two operands aligned at their lowest powers (axis 0), in their common dtype.
std::pair<Array, Array> aligned(std::string_view op, const Array& a1, const Array& a2, const SourceLocation& loc) {
  auto [p, q] = api::promote_dtypes(op, a1, a2, loc);
  for (const Array* x : {&p, &q})
    if (x->ndim() == 0) throw ValueError(std::string(op) + ": expects coefficient arrays of rank >= 1, but got " + api::aval(*x, op).str());
  int64_t n = std::max(p.shape()[0], q.shape()[0]);
  return {pad_front(p, n, loc), pad_front(q, n, loc)};
}

Array check_1d(std::string_view op, const Array& p) {
  if (api::aval(p, op).shape.size() != 1) throw ValueError(std::string(op) + ": expects a 1-d coefficient array, but got " + api::aval(p, op).str());
  return p;
}

}  // namespace

Array polyadd(const Array& a1, const Array& a2, SourceLocation loc) {
  auto [p, q] = aligned("polyadd", a1, a2, loc);
  return add(p, q, loc);
}

Array polysub(const Array& a1, const Array& a2, SourceLocation loc) {
  auto [p, q] = aligned("polysub", a1, a2, loc);
  return subtract(p, q, loc);
}

Array polymul(const Array& a1, const Array& a2, SourceLocation loc) {
  auto [p, q] = api::promote_inexact_dtypes("polymul", check_1d("polymul", a1), check_1d("polymul", a2), loc);
  if (p.size() == 0) p = zeros({1}, p.dtype());
  if (q.size() == 0) q = zeros({1}, q.dtype());
  return convolve(p, q, "full", loc);
}

// Long division, one leading coefficient at a time (JAX's loop, unrolled: the degrees are
// static). The remainder keeps u's length, its leading len(u) - len(v) + 1 entries ~0.
std::pair<Array, Array> polydiv(const Array& u_in, const Array& v_in, SourceLocation loc) {
  auto [u, v] = api::promote_inexact_dtypes("polydiv", check_1d("polydiv", u_in), check_1d("polydiv", v_in), loc);
  const int64_t m = u.shape()[0] - 1, n = v.shape()[0] - 1;
  if (n < 0) throw ValueError("polydiv: the divisor has no coefficients");
  Array scale = divide(api::weak_scalar_like(1, v, "polydiv", loc), v[0], loc);
  std::vector<Array> q;
  for (int64_t k = 0; k <= m - n; ++k) {
    Array d = multiply(scale, u[k], loc);
    q.push_back(d);
    u = u.at(Slice(k, k + n + 1)).add(negative(multiply(d, v, loc), loc), loc);
  }
  Array quotient = q.empty() ? zeros({1}, u.dtype()) : stack(q, 0, loc);
  return {quotient, u};
}

Array poly(const Array& zeros_in, SourceLocation loc) {
  Array z = atleast_1d(api::to_inexact(zeros_in, "poly", loc), loc);
  const Shape& s = z.shape();
  if (s.size() == 2 && s[0] == s[1] && s[0] != 0) z = linalg::eigvals(z, loc);
  if (z.ndim() != 1) throw ValueError("poly: expects a 1-d array of roots or a non-empty square matrix, but got " + api::aval(zeros_in, "poly").str());
  if (z.shape()[0] == 0) return ones({}, z.dtype());
  Array a = ones({1}, z.dtype());
  for (int64_t k = 0; k < z.shape()[0]; ++k)
    a = convolve(a, concatenate({ones({1}, z.dtype()), reshape(negative(z[k], loc), {1}, loc)}, 0, loc), "full", loc);
  return a;
}

namespace {

// The eigenvalues of p's companion matrix (p's leading coefficient non-zero).
Array companion_roots(const Array& p, const SourceLocation& loc) {
  const int64_t n = p.shape()[0];
  DType c = complex_dtype(p.dtype());
  if (n < 2) return zeros({0}, c);
  Array a = diag(ones({n - 2}, p.dtype()), -1, loc);
  Array top = negative(divide(api::slice_along(p, 0, 1, std::nullopt, 1, loc), p[0], loc), loc);
  a = a.at(0).set(top, loc);
  return astype(linalg::eigvals(a, loc), c, loc);
}

}  // namespace

Array roots(const Array& p_in, bool strip_zeros, SourceLocation loc) {
  Array p = atleast_1d(api::to_inexact(p_in, "roots", loc), loc);
  if (p.ndim() != 1) throw ValueError("roots: expects a 1-d coefficient array, but got " + api::aval(p_in, "roots").str());
  const int64_t n = p.shape()[0];
  DType c = complex_dtype(p.dtype());
  if (n < 2) return zeros({0}, c);
  Array is_zero = equal(p, api::weak_scalar_like(0, p, "roots", loc), loc);
  // The number of leading zero coefficients (n when all are).
  Array lead = where(all(is_zero, {}, false, loc), astype(Array(n), i32), argmin(is_zero, std::nullopt, false, loc), loc);
  if (strip_zeros) {
    if (p.is_tracer())
      throw ConcretizationError("roots: the number of roots depends on the leading zeros of " + api::aval(p, "roots").str() +
                                ", which are not known under a trace; pass strip_zeros = false (roots of the leading "
                                "zeros are then NaN)");
    int64_t k = lead.item<int64_t>();
    return companion_roots(api::slice_along(p, 0, k, std::nullopt, 1, loc), loc);
  }
  // JAX's traceable form: the leading zeros rolled to the end (p all zero → ones), the zero
  // roots this adds sorted last and set to NaN.
  Array safe = where(equal(lead, astype(Array(n), i32), loc), api::weak_scalar_like(1, p, "roots", loc), p, loc);
  Array rolled = take(safe, (arange(n, i32) + lead) % astype(Array(n), i32), 0, loc);
  Array r = companion_roots(rolled, loc);
  Array zero_root = astype(equal(r, zeros({}, c), loc), i32, loc);
  r = sort({zero_root, r}, 0, true, 1, loc)[1];
  Array keep = less(arange(n - 1, i32), astype(Array(n - 1), i32) - lead, loc);
  return where(keep, r, astype(Array(std::complex<double>(NAN, NAN)), c, loc), loc);
}

}  // namespace strata
