// strata/custom_solve.h — solvers differentiated implicitly, as jax.lax's: custom_linear_solve
// and custom_root, and closure_convert (jax.closure_convert) for custom derivatives of functions
// that capture the values to be differentiated.
//
// A solver's steps (an iterative loop, a factorisation) are not what its derivative should go
// through: the solution x of A(θ)x = b or of f(x, θ) = 0 has a derivative fixed by the equation
// alone. These functions trace the operator and the solver once and give the solution that
// derivative — forward and reverse mode, under jit and vmap — including with respect to values
// the operator or f captures (a matrix a closure holds, parameters of the model).
//
//   st::Array A = ...;                        // possibly a traced value being differentiated
//   auto matvec = [&](st::Array v) { return st::matmul(A, v); };
//   auto solve = [](auto mv, st::Array b) { return st::sparse::linalg::cg(mv, b).x; };
//   st::Array x = st::custom_linear_solve(matvec, b, solve, /*symmetric=*/true);
#pragma once

#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/jaxpr.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {

namespace detail {
// Binds custom_linear_solve after checking the programs' types against b's leaves.
// With has_aux, solve and transpose_solve return their auxiliary values after the solution,
// and so does the result.
std::vector<Array> custom_linear_solve_call(const Jaxpr& matvec, const std::optional<Jaxpr>& vecmat, const Jaxpr& solve,
                                            const std::optional<Jaxpr>& transpose_solve, const std::vector<Array>& b,
                                            bool has_aux = false);
// `j` with what it captured turned into leading inputs: the program and those values.
std::pair<Jaxpr, std::vector<Array>> open_jaxpr(const Jaxpr& j);
// Traces fn(proto) in its own trace (its leaves typed like proto's) and checks the result is
// structured like proto; returns the program.
template <class T, class F>
Jaxpr trace_like(const char* who, const char* what, F& fn, const T& proto) {
  TraceScope scope;
  auto out = call_traced(scope, fn, proto);
  static_assert(std::is_same_v<std::decay_t<decltype(out)>, T>,
                "the function must return the same type as the right-hand side / initial guess");
  check_same_tree(who, (std::string(what) + "'s result").c_str(), describe(out, "out"), "argument",
                  describe(proto, "out"));
  return scope.finish(tree_flatten(out));
}

template <class R>
struct is_pair : std::false_type {};
template <class A, class B>
struct is_pair<std::pair<A, B>> : std::true_type {};

// trace_like for a solver with has_aux: fn(proto) returns (solution, aux); the program returns
// the solution's leaves, then aux's. Also returns aux's structure.
template <class T, class F>
auto trace_aux_like(const char* who, const char* what, F& fn, const T& proto) {
  TraceScope scope;
  auto out = call_traced(scope, fn, proto);
  using R = std::decay_t<decltype(out)>;
  static_assert(is_pair<R>::value && std::is_same_v<typename R::first_type, T>,
                "with has_aux the solver must return std::pair(solution, aux), the solution typed like the right-hand side");
  check_same_tree(who, (std::string(what) + "'s solution").c_str(), describe(out.first, "out"), "argument",
                  describe(proto, "out"));
  std::vector<Array> leaves = tree_flatten(out.first), aux = tree_flatten(out.second);
  leaves.insert(leaves.end(), aux.begin(), aux.end());
  auto aux_proto = strip(out.second);
  return std::make_pair(scope.finish(leaves), aux_proto);
}

template <bool kAux, class MV, class T, class S, class TS>
auto linear_solve_impl(MV& matvec, const T& b, S& solve, TS* transpose_solve, bool symmetric) {
  static_assert(!is_static_v<T>, "custom_linear_solve: b must be a pytree of Arrays");
  Jaxpr mv = trace_like("custom_linear_solve", "matvec", matvec, b);
  auto solve_b = [&](const T& rhs) { return solve(matvec, rhs); };
  auto trace_solver = [&](const char* what, auto& fn) {
    if constexpr (kAux) return trace_aux_like("custom_linear_solve", what, fn, b);
    else return trace_like("custom_linear_solve", what, fn, b);
  };
  auto sv = trace_solver("solve", solve_b);
  auto program = [](const auto& traced) -> const Jaxpr& {
    if constexpr (kAux) return traced.first;
    else return traced;
  };
  std::optional<Jaxpr> vm, ts;
  if (symmetric) {
    vm = mv;
    ts = program(sv);
  } else if constexpr (!std::is_same_v<TS, std::nullptr_t>) {
    // vecmat: matvec's transpose (it is linear), as JAX derives it.
    auto vecmat = [&](const T& y) { return std::get<0>(linear_transpose(matvec, b)(y)); };
    vm = trace_like("custom_linear_solve", "the transpose of matvec", vecmat, b);
    auto ts_b = [&](const T& rhs) { return (*transpose_solve)(vecmat, rhs); };
    ts = program(trace_solver("transpose_solve", ts_b));
  }
  std::vector<Array> b_leaves = tree_flatten(b);
  std::vector<Array> x = custom_linear_solve_call(mv, vm, program(sv), ts, b_leaves, kAux);
  if constexpr (kAux) {
    std::vector<Array> aux(x.begin() + static_cast<std::ptrdiff_t>(b_leaves.size()), x.end());
    x.resize(b_leaves.size());
    return std::make_pair(tree_unflatten(strip(b), x), tree_unflatten(sv.second, aux));
  } else {
    return tree_unflatten(strip(b), x);
  }
}
}  // namespace detail

