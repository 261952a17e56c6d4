// strata/optimize.h — jax.scipy.optimize in namespace st::optimize: minimize by BFGS, and the
// strong-Wolfe line search it uses (scipy's line_search_wolfe2, as JAX ports it: a bracketing
// phase, then a zoom by cubic, quadratic or bisection steps).
//
//   auto rosen = [](const st::Array& x) {
//     return st::sum(100.0 * st::square(x[{st::Slice(1)}] - st::square(x[{st::Slice(0, -1)}])) +
//                    st::square(1.0 - x[{st::Slice(0, -1)}]));
//   };
//   st::optimize::OptimizeResults r = st::optimize::minimize(rosen, x0);   // "BFGS"
//   // r.x, r.fun, r.jac, r.hess_inv, r.nit, r.success, r.status
//
// Everything is JAX's algorithm step for step (with one fix, of the zoom's failure test; see
// detail::zoom), so its iterates, evaluations and status are JAX's: the iterations are while_loops over the state
// (nested for the line search and its zoom), the gradients are st::value_and_grad of `fun`, so
// minimize traces: it runs eagerly, under jit (`fun` may close over traced values) and under
// vmap (a batch of starting points, each stepping until its own convergence). As in JAX, the
// while loops are not reverse-differentiable.
#pragma once

#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/errors.h"
#include "strata/grad.h"
#include "strata/indexing.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/shape.h"
#include "strata/selection.h"
#include "strata/statistics.h"

