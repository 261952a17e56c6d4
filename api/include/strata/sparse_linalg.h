// strata/sparse_linalg.h — jax.scipy.sparse.linalg: the iterative solvers cg, bicgstab and
// gmres for A x = b, with A a square matrix (an Array [n, n]) or any linear function (a
// callable Array -> Array, e.g. a stencil or a matrix-free operator), b an Array of any shape.
//
//   auto [x, info] = st::sparse::linalg::cg(laplacian, b, {.tol = 1e-8});
//   auto [y, info2] = st::sparse::linalg::gmres(A, b, {.restart = 30});
//
// JAX's algorithms step for step, as while_loops (so they run under jit and vmap, and the
// operator may close over traced values); a preconditioner M (matrix or function) is optional.
// Derivatives (forward and reverse mode, under jit and vmap) come from A x = b through
// custom_linear_solve, as JAX's: with respect to b, a matrix A, and the values a function A
// captures, never through the loops.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/custom_solve.h"
#include "strata/creation.h"
#include "strata/errors.h"
#include "strata/grad.h"
#include "strata/linalg.h"
#include "strata/ops.h"
#include "strata/statistics.h"

namespace strata::sparse::linalg {

struct SolverOptions {
  double tol = 1e-5;   // stop at ‖r‖ ≤ max(tol · ‖b‖, atol)
  double atol = 0.0;
  std::optional<int64_t> maxiter;  // default 10 · b.size (scipy's)
  std::optional<Array> x0;         // default zeros
  int64_t restart = 20;            // gmres: the Krylov space's size before a restart
  std::string solve_method = "batched";  // gmres: "batched" or "incremental"
};

// The default preconditioner: none.
struct Identity {
  Array operator()(const Array& x) const { return x; }
};

namespace detail {

// An operator applied to x: a matrix [n, n] times x (over x's first axis), or the function.
template <class Op>
Array apply(const Op& a, const Array& x) {
  if constexpr (std::is_same_v<Op, Array>) {
    return tensordot(a, x, std::vector<int>{1}, std::vector<int>{0});
  } else {
    return Array(a(x));
  }
}

template <class Op>
void check_operator(const char* op, const Op& a, const Array& b) {
  if constexpr (std::is_same_v<Op, Array>) {
    const Shape s = a.shape();
    if (s.size() != 2 || s[0] != s[1])
      throw ValueError(std::string(op) + ": expects a square matrix operator, but got shape " + shape_string(s));
    if (b.ndim() < 1 || b.shape()[0] != s[1])
      throw ShapeError(std::string(op) + ": expects b [" + std::to_string(s[1]) + ", ...] for the operator " +
                       shape_string(s) + ", but got " + shape_string(b.shape()));
  }
}

// Re Σ conj(x) y over every element (JAX's _vdot_real_part); Σ conj(x) y is st::vdot.
inline Array vdot_real(const Array& x, const Array& y) {
  Array r = sum(real(x) * real(y));
  if (is_complex(x.dtype()) || is_complex(y.dtype())) r = r + sum(imag(x) * imag(y));
  return r;
}
inline Array norm(const Array& x) { return sqrt(vdot_real(x, x)); }
inline Array i32(int64_t v) { return astype(Array(v), DType::i32); }
inline Array like(const Array& v, DType t) { return astype(v, t); }

template <class Op, class M>
Array cg_solve(const Op& a, const Array& b, const Array& x0, int64_t maxiter, double tol, double atol, const M& m) {
  constexpr bool plain = std::is_same_v<M, Identity>;
  const DType t = b.dtype();
  Array atol2 = maximum(square(Array(tol)) * vdot_real(b, b), Array(atol * atol));
  Array r0 = b - apply(a, x0);
  Array z0 = apply(m, r0);
  Array gamma0 = like(vdot_real(r0, z0), t);
  using C = std::tuple<Array, Array, Array, Array, Array>;  // x, r, gamma, p, k
  C out = while_loop(
      [&](const C& c) {
        const auto& [x, r, gamma, p, k] = c;
        Array rs = plain ? real(gamma) : vdot_real(r, r);
        return logical_and(rs > atol2, k < i32(maxiter));
      },
      [&](const C& c) {
        const auto& [x, r, gamma, p, k] = c;
        Array ap = apply(a, p);
        Array alpha = gamma / like(vdot_real(p, ap), t);
        Array x_ = x + alpha * p, r_ = r - alpha * ap;
        Array z_ = apply(m, r_);
        Array gamma_ = like(vdot_real(r_, z_), t);
        Array beta = gamma_ / gamma;
        return C{x_, r_, gamma_, z_ + beta * p, k + 1};
      },
      C{x0, r0, gamma0, z0, i32(0)});
  return std::get<0>(out);
}

template <class Op, class M>
Array bicgstab_solve(const Op& a, const Array& b, const Array& x0, int64_t maxiter, double tol, double atol,
                     const M& m) {
  const DType t = b.dtype();
  Array atol2 = maximum(square(Array(tol)) * vdot_real(b, b), Array(atol * atol));
  Array r0 = b - apply(a, x0);
  Array one = like(Array(1.0), t);
  using C = std::tuple<Array, Array, Array, Array, Array, Array, Array, Array, Array>;
  // x, r, rhat, alpha, omega, rho, p, q, k (k < 0: breakdown)
  C out = while_loop(
      [&](const C& c) {
        const Array& r = std::get<1>(c);
        const Array& k = std::get<8>(c);
        return logical_and(logical_and(vdot_real(r, r) > atol2, k < i32(maxiter)), k >= 0);
      },
      [&](const C& c) {
        const auto& [x, r, rhat, alpha, omega, rho, p, q, k] = c;
        Array rho_ = vdot(rhat, r);
        Array beta = rho_ / rho * alpha / omega;
        Array p_ = r + beta * (p - omega * q);
        Array phat = apply(m, p_);
        Array q_ = apply(a, phat);
        Array alpha_ = rho_ / vdot(rhat, q_);
        Array s = r - alpha_ * q_;
        Array exit_early = vdot_real(s, s) < atol2;
        Array shat = apply(m, s);
        Array tt = apply(a, shat);
        Array omega_ = vdot(tt, s) / vdot(tt, tt);
        Array x_ = where(exit_early, x + alpha_ * phat, x + (alpha_ * phat + omega_ * shat));
        Array r_ = where(exit_early, s, s - omega_ * tt);
        Array k_ = where(logical_or(omega_ == zeros_like(omega_), alpha_ == zeros_like(alpha_)), i32(-11), k + 1);
        k_ = where(rho_ == zeros_like(rho_), i32(-10), k_);
        return C{x_, r_, rhat, alpha_, omega_, rho_, p_, q_, k_};
      },
      C{x0, r0, r0, one, one, one, r0, r0, i32(0)});
  return std::get<0>(out);
}

// x / ‖x‖ and ‖x‖, or zeros and 0 when ‖x‖ ≤ thresh (JAX's _safe_normalize).
inline std::pair<Array, Array> safe_normalize(const Array& x, std::optional<Array> thresh = std::nullopt) {
  Array n = norm(x);
  Array th = thresh ? real(*thresh) : like(Array(finfo(n.dtype()).eps), n.dtype());
  Array use = n > th;
  Array nx = where(use, x / like(n, x.dtype()), zeros_like(x));
  return {nx, where(use, n, zeros_like(n))};
}

// Column c of the last axis, and the first n columns.
inline Array column(const Array& v, const Array& c) {
  const int64_t cols = v.shape().back();
  Array onehot = astype(equal(arange(cols), c), v.dtype());
  return tensordot(v, onehot, std::vector<int>{v.ndim() - 1}, std::vector<int>{0});
}
inline Array first_columns(const Array& v, int64_t n) {
  std::vector<Index> at(static_cast<size_t>(v.ndim() - 1), Slice());
  at.push_back(Slice(0, n));
  return index(v, at);
}

// One Arnoldi step (JAX's _kth_arnoldi_iteration): column k+1 of the Krylov basis V [...,
// restart + 1] and row k of H. JAX's iterative Gram–Schmidt with max_iterations = 2 makes one
// classical pass (its loop's condition k < 1 fails after the first): h = Vᴴ v, v −= V h.
template <class Op, class M>
std::tuple<Array, Array, Array> arnoldi(const Array& k, const Op& a, const M& m, const Array& vb, const Array& h) {
  const DType t = vb.dtype();
  const int last = vb.ndim() - 1;
  const int64_t cols = vb.shape().back(), rows = h.shape()[0];
  Array v = apply(m, apply(a, column(vb, k)));
  Array v_norm0 = safe_normalize(v).second;
  std::vector<int> leading;
  for (int i = 0; i < last; ++i) leading.push_back(i);
  Array hv = tensordot(conj(vb), v, leading, leading);  // [cols]
  v = v - tensordot(vb, hv, std::vector<int>{last}, std::vector<int>{0});
  Array tol = like(Array(finfo(real_dtype(t)).eps), real_dtype(t)) * v_norm0;
  auto [unit, v_norm1] = safe_normalize(v, tol);
  Array next = astype(equal(arange(cols), k + 1), t);  // one-hot column k + 1
  Array vn = vb * (1.0 - next) + expand_dims(unit, last) * next;
  Array hrow = hv * (1.0 - next) + like(v_norm1, t) * next;
  Array rowmask = astype(equal(reshape(arange(rows), {rows, 1}), k), t);
  Array hn = h * (1.0 - rowmask) + rowmask * reshape(hrow, {1, cols});
  return {vn, hn, v_norm1 == zeros_like(v_norm1)};
}

// One restart cycle, JAX's "batched" method: the whole Arnoldi process, then y minimising
// ‖Hᵀ y − ‖r‖ e₁‖ through the normal equations, x += V[..., :-1] y.
template <class Op, class M>
std::tuple<Array, Array, Array> gmres_batched(const Op& a, const Array& b, const Array& x, const Array& unit_residual,
                                              const Array& residual_norm, int64_t restart, const M& m) {
  const DType t = b.dtype();
  const int last = b.ndim();
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(b.ndim()), {0, 0});
  widths.push_back({0, restart});
  Array v = pad(expand_dims(unit_residual, last), widths);
  Array h = eye(restart, restart + 1, 0, t);
  using C = std::tuple<Array, Array, Array, Array>;  // V, H, breakdown, k
  C out = while_loop(
      [&](const C& c) { return logical_and(std::get<3>(c) < i32(restart), logical_not(std::get<2>(c))); },
      [&](const C& c) {
        auto [vn, hn, brk] = arnoldi(std::get<3>(c), a, m, std::get<0>(c), std::get<1>(c));
        return C{vn, hn, brk, std::get<3>(c) + 1};
      },
      C{v, h, full({}, 0.0, DType::bool_), i32(0)});
  const Array& vb = std::get<0>(out);
  Array ht = transpose(std::get<1>(out));  // [restart + 1, restart]
  Array beta = like(residual_norm, t) * astype(equal(arange(restart + 1), 0), t);
  Array hth = conj(transpose(ht));
  Array y = strata::linalg::solve(matmul(hth, ht), matmul(hth, beta));
  Array xn = x + tensordot(first_columns(vb, restart), y, std::vector<int>{last}, std::vector<int>{0});
  auto [unit, rn] = safe_normalize(apply(m, b - apply(a, xn)));
  return {xn, unit, rn};
}

// v[i], v[i+1] ← (c̄ v[i] − s̄ v[i+1], s v[i] + c v[i+1]) (JAX's _rotate_vectors; i traced).
inline Array rotate_pair(const Array& v, const Array& i, const Array& cs, const Array& sn) {
  Array x1 = v[i], y1 = v[i + 1];
  return v.at(i).set(conj(cs) * x1 - conj(sn) * y1).at(i + 1).set(sn * x1 + cs * y1);
}

// The Givens rotation (cs, sn) that zeroes b against a (JAX's _givens_rotation).
inline std::pair<Array, Array> givens_rotation(const Array& a, const Array& b) {
  Array b_zero = abs(b) == zeros_like(abs(b)), a_lt_b = abs(a) < abs(b);
  Array t = -where(a_lt_b, a, b) / where(a_lt_b, b, a);
  Array r = like(rsqrt(1.0 + square(abs(t))), t.dtype());
  Array one = ones_like(t), zero = zeros_like(t);
  return {where(b_zero, one, where(a_lt_b, r * t, r)), where(b_zero, zero, where(a_lt_b, r, r * t))};
}

// One restart cycle, JAX's "incremental" method: the QR factorisation of the Hessenberg matrix
// is updated by Givens rotations as each Arnoldi step arrives, so the residual's norm is known
// at every step and the cycle stops once it is at most ptol; then one triangular solve.
template <class Op, class M>
std::tuple<Array, Array, Array> gmres_incremental(const Op& a, const Array& b, const Array& x, const Array& unit_residual,
                                                  const Array& residual_norm, const Array& ptol, int64_t restart,
                                                  const M& m) {
  const DType t = b.dtype();
  const int last = b.ndim();
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(b.ndim()), {0, 0});
  widths.push_back({0, restart});
  Array v = pad(expand_dims(unit_residual, last), widths);
  Array r = eye(restart, restart + 1, 0, t);  // rows: R's, as they are finished
  Array givens = zeros({restart, 2}, t);
  Array beta = zeros({restart + 1}, t).at(0).set(like(residual_norm, t));
  using C = std::tuple<Array, Array, Array, Array, Array, Array>;  // k, err, V, R, beta, givens
  C out = while_loop(
      [&](const C& c) { return logical_and(std::get<0>(c) < i32(restart), std::get<1>(c) > ptol); },
      [&](const C& c) {
        const auto& [k, err, vb, rr, bv, gv] = c;
        auto [vn, hn, brk] = arnoldi(k, a, m, vb, rr);
        (void)brk;
        // Row k of H through the earlier rotations, then a new one that zeroes its entry k + 1.
        using G = std::pair<Array, Array>;
        G applied = while_loop([&](const G& g) { return g.first < k; },
                               [&](const G& g) {
                                 Array row = gv[g.first];
                                 return G{g.first + 1, rotate_pair(g.second, g.first, row[0], row[1])};
                               },
                               G{i32(0), hn[k]});
        auto [cs, sn] = givens_rotation(applied.second[k], applied.second[k + 1]);
        Array gn = gv.at(k).set(stack({cs, sn}));
        Array row = rotate_pair(applied.second, k, cs, sn);
        Array bn = rotate_pair(bv, k, cs, sn);
        return C{k + 1, abs(bn[k + 1]), vn, rr.at(k).set(row), bn, gn};
      },
      C{i32(0), residual_norm, v, r, beta, givens});
  const Array& vb = std::get<2>(out);
  const Array& rr = std::get<3>(out);
  Array y = strata::linalg::solve_triangular(transpose(index(rr, {Slice(), Slice(0, restart)})),
                                             index(std::get<4>(out), {Slice(0, restart)}));
  Array xn = x + tensordot(first_columns(vb, restart), y, std::vector<int>{last}, std::vector<int>{0});
  auto [unit, rn] = safe_normalize(apply(m, b - apply(a, xn)));
  return {xn, unit, rn};
}

