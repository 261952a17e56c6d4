// strata/grad.h — automatic differentiation: vjp, jvp, grad, value_and_grad, stop_gradient,
// custom_vjp. Each takes a function and returns values or a function, as JAX's do; they work
// eagerly and inside jit, make_jaxpr and each other (grad(grad(f)) is a second derivative).
#pragma once

#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {

// The derivative blocks here: the identity in value, a constant to differentiation.
Array stop_gradient(const Array& x, SourceLocation loc = SourceLocation::current());

// Which arguments grad differentiates: st::argnums<0, 2>. One index gives the gradient
// itself; several give a tuple.
template <int... I>
struct ArgNums {};
template <int... I>
inline constexpr ArgNums<I...> argnums{};
// The function returns (loss, aux); aux is passed through, not differentiated.
struct HasAux {};
inline constexpr HasAux has_aux{};
// The function is holomorphic (complex in, complex out; jax's holomorphic=True): grad gives
// f'(z). Without it, grad of a real loss with respect to a complex z = x + iy gives
// ∂L/∂x − i·∂L/∂y, as JAX's does (descend along its conjugate).
struct Holomorphic {};
inline constexpr Holomorphic holomorphic{};

namespace detail {

struct Backward;  // the reverse pass of a linearised function (tracer/autodiff.h)

struct VjpOutcome {
  std::vector<Array> outputs;
  std::shared_ptr<const Backward> backward;
};
// Linearises `j` at `primals`: runs what the backward pass needs now; `wrt[i]` selects the
// inputs to differentiate; the first `num_ct` outputs receive cotangents.
VjpOutcome vjp_jaxpr(const Jaxpr& j, const std::vector<Array>& primals, const std::vector<bool>& wrt,
                     std::size_t num_ct, const char* who);
// Input cotangents (one per selected input) from output cotangents (null = zero).
std::vector<Array> run_backward(const Backward& b, const std::vector<Array>& cotangents, const char* who);
// The types of the values the backward pass keeps (its residuals), e.g. "f32[4,8]".
std::vector<std::string> residual_types(const Backward& b);
// Outputs and output tangents of `j` (null tangent = zero).
std::pair<std::vector<Array>, std::vector<Array>> jvp_jaxpr(const Jaxpr& j, const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents);
// Throws DTypeError naming the argument (and leaf) when `leaf` is not a float or complex array
// (with holomorphic: not a complex array).
void check_differentiable(const Array& leaf, int argument, std::size_t leaf_index, const char* who, bool holomorphic);
// Checks that a grad function's first output is a 0-d loss: real, or complex with holomorphic.
void check_scalar_loss(const Jaxpr& j, const char* who, bool holomorphic);
struct Linearized;  // the linear part of a JVP and the values it reads
// Runs j's JVP at `primals` with the tangents unknown: the outputs now, and the linear program.
std::pair<std::vector<Array>, std::shared_ptr<const Linearized>> linearize_jaxpr(const Jaxpr& j,
                                                                                  const std::vector<Array>& primals);
// Output tangents from input tangents (one per primal leaf; null = zero).
std::vector<Array> run_linearized(const Linearized& l, const std::vector<Array>& tangents);
// Input cotangents of j, linear in its inputs, from output cotangents (null = zero).
std::vector<Array> transpose_jaxpr(const Jaxpr& j, const std::vector<Array>& cotangents);
// Binds custom_jvp_call after checking the rule's outputs (outputs..., tangents...) against fun's.
std::vector<Array> custom_jvp_call(const Jaxpr& fun, const Jaxpr& jvp, const std::vector<Array>& args);
// Binds custom_vjp_call.
std::vector<Array> custom_vjp_call(const Jaxpr& fun, const Jaxpr& fwd, const Jaxpr& bwd,
                                   const std::vector<Array>& args);
Array ones_like_scalar(const Array& loss);

template <class T>
T strip(const T& value) {
  return tree_strip(value);
}

template <class... Args>
std::vector<Array> flatten_all(const Args&... args) {
  std::vector<Array> leaves;
  (tree::Tree<std::decay_t<Args>>::flatten(args, leaves), ...);
  return leaves;
}

template <int K, int... I>
constexpr bool contains() { return ((K == I) || ...); }

}  // namespace detail