namespace strata::optimize {

// scipy's OptimizeResult as JAX returns it: the solution x, whether it converged without a
// failed line search (`success`), `status` (0 converged, 1 maxiter reached, 2 + the line
// search's status when it failed: 3 no step satisfying the Wolfe conditions, 5 its maxiter),
// f and its gradient at x, the final inverse-Hessian estimate, the evaluations of f and of its
// gradient, and the iterations.
struct OptimizeResults {
  Array x, success, status, fun, jac, hess_inv, nfev, njev, nit;
};
STRATA_PYTREE(OptimizeResults, x, success, status, fun, jac, hess_inv, nfev, njev, nit);

// minimize's options for BFGS: at most `maxiter` iterations (200 per variable by default);
// converged when the gradient's `norm`-norm (inf: the largest |g_i|) is below gtol; at most
// line_search_maxiter bracketing steps per line search.
struct MinimizeOptions {
  std::optional<int64_t> maxiter = std::nullopt;
  double norm = INFINITY;
  double gtol = 1e-5;
  int line_search_maxiter = 10;
  // L-BFGS only (JAX's _minimize_lbfgs): the pairs of history kept, the decrease of f below
  // which it stops (status 4), limits on the evaluations of f and of its gradient (status 2, 3;
  // with any limit given maxiter defaults to none), and the line search's steps.
  int maxcor = 10;
  double ftol = 2.220446049250313e-09;
  std::optional<int64_t> maxfun = std::nullopt, maxgrad = std::nullopt;
  int maxls = 20;
};

// What line_search returns: whether it failed (no step met the strong Wolfe conditions), its
// iterations, evaluations, the step a_k with f and the gradient there, and the status (0 ok,
// 1 the zoom failed, 3 maxiter).
struct LineSearchResults {
  Array failed, nit, nfev, ngev, k, a_k, f_k, g_k, status;
};
STRATA_PYTREE(LineSearchResults, failed, nit, nfev, ngev, k, a_k, f_k, g_k, status);

namespace detail {

// One evaluation along the search line: phi(t) = f(xk + t pk), phi'(t) = g · pk, and g.
struct LinePoint {
  Array phi, dphi, g;
};

// _ZoomState: the bracket [a_lo, a_hi] (with phi and phi' at each end), the previous a_hi for
// the cubic step (a_rec), and the best point found.
struct ZoomState {
  Array done, failed, j, a_lo, phi_lo, dphi_lo, a_hi, phi_hi, dphi_hi, a_rec, phi_rec, a_star, phi_star, dphi_star,
      g_star, nfev, ngev;
};
STRATA_PYTREE(ZoomState, done, failed, j, a_lo, phi_lo, dphi_lo, a_hi, phi_hi, dphi_hi, a_rec, phi_rec, a_star,
              phi_star, dphi_star, g_star, nfev, ngev);

struct SearchState {
  Array done, failed, i, a_i1, phi_i1, dphi_i1, nfev, ngev, a_star, phi_star, dphi_star, g_star;
};
STRATA_PYTREE(SearchState, done, failed, i, a_i1, phi_i1, dphi_i1, nfev, ngev, a_star, phi_star, dphi_star, g_star);

struct LbfgsState {
  Array converged, failed, k, nfev, ngev, x_k, f_k, g_k, s_history, y_history, rho_history, gamma, status, ls_status;
};
STRATA_PYTREE(LbfgsState, converged, failed, k, nfev, ngev, x_k, f_k, g_k, s_history, y_history, rho_history, gamma, status,
              ls_status);

struct BfgsState {
  Array converged, failed, k, nfev, ngev, x_k, f_k, g_k, h_k, old_old_fval, line_search_status;
};
STRATA_PYTREE(BfgsState, converged, failed, k, nfev, ngev, x_k, f_k, g_k, h_k, old_old_fval, line_search_status);

inline Array i32(int64_t v) { return astype(Array(v), DType::i32); }
inline Array flag(bool v) { return astype(Array(v), DType::bool_); }
inline Array like(double v, const Array& x) { return astype(Array(v), x.dtype()); }

// The minimiser of the cubic through (a, fa) with slope fpa at a, (b, fb) and (c, fc).
inline Array cubicmin(const Array& a, const Array& fa, const Array& fpa, const Array& b, const Array& fb,
                      const Array& c, const Array& fc) {
  Array db = b - a, dc = c - a;
  Array denom = square(db * dc) * (db - dc);
  Array r1 = fb - fa - fpa * db, r2 = fc - fa - fpa * dc;
  Array A = (square(dc) * r1 - square(db) * r2) / denom;
  Array B = (-(dc * dc * dc) * r1 + db * db * db * r2) / denom;
  Array radical = B * B - 3.0 * A * fpa;
  return a + (-B + sqrt(radical)) / (3.0 * A);
}

// The minimiser of the quadratic through (a, fa) with slope fpa at a, and (b, fb).
inline Array quadmin(const Array& a, const Array& fa, const Array& fpa, const Array& b, const Array& fb) {
  Array db = b - a;
  Array B = (fb - fa - fpa * db) / square(db);
  return a - fpa / (2.0 * B);
}

// JAX's _zoom: narrows [a_lo, a_hi] until a point meets both Wolfe conditions (at most 30
// steps, or until the bracket is below the dtype's resolution); no steps when pass_through.
template <class Eval, class W1, class W2>
ZoomState zoom(const Eval& eval, const W1& wolfe_one, const W2& wolfe_two, const LinePoint& lo, const Array& a_lo,
               const LinePoint& hi, const Array& a_hi, const Array& g_0, const Array& pass_through) {
  ZoomState init{flag(false), flag(false), i32(0), a_lo, lo.phi, lo.dphi, a_hi, hi.phi, hi.dphi, (a_lo + a_hi) / 2.0,
                 (lo.phi + hi.phi) / 2.0, like(1.0, a_lo), lo.phi, lo.dphi, g_0, i32(0), i32(0)};
  // The search fails when the bracket is narrower than the dtype can resolve at its ends.
  // (JAX 0.10 compares the signed width a_hi - a_lo with 1e-5 / 1e-10: a zoom entered with
  // a_lo > a_hi — every second-phase zoom — failed at once, and BFGS stopped on Rosenbrock's
  // function with status 3; this is the guard of jax-ml/jax#40228, with which it converges as
  // scipy's does.)
  const double eps = a_lo.dtype() == DType::f64 ? 2.220446049250313e-16
                     : a_lo.dtype() == DType::f32 ? 1.1920928955078125e-07
                     : a_lo.dtype() == DType::f16 ? 9.765625e-04 : 7.8125e-03;
  auto body = [=](const ZoomState& s0) {
    ZoomState s = s0;
    Array dalpha = s.a_hi - s.a_lo;
    Array a = minimum(s.a_hi, s.a_lo), b = maximum(s.a_hi, s.a_lo);
    Array cchk = 0.2 * dalpha, qchk = 0.1 * dalpha;
    s.failed = s.failed | (abs(dalpha) <= eps * maximum(abs(s.a_lo), abs(s.a_hi)));
    Array cubic = cubicmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi, s.a_rec, s.phi_rec);
    Array use_cubic = (s.j > 0) & (cubic > a + cchk) & (cubic < b - cchk);
    Array quad = quadmin(s.a_lo, s.phi_lo, s.dphi_lo, s.a_hi, s.phi_hi);
    Array use_quad = ~use_cubic & (quad > a + qchk) & (quad < b - qchk);
    Array use_bisection = ~use_cubic & ~use_quad;
    Array a_j = where(use_cubic, cubic, s.a_rec);
    a_j = where(use_quad, quad, a_j);
    a_j = where(use_bisection, (s.a_lo + s.a_hi) / 2.0, a_j);
    LinePoint p = eval(a_j);
    s.nfev = s.nfev + 1;
    s.ngev = s.ngev + 1;
    Array hi_to_j = wolfe_one(a_j, p.phi) | (p.phi >= s.phi_lo);
    Array star_to_j = wolfe_two(p.dphi) & ~hi_to_j;
    Array hi_to_lo = (p.dphi * (s.a_hi - s.a_lo) >= 0.0) & ~hi_to_j & ~star_to_j;
    Array lo_to_j = ~hi_to_j & ~star_to_j;
    // The new point replaces the high end, ...
    Array a_hi_old = s.a_hi, phi_hi_old = s.phi_hi;
    s.a_hi = where(hi_to_j, a_j, s.a_hi);
    s.phi_hi = where(hi_to_j, p.phi, s.phi_hi);
    s.dphi_hi = where(hi_to_j, p.dphi, s.dphi_hi);
    s.a_rec = where(hi_to_j, a_hi_old, s.a_rec);
    s.phi_rec = where(hi_to_j, phi_hi_old, s.phi_rec);
    // ... or is the answer, ...
    s.done = star_to_j | s.done;
    s.a_star = where(star_to_j, a_j, s.a_star);
    s.phi_star = where(star_to_j, p.phi, s.phi_star);
    s.dphi_star = where(star_to_j, p.dphi, s.dphi_star);
    s.g_star = where(star_to_j, p.g, s.g_star);
    // ... or replaces the low end (the old low end becoming the high one when the slope says so).
    a_hi_old = s.a_hi;
    phi_hi_old = s.phi_hi;
    s.a_hi = where(hi_to_lo, s.a_lo, s.a_hi);
    s.phi_hi = where(hi_to_lo, s.phi_lo, s.phi_hi);
    s.dphi_hi = where(hi_to_lo, s.dphi_lo, s.dphi_hi);
    s.a_rec = where(hi_to_lo, a_hi_old, s.a_rec);
    s.phi_rec = where(hi_to_lo, phi_hi_old, s.phi_rec);
    Array lo_only = lo_to_j & ~hi_to_lo;
    s.a_rec = where(lo_only, s.a_lo, s.a_rec);
    s.phi_rec = where(lo_only, s.phi_lo, s.phi_rec);
    s.a_lo = where(lo_to_j, a_j, s.a_lo);
    s.phi_lo = where(lo_to_j, p.phi, s.phi_lo);
    s.dphi_lo = where(lo_to_j, p.dphi, s.dphi_lo);
    s.j = s.j + 1;
    s.failed = s.failed | (s.j >= 30);
    return s;
  };
  return while_loop([pass_through](const ZoomState& s) { return ~s.done & ~pass_through & ~s.failed; }, body, init);
}

}  // namespace detail

