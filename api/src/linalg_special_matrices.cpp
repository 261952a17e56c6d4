// jax.scipy.linalg's special matrices: toeplitz hankel circulant leslie companion fiedler
// fiedler_companion convolution_matrix (batched over leading dimensions as JAX's, through
// st::vectorize), and hilbert invhilbert pascal invpascal helmert hadamard dft. JAX's
// formulas and dtypes (pascal is f32 as JAX's; the rest f64, c128 for dft).
#include <cmath>
#include <numbers>
#include <tuple>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/special.h"
#include "strata/vectorize.h"

namespace strata::linalg {
namespace {

const AbstractValue& at_least_1d(const Array& a, const char* op) {
  const AbstractValue& av = api::aval(a, op);
  if (av.ndim() == 0) throw ValueError(std::string(op) + ": expects an array of at least 1 dimension, but got " + av.str());
  return av;
}

// Row i, column j index arrays [n, 1] and [1, m] (i32).
Array rows(int64_t n) { return reshape(arange(n), {n, 1}); }
Array cols(int64_t m) { return reshape(arange(m), {1, m}); }

// (-1)^k for integer-valued float k, without pow of a negative base.
Array minus_one_to(const Array& k) { return 1.0 - 2.0 * (k - 2.0 * floor(k / 2.0)); }

// x with its first row replaced by `row` (x.at[0].set(row)).
Array with_first_row(const Array& x, const Array& row) {
  const int64_t n = x.shape()[0], m = x.shape()[1];
  return concatenate({reshape(row, {1, m}), index(x, {Slice(1, n)})}, 0);
}

}  // namespace

Array toeplitz(const Array& c_in, const std::optional<Array>& r_in, SourceLocation loc) {
  Array c = atleast_1d(c_in, loc);
  Array r = r_in ? atleast_1d(*r_in, loc) : conj(c, loc);
  std::tie(c, r) = api::promote_dtypes("toeplitz", c, r, loc);
  return vectorize(
      [&loc](const Array& col, const Array& row) {
        const int64_t n = col.shape()[0], m = row.shape()[0];
        if (n == 0 || m == 0) return zeros({n, m}, col.dtype());
        // r[m-1] .. r[1], c[0] .. c[n-1]: element (i, j) is vals[i - j + m - 1].
        Array vals = concatenate({flip(index(row, {Slice(1, none)}, loc), {}, loc), col}, 0, loc);
        return take(vals, rows(n) - cols(m) + static_cast<int32_t>(m - 1), 0, loc);
      },
      "(m),(n)->(m,n)")(c, r);
}

Array hankel(const Array& c_in, const std::optional<Array>& r_in, SourceLocation loc) {
  at_least_1d(c_in, "hankel");
  if (r_in) at_least_1d(*r_in, "hankel");
  Array c = c_in, r = r_in ? *r_in : zeros_like(c_in);
  std::tie(c, r) = api::promote_dtypes("hankel", c, r, loc);
  return vectorize(
      [&loc](const Array& col, const Array& row) {
        const int64_t n = col.shape()[0], m = row.shape()[0];
        if (n == 0 || m == 0) return zeros({n, m}, col.dtype());
        Array vals = concatenate({col, index(row, {Slice(1, none)}, loc)}, 0, loc);  // (i, j) → vals[i + j]
        return take(vals, rows(n) + cols(m), 0, loc);
      },
      "(m),(n)->(m,n)")(c, r);
}

Array circulant(const Array& c, SourceLocation loc) {
  return vectorize(
      [&loc](const Array& col) {
        const int64_t n = col.shape()[0];
        if (n == 0) return zeros({0, 0}, col.dtype());
        return take(col, remainder(rows(n) - cols(n), Array(static_cast<int32_t>(n)), loc), 0, loc);
      },
      "(n)->(n,n)")(atleast_1d(c, loc));
}

Array leslie(const Array& f_in, const Array& s_in, SourceLocation loc) {
  Array f = atleast_1d(f_in, loc), s = atleast_1d(s_in, loc);
  if (f.shape().back() < 2)
    throw ValueError("leslie: expects f of at least 2 elements along its last axis, but got " +
                     api::aval(f_in, "leslie").str());
  if (s.shape().back() != f.shape().back() - 1)
    throw ValueError("leslie: expects s one element shorter than f along the last axis, but got f " +
                     api::aval(f, "leslie").str() + " and s " + api::aval(s, "leslie").str());
  std::tie(f, s) = api::promote_dtypes("leslie", f, s, loc);
  return vectorize([&loc](const Array& fv, const Array& sv) { return with_first_row(diag(sv, -1, loc), fv); },
                   "(n),(m)->(n,n)")(f, s);
}

Array companion(const Array& a_in, SourceLocation loc) {
  Array a = api::to_inexact(atleast_1d(a_in, loc), "companion", loc);
  if (a.shape().back() < 2)
    throw ValueError("companion: expects at least 2 coefficients along the last axis, but got " +
                     api::aval(a_in, "companion").str());
  return vectorize(
      [&loc](const Array& v) {
        const int64_t m = v.shape()[0] - 1;
        Array first = -index(v, {Slice(1, none)}, loc) / v[0];
        return with_first_row(eye(m, m, -1, v.dtype()), first);
      },
      "(n)->(m,m)")(a);
}

Array fiedler(const Array& a_in, SourceLocation loc) {
  Array a = atleast_1d(a_in, loc);
  return abs(expand_dims(a, -1, loc) - expand_dims(a, -2, loc), loc);
}

Array fiedler_companion(const Array& a_in, SourceLocation loc) {
  Array a = api::to_inexact(atleast_1d(a_in, loc), "fiedler_companion", loc);
  if (a.shape().back() == 0)
    throw ValueError("fiedler_companion: expects at least 1 coefficient along the last axis, but got " +
                     api::aval(a_in, "fiedler_companion").str());
  return vectorize(
      [&loc](const Array& v) {
        const int64_t n = v.shape()[0] - 1;
        if (n == 0) return zeros({0, 0}, v.dtype());
        Array b = v / v[0];
        if (n == 1) return reshape(-b[1], {1, 1}, loc);
        // The pentadiagonal layout (Fiedler 2003), as JAX builds it with full-grid masks.
        Array i = rows(n), j = cols(n);
        Array super_val = -take(b, minimum(i + 2, Array(static_cast<int32_t>(n))), 0, loc);
        Array sub_val = -take(b, minimum(i + 1, Array(static_cast<int32_t>(n))), 0, loc);
        Array even = (i % 2) == 0, odd = (i % 2) == 1;
        Array one = ones({}, v.dtype()), zero = zeros({}, v.dtype());
        std::vector<Array> conditions{logical_and(i == 0, j == 0),
                                      logical_and(i == 1, j == 0),
                                      logical_and(j == i + 1, even),
                                      logical_and(j == i + 2, even),
                                      logical_and(logical_and(j == i - 1, even), i >= 2),
                                      logical_and(logical_and(j == i - 2, odd), i >= 3)};
        std::vector<Array> choices{-b[1], one, super_val, one, sub_val, one};
        return select(conditions, choices, zero, loc);
      },
      "(n)->(m,m)")(a);
}

Array convolution_matrix(const Array& a, int64_t n, const std::string& mode, SourceLocation loc) {
  const AbstractValue& av = at_least_1d(a, "convolution_matrix");
  if (n <= 0) throw ValueError("convolution_matrix: expects a positive n, but got " + std::to_string(n));
  const int64_t m = av.shape.back();
  if (m < 1) throw ValueError("convolution_matrix: expects a of at least 1 element, but got " + av.str());
  if (mode != "full" && mode != "valid" && mode != "same")
    throw ValueError("convolution_matrix: expects mode \"full\", \"valid\" or \"same\", but got \"" + mode + "\"");
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(av.ndim()), {0, 0});
  widths.back() = {0, n - 1};
  Array az = pad(a, widths, "constant", {}, loc), raz = pad(flip(a, {-1}, loc), widths, "constant", {}, loc);
  const int64_t len = m + n - 1;
  int64_t tb = 0, te = 0;
  if (mode == "same") {
    int64_t trim = std::min(n, m) - 1;
    tb = trim / 2;
    te = trim - tb;
  } else if (mode == "valid") {
    tb = te = std::min(n, m) - 1;
  }
  const int last = av.ndim() - 1;
  Array col0 = api::slice_along(az, last, tb, len - te, 1, loc);
  Array row0 = api::slice_along(raz, last, len - n - tb, len - tb, 1, loc);
  return toeplitz(col0, row0, loc);
}

