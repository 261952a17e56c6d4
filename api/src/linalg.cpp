// api/src/linalg.cpp — strata/linalg.h: the decompositions' wrappers (binding the primitives of
// tracer/primitives/{cholesky,triangular_solve,lu,qr,eigh,svd}.cpp) and the composites built on
// them, following jax.numpy.linalg.
#include "strata/linalg.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "op_helpers.h"
#include "primitives/linalg_common.h"
#include "shape_rules.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/selection.h"

namespace strata::linalg {
namespace {

using lax::bind;
using lax::bind1;
namespace lp = linalg_prim;

std::string s(std::string_view v) { return std::string(v); }

// A 0-d constant of dtype t.
Array cst(double v, DType t) { return lax::scalar(v, t); }

// `a` as f32/f64/c64/c128 matrices (integers and bools promoted); ShapeError naming `op` for
// rank < 2, or for non-square matrices when `square`.
Array matrices(const Array& a, std::string_view op, bool square, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(a, op);
  if (av.shape.size() < 2)
    throw ShapeError(s(op) + ": expects an array of rank >= 2 (a batch of matrices), but got " + av.str());
  if (square && av.shape[av.shape.size() - 1] != av.shape[av.shape.size() - 2])
    throw ShapeError(s(op) + ": expects square matrices [..., n, n], but got " + av.str());
  Array x = api::to_inexact(a, op, loc);
  DType part = real_dtype(x.dtype());
  if (part != DType::f32 && part != DType::f64)
    throw DTypeError(s(op) + ": expects f32, f64, c64 or c128 (or integer) matrices, but got " + av.str());
  return x;
}

// x and y in their common dtype (f32 < f64, c64 < c128, as jnp promotes them).
std::pair<Array, Array> common(const Array& x, const Array& y, const SourceLocation& loc) {
  if (x.dtype() == y.dtype()) return {x, y};
  DType t = promote_types(x.dtype(), y.dtype());
  return {astype(x, t, loc), astype(y, t, loc)};
}

// The conjugate transpose of each matrix (the transpose of real ones).
Array mH(const Array& x, const SourceLocation& loc) { return is_complex(x.dtype()) ? conj(lp::mT(x), loc) : lp::mT(x); }

// (x + xᴴ) / 2: symmetric (Hermitian).
Array symmetrize(const Array& x, const SourceLocation& loc) {
  return lax::mul(lax::add(x, mH(x, loc), loc), lax::full({x.shape(), x.dtype()}, 0.5), loc);
}

Shape batch_of(const Array& x) { return Shape(x.shape().begin(), x.shape().end() - 2); }
int64_t rows(const Array& x) { return x.shape()[x.shape().size() - 2]; }
int64_t cols(const Array& x) { return x.shape().back(); }

LuResult lu_of(const Array& x, const SourceLocation& loc) {
  std::vector<Array> r = bind(prim::kLu, std::span<const Array>(&x, 1), {}, loc);
  return {r[0], r[1], r[2]};
}

// (-1)^(number of row swaps) of an LU's pivots, as x's dtype, [...].
Array pivot_sign(const LuResult& f, DType dtype, const SourceLocation& loc) {
  int64_t k = f.pivots.shape().back();
  Array swaps = sum(astype(not_equal(f.pivots, arange(k, DType::i32), loc), DType::i32, loc), -1, false, loc);
  Array odd = astype(fmod(swaps, Array(int32_t{2}), loc), dtype, loc);  // swaps >= 0
  return subtract(cst(1.0, dtype), multiply(cst(2.0, dtype), odd, loc), loc);
}

Array eye_like(const Array& x, const SourceLocation&) {
  return lp::eye(batch_of(x), rows(x), cols(x), x.dtype());
}

}  // namespace

Array cholesky(const Array& a, bool symmetrize_input, SourceLocation loc) {
  Array x = matrices(a, "cholesky", true, loc);
  if (symmetrize_input) x = symmetrize(x, loc);
  return bind1(prim::kCholesky, {x}, {}, loc);
}

Array triangular_solve(const Array& a, const Array& b, bool left_side, bool lower, bool transpose_a,
                       bool unit_diagonal, bool conjugate_a, SourceLocation loc) {
  auto [x, y] = common(matrices(a, "triangular_solve", true, loc), matrices(b, "triangular_solve", false, loc), loc);
  Params p = lp::triangular_solve_params(left_side, lower, transpose_a, unit_diagonal);
  p.set("conjugate_a", conjugate_a);
  return bind1(prim::kTriangularSolve, {x, y}, p, loc);
}

LuResult lu(const Array& a, SourceLocation loc) { return lu_of(matrices(a, "lu", false, loc), loc); }

QrResult qr(const Array& a, bool full_matrices, SourceLocation loc) {
  Array x = matrices(a, "qr", false, loc);
  std::vector<Array> r = bind(prim::kQr, std::span<const Array>(&x, 1), Params{{"full_matrices", full_matrices}}, loc);
  return {r[0], r[1]};
}

EighResult eigh(const Array& a, bool symmetrize_input, SourceLocation loc) {
  Array x = matrices(a, "eigh", true, loc);
  if (symmetrize_input) x = symmetrize(x, loc);
  std::vector<Array> r = bind(prim::kEigh, std::span<const Array>(&x, 1), Params{{"lower", true}}, loc);
  return {r[1], r[0]};
}

EigResult eig(const Array& a, bool compute_left_eigenvectors, bool compute_right_eigenvectors, SourceLocation loc) {
  Array x = matrices(a, "eig", true, loc);
  std::vector<Array> r = bind(prim::kEig, std::span<const Array>(&x, 1),
                              Params{{"compute_left_eigenvectors", compute_left_eigenvectors},
                                     {"compute_right_eigenvectors", compute_right_eigenvectors}},
                              loc);
  EigResult e{r[0], Array(), Array()};
  if (compute_left_eigenvectors) e.left_eigenvectors = r[1];
  if (compute_right_eigenvectors) e.eigenvectors = r.back();
  return e;
}

Array eigvals(const Array& a, SourceLocation loc) { return eig(a, false, false, loc).eigenvalues; }

SchurResult schur(const Array& a, const std::string& output, SourceLocation loc) {
  if (output != "real" && output != "complex")
    throw ValueError("schur: expects output \"real\" or \"complex\", but got \"" + output + "\"");
  Array x = matrices(a, "schur", true, loc);
  if (output == "complex" && !is_complex(x.dtype())) x = astype(x, complex_dtype(x.dtype()), loc);
  std::vector<Array> r = bind(prim::kSchur, std::span<const Array>(&x, 1), Params{{"compute_schur_vectors", true}}, loc);
  return {r[0], r[1]};
}

HessenbergResult hessenberg(const Array& a, SourceLocation loc) {
  Array x = matrices(a, "hessenberg", true, loc);
  std::vector<Array> r = bind(prim::kHessenberg, std::span<const Array>(&x, 1), {}, loc);
  return {r[0], r[1]};
}

SvdResult svd(const Array& a, bool full_matrices, bool compute_uv, SourceLocation loc) {
  Array x = matrices(a, "svd", false, loc);
  std::vector<Array> r = bind(prim::kSvd, std::span<const Array>(&x, 1),
                              Params{{"full_matrices", full_matrices}, {"compute_uv", compute_uv}}, loc);
  if (!compute_uv) return {Array(), r[0], Array()};
  return {r[1], r[0], r[2]};
}

Array svdvals(const Array& a, SourceLocation loc) { return svd(a, false, false, loc).s; }

Array solve(const Array& a, const Array& b, SourceLocation loc) {
  Array x = matrices(a, "solve", true, loc);
  const AbstractValue& bv = api::aval(b, "solve");
  int64_t n = rows(x);
  bool vector = bv.shape.size() == 1;
  if ((vector && bv.shape[0] != n) || (!vector && (bv.shape.size() < 2 || bv.shape[bv.shape.size() - 2] != n)))
    throw ShapeError("solve: expects b [n] or [..., n, k] with n = " + std::to_string(n) + " (a's size), but got a " +
                     api::aval(a, "solve").str() + " and b " + bv.str());
  Array y = api::to_inexact(b, "solve", loc);
  if (vector) y = reshape(y, {n, 1}, loc);
  std::tie(x, y) = common(x, y, loc);
  // The batch dimensions broadcast.
  Shape xb = batch_of(x), yb = batch_of(y);
  shape_rules::Result bs = shape_rules::broadcast_shapes(xb, yb);
  if (!bs.ok())
    throw ShapeError("solve: expects batch dimensions that broadcast, but got a " + api::aval(a, "solve").str() +
                     " and b " + bv.str());
  Shape xs = bs.shape, ys = bs.shape;
  xs.insert(xs.end(), {n, n});
  ys.insert(ys.end(), {n, cols(y)});
  x = broadcast_to(x, xs, loc);
  y = broadcast_to(y, ys, loc);
  if (n == 0) {  // nothing to solve (and nothing to gather from)
    if (!vector) return y;
    Shape o = bs.shape;
    o.push_back(0);
    return reshape(y, o, loc);
  }
  LuResult f = lu_of(x, loc);
  Array rowsel = broadcast_to(expand_dims(f.permutation, -1, loc), ys, loc);
  Array pb = take_along_axis(y, rowsel, -2, loc);
  Array z = bind1(prim::kTriangularSolve, {f.lu, pb}, lp::triangular_solve_params(true, true, false, true), loc);
  Array r = bind1(prim::kTriangularSolve, {f.lu, z}, lp::triangular_solve_params(true, false, false, false), loc);
  if (vector) {
    Shape out = bs.shape;
    out.push_back(n);
    r = reshape(r, out, loc);
  }
  return r;
}

Array inv(const Array& a, SourceLocation loc) {
  Array x = matrices(a, "inv", true, loc);
  return solve(x, eye_like(x, loc), loc);
}

Array det(const Array& a, SourceLocation loc) {
  Array x = matrices(a, "det", true, loc);
  LuResult f = lu_of(x, loc);
  return multiply(pivot_sign(f, x.dtype(), loc), prod(lp::diagonal(f.lu), -1, false, loc), loc);
}

SlogdetResult slogdet(const Array& a, SourceLocation loc) {
  Array x = matrices(a, "slogdet", true, loc);
  LuResult f = lu_of(x, loc);
  Array d = lp::diagonal(f.lu);
  // A complex sign d/|d| moves with a (lax.sign's derivative is zero, as JAX's; its slogdet has
  // a rule of its own): written as the quotient, 0 where d = 0, so it differentiates.
  Array sd = sign(d, loc);
  if (is_complex(x.dtype())) {
    Array m = abs(d, loc);
    Array zero = equal(m, zeros_like(m), loc);
    sd = where(zero, zeros_like(d), divide(d, astype(where(zero, ones_like(m), m, loc), x.dtype(), loc), loc), loc);
  }
  Array sign_ = multiply(pivot_sign(f, x.dtype(), loc), prod(sd, -1, false, loc), loc);
  return {sign_, sum(log(abs(d, loc), loc), -1, false, loc)};
}

LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond, SourceLocation loc) {
  const AbstractValue &av = api::aval(a, "lstsq"), &bv = api::aval(b, "lstsq");
  if (av.shape.size() != 2 || bv.shape.size() < 1 || bv.shape.size() > 2 || bv.shape[0] != av.shape[0])
    throw ShapeError("lstsq: expects a [m, n] and b [m] or [m, k], but got a " + av.str() + " and b " + bv.str());
  Array x = matrices(a, "lstsq", false, loc);
  Array y = api::to_inexact(b, "lstsq", loc);
  bool vector = bv.shape.size() == 1;
  int64_t m = av.shape[0], n = av.shape[1];
  if (vector) y = reshape(y, {m, 1}, loc);
  std::tie(x, y) = common(x, y, loc);
  const DType real_t = real_dtype(x.dtype());  // of the singular values
  double eps = real_t == DType::f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  double rc = !rcond ? eps * static_cast<double>(std::max(m, n)) : (*rcond < 0 ? eps : *rcond);
  SvdResult f = svd(x, false, true, loc);
  int64_t k = std::min(m, n);
  Array x_out, rank;
  if (k == 0) {
    x_out = zeros({n, cols(y)}, x.dtype());
    rank = Array(int32_t{0});
  } else {
    Array smax = slice(f.s, {0}, {1}, {}, loc);
    Array mask = greater_equal(f.s, multiply(smax, cst(rc, real_t), loc), loc);
    rank = sum(astype(mask, DType::i32, loc), {}, false, loc);
    Array safe = where(mask, f.s, ones_like(f.s), loc);
    Array s_inv = where(mask, divide(cst(1.0, real_t), safe, loc), zeros_like(f.s), loc);
    Array utb = matmul(mH(f.u, loc), y, loc);
    x_out = matmul(mH(f.vt, loc), multiply(astype(expand_dims(s_inv, -1, loc), x.dtype(), loc), utb, loc), loc);
  }
  Array r = abs(subtract(y, matmul(x, x_out, loc), loc), loc);
  Array resid = sum(multiply(r, r, loc), 0, false, loc);
  if (vector) x_out = reshape(x_out, {n}, loc);
  return {x_out, resid, rank, f.s};
}

