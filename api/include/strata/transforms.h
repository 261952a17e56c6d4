// strata/transforms.h — function transformations. make_jaxpr traces a function into a Jaxpr,
// eval_shape gives the types of its outputs; jit, grad, vmap and friends build on the same
// tracing.
#pragma once

#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

#include "strata/array.h"
#include "strata/jaxpr.h"
#include "strata/pytree.h"
#include "strata/shape_dtype.h"

namespace strata {

namespace detail {
struct TraceState;

// One trace, open for the lifetime of the scope: inputs become tracers, the traced function
// runs, and finish() turns what it recorded into a Jaxpr. A scope destroyed before finish()
// (the function threw) discards the trace.
class TraceScope {
 public:
  TraceScope();
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  // A tracer with the shape, dtype and weak type of each of `leaves`.
  std::vector<Array> inputs(const std::vector<Array>& leaves);
  Jaxpr finish(const std::vector<Array>& outputs);

 private:
  std::shared_ptr<TraceState> state_;
};

// Calls f with each argument's Array leaves replaced by tracers (static arguments pass through
// unchanged), inside `scope`; returns f's result.
template <class F, class... Args>
auto call_traced(TraceScope& scope, F& f, const Args&... args) {
  std::vector<Array> leaves;
  (tree::Tree<std::decay_t<Args>>::flatten(args, leaves), ...);
  std::vector<Array> tracers = scope.inputs(leaves);
  const Array* it = tracers.data();
  // Braced initialisation evaluates left to right: leaves are handed out in argument order.
  std::tuple<std::decay_t<Args>...> traced{tree::Tree<std::decay_t<Args>>::unflatten(args, it)...};
  return std::apply(f, traced);
}
}  // namespace detail

// make_jaxpr(f)(args...) traces f on arguments shaped like args (pytrees of Arrays plus static
// values) and returns the program it performs:
//   auto j = st::make_jaxpr([](st::Array x) { return st::exp(x) * 2.0f; })(x);
//   std::cout << j;  // { lambda ; a:f32[3]. let b:f32[3] = exp a; c:f32[3] = mul b 2.0:f32[] in (c,) }
template <class F>
auto make_jaxpr(F f) {
  return [f = std::move(f)](const auto&... args) mutable -> Jaxpr {
    detail::TraceScope scope;
    auto out = detail::call_traced(scope, f, args...);
    return scope.finish(tree_flatten(out));
  };
}

namespace detail {
// An array of `s`'s type with no data (a tracer of a finished trace): only its type is read, so
// it stands for an argument when tracing (eval_shape).
Array abstract_array(const ShapeDtypeStruct& s);
template <class T>
decltype(auto) abstract_or_self(const T& x) {
  if constexpr (std::is_same_v<T, ShapeDtypeStruct>) return abstract_array(x);
  else return (x);
}
std::vector<ShapeDtypeStruct> output_types(const Jaxpr& j);
}  // namespace detail

// eval_shape(f)(args...) (jax.eval_shape): the shapes and dtypes of f's outputs, flattened in
// pytree order, for arguments shaped like args — pytrees of Arrays (only their types are read),
// static values, or ShapeDtypeStructs standing for Array arguments — without computing or
// allocating anything.
//   auto out = st::eval_shape(model)(params, st::ShapeDtypeStruct({1024, 784}, st::f32));
template <class F>
auto eval_shape(F f) {
  return [f = std::move(f)](const auto&... args) mutable -> std::vector<ShapeDtypeStruct> {
    auto call = [&](const auto&... xs) {
      detail::TraceScope scope;
      auto out = detail::call_traced(scope, f, xs...);
      return detail::output_types(scope.finish(tree_flatten(out)));
    };
    return call(detail::abstract_or_self(args)...);
  };
}

}  // namespace strata
