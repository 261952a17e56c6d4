// strata/ode.h — jax.experimental.ode.odeint: the solution of dy/dt = func(y, t, args...) at the
// times t (increasing; ys[0] = y0), by JAX's adaptive Dormand–Prince (RK45) with dense output
// between steps, and its reverse-mode derivative by the adjoint method (JAX's: the augmented
// system integrated backwards with the same solver).
//
//   auto f = [](const st::Array& y, const st::Array& t, const st::Array& k) { return -k * y; };
//   st::Array ys = st::ode::odeint(f, y0, ts, {}, k);   // ys [len(ts), y0.shape...]
//
// y0 is an Array of any shape (integrated as one flat vector); the extra arguments are Arrays,
// differentiated by grad (the adjoint) like y0 and t, and so are the values func captures
// (closure-converted into extra arguments, as JAX does).
// It traces (jit, vmap); forward mode (jvp) is refused, as JAX's custom_vjp odeint refuses it.
#pragma once

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/custom_solve.h"
#include "strata/errors.h"
#include "strata/grad.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/ops.h"
#include "strata/selection.h"

namespace strata::ode {

struct OdeOptions {
  double rtol = 1.4e-8, atol = 1.4e-8;
  double mxstep = std::numeric_limits<double>::infinity();  // steps per output interval
  double hmax = std::numeric_limits<double>::infinity();    // largest step
};

namespace detail {

inline Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }
inline Array table(const std::vector<double>& v, const Shape& s, DType t) { return astype(array(v, s, DType::f64), t); }

// JAX's initial_step_size (Hairer, Nørsett & Wanner's algorithm).
template <class F>
Array initial_step(F& fun, const Array& t0, const Array& y0, double order, double rtol, double atol, const Array& f0) {
  Array scale = atol + abs(y0) * rtol;
  Array d0 = strata::linalg::norm(y0 / scale), d1 = strata::linalg::norm(f0 / scale);
  Array h0 = where(logical_or(d0 < 1e-5, d1 < 1e-5), c_like(1e-6, d0), 0.01 * d0 / d1);
  Array y1 = y0 + astype(h0, y0.dtype()) * f0;
  Array f1 = fun(y1, t0 + astype(h0, t0.dtype()));
  Array d2 = strata::linalg::norm((f1 - f0) / scale) / h0;
  Array h1 = where(logical_and(d1 <= 1e-15, d2 <= 1e-15), maximum(c_like(1e-6, h0), h0 * 1e-3),
                   power(0.01 / maximum(d1, d2), c_like(1.0 / (order + 1.0), h0)));
  return minimum(100.0 * h0, h1);
}

// One Dormand–Prince step from (t0, y0) with f0 = f(y0, t0): y1, f1, the error estimate and
// the seven stages k [7, n].
template <class F>
std::tuple<Array, Array, Array, Array> rk_step(F& fun, const Array& y0, const Array& f0, const Array& t0, const Array& dt) {
  static const double alpha[] = {1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
  static const double beta[6][6] = {{1.0 / 5, 0, 0, 0, 0, 0},
                                    {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
                                    {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
                                    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
                                    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0},
                                    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
  const std::vector<double> c_sol{35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
  const std::vector<double> c_err{35.0 / 384 - 1951.0 / 21600,       0,
                                  500.0 / 1113 - 22642.0 / 50085,   125.0 / 192 - 451.0 / 720,
                                  -2187.0 / 6784 - -12231.0 / 42400, 11.0 / 84 - 649.0 / 6300,
                                  -1.0 / 60.0};
  const DType t = f0.dtype();
  Array h = astype(dt, t);
  std::vector<Array> k{f0};
  for (int i = 0; i < 6; ++i) {
    Array acc = zeros_like(y0);
    for (int j = 0; j <= i; ++j)
      if (beta[i][j] != 0) acc = acc + c_like(beta[i][j], f0) * k[static_cast<size_t>(j)];
    k.push_back(fun(y0 + h * acc, t0 + dt * alpha[i]));
  }
  Array ks = stack(k);  // [7, n]
  Array y1 = h * matmul(table(c_sol, {7}, t), ks) + y0;
  Array err = h * matmul(table(c_err, {7}, t), ks);
  return {y1, k[6], err, ks};
}

// The quartic through y0, y1 and the step's midpoint (JAX's interp_fit_dopri): [5, n].
inline Array interp_fit(const Array& y0, const Array& y1, const Array& k, const Array& dt) {
  const std::vector<double> mid{6025192743.0 / 30085553152 / 2,  0,
                                51252292925.0 / 65400821598 / 2, -2691868925.0 / 45128329728 / 2,
                                187940372067.0 / 1594534317056 / 2, -1776094331.0 / 19743644256 / 2,
                                11237099.0 / 235043384 / 2};
  Array h = astype(dt, y0.dtype());
  Array y_mid = y0 + h * matmul(table(mid, {7}, y0.dtype()), k);
  Array dy0 = k[0], dy1 = k[6];
  Array a = -2.0 * h * dy0 + 2.0 * h * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid;
  Array b = 5.0 * h * dy0 - 3.0 * h * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid;
  Array c = -4.0 * h * dy0 + h * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid;
  return stack({a, b, c, h * dy0, y0});
}

inline Array error_ratio(const Array& err, double rtol, double atol, const Array& y0, const Array& y1) {
  Array tol = atol + rtol * maximum(abs(y0), abs(y1));
  Array r = err / tol;
  return sqrt(mean(r * r));
}

inline Array optimal_step(const Array& last, const Array& ratio) {
  const double safety = 0.9, ifactor = 10.0, order = 5.0;
  Array dfactor = where(ratio < 1.0, c_like(1.0, ratio), c_like(0.2, ratio));
  Array factor = minimum(c_like(ifactor, ratio), maximum(power(ratio, c_like(-1.0 / order, ratio)) * safety, dfactor));
  return where(ratio == 0.0, last * ifactor, last * factor);
}

// The solution of dy/dt = fun(y, t) for a flat y0 [n] at ts [m]: [m, n] (JAX's _odeint).
template <class F>
Array integrate(F fun, const Array& y0, const Array& ts, const OdeOptions& o) {
  const int64_t m = ts.shape()[0];
  Array t0 = ts[0];
  Array f0 = fun(y0, t0);
  Array dt = clip(initial_step(fun, t0, y0, 4, o.rtol, o.atol, f0), c_like(0, t0), c_like(o.hmax, t0));
  Array coeff = stack({y0, y0, y0, y0, y0});
  using Carry = std::tuple<Array, Array, Array, Array, Array, Array>;  // y, f, t, dt, last_t, coeff
  auto step = [&](const Carry& carry, const Array& target) {
    using S = std::tuple<Array, Array, Array, Array, Array, Array, Array>;  // i, y, f, t, dt, last_t, coeff
    S s0 = std::tuple_cat(std::make_tuple(c_like(0, target)), carry);
    S s = while_loop(
        [&](const S& st) {
          return logical_and(logical_and(std::get<3>(st) < target, std::get<0>(st) < o.mxstep), std::get<4>(st) > 0.0);
        },
        [&](const S& st) {
          const auto& [i, y, f, t, h, last_t, cf] = st;
          auto [y1, f1, err, k] = rk_step(fun, y, f, t, h);
          Array ratio = error_ratio(err, o.rtol, o.atol, y, y1);
          Array new_coeff = interp_fit(y, y1, k, h);
          Array h1 = clip(optimal_step(h, ratio), c_like(0, h), c_like(o.hmax, h));
          Array ok = ratio <= 1.0;
          return S{i + 1.0, where(ok, y1, y), where(ok, f1, f), where(ok, t + h, t), h1, where(ok, t, last_t),
                   where(ok, new_coeff, cf)};
        },
        s0);
    const auto& [i, y, f, t, h, last_t, cf] = s;
    Array rel = (target - last_t) / (t - last_t);
    Array x = astype(rel, cf.dtype()), y_target = zeros_like(y);  // Horner, as jnp.polyval
    for (int64_t j = 0; j < 5; ++j) y_target = y_target * x + cf[j];
    return std::make_pair(Carry{y, f, t, h, last_t, cf}, y_target);
  };
  Carry init{y0, f0, t0, dt, t0, coeff};
  auto [carry, ys] = scan(step, init, index(ts, {Slice(1, m)}));
  return concatenate({expand_dims(y0, 0), ys}, 0);
}

}  // namespace detail

namespace detail {
// odeint on func(y, t, a) with a the list of extra arguments (the user's and what func captured):
// a custom_vjp of (y0, t, a) whose backward pass is the adjoint.
template <class F>
Array odeint_flat(F func, const Array& y0, const Array& t, const OdeOptions& o, const std::vector<Array>& args) {
  const Shape yshape = y0.shape();
  const int64_t n = y0.size(), m = t.shape()[0];
  using List = std::vector<Array>;
  // func on flat states: y [n] → dy/dt [n].
  auto flat = [func, yshape](const Array& y, const Array& tt, const List& a) {
    return ravel(Array(func(reshape(y, yshape), tt, a)));
  };
  auto solve = [flat, o](const Array& y, const Array& ts, const List& a) {
    return integrate([&](const Array& yy, const Array& tt) { return flat(yy, tt, a); }, y, ts, o);
  };
  Shape out_shape{m};
  out_shape.insert(out_shape.end(), yshape.begin(), yshape.end());
  auto f = [solve, out_shape](const Array& y, const Array& ts, const List& a) {
    return reshape(solve(ravel(y), ts, a), out_shape);
  };
  auto fwd = [f](const Array& y, const Array& ts, const List& a) {
    Array ys = f(y, ts, a);
    return std::make_pair(ys, std::make_tuple(ys, ts, a));
  };
  // The adjoint (JAX's _odeint_rev): the augmented state [y, ȳ, t̄0, ārgs] integrated backwards
  // over each output interval, the output cotangents added at each output time.
  auto bwd = [flat, o, n, m, yshape](const std::tuple<Array, Array, List>& res, const Array& g_in) {
    const Array ys = reshape(std::get<0>(res), {m, n});
    const Array& ts = std::get<1>(res);
    const List& a = std::get<2>(res);
    const Array g = reshape(g_in, {m, n});
    auto aug = [&](const Array& z, const Array& tt) {
      Array y = index(z, {Slice(0, n)}), y_bar = index(z, {Slice(n, 2 * n)});
      auto [y_dot, pullback] = vjp(flat, y, -tt, a);
      auto [ct_y, ct_t, ct_a] = pullback(y_bar);
      List parts{-y_dot, ravel(ct_y), ravel(ct_t)};
      for (const Array& c : ct_a) parts.push_back(ravel(c));
      return concatenate(parts, 0);
    };
    List zero_args;
    for (const Array& v : a) zero_args.push_back(ravel(zeros_like(v)));
    Array args_bar0 = zero_args.empty() ? zeros({0}, ys.dtype()) : concatenate(zero_args, 0);
    using C = std::tuple<Array, Array, Array>;  // ȳ, t̄0, ārgs (flat)
    auto step = [&](const C& c, const Array& i) {
      const auto& [y_bar, t0_bar, args_bar] = c;
      Array yi = ys[i], ti = ts[i];
      Array t_bar = real(sum(flat(yi, ti, a) * g[i]));
      Array z0 = concatenate({yi, y_bar, reshape(astype(t0_bar - t_bar, ys.dtype()), {1}), astype(args_bar, ys.dtype())}, 0);
      Array zs = integrate(aug, z0, stack({-ti, -ts[i - 1]}), o);
      Array z1 = zs[1];
      return std::make_pair(C{index(z1, {Slice(n, 2 * n)}) + g[i - 1], astype(z1[2 * n], t0_bar.dtype()),
                               astype(index(z1, {Slice(2 * n + 1, none)}), args_bar.dtype())},
                            t_bar);
    };
    Array order = arange(static_cast<double>(m - 1), 0.0, -1.0, DType::i32);
    auto [final_c, rev_ts_bar] = scan(step, C{g[m - 1], zeros({}, ts.dtype()), args_bar0}, order);
    const auto& [y_bar, t0_bar, args_bar] = final_c;
    Array ts_bar = concatenate({reshape(t0_bar, {1}), astype(flip(rev_ts_bar), ts.dtype())}, 0);
    List a_bar;
    int64_t at = 0;
    for (const Array& v : a) {
      a_bar.push_back(reshape(index(args_bar, {Slice(at, at + v.size())}), v.shape()));
      at += v.size();
    }
    return std::make_tuple(reshape(y_bar, yshape), ts_bar, a_bar);
  };
  return custom_vjp(f, fwd, bwd)(y0, t, args);
}
}  // namespace detail

template <class F, class... Args>
Array odeint(F func, const Array& y0, const Array& t, const OdeOptions& o = {}, const Args&... args) {
  static_assert((std::is_same_v<Args, Array> && ...), "odeint: the extra arguments must be Arrays");
  if (t.ndim() != 1 || !is_floating(t.dtype()))
    throw ValueError("odeint: expects t, a 1-d array of float times, but got " + std::string(short_name(t.dtype())) +
                     shape_string(t.shape()));
  // What func captures becomes explicit arguments (JAX closure-converts too), so the adjoint
  // differentiates it like args; the list is (captured..., args...).
  auto [g, captured] = closure_convert([func](const Array& y, const Array& tt, const Args&... a) { return Array(func(y, tt, a...)); },
                                       y0, t[0], args...);
  const size_t nc = captured.size();
  std::vector<Array> all = captured;
  (all.push_back(args), ...);
  auto with_list = [g = g, nc](const Array& y, const Array& tt, const std::vector<Array>& a) {
    std::vector<Array> c(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(nc));
    return [&]<size_t... I>(std::index_sequence<I...>) { return g(c, y, tt, a[nc + I]...); }(std::index_sequence_for<Args...>{});
  };
  return detail::odeint_flat(with_list, y0, t, o, all);
}

}  // namespace strata::ode