// vjp(f, primals...) → (f(primals...), f_vjp) where f_vjp(cotangent) returns a tuple with one
// cotangent per primal, each shaped like it. Every primal is a pytree of float Arrays.
template <class F, class... Args>
auto vjp(F f, const Args&... primals) {
  static_assert(((!is_static_v<Args>) && ...), "vjp: every primal must be a pytree of Arrays");
  detail::TraceScope scope;
  auto out = detail::call_traced(scope, f, primals...);
  using Out = decltype(out);
  Jaxpr j = scope.finish(tree_flatten(out));
  std::vector<Array> leaves = detail::flatten_all(primals...);
  detail::VjpOutcome r = detail::vjp_jaxpr(j, leaves, std::vector<bool>(leaves.size(), true), j.num_outputs(), "vjp");
  Out proto = detail::strip(out);
  Out outputs = tree_unflatten(proto, r.outputs);
  auto backward = [bwd = r.backward, protos = std::make_tuple(detail::strip(primals)...)](const Out& ct) {
    std::vector<Array> g = detail::run_backward(*bwd, tree_flatten(ct), "vjp");
    const Array* it = g.data();
    return std::apply([&](const auto&... p) { return std::tuple<Args...>{tree::Tree<Args>::unflatten(p, it)...}; }, protos);
  };
  return std::make_pair(std::move(outputs), std::move(backward));
}

// jvp(f, primals, tangents) → (f(primals...), the directional derivative along tangents).
// primals and tangents are std::tuples of the arguments (or a single argument each).
template <class F, class... Args>
auto jvp(F f, const std::tuple<Args...>& primals, const std::tuple<Args...>& tangents) {
  detail::TraceScope scope;
  auto out = std::apply([&](const auto&... a) { return detail::call_traced(scope, f, a...); }, primals);
  using Out = decltype(out);
  Jaxpr j = scope.finish(tree_flatten(out));
  std::vector<Array> p = std::apply([](const auto&... a) { return detail::flatten_all(a...); }, primals);
  std::vector<Array> t = std::apply([](const auto&... a) { return detail::flatten_all(a...); }, tangents);
  auto [outs, touts] = detail::jvp_jaxpr(j, p, t);
  Out proto = detail::strip(out);
  return std::make_pair(tree_unflatten(proto, outs), tree_unflatten(proto, touts));
}
template <class F, class A>
  requires(!std::is_same_v<std::decay_t<A>, std::tuple<>>)
auto jvp(F f, const A& primal, const A& tangent) {
  return jvp(std::move(f), std::tuple<A>(primal), std::tuple<A>(tangent));
}

// linearize(f, primals...) → (f(primals...), f_jvp) with f_jvp(tangents...) the JVP at the
// primals (jax.linearize): f and the nonlinear part of its JVP run once, now; each f_jvp call
// runs only the linear part (a program of the tangents and the values it kept).
template <class F, class... Args>
auto linearize(F f, const Args&... primals) {
  static_assert(((!is_static_v<Args>) && ...), "linearize: every primal must be a pytree of Arrays");
  detail::TraceScope scope;
  auto out = detail::call_traced(scope, f, primals...);
  using Out = decltype(out);
  Jaxpr j = scope.finish(tree_flatten(out));
  auto [outputs, lin] = detail::linearize_jaxpr(j, detail::flatten_all(primals...));
  Out proto = detail::strip(out);
  auto f_jvp = [lin, proto](const Args&... tangents) {
    return tree_unflatten(proto, detail::run_linearized(*lin, detail::flatten_all(tangents...)));
  };
  return std::make_pair(tree_unflatten(proto, outputs), std::move(f_jvp));
}

// linear_transpose(f, primals...) → f_t with f_t(cotangent) a tuple of one cotangent per
// argument (jax.linear_transpose): f must be linear in its arguments, whose shapes and dtypes
// the primals give (their values are not used). Complex values pair by Re Σ a·b, as vjp's.
template <class F, class... Args>
auto linear_transpose(F f, const Args&... primals) {
  static_assert(((!is_static_v<Args>) && ...), "linear_transpose: every primal must be a pytree of Arrays");
  detail::TraceScope scope;
  auto out = detail::call_traced(scope, f, primals...);
  using Out = decltype(out);
  Jaxpr j = scope.finish(tree_flatten(out));
  return [j, protos = std::make_tuple(detail::strip(primals)...)](const Out& ct) {
    std::vector<Array> g = detail::transpose_jaxpr(j, tree_flatten(ct));
    const Array* it = g.data();
    return std::apply([&](const auto&... p) { return std::tuple<Args...>{tree::Tree<Args>::unflatten(p, it)...}; }, protos);
  };
}

