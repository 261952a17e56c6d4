// jax.scipy.linalg's solvers over factorisations and the matrix exponential (strata/linalg.h):
// solve_triangular, cho_factor / cho_solve, lu_factor / lu_solve, expm. Composites of the
// primitives (triangular_solve, cholesky, lu) and the control-flow ops.
#include <cmath>

#include "linalg_shapes.h"
#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/searching.h"
#include "strata/sorting.h"
#include "strata/vmap.h"

namespace strata::linalg {

namespace {

// b as matrices [..., n, k] for a [..., n, n]: a vector right-hand side [..., n] (one rank less
// than a) gets a last dimension of 1, removed again by `restore`.
struct Rhs {
  Array b;
  bool vector;
  Array restore(const Array& x, const SourceLocation& loc) const { return vector ? squeeze(x, {-1}, loc) : x; }
};
Rhs rhs_of(const AbstractValue& av, const Array& b, const char* op, const SourceLocation& loc) {
  const AbstractValue& bv = api::aval(b, op);
  bool vector = bv.shape.size() + 1 == av.shape.size();
  Array m = vector ? expand_dims(b, -1, loc) : b;
  const Shape& ms = m.shape();
  if (ms.size() < 2 || ms[ms.size() - 2] != av.shape.back())
    throw ShapeError(std::string(op) + ": expects b [..., " + std::to_string(av.shape.back()) + "] or [..., " +
                     std::to_string(av.shape.back()) + ", k] for a " + av.str() + ", but got " + bv.str());
  return {m, vector};
}

}  // namespace

Array solve_triangular(const Array& a, const Array& b, int trans, bool lower, bool unit_diagonal, SourceLocation loc) {
  const AbstractValue& av = square_matrices(a, "solve_triangular");
  if (trans < 0 || trans > 2)
    throw ValueError("solve_triangular: expects trans 0 (a x = b), 1 (aᵀ x = b) or 2 (aᴴ x = b), but got " +
                     std::to_string(trans));
  Rhs r = rhs_of(av, b, "solve_triangular", loc);
  auto [m, rhs] = api::promote_inexact_dtypes("solve_triangular", a, r.b, loc);
  return r.restore(triangular_solve(m, rhs, /*left_side=*/true, lower, trans != 0, unit_diagonal, trans == 2, loc), loc);
}

ChoFactor cho_factor(const Array& a, bool lower, SourceLocation loc) {
  square_matrices(a, "cho_factor");
  Array l = cholesky(a, /*symmetrize_input=*/false, loc);
  if (lower) return {l, true};
  Array u = swapaxes(l, -1, -2, loc);
  return {is_complex(u.dtype()) ? conj(u, loc) : u, false};
}

Array cho_solve(const ChoFactor& c, const Array& b, SourceLocation loc) {
  const AbstractValue& av = square_matrices(c.c, "cho_solve");
  Rhs r = rhs_of(av, b, "cho_solve", loc);
  auto [f, rhs] = api::promote_inexact_dtypes("cho_solve", c.c, r.b, loc);
  bool cplx = is_complex(f.dtype());
  // a = L Lᴴ (lower) or Uᴴ U: solve with the factor, then with its conjugate transpose.
  Array y = triangular_solve(f, rhs, true, c.lower, !c.lower, false, !c.lower && cplx, loc);
  return r.restore(triangular_solve(f, y, true, c.lower, c.lower, false, c.lower && cplx, loc), loc);
}

LuFactor lu_factor(const Array& a, SourceLocation loc) {
  LuResult f = lu(a, loc);
  return {f.lu, f.pivots};
}

Array lu_pivots_to_permutation(const Array& pivots, int64_t size, SourceLocation loc) {
  const AbstractValue& pv = api::aval(pivots, "lu_pivots_to_permutation");
  if (pv.shape.empty() || !is_integer(pv.dtype))
    throw ShapeError("lu_pivots_to_permutation: expects integer pivots [..., k], but got " + pv.str());
  const int64_t k = pv.shape.back();
  if (k > size)
    throw ValueError("lu_pivots_to_permutation: expects no more pivots than the size " + std::to_string(size) +
                     ", but got " + pv.str());
  Shape batch(pv.shape.begin(), pv.shape.end() - 1), ps = batch, one = batch;
  ps.push_back(size);
  one.push_back(1);
  Array iota = broadcast_to(arange(size), ps, loc);
  if (k == 0) return iota;  // no swaps (the loop body is traced even for zero steps)
  Array piv = astype(pivots, i32, loc);
  // Row i swapped with row piv[i], for i = 0 .. k-1 in order (LAPACK's ipiv), every batch at once.
  return fori_loop(0, k, [&](const Array& i, const Array& perm) {
    Array ib = broadcast_to(reshape(i, {1}), one);
    Array p = take_along_axis(piv, ib, -1);
    Array at_i = take_along_axis(perm, ib, -1), at_p = take_along_axis(perm, p, -1);
    return where(equal(iota, ib), at_p, where(equal(iota, p), at_i, perm));
  }, iota);
}

Array lu_solve(const LuFactor& f, const Array& b, int trans, SourceLocation loc) {
  const AbstractValue& av = square_matrices(f.lu, "lu_solve");
  if (trans < 0 || trans > 2)
    throw ValueError("lu_solve: expects trans 0 (a x = b), 1 (aᵀ x = b) or 2 (aᴴ x = b), but got " + std::to_string(trans));
  Rhs r = rhs_of(av, b, "lu_solve", loc);
  auto [m, x] = api::promote_inexact_dtypes("lu_solve", f.lu, r.b, loc);
  const int64_t n = av.shape.back();
  Array perm = lu_pivots_to_permutation(f.pivots, n, loc);
  auto rows = [&](const Array& v, const Array& order) {  // v[..., order, :]
    Shape is = api::aval(order, "lu_solve").shape;
    is.push_back(1);
    return take_along_axis(v, broadcast_to(reshape(order, is, loc), v.shape(), loc), -2, loc);
  };
  if (trans == 0) {
    x = rows(x, perm);
    x = triangular_solve(m, x, true, /*lower=*/true, false, /*unit_diagonal=*/true, false, loc);
    x = triangular_solve(m, x, true, /*lower=*/false, false, false, false, loc);
  } else {
    bool c = trans == 2 && is_complex(m.dtype());
    x = triangular_solve(m, x, true, false, true, false, c, loc);
    x = triangular_solve(m, x, true, true, true, true, c, loc);
    x = rows(x, argsort(perm, -1));
  }
  return r.restore(x, loc);
}

Array block_diag(const std::vector<Array>& blocks, SourceLocation loc) {
  if (blocks.empty()) return zeros({1, 0}, f32);  // scipy's empty result
  TypeSpec t = api::spec(blocks[0], "block_diag");
  for (const Array& b : blocks) t = promote_types(t, api::spec(b, "block_diag"));
  std::vector<Array> ms;
  int64_t width = 0;
  for (const Array& b : blocks) {
    const AbstractValue& v = api::aval(b, "block_diag");
    if (v.shape.size() > 2) throw ShapeError("block_diag: expects arrays of rank 2 or less, but got " + v.str());
    Array m = api::convert(b, {t.dtype, false}, loc);
    m = v.shape.size() == 2 ? m : reshape(m, {1, v.shape.empty() ? 1 : v.shape[0]}, loc);
    width += m.shape()[1];
    ms.push_back(m);
  }
  std::vector<Array> rows;
  int64_t at = 0;
  for (const Array& m : ms) {
    const int64_t w = m.shape()[1];
    rows.push_back(pad(m, {{0, 0}, {at, width - at - w}}, "constant", 0, loc));
    at += w;
  }
  return concatenate(rows, 0, loc);
}

// T[i, j] = c[i - j] below and on the diagonal, r[j - i] above: one gather from r reversed then c.
// ---- expm: Higham's scaling and squaring with Padé approximants (Higham 2005, as JAX) ----

namespace {

using UV = std::pair<Array, Array>;

// The odd (U) and even (V) parts of the degree-m Padé numerator, b its coefficients.
UV pade(const Array& a, const std::vector<double>& b) {
  const int64_t n = a.shape()[0];
  Array ident = eye(n, n, 0, a.dtype());
  Array a2 = matmul(a, a);
  auto c = [&](size_t i) { return astype(Array(b[i]), real_dtype(a.dtype())); };
  if (b.size() == 14) {  // degree 13: A⁶ factored out of the high terms
    Array a4 = matmul(a2, a2), a6 = matmul(a4, a2);
    Array u = matmul(a, matmul(a6, c(13) * a6 + c(11) * a4 + c(9) * a2) + c(7) * a6 + c(5) * a4 + c(3) * a2 + c(1) * ident);
    Array v = matmul(a6, c(12) * a6 + c(10) * a4 + c(8) * a2) + c(6) * a6 + c(4) * a4 + c(2) * a2 + c(0) * ident;
    return {u, v};
  }
  // Σ b[2j+1] A^(2j) for U (times A) and Σ b[2j] A^(2j) for V.
  std::vector<Array> powers{ident, a2};
  while (2 * powers.size() < b.size()) powers.push_back(matmul(powers.back(), a2));
  Array u = c(1) * powers[0], v = c(0) * powers[0];
  for (size_t j = 1; j < powers.size(); ++j) {
    u = u + c(2 * j + 1) * powers[j];
    v = v + c(2 * j) * powers[j];
  }
  return {matmul(a, u), v};
}

const std::vector<double> kPade3{120., 60., 12., 1.};
const std::vector<double> kPade5{30240., 15120., 3360., 420., 30., 1.};
const std::vector<double> kPade7{17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.};
const std::vector<double> kPade9{17643225600., 8821612800., 2075673600., 302702400., 30270240.,
                                 2162160.,     110880.,      3960.,        90.,        1.};
const std::vector<double> kPade13{64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
                                  129060195264000.,   10559470521600.,    670442572800.,    33522128640.,
                                  1323241920.,        40840800.,          960960.,          16380.,
                                  182.,               1.};

Array expm_matrix(const Array& a_in, int max_squarings) {
  const bool wide = real_dtype(a_in.dtype()) == f64;
  DType rt = real_dtype(a_in.dtype());
  Array l1 = norm(a_in, 1);
  // Scale by 2^-s so that the norm falls in the range the highest degree is accurate for.
  const double maxnorm = wide ? 5.371920351148152 : 3.925724783138660;
  Array s = maximum(astype(Array(0.0), rt), floor(log2(l1 / astype(Array(maxnorm), rt))));
  Array a = a_in / astype(exp2(s), a_in.dtype());
  // The lowest degree accurate at this norm (unscaled norm, as JAX).
  std::vector<double> conds = wide ? std::vector<double>{1.495585217958292e-002, 2.539398330063230e-001,
                                                         9.504178996162932e-001, 2.097847961257068e+000}
                                   : std::vector<double>{4.258730016922831e-001, 1.880152677804762e+000};
  Array idx = digitize(l1, astype(array(conds, {static_cast<int64_t>(conds.size())}, f64), rt));
  UV uv = wide ? switch_(idx,
                         std::tuple{[](const Array& x) { return pade(x, kPade3); }, [](const Array& x) { return pade(x, kPade5); },
                                    [](const Array& x) { return pade(x, kPade7); }, [](const Array& x) { return pade(x, kPade9); },
                                    [](const Array& x) { return pade(x, kPade13); }},
                         a)
               : switch_(idx,
                         std::tuple{[](const Array& x) { return pade(x, kPade3); }, [](const Array& x) { return pade(x, kPade5); },
                                    [](const Array& x) { return pade(x, kPade7); }},
                         a);
  Array p = uv.first + uv.second, q = uv.second - uv.first;
  Array r = solve(q, p);
  // Undo the scaling: s squarings (at most max_squarings; beyond that the result is NaN).
  Array n = astype(s, i32);
  r = fori_loop(0, max_squarings, [&](const Array& i, const Array& x) {
    return strata::cond(less(i, n), [](const Array& y) { return matmul(y, y); }, [](const Array& y) { return y; }, x);
  }, r);
  return where(greater(n, astype(Array(static_cast<int32_t>(max_squarings)), i32)), astype(Array(NAN), r.dtype()), r);
}

}  // namespace

Array expm(const Array& a, int max_squarings, SourceLocation loc) {
  const AbstractValue& av = square_matrices(a, "expm");
  Array x = api::to_inexact(a, "expm", loc);
  DType part = real_dtype(x.dtype());
  if (part != f32 && part != f64)
    throw DTypeError("expm: expects f32, f64, c64 or c128 (or integer) matrices, but got " + av.str());
  if (av.shape.size() == 2) return expm_matrix(x, max_squarings);
  // A batch: each matrix its own degree and squarings, as JAX's vectorize.
  const int64_t n = av.shape.back();
  Array flat = reshape(x, {-1, n, n}, loc);
  Array r = vmap([max_squarings](const Array& m) { return expm_matrix(m, max_squarings); })(flat);
  return reshape(r, av.shape, loc);
}

ExpmFrechetResult expm_frechet(const Array& a, const Array& e, SourceLocation loc) {
  const AbstractValue& av = square_matrices(a, "expm_frechet");
  const AbstractValue& ev = api::aval(e, "expm_frechet");
  if (ev.shape != av.shape)
    throw ShapeError("expm_frechet: expects the direction e of a's shape " + av.str() + ", but got " + ev.str());
  Array x = api::to_inexact(a, "expm_frechet", loc);
  Array dir = astype(e, x.dtype(), loc);
  auto [value, tangent] = jvp([loc](const Array& m) { return expm(m, 16, loc); }, x, dir);
  return {value, tangent};
}

}  // namespace strata::linalg