// custom_linear_solve(matvec, b, solve, symmetric = false) (jax.lax.custom_linear_solve): x =
// solve(matvec, b), where solve returns a solution of matvec(x) = b and matvec is linear in its
// argument (a pytree like b). Its derivative comes from the equation, not from solve's steps:
// ẋ = solve(ḃ − ∂matvec[θ̇] x), and in reverse mode b̄ = transpose_solve(vecmat, x̄) with vecmat
// matvec's transpose, and θ̄ = −(∂matvec/∂θ at x)ᵀ b̄ for the values θ matvec captures (solve's
// own captured values get no derivative). Reverse mode needs symmetric = true (the operator is
// its own transpose, so solve serves both ways) or the overload with transpose_solve.
template <class MV, class T, class S>
T custom_linear_solve(MV matvec, const T& b, S solve, bool symmetric = false) {
  return detail::linear_solve_impl<false, MV, T, S, std::nullptr_t>(matvec, b, solve, nullptr, symmetric);
}
// The same with transpose_solve(vecmat, b), which solves with matvec's transpose (vecmat, built
// by transposing matvec) for reverse mode.
template <class MV, class T, class S, class TS>
  requires(!std::is_same_v<std::decay_t<TS>, bool> && !std::is_same_v<std::decay_t<TS>, HasAux>)
T custom_linear_solve(MV matvec, const T& b, S solve, TS transpose_solve) {
  return detail::linear_solve_impl<false, MV, T, S, TS>(matvec, b, solve, &transpose_solve, false);
}
// With st::has_aux last (has_aux=True): solve (and transpose_solve) return std::pair(x, aux),
// aux any pytree of Arrays (an iteration count, a residual norm); the result is (x, aux), aux
// from the one solve that computed x and without derivative (its tangent is zero, as JAX's).
template <class MV, class T, class S>
auto custom_linear_solve(MV matvec, const T& b, S solve, bool symmetric, HasAux) {
  return detail::linear_solve_impl<true, MV, T, S, std::nullptr_t>(matvec, b, solve, nullptr, symmetric);
}
template <class MV, class T, class S>
auto custom_linear_solve(MV matvec, const T& b, S solve, HasAux) {
  return detail::linear_solve_impl<true, MV, T, S, std::nullptr_t>(matvec, b, solve, nullptr, false);
}
template <class MV, class T, class S, class TS>
  requires(!std::is_same_v<std::decay_t<TS>, bool> && !std::is_same_v<std::decay_t<TS>, HasAux>)
auto custom_linear_solve(MV matvec, const T& b, S solve, TS transpose_solve, HasAux) {
  return detail::linear_solve_impl<true, MV, T, S, TS>(matvec, b, solve, &transpose_solve, false);
}

// closure_convert(f, example_args...) (jax.closure_convert): f traced on arguments like the
// examples, with every value it captures (tracers of an enclosing transformation, concrete
// arrays) taken out: returns (g, consts) with g(consts, args...) == f(args...) for arguments
// typed like the examples. g captures nothing, so a custom_vjp/custom_jvp of g can be
// differentiated with respect to consts as explicit arguments.
template <class F, class... Args>
auto closure_convert(F f, const Args&... example_args) {
  detail::TraceScope scope;
  auto out = detail::call_traced(scope, f, example_args...);
  Jaxpr closed = scope.finish(tree_flatten(out));
  auto [open, consts] = detail::open_jaxpr(closed);
  auto g = [open = open, proto = detail::strip(out)](const std::vector<Array>& c, const auto&... args) {
    std::vector<Array> leaves = c;
    (tree::Tree<std::decay_t<decltype(args)>>::flatten(args, leaves), ...);
    return tree_unflatten(proto, eval_jaxpr(open, leaves));
  };
  return std::make_pair(std::move(g), std::move(consts));
}