namespace detail {

// value_and_grad's engine: differentiates arguments I... of f; with kAux, f returns
// (loss, aux).
template <bool kAux, bool kHolo, int... I, class F>
auto value_and_grad_impl(F f, const char* who) {
  return [f = std::move(f), who](const auto&... args) mutable {
    constexpr int n = sizeof...(args);
    static_assert(((I >= 0 && I < n) && ...), "grad: argnums out of range");
    TraceScope scope;
    auto out = call_traced(scope, f, args...);
    using Out = decltype(out);
    Jaxpr j = scope.finish(tree_flatten(out));
    // One flag per leaf: differentiate the leaves of the selected arguments.
    std::vector<Array> leaves;
    std::vector<bool> wrt;
    int index = 0;
    auto add = [&](const auto& a) {
      std::size_t before = leaves.size();
      tree::Tree<std::decay_t<decltype(a)>>::flatten(a, leaves);
      bool selected = false;
      ((selected = selected || I == index), ...);
      wrt.resize(leaves.size(), selected);
      if (selected)
        for (std::size_t k = before; k < leaves.size(); ++k) check_differentiable(leaves[k], index, k - before, who, kHolo);
      ++index;
    };
    (add(args), ...);
    check_scalar_loss(j, who, kHolo);
    VjpOutcome r = vjp_jaxpr(j, leaves, wrt, 1, who);
    std::vector<Array> g = run_backward(*r.backward, {ones_like_scalar(r.outputs[0])}, who);
    Out value = tree_unflatten(strip(out), r.outputs);
    // Rebuild each selected argument's gradient with that argument's structure.
    auto all = std::forward_as_tuple(args...);
    const Array* it = g.data();
    auto grad_of = [&](auto c) {
      const auto& a = std::get<decltype(c)::value>(all);
      return tree::Tree<std::decay_t<decltype(a)>>::unflatten(strip(a), it);
    };
    if constexpr (sizeof...(I) == 1) {
      return std::make_pair(value, grad_of(std::integral_constant<int, I>{})...);
    } else {
      // Braced initialisation evaluates left to right, in argnums order; leaves were produced
      // in argument order, so argnums must be increasing.
      static_assert(((I >= 0) && ...));
      return std::make_pair(value, std::tuple{grad_of(std::integral_constant<int, I>{})...});
    }
  };
}

template <int... I>
constexpr bool increasing() {
  int v[] = {I...};
  for (std::size_t k = 1; k < sizeof...(I); ++k)
    if (v[k] <= v[k - 1]) return false;
  return true;
}

template <class T>
struct is_argnums : std::false_type {};
template <int... I>
struct is_argnums<ArgNums<I...>> : std::true_type {};

// grad's options, in any order: argnums<i, j, …> (increasing; default argnums<0>), has_aux,
// holomorphic.
template <class... Opt>
struct GradOptions {
  static_assert(((std::is_same_v<Opt, HasAux> || std::is_same_v<Opt, Holomorphic> || is_argnums<Opt>::value) && ...),
                "grad: options are st::argnums<...>, st::has_aux and st::holomorphic");
  static constexpr bool aux = (std::is_same_v<Opt, HasAux> || ...);
  static constexpr bool holo = (std::is_same_v<Opt, Holomorphic> || ...);
};
template <class... Opt>
struct ArgNumsOf {
  using type = ArgNums<0>;
};
template <class O, class... Rest>
struct ArgNumsOf<O, Rest...> {
  using type = std::conditional_t<is_argnums<O>::value, O, typename ArgNumsOf<Rest...>::type>;
};

template <bool kAux, bool kHolo, class F, int... I>
auto value_and_grad_dispatch(F f, ArgNums<I...>, const char* who) {
  static_assert(increasing<I...>(), "grad: argnums must be increasing");
  return value_and_grad_impl<kAux, kHolo, I...>(std::move(f), who);
}

}  // namespace detail

