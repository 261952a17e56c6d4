// strata/linalg_tridiagonal.h: tridiagonal_solve (gtsv as two scans inside a
// custom_linear_solve) and eigh_tridiagonal (JAX's Sturm bisection and inverse iteration).
#include "strata/linalg_tridiagonal.h"

#include <cmath>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/custom_solve.h"
#include "strata/indexing.h"
#include "strata/random.h"
#include "strata/selection.h"
#include "strata/vmap.h"

namespace strata::linalg {
namespace {

using C3 = std::tuple<Array, Array, Array>;
using X4 = std::tuple<Array, Array, Array, Array>;

// Rows 1.. of v (the part a scan over the rows after the first reads).
Array rest(const Array& v) { return v[Slice(1, none)]; }

// LAPACK's gtsv on one system: dl, d, du [m], b [m, n]. Going down, the pending row (its entries
// in columns i and i+1, and its right-hand side) meets row i+1; the one with the larger entry in
// column i becomes row i of U (up to three entries), the other minus a multiple of it is the
// next pending row. Then back substitution with U's three diagonals.
Array gtsv(const Array& dl, const Array& d, const Array& du, const Array& b, bool perturb) {
  const int64_t m = d.shape()[0];
  if (m == 0) return b;
  const DType t = d.dtype();
  const DType rt = real_dtype(t);
  const Array zero = zeros({}, t);
  Array size = max(stack({max(abs(dl)), max(abs(d)), max(abs(du))}));  // max|A|
  Array floor = astype(size * finfo(rt).eps, rt);
  // A pivot below eps·max|A| (perturb_singular) becomes that size, with its sign (phase).
  auto pivot = [&](const Array& p) {
    if (!perturb) return p;
    Array mag = abs(p);
    Array unit = where(mag == 0.0, ones({}, t), p / astype(where(mag == 0.0, ones({}, rt), mag), t));
    return where(mag < floor, unit * astype(floor, t), p);
  };
  Array u0_last, y_last;
  Array u0s, u1s, u2s, ys;
  if (m == 1) {
    u0_last = pivot(d[0]);
    y_last = b[0];
  } else {
    auto down = [&](const C3& c, const X4& next) {
      const auto& [pd, pdu, pb] = c;
      const auto& [l, dd, u, bb] = next;
      Array swap = abs(pd) < abs(l);
      // The kept row (U's row i) and the other one, in columns i, i+1, i+2 and the right side.
      Array k0 = pivot(where(swap, l, pd)), k1 = where(swap, dd, pdu), k2 = where(swap, u, zero);
      Array o0 = where(swap, pd, l), o1 = where(swap, pdu, dd), o2 = where(swap, zero, u);
      Array kb = where(swap, bb, pb), ob = where(swap, pb, bb);
      Array f = o0 / k0;
      return std::make_pair(C3{o1 - f * k1, o2 - f * k2, ob - f * kb}, X4{k0, k1, k2, kb});
    };
    auto [last, u] = scan(down, C3{d[0], du[0], b[0]}, X4{rest(dl), rest(d), rest(du), rest(b)});
    u0_last = pivot(std::get<0>(last));
    y_last = std::get<2>(last);
    std::tie(u0s, u1s, u2s, ys) = u;
  }
  Array x_last = y_last / u0_last;
  if (m == 1) return expand_dims(x_last, 0);
  // Up: x_i = (y_i − U1_i x_{i+1} − U2_i x_{i+2}) / U0_i.
  auto up = [](const std::pair<Array, Array>& c, const X4& row) {
    const auto& [x1, x2] = c;
    const auto& [u0, u1, u2, y] = row;
    Array x = (y - u1 * x1 - u2 * x2) / u0;
    return std::make_pair(std::make_pair(x, x1), x);
  };
  auto [c, xs] = scan(up, std::make_pair(x_last, zeros_like(x_last)), X4{u0s, u1s, u2s, ys}, {.reverse = true});
  return concatenate({xs, expand_dims(x_last, 0)}, 0);
}

// A x for the tridiagonal A (x [m, n]).
Array tridiagonal_matvec(const Array& dl, const Array& d, const Array& du, const Array& x) {
  const int64_t m = d.shape()[0];
  if (m < 2) return expand_dims(d, 1) * x;
  Array zrow = zeros_like(x[Slice(0, 1)]);
  Array below = concatenate({zrow, x[Slice(0, m - 1)]}, 0);  // x[i−1]
  Array above = concatenate({x[Slice(1, none)], zrow}, 0);   // x[i+1]
  return expand_dims(dl, 1) * below + expand_dims(d, 1) * x + expand_dims(du, 1) * above;
}

// One system, differentiated from A X = B: Aᵀ has lower diagonal du shifted down one and upper
// diagonal dl shifted up one.
Array solve_one(const Array& dl, const Array& d, const Array& du, const Array& b, bool perturb) {
  const int64_t m = d.shape()[0];
  if (m == 0) return b;
  Array z = zeros({1}, d.dtype());
  Array dl_t = m > 1 ? concatenate({z, du[Slice(0, m - 1)]}, 0) : z;
  Array du_t = m > 1 ? concatenate({dl[Slice(1, none)], z}, 0) : z;
  auto matvec = [&](const Array& x) { return tridiagonal_matvec(dl, d, du, x); };
  auto solve = [&](const auto&, const Array& r) { return gtsv(dl, d, du, r, perturb); };
  auto transpose_solve = [&](const auto&, const Array& r) { return gtsv(dl_t, d, du_t, r, perturb); };
  return custom_linear_solve(matvec, b, solve, transpose_solve);
}

Array solve_batched(const Array& dl, const Array& d, const Array& du, const Array& b, bool perturb) {
  if (d.ndim() == 1) return solve_one(dl, d, du, b, perturb);
  return vmap([perturb](const Array& l, const Array& m, const Array& u, const Array& r) {
    return solve_batched(l, m, u, r, perturb);
  })(dl, d, du, b);
}

}  // namespace

Array tridiagonal_solve(const Array& dl, const Array& d, const Array& du, const Array& b, bool perturb_singular,
                        SourceLocation loc) {
  const AbstractValue& av = api::aval(d, "tridiagonal_solve");
  for (const Array* v : {&dl, &du}) {
    const AbstractValue& o = api::aval(*v, "tridiagonal_solve");
    if (o.shape != av.shape || o.dtype != av.dtype)
      throw ShapeError("tridiagonal_solve: dl, d and du must share a shape and dtype, but got " +
                       api::aval(dl, "tridiagonal_solve").str() + ", " + av.str() + " and " +
                       api::aval(du, "tridiagonal_solve").str());
  }
  const AbstractValue& bv = api::aval(b, "tridiagonal_solve");
  if (!is_inexact(av.dtype))
    throw DTypeError("tridiagonal_solve: expects float or complex diagonals, but got " + av.str());
  if (av.shape.empty())
    throw ShapeError("tridiagonal_solve: expects diagonals [..., m], but got " + av.str());
  Shape want = av.shape;
  if (bv.shape.size() != want.size() + 1 || !std::equal(want.begin(), want.end(), bv.shape.begin()))
    throw ShapeError("tridiagonal_solve: expects b [..., m, n] with the diagonals' " + av.str() +
                     " leading dimensions, but got " + bv.str());
  if (bv.dtype != av.dtype)
    throw DTypeError("tridiagonal_solve: b must have the diagonals' dtype " + std::string(short_name(av.dtype)) +
                     ", but got " + bv.str());
  (void)loc;
  return solve_batched(dl, d, du, b, perturb_singular);
}

namespace {

// JAX's eigh_tridiagonal set-up: the real diagonal, |e|², and the bisection's bounds.
struct Sturm {
  Array alpha, beta, beta_sq, beta_abs;
  DType rt;
  FInfo fi;
};

Sturm sturm_inputs(const Array& d, const Array& e, const char* who) {
  const AbstractValue &dv = api::aval(d, who), &ev = api::aval(e, who);
  if (dv.dtype != ev.dtype)
    throw DTypeError(std::string(who) + ": the diagonal and off-diagonal must have the same dtype, but got " + dv.str() +
                     " and " + ev.str());
  if (dv.dtype != DType::f32 && dv.dtype != DType::f64 && dv.dtype != DType::c64 && dv.dtype != DType::c128)
    throw DTypeError(std::string(who) + ": expects f32, f64, c64 or c128, but got " + dv.str());
  if (dv.shape.size() != 1 || ev.shape.size() != 1 || ev.shape[0] != std::max<int64_t>(dv.shape[0] - 1, 0))
    throw ShapeError(std::string(who) + ": expects d [n] and e [n-1], but got " + dv.str() + " and " + ev.str());
  Sturm s;
  s.beta = e;
  if (is_complex(dv.dtype)) {
    s.alpha = real(d);
    s.beta_sq = real(e * conj(e));
    s.beta_abs = sqrt(s.beta_sq);
  } else {
    s.alpha = d;
    s.beta_abs = abs(e);
    s.beta_sq = e * e;
  }
  s.rt = s.alpha.dtype();
  s.fi = finfo(s.rt);
  return s;
}

// How many eigenvalues lie below each of x [k] (the Sturm sequence's negative pivots).
Array sturm_count(const Sturm& s, const Array& pivmin, const Array& alpha0_perturbation, const Array& x) {
  Array q = s.alpha[0] - x;
  Array count = astype(q < 0.0, DType::i32);
  q = where(s.alpha[0] == x, alpha0_perturbation, q);
  if (s.alpha.shape()[0] == 1) return count;
  auto step = [&](const std::pair<Array, Array>& c, const std::pair<Array, Array>& ab) {
    const auto& [qq, cnt] = c;
    Array q1 = ab.first - ab.second / qq - x;
    Array small = q1 <= pivmin;
    return std::make_pair(std::make_pair(where(small, minimum(q1, -pivmin), q1), cnt + astype(small, DType::i32)),
                          std::tuple<>{});
  };
  auto [c, unused] = scan(step, std::make_pair(q, count), std::make_pair(s.alpha[Slice(1, none)], s.beta_sq));
  (void)unused;
  return c.second;
}

Array bisect(const Sturm& s, const std::string& select, std::optional<std::pair<int64_t, int64_t>> range,
             std::optional<double> tol, const char* who) {
  const int64_t n = s.alpha.shape()[0];
  Array targets;
  if (select == "a") {
    targets = arange(n, DType::i32);
  } else if (select == "i") {
    if (!range) throw ValueError(std::string(who) + ": for select=\"i\", select_range must be given");
    if (range->first > range->second) throw ValueError(std::string(who) + ": got an empty index range in select_range");
    if (range->first < 0 || range->second >= n)
      throw ValueError(std::string(who) + ": select_range [" + std::to_string(range->first) + ", " +
                       std::to_string(range->second) + "] is outside the " + std::to_string(n) + " eigenvalues");
    targets = arange(static_cast<double>(range->first), static_cast<double>(range->second + 1), 1.0, DType::i32);
  } else if (select == "v") {
    throw ValueError(std::string(who) + ": select=\"v\" is not implemented (its result's size depends on the values; "
                     "JAX does not implement it either)");
  } else {
    throw ValueError(std::string(who) + ": select must be \"a\", \"i\" or \"v\", but got \"" + select + "\"");
  }
  const int64_t k = targets.shape()[0];
  auto c = [&](double v) { return full({}, v, s.rt); };
  // Gershgorin bounds of the spectrum, widened a little.
  Array z1 = zeros({1}, s.rt);
  Array row_sum = n == 1 ? z1
                         : concatenate({s.beta_abs[Slice(0, 1)], n > 2 ? s.beta_abs[Slice(0, n - 2)] + s.beta_abs[Slice(1, none)] : zeros({0}, s.rt),
                                        s.beta_abs[Slice(n - 2, n - 1)]},
                                       0);
  Array est_max = max(s.alpha + row_sum), est_min = min(s.alpha - row_sum);
  Array t_norm = maximum(abs(est_min), abs(est_max));
  const double safemin = std::max(1.0 / s.fi.max, (1.0 + s.fi.eps) * s.fi.tiny);
  Array pivmin = c(safemin) * maximum(c(1.0), n > 1 ? max(s.beta_sq) : c(0.0));
  Array alpha0_perturbation = n > 1 ? square(c(s.fi.eps) * s.beta_abs[0]) : c(0.0);
  Array abs_tol = c(s.fi.eps) * t_norm;
  if (tol) abs_tol = maximum(c(*tol), abs_tol);
  const int64_t max_it = s.fi.nmant + 1;
  const double fudge = 2.1;
  Array norm_slack = c(static_cast<double>(n) * fudge * s.fi.eps) * t_norm;
  Array lower = broadcast_to(est_min - norm_slack - c(2 * fudge) * pivmin, {k});
  Array upper = broadcast_to(est_max + norm_slack + c(fudge) * pivmin, {k});
  Array mid = (lower + upper) * 0.5;
  Array piv_k = broadcast_to(pivmin, {k}), pert_k = broadcast_to(alpha0_perturbation, {k});
  using L = std::tuple<Array, Array, Array, Array>;
  L out = while_loop(
      [&](const L& st) { return logical_and(std::get<0>(st) < full({}, static_cast<double>(max_it), DType::i32), abs_tol < max(std::get<3>(st) - std::get<1>(st))); },
      [&](const L& st) {
        const auto& [i, lo, md, hi] = st;
        Array counts = sturm_count(s, piv_k, pert_k, md);
        Array lo1 = where(counts <= targets, md, lo), hi1 = where(counts > targets, md, hi);
        return L{i + 1, lo1, (lo1 + hi1) * 0.5, hi1};
      },
      L{zeros({}, DType::i32), lower, mid, upper});
  return std::get<2>(out);
}

// JAX's inverse iteration for the eigenvectors of eigenvalues w [k] (ascending): [k, n] rows.
Array inverse_iteration(const Sturm& s, const Array& d, const Array& w, const Array& key) {
  const int64_t n = s.alpha.shape()[0], k = w.shape()[0];
  const DType t = d.dtype();
  Array dl = pad(conj(s.beta), {{1, 0}}), du = pad(s.beta, {{0, 1}});
  // Clusters of eigenvalues closer than sqrt(eps)·‖T‖: their vectors are orthonormalised together.
  Array gap = w[Slice(1, none)] - w[Slice(0, k - 1)];
  Array t_norm = maximum(abs(w[0]), abs(w[k - 1]));
  Array close = gap < full({}, std::sqrt(s.fi.eps), s.rt) * t_norm;
  Array left = pad(close, {{1, 0}}), right = pad(close, {{0, 1}});
  Array starts_flag = logical_and(logical_not(left), right), ends_flag = logical_and(left, logical_not(right));
  const int64_t max_clusters = k / 2 + 1;
  Array starts = nonzero(starts_flag, max_clusters)[0], ends = nonzero(ends_flag, max_clusters)[0] + 1;
  Array num_clusters = sum(astype(starts_flag, DType::i32));
  Array arange_k = arange(k, DType::i32);
  auto row_norms = [](const Array& m) { return sqrt(sum(square(abs(m)), {1}, true)); };  // [k, 1]
  Array v = astype(random::normal(key, {k, n}, s.rt), t);
  v = v / astype(row_norms(v), t);

  auto orthogonalize = [&](const Array& ev) {
    using O = std::pair<Array, Array>;
    O r = while_loop([&](const O& o) { return o.first < num_clusters; },
                     [&](const O& o) {
                       const auto& [i, e] = o;
                       Array start = starts[i], end = ends[i];
                       Array padded = pad(e, {{0, k}, {0, 0}});
                       Array block = dynamic_slice(padded, {start, zeros({}, DType::i32)}, {k, n});
                       Array mask = astype(arange_k < end - start, t);
                       Array q = qr(transpose(block * expand_dims(mask, 1))).q;  // [n, k]
                       Array qt = transpose(q) * expand_dims(mask, 1);
                       Array big = dynamic_update_slice(zeros({2 * k, n}, t), qt, {start, zeros({}, DType::i32)});
                       Array in_cluster = logical_and(arange_k >= start, arange_k < end);
                       return O{i + 1, where(expand_dims(in_cluster, 1), big[Slice(0, k)], e)};
                     },
                     O{zeros({}, DType::i32), ev});
    return r.second;
  };

  Array shifted = astype(expand_dims(s.alpha, 0) - expand_dims(w, 1), t);  // [k, n]
  Array dl_k = broadcast_to(expand_dims(dl, 0), {k, n}), du_k = broadcast_to(expand_dims(du, 0), {k, n});
  using S = std::tuple<Array, Array, Array, Array>;  // step, v, ‖v‖, previous ‖v‖
  S out = while_loop(
      [&](const S& st) {
        const auto& [i, vv, nrm, old] = st;
        return logical_and(i < 5, any(nrm >= old * 1.1));
      },
      [&](const S& st) {
        const auto& [i, vv, nrm, old] = st;
        Array x = squeeze(tridiagonal_solve(dl_k, shifted, du_k, expand_dims(vv, 2), true), {2});
        Array nx = row_norms(x);
        x = orthogonalize(x / astype(nx, t));
        return S{i + 1, x, squeeze(nx, {1}), nrm};
      },
      S{zeros({}, DType::i32), v, ones({k}, s.rt), zeros({k}, s.rt)});
  return std::get<1>(out);
}

}  // namespace

Array eigvalsh_tridiagonal(const Array& d, const Array& e, const std::string& select,
                           std::optional<std::pair<int64_t, int64_t>> select_range, std::optional<double> tol,
                           SourceLocation) {
  Sturm s = sturm_inputs(d, e, "eigvalsh_tridiagonal");
  if (s.alpha.shape()[0] <= 1) return s.alpha;
  return bisect(s, select, select_range, tol, "eigvalsh_tridiagonal");
}

EighResult eigh_tridiagonal(const Array& d, const Array& e, const std::string& select,
                            std::optional<std::pair<int64_t, int64_t>> select_range, std::optional<double> tol,
                            std::optional<Array> key, SourceLocation) {
  Sturm s = sturm_inputs(d, e, "eigh_tridiagonal");
  const int64_t n = s.alpha.shape()[0];
  if (n <= 1) return {s.alpha, eye(n, n, 0, d.dtype())};
  Array w = bisect(s, select, select_range, tol, "eigh_tridiagonal");
  Array v = inverse_iteration(s, d, w, key ? *key : random::key(42));
  return {w, transpose(v)};
}

}  // namespace strata::linalg