Array pinv(const Array& a, std::optional<double> rtol, SourceLocation loc) {
  Array x = matrices(a, "pinv", false, loc);
  int64_t m = rows(x), n = cols(x);
  Shape out = batch_of(x);
  out.insert(out.end(), {n, m});
  if (m == 0 || n == 0) return zeros(out, x.dtype());
  const DType real_t = real_dtype(x.dtype());  // of the singular values
  double eps = real_t == DType::f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  double rt = rtol ? *rtol : 10.0 * static_cast<double>(std::max(m, n)) * eps;
  SvdResult f = svd(x, false, true, loc);
  int r = static_cast<int>(f.s.shape().size());
  std::vector<int64_t> start(r, 0), stop(f.s.shape().begin(), f.s.shape().end());
  stop.back() = 1;
  Array cutoff = multiply(cst(rt, real_t), slice(f.s, start, stop, {}, loc), loc);
  Array sv = where(greater(f.s, cutoff, loc), f.s, full(f.s.shape(), std::numeric_limits<double>::infinity(), real_t), loc);
  return matmul(mH(f.vt, loc), divide(mH(f.u, loc), astype(expand_dims(sv, -1, loc), x.dtype(), loc), loc), loc);
}

NormOrd::NormOrd(const char* name) {
  std::string n(name);
  if (n == "fro") kind = kFro;
  else if (n == "nuc") kind = kNuc;
  else throw ValueError("norm: expects ord \"fro\" or \"nuc\" (or a number), but got \"" + n + "\"");
}