// value_and_grad(f, options...)(args...) → (f(args...), df/d(arg 0)); f returns a 0-d real
// loss, or (loss, aux) with has_aux; a complex one with holomorphic. Options: argnums<i, j, …>
// (increasing) picks the arguments, has_aux, holomorphic.
template <class F, class... Opt>
auto value_and_grad(F f, Opt...) {
  using O = detail::GradOptions<Opt...>;
  return detail::value_and_grad_dispatch<O::aux, O::holo>(std::move(f), typename detail::ArgNumsOf<Opt...>::type{},
                                                          "value_and_grad");
}

// grad(f, options...)(args...) → the gradient of f's 0-d loss with respect to argument 0 (or the
// argnums chosen), shaped like that argument; with has_aux, (gradient, aux).
template <class F, class... Opt>
auto grad(F f, Opt... opt) {
  constexpr bool aux = detail::GradOptions<Opt...>::aux;
  auto vg = value_and_grad(std::move(f), opt...);
  return [vg = std::move(vg)](const auto&... args) mutable {
    auto [value, g] = vg(args...);
    if constexpr (aux) return std::make_pair(std::move(g), std::move(value.second));
    else return g;
  };
}

// custom_jvp(f, jvp) (jax.custom_jvp with defjvp): a function that computes f but differentiates
// with the user's forward-mode rule: jvp(primals..., tangents...) — the arguments, then one
// tangent per argument, shaped like them — returns (f(primals...), the tangent of the output),
// the tangent a pytree like f's result. jvp, jacfwd use the rule; grad, vjp and jacrev transpose
// it, so it must be linear in the tangents (JAX's requirement). Zero tangents arrive as zeros.
//   auto log1pexp = st::custom_jvp(
//       [](st::Array x) { return st::log1p(st::exp(x)); },
//       [](st::Array x, st::Array t) { return std::make_pair(st::log1p(st::exp(x)), t * st::sigmoid(x)); });
template <class F, class J>
auto custom_jvp(F f, J jvp) {
  return [f = std::move(f), jvp = std::move(jvp)](const auto&... args) mutable {
    detail::TraceScope fun_scope;
    auto out = detail::call_traced(fun_scope, f, args...);
    Jaxpr fun = fun_scope.finish(tree_flatten(out));
    detail::TraceScope jvp_scope;
    auto rule_out = detail::call_traced(jvp_scope, jvp, args..., args...);
    std::vector<Array> rule_leaves = tree_flatten(rule_out.first);
    std::vector<Array> tangent_leaves = tree_flatten(rule_out.second);
    rule_leaves.insert(rule_leaves.end(), tangent_leaves.begin(), tangent_leaves.end());
    Jaxpr rule = jvp_scope.finish(rule_leaves);
    std::vector<Array> results = detail::custom_jvp_call(fun, rule, detail::flatten_all(args...));
    return tree_unflatten(detail::strip(out), results);
  };
}

// custom_vjp(f, fwd, bwd): a function that computes f but differentiates (in reverse mode)
// with the user's rule: fwd(args...) returns (f(args...), residuals) and bwd(residuals,
// cotangent) returns one cotangent per argument leaf (an Array, or a tuple of them).
//   auto softplus = st::custom_vjp(
//       [](st::Array x) { return st::log1p(st::exp(x)); },
//       [](st::Array x) { return std::make_pair(st::log1p(st::exp(x)), x); },
//       [](st::Array x, st::Array g) { return g * st::sigmoid(x); });
template <class F, class Fwd, class Bwd>
auto custom_vjp(F f, Fwd fwd, Bwd bwd) {
  return [f = std::move(f), fwd = std::move(fwd), bwd = std::move(bwd)](const auto&... args) mutable {
    detail::TraceScope fun_scope;
    auto out = detail::call_traced(fun_scope, f, args...);
    Jaxpr fun = fun_scope.finish(tree_flatten(out));
    detail::TraceScope fwd_scope;
    auto fwd_out = detail::call_traced(fwd_scope, fwd, args...);
    Jaxpr fwd_j = fwd_scope.finish(tree_flatten(fwd_out));
    // bwd is traced on values shaped like the residuals and the outputs.
    detail::TraceScope bwd_scope;
    auto cts = detail::call_traced(bwd_scope, bwd, fwd_out.second, fwd_out.first);
    Jaxpr bwd_j = bwd_scope.finish(tree_flatten(cts));
    std::vector<Array> results = detail::custom_vjp_call(fun, fwd_j, bwd_j, detail::flatten_all(args...));
    return tree_unflatten(detail::strip(out), results);
  };
}

}  // namespace strata