Array hilbert(int64_t n) {
  Array a = astype(rows(n), f64);
  return 1.0 / (a + transpose(a) + 1.0);
}

Array invhilbert(int64_t n) {
  Array a = arange(n, f64);
  Array i = reshape(a, {n, 1}), j = reshape(a, {1, n}), s = i + j;
  Array big = Array(static_cast<double>(n));
  Array c = special::comb(s, i);
  return minus_one_to(s) * (s + 1.0) * special::comb(big + i, big - j - 1.0) * special::comb(big + j, big - i - 1.0) *
         c * c;
}

namespace {

// The binomial coefficient through lgamma (0 above the diagonal: lgamma(0) = inf), as JAX's _binom.
Array binom(const Array& n, const Array& k) { return exp(lgamma(n + 1.0) - lgamma(n - k + 1.0) - lgamma(k + 1.0)); }

void check_kind(const char* op, const std::string& kind) {
  if (kind != "symmetric" && kind != "lower" && kind != "upper")
    throw ValueError(std::string(op) + ": expects kind \"symmetric\", \"lower\" or \"upper\", but got \"" + kind + "\"");
}

}  // namespace

Array pascal(int64_t n, const std::string& kind) {
  check_kind("pascal", kind);
  Array a = arange(n, f32);
  Array lower = binom(reshape(a, {n, 1}), reshape(a, {1, n}));
  if (kind == "lower") return lower;
  if (kind == "upper") return transpose(lower);
  return matmul(lower, transpose(lower));
}