namespace {

Array vector_norm_along(const Array& x, const NormOrd& ord, int axis, bool keepdims, const SourceLocation& loc) {
  Array ax = abs(x, loc);
  if (ord.kind == NormOrd::kDefault || (ord.kind == NormOrd::kNumber && ord.p == 2))
    return sqrt(sum(multiply(ax, ax, loc), axis, keepdims, loc), loc);
  if (ord.kind != NormOrd::kNumber)
    throw ValueError("norm: \"fro\" and \"nuc\" are matrix norms; a vector norm expects a number");
  double p = ord.p;
  if (std::isinf(p)) return p > 0 ? max(ax, axis, keepdims, loc) : min(ax, axis, keepdims, loc);
  if (p == 0) return sum(astype(not_equal(x, zeros_like(x), loc), ax.dtype(), loc), axis, keepdims, loc);
  if (p == 1) return sum(ax, axis, keepdims, loc);
  Array pp = cst(p, ax.dtype());
  return power(sum(power(ax, pp, loc), axis, keepdims, loc), divide(cst(1.0, ax.dtype()), pp, loc), loc);
}

Array matrix_norm_over(const Array& x, const NormOrd& ord, int r0, int c0, bool keepdims, const SourceLocation& loc) {
  int rank = x.ndim();
  int r = r0 < 0 ? r0 + rank : r0, c = c0 < 0 ? c0 + rank : c0;
  if (r < 0 || r >= rank || c < 0 || c >= rank || r == c)
    throw ValueError("norm: expects two distinct axes of an array of rank " + std::to_string(rank) + ", but got (" +
                     std::to_string(r0) + ", " + std::to_string(c0) + ")");
  auto keep = [&](Array v) {  // v reduced over r and c: size-1 axes back in their places
    if (!keepdims) return v;
    Shape s = x.shape();
    s[r] = s[c] = 1;
    return reshape(v, s, loc);
  };
  Array ax = abs(x, loc);
  if (ord.kind == NormOrd::kDefault || ord.kind == NormOrd::kFro)
    return keep(sqrt(sum(multiply(ax, ax, loc), {r, c}, false, loc), loc));
  double p = ord.p;
  if (ord.kind == NormOrd::kNumber && (p == 1 || p == -1 || std::isinf(p))) {
    // 1: the largest column sum (over rows r); inf: the largest row sum (over columns c).
    bool col_sums = std::abs(p) == 1;
    int first = col_sums ? r : c, second = col_sums ? c : r;
    Array sums = sum(ax, first, false, loc);
    int second_after = second > first ? second - 1 : second;
    return keep(p > 0 ? max(sums, second_after, false, loc) : min(sums, second_after, false, loc));
  }
  if (ord.kind == NormOrd::kNuc || (ord.kind == NormOrd::kNumber && (p == 2 || p == -2))) {
    std::vector<int> perm;
    for (int i = 0; i < rank; ++i)
      if (i != r && i != c) perm.push_back(i);
    perm.push_back(r);
    perm.push_back(c);
    Array sv = svdvals(transpose(x, perm, loc), loc);
    if (ord.kind == NormOrd::kNuc) return keep(sum(sv, -1, false, loc));
    return keep(p > 0 ? max(sv, -1, false, loc) : min(sv, -1, false, loc));
  }
  throw ValueError("norm: expects a matrix ord of none, \"fro\", \"nuc\", 1, -1, 2, -2, inf or -inf, but got " +
                   std::to_string(p));
}

}  // namespace