// jax.scipy.optimize's line_search: a step along pk from xk meeting the strong Wolfe conditions
// f(xk + a pk) <= f(xk) + c1 a f'(xk)·pk and |f'(xk + a pk)·pk| <= c2 |f'(xk)·pk|. old_fval and
// gfk (f and its gradient at xk) are computed when not given; old_old_fval (f at the previous
// iterate) sets the first trial step.
template <class F>
LineSearchResults line_search(F f, const Array& xk, const Array& pk, std::optional<Array> old_fval = std::nullopt,
                              std::optional<Array> old_old_fval = std::nullopt, std::optional<Array> gfk = std::nullopt,
                              double c1 = 1e-4, double c2 = 0.9, int maxiter = 20) {
  using detail::LinePoint;
  if (!is_floating(pk.dtype()) || xk.dtype() != pk.dtype())
    throw DTypeError("line_search: xk and pk must be real floats of one dtype, but got " +
                     type_string(xk.dtype(), xk.shape()) + " and " + type_string(pk.dtype(), pk.shape()));
  const DType dt = pk.dtype();
  auto eval = [f, xk, pk, dt](const Array& t) {
    auto [phi, g] = value_and_grad(f)(xk + t * pk);
    return LinePoint{astype(phi, dt), astype(sum(g * pk), dt), g};
  };
  LinePoint p0;
  bool counted = !old_fval || !gfk;
  if (counted) {
    p0 = eval(detail::like(0.0, pk));
  } else {
    p0 = LinePoint{astype(*old_fval, dt), astype(sum(*gfk * pk), dt), *gfk};
  }
  Array start = detail::like(1.0, pk);
  if (old_old_fval) {
    Array candidate = 1.01 * 2.0 * (p0.phi - astype(*old_old_fval, dt)) / p0.dphi;
    start = where(candidate > 1.0, start, candidate);
  }
  auto wolfe_one = [p0, c1](const Array& a, const Array& phi) { return phi > p0.phi + c1 * a * p0.dphi; };
  auto wolfe_two = [p0, c2](const Array& dphi) { return abs(dphi) <= -c2 * p0.dphi; };
  Array zero = detail::like(0.0, pk), n0 = detail::i32(counted ? 1 : 0);
  detail::SearchState init{detail::flag(false), detail::flag(false), detail::i32(1), zero, p0.phi, p0.dphi, n0, n0,
                           zero, p0.phi, p0.dphi, p0.g};
  auto body = [=](const detail::SearchState& s0) {
    detail::SearchState s = s0;
    Array a_i = where(s.i == 1, start, s.a_i1 * 2.0);
    LinePoint p = eval(a_i);
    s.nfev = s.nfev + 1;
    s.ngev = s.ngev + 1;
    Array to_zoom1 = wolfe_one(a_i, p.phi) | ((p.phi >= s.phi_i1) & (s.i > 1));
    Array to_i = wolfe_two(p.dphi) & ~to_zoom1;
    Array to_zoom2 = (p.dphi >= 0.0) & ~to_zoom1 & ~to_i;
    LinePoint prev{s.phi_i1, s.dphi_i1, p0.g};
    detail::ZoomState z1 = detail::zoom(eval, wolfe_one, wolfe_two, prev, s.a_i1, p, a_i, p0.g, ~to_zoom1);
    s.nfev = s.nfev + z1.nfev;
    s.ngev = s.ngev + z1.ngev;
    detail::ZoomState z2 = detail::zoom(eval, wolfe_one, wolfe_two, p, a_i, prev, s.a_i1, p0.g, ~to_zoom2);
    s.nfev = s.nfev + z2.nfev;
    s.ngev = s.ngev + z2.ngev;
    auto take = [&s](const Array& bit, const Array& a, const Array& phi, const Array& dphi, const Array& g) {
      s.a_star = where(bit, a, s.a_star);
      s.phi_star = where(bit, phi, s.phi_star);
      s.dphi_star = where(bit, dphi, s.dphi_star);
      s.g_star = where(bit, g, s.g_star);
    };
    s.done = to_zoom1 | s.done;
    s.failed = (to_zoom1 & z1.failed) | s.failed;
    take(to_zoom1, z1.a_star, z1.phi_star, z1.dphi_star, z1.g_star);
    s.done = to_i | s.done;
    take(to_i, a_i, p.phi, p.dphi, p.g);
    s.done = to_zoom2 | s.done;
    s.failed = (to_zoom2 & z2.failed) | s.failed;
    take(to_zoom2, z2.a_star, z2.phi_star, z2.dphi_star, z2.g_star);
    s.i = s.i + 1;
    s.a_i1 = a_i;
    s.phi_i1 = p.phi;
    s.dphi_i1 = p.dphi;
    return s;
  };
  detail::SearchState s =
      while_loop([maxiter](const detail::SearchState& s) { return ~s.done & (s.i <= maxiter) & ~s.failed; }, body, init);
  Array status = where(s.failed, detail::i32(1), where(s.i > maxiter, detail::i32(3), detail::i32(0)));
  Array a_k = s.a_star;
  // Below 64 bits a vanishing step becomes ±1e-8 (JAX's guard against a stalled f32 search).
  if (dt != DType::f64) a_k = where(abs(a_k) < 1e-8, sign(a_k) * 1e-8, a_k);
  return LineSearchResults{s.failed | ~s.done, s.i - 1, s.nfev, s.ngev, s.i, a_k, s.phi_star, s.g_star, status};
}