// custom_root(f, initial_guess, solve, tangent_solve) (jax.lax.custom_root): x = solve(f,
// initial_guess), a root of f (f(x) = 0, f returning a value structured like x), differentiated
// by the implicit function theorem instead of through solve's steps: with f depending on values
// θ it captures, ẋ = −tangent_solve(g, ∂f/∂θ[θ̇]) where g(y) = ∂f/∂x[y] at the root is f
// linearised there and tangent_solve(g, r) returns y with g(y) = r — e.g. for a scalar
// [](auto g, st::Array r) { return r / g(st::ones_like(r)); }. Reverse mode transposes that, so
// tangent_solve must be linear in r (a dense solve, or a custom_linear_solve).
namespace detail {
template <bool kAux, class F, class T, class S, class TS>
auto root_impl(F& f, const T& initial_guess, S& solve, TS& tangent_solve) {
  static_assert(!is_static_v<T>, "custom_root: the initial guess must be a pytree of Arrays");
  Jaxpr fj = trace_like("custom_root", "f", f, initial_guess);
  auto [f_open, consts] = open_jaxpr(fj);
  T proto = strip(initial_guess);
  // f with its captured values passed explicitly (so they can carry tangents).
  auto f_with = [f_open = f_open, proto](const std::vector<Array>& c) {
    return [f_open, proto, c](const T& x) {
      std::vector<Array> leaves = c;
      tree::Tree<T>::flatten(x, leaves);
      return tree_unflatten(proto, eval_jaxpr(f_open, leaves));
    };
  };
  auto fun = [f_with, solve](const std::vector<Array>& c, const T& guess) mutable { return solve(f_with(c), guess); };
  auto rule = [f_with, solve, tangent_solve](const std::vector<Array>& c, const T& guess, const std::vector<Array>& dc,
                                             const T&) mutable {
    auto solved = solve(f_with(c), guess);
    const T& x = [&]() -> const T& {
      if constexpr (kAux) return solved.first;
      else return solved;
    }();
    // ∂f/∂θ[θ̇] at the root, then −(∂f/∂x)⁻¹ of it.
    T rhs = jvp([&](const std::vector<Array>& cc) { return f_with(cc)(x); }, c, dc).second;
    auto g = [&](const T& y) { return jvp(f_with(c), x, y).second; };
    T dx = tangent_solve(g, rhs);
    std::vector<Array> neg = tree_flatten(dx);
    for (Array& v : neg) v = -v;
    T dx_neg = tree_unflatten(strip(dx), neg);
    if constexpr (kAux) {  // the auxiliary values get a zero tangent (JAX: stop_gradient)
      std::vector<Array> zero = tree_flatten(solved.second);
      for (Array& v : zero) v = zeros_like(v);
      return std::make_pair(solved, std::make_pair(dx_neg, tree_unflatten(strip(solved.second), zero)));
    } else {
      return std::make_pair(x, dx_neg);
    }
  };
  return custom_jvp(fun, rule)(consts, initial_guess);
}
}  // namespace detail

template <class F, class T, class S, class TS>
T custom_root(F f, const T& initial_guess, S solve, TS tangent_solve) {
  return detail::root_impl<false>(f, initial_guess, solve, tangent_solve);
}
// With st::has_aux last (has_aux=True): solve returns std::pair(root, aux), aux any pytree of
// Arrays (an iteration count, a residual); the result is (root, aux), aux without derivative.
template <class F, class T, class S, class TS>
auto custom_root(F f, const T& initial_guess, S solve, TS tangent_solve, HasAux) {
  using R = std::decay_t<decltype(solve(f, initial_guess))>;
  static_assert(detail::is_pair<R>::value && std::is_same_v<typename R::first_type, T>,
                "custom_root with has_aux: solve must return std::pair(root, aux), the root typed like the guess");
  return detail::root_impl<true>(f, initial_guess, solve, tangent_solve);
}

}  // namespace strata