template <class Op, class M>
Array gmres_solve(const Op& a, const Array& b, const Array& x0, const Array& atol, const Array& ptol, int64_t restart,
                  int64_t maxiter, bool incremental, const M& m) {
  auto [unit0, norm0] = safe_normalize(apply(m, b - apply(a, x0)));
  using C = std::tuple<Array, Array, Array, Array>;  // x, k, unit residual, residual norm
  C out = while_loop(
      [&](const C& c) { return logical_and(std::get<1>(c) < i32(maxiter), std::get<3>(c) > atol); },
      [&](const C& c) {
        auto [xn, unit, rn] =
            incremental ? gmres_incremental(a, b, std::get<0>(c), std::get<2>(c), std::get<3>(c), ptol, restart, m)
                        : gmres_batched(a, b, std::get<0>(c), std::get<2>(c), std::get<3>(c), restart, m);
        return C{xn, std::get<1>(c) + 1, unit, rn};
      },
      C{x0, i32(0), unit0, norm0});
  return std::get<0>(out);
}

// The options' x0 and maxiter resolved, b's shape checked against x0's.
inline Array initial_guess(const char* op, const Array& b, const SolverOptions& o) {
  if (!o.x0) return zeros_like(b);
  if (o.x0->shape() != b.shape())
    throw ShapeError(std::string(op) + ": expects x0 of b's shape " + shape_string(b.shape()) + ", but got " +
                     shape_string(o.x0->shape()));
  return astype(*o.x0, b.dtype());
}
inline int64_t max_iterations(const Array& b, const SolverOptions& o) { return o.maxiter ? *o.maxiter : 10 * b.size(); }