namespace detail {
// The `ord`-norm of a vector: inf the largest |v_i|, -inf the smallest, else (Σ|v_i|^ord)^(1/ord).
inline Array vector_norm(const Array& v, double ord) {
  if (std::isinf(ord)) return ord > 0 ? max(abs(v)) : min(abs(v));
  if (ord == 2) return sqrt(sum(square(v)));
  return power(sum(power(abs(v), ord)), 1.0 / ord);
}
}  // namespace detail

namespace detail {
// L-BFGS's search direction -H g from the history (JAX's _two_loop_recursion): the newest
// `used` pairs sit at the end of the [maxcor, d] histories.
inline Array two_loop_recursion(const LbfgsState& s) {
  const int64_t m = s.rho_history.shape(0);
  Array used = where(s.k < m, s.k, i32(m));
  Array a_his = zeros_like(s.rho_history);
  auto first = [&](const Array& j, const std::pair<Array, Array>& c) {
    Array i = i32(m - 1) - j;
    Array a_i = s.rho_history[i] * sum(s.s_history[i] * c.first);
    return std::make_pair(c.first - a_i * s.y_history[i], c.second.at(i).set(a_i));
  };
  auto [q, a] = fori_loop(i32(0), used, first, std::make_pair(-s.g_k, a_his));
  q = s.gamma * q;
  auto second = [&, a = a](const Array& j, const Array& qq) {
    Array i = i32(m) - used + j;
    Array b_i = s.rho_history[i] * sum(s.y_history[i] * qq);
    return qq + (a[i] - b_i) * s.s_history[i];
  };
  return fori_loop(i32(0), used, second, q);
}

// The history with its oldest row dropped and `row` appended.
inline Array push_history(const Array& history, const Array& row) {
  Array rolled = roll(history, -1, 0);
  return rolled.at(i32(history.shape(0) - 1)).set(row);
}

template <class F>
OptimizeResults minimize_lbfgs(F fun, const Array& x0, const MinimizeOptions& o) {
  const int64_t d = x0.shape(0);
  const DType dt = x0.dtype();
  const bool unlimited = !o.maxiter && !o.maxfun && !o.maxgrad;
  const int64_t never = std::numeric_limits<int32_t>::max();
  const int64_t maxiter = o.maxiter.value_or(unlimited ? 200 * d : never);
  const int64_t maxfun = o.maxfun.value_or(never), maxgrad = o.maxgrad.value_or(never);
  auto [f0, g0] = value_and_grad(fun)(x0);
  LbfgsState init{flag(false), flag(false), i32(0), i32(1), i32(1), x0, astype(f0, dt), g0, zeros({o.maxcor, d}, dt),
                  zeros({o.maxcor, d}, dt), zeros({o.maxcor}, dt), like(1.0, x0), i32(0), i32(0)};
  const double ord = o.norm, gtol = o.gtol, ftol = o.ftol;
  const int maxls = o.maxls;
  auto body = [=](const LbfgsState& s0) {
    LbfgsState s = s0;
    Array p_k = two_loop_recursion(s);
    LineSearchResults ls = line_search(fun, s.x_k, p_k, s.f_k, std::nullopt, s.g_k, 1e-4, 0.9, maxls);
    Array s_k = ls.a_k * p_k;
    Array y_k = ls.g_k - s.g_k;
    Array rho_inv = sum(y_k * s_k);
    Array gamma = rho_inv / sum(y_k * y_k);
    Array status = i32(0);
    status = where(s.f_k - ls.f_k < ftol, i32(4), status);
    status = where(s.ngev >= maxgrad, i32(3), status);
    status = where(s.nfev >= maxfun, i32(2), status);
    status = where(s.k >= maxiter, i32(1), status);
    status = where(ls.failed, i32(5), status);
    Array converged = vector_norm(ls.g_k, ord) < gtol;
    s.converged = converged;
    s.failed = (status > 0) & ~converged;
    s.k = s.k + 1;
    s.nfev = s.nfev + ls.nfev;
    s.ngev = s.ngev + ls.ngev;
    s.x_k = s.x_k + s_k;
    s.f_k = ls.f_k;
    s.g_k = ls.g_k;
    s.s_history = push_history(s.s_history, s_k);
    s.y_history = push_history(s.y_history, y_k);
    s.rho_history = push_history(s.rho_history, 1.0 / rho_inv);
    s.gamma = gamma;
    s.status = where(converged, i32(0), status);
    s.ls_status = ls.status;
    return s;
  };
  LbfgsState s = while_loop([](const LbfgsState& s) { return ~s.converged & ~s.failed; }, body, init);
  // No inverse Hessian (JAX returns None): an empty [0, 0] array.
  return OptimizeResults{s.x_k, s.converged & ~s.failed, s.status, s.f_k, s.g_k, zeros({0, 0}, dt), s.nfev, s.ngev, s.k};
}
}  // namespace detail