namespace strata::linalg {

PolarResult polar(const Array& a, const std::string& side, const std::string& method, SourceLocation loc) {
  const AbstractValue& av = api::aval(a, "polar");
  if (av.ndim() < 2) throw ShapeError("polar: expects an array of rank >= 2 (a batch of matrices), but got " + av.str());
  if (side != "right" && side != "left")
    throw ValueError("polar: expects side \"right\" or \"left\", but got \"" + side + "\"");
  if (method == "qdwh")
    throw ValueError("polar: method \"qdwh\" is not implemented; method \"svd\" (the default) gives the same u and p");
  if (method != "svd") throw ValueError("polar: expects method \"svd\", but got \"" + method + "\"");
  // a = U S Vᴴ: u = U Vᴴ, and p = V S Vᴴ (right: a = u p) or U S Uᴴ (left: a = p u).
  SvdResult s = svd(a, false, true, loc);
  Array sv = expand_dims(astype(s.s, s.u.dtype(), loc), -2, loc);  // [..., 1, k]: scales columns
  auto adj = [&](const Array& x) { return conj(matrix_transpose(x, loc), loc); };
  Array u = matmul(s.u, s.vt, loc);
  Array p = side == "right" ? matmul(adj(s.vt) * sv, s.vt, loc) : matmul(s.u * sv, adj(s.u), loc);
  return {u, p};
}

}  // namespace strata::linalg