Array norm(const Array& a, NormOrd ord, std::optional<std::vector<int>> axis, bool keepdims, SourceLocation loc) {
  Array x = api::to_inexact(a, "norm", loc);
  int rank = x.ndim();
  if (!axis) {
    if (ord.kind == NormOrd::kDefault) {
      Array r = sqrt(sum(multiply(abs(x, loc), abs(x, loc), loc), {}, false, loc), loc);
      return keepdims ? reshape(r, Shape(static_cast<size_t>(rank), 1), loc) : r;
    }
    if (rank == 1) return vector_norm_along(x, ord, 0, keepdims, loc);
    if (rank == 2) return matrix_norm_over(x, ord, 0, 1, keepdims, loc);
    throw ValueError("norm: expects a 1-d or 2-d array when ord is given without axis, but got " +
                     api::aval(a, "norm").str());
  }
  if (axis->size() == 1) {
    int ax = (*axis)[0];
    if (ax < -rank || ax >= rank)
      throw ValueError("norm: axis " + std::to_string(ax) + " is out of range for " + api::aval(a, "norm").str());
    return vector_norm_along(x, ord, ax < 0 ? ax + rank : ax, keepdims, loc);
  }
  if (axis->size() == 2) return matrix_norm_over(x, ord, (*axis)[0], (*axis)[1], keepdims, loc);
  throw ValueError("norm: expects one or two axes, but got " + std::to_string(axis->size()));
}