// jax.scipy.optimize.minimize: the minimum of fun (a scalar function of a 1-d float x) from x0.
// method "BFGS" (case-insensitive), or JAX's "l-bfgs-experimental-do-not-rely-on-this" (also
// "l-bfgs"): limited-memory BFGS, whose status is 0 converged, 1 maxiter, 2 maxfun, 3 maxgrad,
// 4 f decreased by less than ftol, 5 the line search failed, and whose hess_inv is empty.
// `tol`, when given, is the gradient tolerance (scipy's meaning for BFGS; JAX ignores it).
template <class F>
OptimizeResults minimize(F fun, const Array& x0, const std::string& method = "BFGS", std::optional<double> tol = std::nullopt,
                         MinimizeOptions options = {}) {
  std::string m = method;
  for (char& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool lbfgs = m == "l-bfgs-experimental-do-not-rely-on-this" || m == "l-bfgs";
  if (m != "bfgs" && !lbfgs)
    throw ValueError("minimize: method \"" + method + "\" is not supported (BFGS, or l-bfgs-experimental-do-not-rely-on-this)");
  if (x0.ndim() != 1) throw ShapeError("minimize: x0 must be one-dimensional, but got " + type_string(x0.dtype(), x0.shape()));
  if (!is_floating(x0.dtype())) throw DTypeError("minimize: x0 must be a real float array, but got " + type_string(x0.dtype(), x0.shape()));
  if (tol) options.gtol = *tol;
  if (lbfgs) {
    if (options.maxcor < 1) throw ValueError("minimize: maxcor must be positive, but got " + std::to_string(options.maxcor));
    return detail::minimize_lbfgs(fun, x0, options);
  }
  const int64_t d = x0.shape(0);
  const int64_t maxiter = options.maxiter.value_or(200 * d);
  const DType dt = x0.dtype();
  auto [f0, g0] = value_and_grad(fun)(x0);
  f0 = astype(f0, dt);
  using detail::BfgsState;
  BfgsState init{detail::vector_norm(g0, options.norm) < options.gtol, detail::flag(false), detail::i32(0), detail::i32(1),
                 detail::i32(1), x0, f0, g0, eye(d, -1, 0, dt), f0 + sqrt(sum(square(g0))) / 2.0, detail::i32(0)};
  const int ls_maxiter = options.line_search_maxiter;
  const double ord = options.norm, gtol = options.gtol;
  auto body = [fun, d, dt, ls_maxiter, ord, gtol](const BfgsState& s0) {
    BfgsState s = s0;
    Array p_k = -matmul(s.h_k, s.g_k);
    LineSearchResults ls = line_search(fun, s.x_k, p_k, s.f_k, s.old_old_fval, s.g_k, 1e-4, 0.9, ls_maxiter);
    s.nfev = s.nfev + ls.nfev;
    s.ngev = s.ngev + ls.ngev;
    s.failed = ls.failed;
    s.line_search_status = ls.status;
    Array s_k = ls.a_k * p_k;
    Array y_k = ls.g_k - s.g_k;
    Array rho = 1.0 / sum(y_k * s_k);
    // H ← (I - ρ s yᵀ) H (I - ρ y sᵀ) + ρ s sᵀ, kept when ρ is not finite (yᵀs = 0).
    Array w = eye(d, -1, 0, dt) - rho * outer(s_k, y_k);
    Array h = matmul(matmul(w, s.h_k), transpose(w)) + rho * outer(s_k, s_k);
    s.h_k = where(is_finite(rho), h, s.h_k);
    s.converged = detail::vector_norm(ls.g_k, ord) < gtol;
    s.k = s.k + 1;
    s.x_k = s.x_k + s_k;
    s.old_old_fval = s.f_k;
    s.f_k = ls.f_k;
    s.g_k = ls.g_k;
    return s;
  };
  BfgsState s = while_loop(
      [maxiter](const BfgsState& s) { return ~s.converged & ~s.failed & (s.k < maxiter); }, body, init);
  Array status = where(s.converged, detail::i32(0),
                       where(s.k == maxiter, detail::i32(1), where(s.failed, s.line_search_status + 2, detail::i32(-1))));
  return OptimizeResults{s.x_k, s.converged & ~s.failed, status, s.f_k, s.g_k, s.h_k, s.nfev, s.ngev, s.k};
}

}  // namespace strata::optimize