// solve(A, b) through `run(op, rhs)` as a custom_linear_solve (JAX's _isolve): derivatives
// from A x = b, not through the loops — with respect to b, a matrix A, and whatever a function A
// captures. The transposed solve is `run` on A's transpose; real symmetric solvers (cg) reuse A.
template <class Op, class Run>
Array implicit_solve(const Op& a, const Array& b, bool symmetric, Run run) {
  auto matvec = [&a](const Array& v) { return apply(a, v); };
  auto solve = [run](const auto& op, const Array& rhs) { return run(op, rhs); };
  if (symmetric) return custom_linear_solve(matvec, b, solve, true);
  return custom_linear_solve(matvec, b, solve, solve);
}

}  // namespace detail

// The solution and an info Array: for cg and bicgstab a null Array (JAX returns None), for
// gmres an i32 0, or -1 when the solution holds a NaN.
struct SolveResult {
  Array x, info;
};

namespace detail {
// cg and bicgstab (JAX's _isolve): checks, x0 and maxiter, then `solve(op, rhs, x0, maxiter)`.
template <class Op, class Solve>
SolveResult isolve(const char* name, const Op& a, const Array& b, const SolverOptions& o, Solve solve) {
  check_operator(name, a, b);
  Array x0 = initial_guess(name, b, o);
  const int64_t maxiter = max_iterations(b, o);
  auto run = [x0, maxiter, solve](const auto& op, const Array& rhs) { return solve(op, rhs, x0, maxiter); };
  const bool symmetric = std::string(name) == "cg" && !is_complex(b.dtype());
  return {implicit_solve(a, b, symmetric, run), Array()};
}
}  // namespace detail