Array invpascal(int64_t n, const std::string& kind) {
  check_kind("invpascal", kind);
  Array a = arange(n, f64);
  Array i = reshape(a, {n, 1}), j = reshape(a, {1, n});
  Array lower = minus_one_to(i - j) * binom(i, j);
  if (kind == "lower") return lower;
  if (kind == "upper") return transpose(lower);
  return matmul(transpose(lower), lower);
}

Array helmert(int64_t n, bool full) {
  if (n < 1) throw ValueError("helmert: expects a positive n, but got " + std::to_string(n));
  Array i = reshape(arange(n - 1), {n - 1, 1}), j = cols(n);
  Array k = i + 1, kf = astype(k, f64);
  Array denom = sqrt(kf * (kf + 1.0));
  Array h = where(j <= i, 1.0 / denom, where(j == k, -kf / denom, zeros_like(denom)));
  if (!full) return h;
  return concatenate({full_like(zeros({1, n}, f64), 1.0 / std::sqrt(static_cast<double>(n))), h}, 0);
}

Array hadamard(int64_t n, DType dtype) {
  if (n < 1 || (n & (n - 1)) != 0)
    throw ValueError("hadamard: expects a positive power of 2, but got " + std::to_string(n));
  Array h = ones({1, 1}, dtype);
  for (int64_t size = 1; size < n; size *= 2) h = block({{h, h}, {h, -h}});
  return h;
}

Array dft(int64_t n, const std::string& scale, DType dtype) {
  if (!scale.empty() && scale != "sqrtn" && scale != "n")
    throw ValueError("dft: expects scale \"\" (none), \"sqrtn\" or \"n\", but got \"" + scale + "\"");
  if (!is_complex(dtype)) throw DTypeError("dft: expects a complex dtype, but got " + std::string(short_name(dtype)));
  // exp(-2πi·jk/n), in JAX's order of operations: ((-2πi · a_j) · a_k) / n.
  Array a = astype(arange(n, f64), dtype);
  Array w = exp(std::complex<double>(0, -2 * std::numbers::pi) * reshape(a, {n, 1}) * reshape(a, {1, n}) /
                static_cast<double>(n));
  if (scale == "sqrtn") return w / std::sqrt(static_cast<double>(n));
  if (scale == "n") return w / static_cast<double>(n);
  return w;
}

}  // namespace strata::linalg