Array vector_norm(const Array& a, NormOrd ord, std::optional<std::vector<int>> axis, bool keepdims,
                  SourceLocation loc) {
  Array x = api::to_inexact(a, "vector_norm", loc);
  const AbstractValue& av = api::aval(x, "vector_norm");
  const int rank = x.ndim();
  std::vector<bool> reduced(static_cast<size_t>(rank), !axis);
  if (axis)
    for (int ax : *axis) {
      if (ax < -rank || ax >= rank || reduced[static_cast<size_t>(ax < 0 ? ax + rank : ax)])
        throw ValueError("vector_norm: axes " + shape_rules::list_string(IntList(axis->begin(), axis->end())) +
                         " are out of range or repeated for " + av.str());
      reduced[static_cast<size_t>(ax < 0 ? ax + rank : ax)] = true;
    }
  // The reduced axes moved to the end and merged into one.
  std::vector<int> perm;
  Shape kept, kept_dims = av.shape;
  int64_t merged = 1;
  for (int d = 0; d < rank; ++d)
    if (!reduced[static_cast<size_t>(d)]) {
      perm.push_back(d);
      kept.push_back(av.shape[static_cast<size_t>(d)]);
    }
  for (int d = 0; d < rank; ++d)
    if (reduced[static_cast<size_t>(d)]) {
      perm.push_back(d);
      merged *= av.shape[static_cast<size_t>(d)];
      kept_dims[static_cast<size_t>(d)] = 1;
    }
  Shape flat = kept;
  flat.push_back(merged);
  Array r = vector_norm_along(reshape(transpose(x, perm, loc), flat, loc), ord, static_cast<int>(kept.size()), false,
                              loc);
  return keepdims ? reshape(r, kept_dims, loc) : r;
}

Array matrix_norm(const Array& x, NormOrd ord, bool keepdims, SourceLocation loc) {
  if (api::aval(x, "matrix_norm").ndim() < 2)
    throw ShapeError("matrix_norm: expects matrices [..., m, n], but got " + api::aval(x, "matrix_norm").str());
  return norm(x, ord, std::vector<int>{-2, -1}, keepdims, loc);
}