// Conjugate gradients: A symmetric (Hermitian) positive definite; M its preconditioner.
template <class Op, class Pre = Identity>
SolveResult cg(const Op& a, const Array& b, const SolverOptions& o = {}, const Pre& m = {}) {
  return detail::isolve("cg", a, b, o, [o, m](const auto& op, const Array& rhs, const Array& x0, int64_t maxiter) {
    return detail::cg_solve(op, rhs, x0, maxiter, o.tol, o.atol, m);
  });
}

// BiCGSTAB: any nonsingular A (van der Vorst's stabilised biconjugate gradients).
template <class Op, class Pre = Identity>
SolveResult bicgstab(const Op& a, const Array& b, const SolverOptions& o = {}, const Pre& m = {}) {
  return detail::isolve("bicgstab", a, b, o, [o, m](const auto& op, const Array& rhs, const Array& x0, int64_t maxiter) {
    return detail::bicgstab_solve(op, rhs, x0, maxiter, o.tol, o.atol, m);
  });
}

// GMRES: any nonsingular A, restarted every o.restart Arnoldi steps (at most b.size), at most
// o.maxiter restarts; M a left preconditioner (the residual is M(b − A x)). solve_method
// "batched" (JAX's default: one least-squares solve per restart) or "incremental" (the QR of the
// Hessenberg matrix updated by Givens rotations at each step, stopping a restart early).
template <class Op, class Pre = Identity>
SolveResult gmres(const Op& a, const Array& b, const SolverOptions& o = {}, const Pre& m = {}) {
  detail::check_operator("gmres", a, b);
  if (o.solve_method != "batched" && o.solve_method != "incremental")
    throw ValueError("gmres: solve_method must be \"incremental\" or \"batched\", but got \"" + o.solve_method + "\"");
  const bool incremental = o.solve_method == "incremental";
  if (o.restart < 1) throw ValueError("gmres: expects restart >= 1, but got " + std::to_string(o.restart));
  Array x0 = detail::initial_guess("gmres", b, o);
  const int64_t maxiter = detail::max_iterations(b, o);
  const int64_t restart = std::min<int64_t>(o.restart, b.size());
  auto run = [x0, maxiter, restart, incremental, o, m](const auto& op, const Array& rhs) {
    Array b_norm = detail::norm(rhs);
    Array atol = maximum(Array(o.tol) * b_norm, Array(o.atol));
    // The incremental cycle's stopping norm (JAX's ptol): ‖M b‖ · min(1, atol / ‖b‖).
    Array ptol = detail::norm(detail::apply(m, rhs)) * minimum(Array(1.0), atol / b_norm);
    return detail::gmres_solve(op, rhs, x0, atol, ptol, restart, maxiter, incremental, m);
  };
  Array x = detail::implicit_solve(a, b, false, run);
  Array failed = isnan(detail::norm(x));
  return {x, where(failed, detail::i32(-1), detail::i32(0))};
}

}  // namespace strata::sparse::linalg