Array tensorinv(const Array& a, int ind, SourceLocation loc) {
  const AbstractValue& av = api::aval(a, "tensorinv");
  if (ind <= 0) throw ValueError("tensorinv: expects a positive ind, but got " + std::to_string(ind));
  if (static_cast<size_t>(ind) > av.shape.size())
    throw ValueError("tensorinv: ind " + std::to_string(ind) + " exceeds the rank of " + av.str());
  Shape first(av.shape.begin(), av.shape.begin() + ind), rest(av.shape.begin() + ind, av.shape.end());
  int64_t rows = 1, cols = 1;
  for (int64_t d : first) rows *= d;
  for (int64_t d : rest) cols *= d;
  if (rows != cols)
    throw ShapeError("tensorinv: expects the product of the first " + std::to_string(ind) +
                     " dimensions to equal that of the others, but got " + av.str());
  Shape out = rest;
  out.insert(out.end(), first.begin(), first.end());
  return reshape(inv(reshape(a, {rows, cols}, loc), loc), out, loc);
}

Array tensorsolve(const Array& a_in, const Array& b, std::optional<std::vector<int>> axes, SourceLocation loc) {
  Array a = a_in;
  const AbstractValue& bv = api::aval(b, "tensorsolve");
  if (axes) {
    // NumPy's order: each named axis in turn moved to the end.
    const int rank = api::aval(a, "tensorsolve").ndim();
    std::vector<int> all;
    for (int d = 0; d < rank; ++d) all.push_back(d);
    for (int k : *axes) {
      int kk = k < 0 ? k + rank : k;
      auto it = std::find(all.begin(), all.end(), kk);
      if (kk < 0 || kk >= rank || it == all.end())
        throw ValueError("tensorsolve: axis " + std::to_string(k) + " is out of range or repeated for " +
                         api::aval(a, "tensorsolve").str());
      all.erase(it);
      all.push_back(kk);
    }
    a = transpose(a, all, loc);
  }
  const AbstractValue& av = api::aval(a, "tensorsolve");
  const size_t nb = bv.shape.size();
  if (av.shape.size() < nb || !std::equal(bv.shape.begin(), bv.shape.end(), av.shape.begin()))
    throw ShapeError("tensorsolve: expects a's leading dimensions to be b's shape, but got a " + av.str() + " and b " +
                     bv.str());
  Shape out(av.shape.begin() + static_cast<std::ptrdiff_t>(nb), av.shape.end());
  int64_t n = 1, m = 1;
  for (int64_t d : bv.shape) n *= d;
  for (int64_t d : out) m *= d;
  if (n != m)
    throw ShapeError("tensorsolve: expects b's size (" + std::to_string(n) + ") to equal the product of a's other dimensions (" +
                     std::to_string(m) + "), but got a " + av.str() + " and b " + bv.str());
  return reshape(solve(reshape(a, {n, m}, loc), reshape(b, {n}, loc), loc), out, loc);
}

Array matrix_power(const Array& a, int n, SourceLocation loc) {
  Array x = api::aval(a, "matrix_power").shape.size() >= 2 && n < 0 ? matrices(a, "matrix_power", true, loc) : a;
  const AbstractValue& av = api::aval(x, "matrix_power");
  if (av.shape.size() < 2 || av.shape.back() != av.shape[av.shape.size() - 2])
    throw ShapeError("matrix_power: expects square matrices [..., n, n], but got " + av.str());
  if (n == 0) return astype(eye_like(astype(x, DType::f32, loc), loc), x.dtype(), loc);
  if (n < 0) {
    x = inv(x, loc);
    n = -n;
  }
  Array z, result;
  while (n > 0) {
    z = z.valid() ? matmul(z, z, loc) : x;
    if (n % 2) result = result.valid() ? matmul(result, z, loc) : z;
    n /= 2;
  }
  return result;
}

Array matrix_rank(const Array& a, std::optional<double> rtol, SourceLocation loc) {
  Array x = matrices(a, "matrix_rank", false, loc);
  const Shape& s = x.shape();
  const int64_t m = s[s.size() - 2], n = s.back();
  Array sv = svdvals(x, loc);
  if (std::min(m, n) == 0) return zeros(Shape(s.begin(), s.end() - 2), i32);
  DType t = sv.dtype();
  double eps = t == f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  Array tol = max(sv, {-1}, true, loc) * cst(rtol.value_or(static_cast<double>(std::max(m, n)) * eps), t);
  return sum(astype(greater(sv, tol, loc), i32, loc), {-1}, false, loc);
}

Array cond(const Array& a, NormOrd ord, SourceLocation loc) {
  // The 2-norm orders through the singular values (any m × n); the others through the inverse.
  const bool two = ord.kind == NormOrd::kDefault || (ord.kind == NormOrd::kNumber && std::fabs(ord.p) == 2);
  Array x = matrices(a, "cond", !two, loc);
  Array r;
  if (two) {
    Array sv = svdvals(x, loc);
    const int64_t k = sv.shape().back();
    if (k == 0) throw ShapeError("cond: expects non-empty matrices, but got " + api::aval(a, "cond").str());
    const int axis = static_cast<int>(sv.shape().size()) - 1;
    Array hi = take(sv, astype(Array(0), i32), axis, loc), lo = take(sv, astype(Array(static_cast<int32_t>(k - 1)), i32), axis, loc);
    r = ord.kind == NormOrd::kNumber && ord.p < 0 ? lo / hi : hi / lo;
  } else {
    r = norm(x, ord, std::vector<int>{-2, -1}, false, loc) * norm(inv(x, loc), ord, std::vector<int>{-2, -1}, false, loc);
  }
  // A singular matrix: inf (its inverse's NaNs, or s_min = 0), unless a itself holds a NaN.
  Array nan_in = any(not_equal(x, x, loc), {-2, -1}, false, loc);
  return where(logical_and(not_equal(r, r, loc), logical_not(nan_in, loc), loc), cst(INFINITY, r.dtype()), r, loc);
}

Array multi_dot(const std::vector<Array>& arrays, SourceLocation loc) {
  const size_t k = arrays.size();
  if (k < 2) throw ValueError("multi_dot: expects at least two arrays, but got " + std::to_string(k));
  std::vector<Array> ms;
  for (size_t i = 0; i < k; ++i) {
    const AbstractValue& v = api::aval(arrays[i], "multi_dot");
    bool end = i == 0 || i + 1 == k;
    if (v.shape.size() != 2 && !(end && v.shape.size() == 1))
      throw ShapeError("multi_dot: expects 2-d arrays (1-d ones first or last), but got " + v.str() + " as array " +
                       std::to_string(i));
    if (v.shape.size() == 1) ms.push_back(i == 0 ? reshape(arrays[i], {1, -1}, loc) : reshape(arrays[i], {-1, 1}, loc));
    else ms.push_back(arrays[i]);
  }
  // dims[i] × dims[i+1] is matrix i; cost[i][j] the fewest multiplications for i..j.
  std::vector<int64_t> dims{ms[0].shape()[0]};
  for (const Array& m : ms) dims.push_back(m.shape()[1]);
  std::vector<std::vector<double>> cost(k, std::vector<double>(k, 0));
  std::vector<std::vector<size_t>> split(k, std::vector<size_t>(k, 0));
  for (size_t len = 1; len < k; ++len)
    for (size_t i = 0; i + len < k; ++i) {
      size_t j = i + len;
      cost[i][j] = INFINITY;
      for (size_t s = i; s < j; ++s) {
        double c = cost[i][s] + cost[s + 1][j] + static_cast<double>(dims[i]) * static_cast<double>(dims[s + 1]) *
                                                     static_cast<double>(dims[j + 1]);
        if (c < cost[i][j]) cost[i][j] = c, split[i][j] = s;
      }
    }
  auto product = [&](auto& self, size_t i, size_t j) -> Array {
    if (i == j) return ms[i];
    return matmul(self(self, i, split[i][j]), self(self, split[i][j] + 1, j), loc);
  };
  Array r = product(product, 0, k - 1);
  const bool first_vec = api::aval(arrays[0], "multi_dot").shape.size() == 1;
  const bool last_vec = api::aval(arrays[k - 1], "multi_dot").shape.size() == 1;
  if (first_vec && last_vec) return reshape(r, {}, loc);
  if (first_vec) return reshape(r, {r.shape()[1]}, loc);
  if (last_vec) return reshape(r, {r.shape()[0]}, loc);
  return r;
}

Array eigvalsh(const Array& a, SourceLocation loc) { return eigh(a, true, loc).eigenvalues; }

}  // namespace strata::linalg
