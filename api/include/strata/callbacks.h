// strata/callbacks.h — host callbacks: plain C++ functions called from traced, jitted,
// differentiated and vmapped code, as jax.pure_callback, jax.experimental.io_callback,
// jax.debug.callback and jax.debug.print.
//
//   // A routine strata cannot trace (a legacy solver, a table lookup, a file): called at run
//   // time on host arrays, its result of the declared shape and dtype.
//   auto bessel = [](const st::Array& x) { return st::Array(...computed on the host...); };
//   st::Array y = st::pure_callback(bessel, st::ShapeDtypeStruct(x), x);
//
//   st::debug::print("step {}: loss {}", i, loss);   // prints the values when the code runs
//
// Under jit the function runs when the compiled code reaches it, on the calling thread, with
// copies of the values (host arrays; a callback may call strata, jitted functions included).
// What it throws is rethrown by the call of the jitted function. A program holding a callback
// runs only in the process that traced it, so the persistent compilation cache skips it (as
// JAX's does), and the cuda target refuses it. Derivatives: pure_callback and io_callback have
// none (wrap them in custom_jvp/custom_vjp, as in JAX); debug callbacks see the primal values.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/dtype.h"
#include "strata/shape.h"
#include "strata/shape_dtype.h"

namespace strata {

// How vmap treats a pure_callback (JAX's vmap_method). `unspecified` refuses vmap.
enum class VmapMethod {
  unspecified,
  sequential,           // one call per batch element, in a loop (a scan)
  sequential_unrolled,  // the same, the loop unrolled
  expand_dims,          // one call; unbatched arguments get a leading axis of size 1
  broadcast_all,        // one call; unbatched arguments are broadcast to the batch size
};

struct CallbackOptions {
  VmapMethod vmap_method = VmapMethod::unspecified;  // pure_callback
  bool ordered = false;  // io_callback, debug::callback, debug::print: calls keep program order
                         // (they always do on one CPU; an ordered io_callback refuses vmap)
  std::string name;      // shown in jaxprs and errors ("callback" when empty)
};

// A function of host arrays, type-erased; the callback primitives hold one.
class HostFunction {
 public:
  virtual ~HostFunction() = default;
  virtual std::vector<Array> operator()(std::span<const Array> args) const = 0;
};

namespace detail {

enum class CallbackKind { pure, io, debug };

// debug::print's callback: checks fmt against args, binds a debug callback that formats them.
void debug_print(std::string fmt, std::vector<Array> args, const CallbackOptions& options);

// debug::check's callback: throws when `pred` has a false element.
void debug_check(const Array& pred, std::string fmt, std::vector<Array> args);

// Binds the callback primitive of `kind` (checking the arguments and the options).
std::vector<Array> bind_callback(CallbackKind kind, std::shared_ptr<const HostFunction> fn,
                                 std::vector<ShapeDtypeStruct> results, std::vector<Array> args,
                                 const CallbackOptions& options);

template <class R>
std::vector<Array> as_results(R&& r) {
  using T = std::decay_t<R>;
  if constexpr (std::is_same_v<T, std::vector<Array>>) return std::forward<R>(r);
  else {
    static_assert(std::is_convertible_v<T, Array>, "a callback returns an Array or a std::vector<Array>");
    return {Array(std::forward<R>(r))};
  }
}

// f(args[0], ..., args[N-1]) for a function of N arrays.
template <class F, std::size_t N>
class ArrayFunction final : public HostFunction {
 public:
  explicit ArrayFunction(F f) : f_(std::move(f)) {}
  std::vector<Array> operator()(std::span<const Array> args) const override {
    return call(args, std::make_index_sequence<N>{});
  }

 private:
  template <std::size_t... I>
  std::vector<Array> call(std::span<const Array> args, std::index_sequence<I...>) const {
    using R = decltype(f_(args[I]...));
    if constexpr (std::is_void_v<R>) {
      f_(args[I]...);
      return {};
    } else {
      return as_results(f_(args[I]...));
    }
  }
  F f_;
};

// f(std::vector<Array>) for a function of a list of arrays.
template <class F>
class ListFunction final : public HostFunction {
 public:
  explicit ListFunction(F f) : f_(std::move(f)) {}
  std::vector<Array> operator()(std::span<const Array> args) const override {
    std::vector<Array> list(args.begin(), args.end());
    using R = decltype(f_(list));
    if constexpr (std::is_void_v<R>) {
      f_(list);
      return {};
    } else {
      return as_results(f_(list));
    }
  }

 private:
  F f_;
};

template <class... A>
inline constexpr bool all_arrays = (std::is_convertible_v<const A&, Array> && ...);

template <class F, class... A>
std::vector<Array> callback_of(CallbackKind kind, F&& f, std::vector<ShapeDtypeStruct> results,
                               const CallbackOptions& options, const A&... args) {
  auto fn = std::make_shared<ArrayFunction<std::decay_t<F>, sizeof...(A)>>(std::forward<F>(f));
  return bind_callback(kind, std::move(fn), std::move(results), std::vector<Array>{Array(args)...}, options);
}

template <class F>
std::vector<Array> list_callback_of(CallbackKind kind, F&& f, std::vector<ShapeDtypeStruct> results,
                                    std::vector<Array> args, const CallbackOptions& options) {
  auto fn = std::make_shared<ListFunction<std::decay_t<F>>>(std::forward<F>(f));
  return bind_callback(kind, std::move(fn), std::move(results), std::move(args), options);
}

}  // namespace detail

// ---- pure_callback (jax.pure_callback) -----------------------------------------------------
// f(const Array&...) returns an Array (one result) or a std::vector<Array> (several). f must be
// pure: its call may be removed when its results are unused, merged with an identical call, or
// repeated (vmap). Options, when given, come right before the arguments.

template <class F, class... A>
  requires detail::all_arrays<A...>
Array pure_callback(F&& f, ShapeDtypeStruct result, const A&... args) {
  return detail::callback_of(detail::CallbackKind::pure, std::forward<F>(f), {std::move(result)}, {}, args...)[0];
}
template <class F, class... A>
  requires detail::all_arrays<A...>
Array pure_callback(F&& f, ShapeDtypeStruct result, const CallbackOptions& options, const A&... args) {
  return detail::callback_of(detail::CallbackKind::pure, std::forward<F>(f), {std::move(result)}, options, args...)[0];
}
template <class F, class... A>
  requires detail::all_arrays<A...>
std::vector<Array> pure_callback(F&& f, std::vector<ShapeDtypeStruct> results, const A&... args) {
  return detail::callback_of(detail::CallbackKind::pure, std::forward<F>(f), std::move(results), {}, args...);
}
template <class F, class... A>
  requires detail::all_arrays<A...>
std::vector<Array> pure_callback(F&& f, std::vector<ShapeDtypeStruct> results, const CallbackOptions& options,
                                 const A&... args) {
  return detail::callback_of(detail::CallbackKind::pure, std::forward<F>(f), std::move(results), options, args...);
}
// A list of arguments: f(const std::vector<Array>&) returns a std::vector<Array>.
template <class F>
std::vector<Array> pure_callback_list(F&& f, std::vector<ShapeDtypeStruct> results, std::vector<Array> args,
                                      const CallbackOptions& options = {}) {
  return detail::list_callback_of(detail::CallbackKind::pure, std::forward<F>(f), std::move(results), std::move(args),
                                  options);
}

// ---- io_callback (jax.experimental.io_callback) --------------------------------------------
// A function with side effects (it writes a file, reads a sensor, updates a counter): every call
// the program makes runs, in program order, even when its results are unused. vmap loops over
// the batch (refused when `ordered`); it has no derivative.

template <class F, class... A>
  requires detail::all_arrays<A...>
Array io_callback(F&& f, ShapeDtypeStruct result, const A&... args) {
  return detail::callback_of(detail::CallbackKind::io, std::forward<F>(f), {std::move(result)}, {}, args...)[0];
}
template <class F, class... A>
  requires detail::all_arrays<A...>
Array io_callback(F&& f, ShapeDtypeStruct result, const CallbackOptions& options, const A&... args) {
  return detail::callback_of(detail::CallbackKind::io, std::forward<F>(f), {std::move(result)}, options, args...)[0];
}
template <class F, class... A>
  requires detail::all_arrays<A...>
std::vector<Array> io_callback(F&& f, std::vector<ShapeDtypeStruct> results, const A&... args) {
  return detail::callback_of(detail::CallbackKind::io, std::forward<F>(f), std::move(results), {}, args...);
}
template <class F, class... A>
  requires detail::all_arrays<A...>
std::vector<Array> io_callback(F&& f, std::vector<ShapeDtypeStruct> results, const CallbackOptions& options,
                               const A&... args) {
  return detail::callback_of(detail::CallbackKind::io, std::forward<F>(f), std::move(results), options, args...);
}

namespace debug {

// jax.debug.callback: f(const Array&...) (its result ignored) runs with the values whenever the
// code runs: eagerly at once, under jit each time the compiled code reaches it; under vmap once
// per batch element; under grad with the primal values; never removed as dead code.
template <class F, class... A>
  requires detail::all_arrays<A...>
void callback(F&& f, const A&... args) {
  auto g = [f = std::forward<F>(f)](const auto&... xs) { f(xs...); };
  detail::callback_of(detail::CallbackKind::debug, std::move(g), {}, {}, args...);
}
template <class F, class... A>
  requires detail::all_arrays<A...>
void callback(F&& f, const CallbackOptions& options, const A&... args) {
  auto g = [f = std::forward<F>(f)](const auto&... xs) { f(xs...); };
  detail::callback_of(detail::CallbackKind::debug, std::move(g), {}, options, args...);
}

// The text jax.debug.print writes for `fmt` and `args` (Python's str.format): `{}` takes the
// next argument, `{N}` argument N, `{:spec}` / `{N:spec}` a printf-like spec for a 0-d array
// (".3f", "e", "d", "x", width and sign flags); `{{` and `}}` are braces. Without any field the
// arguments follow the text, separated by spaces. A field past the arguments, or an argument
// no field uses, is a ValueError.
std::string format(std::string_view fmt, std::span<const Array> args);

// jax.debug.print: format(fmt, values) and a newline to stdout, when the code runs (as
// debug::callback). The format is checked against the arguments when print is called.
template <class... A>
  requires detail::all_arrays<A...>
void print(std::string fmt, const A&... args) {
  detail::debug_print(std::move(fmt), std::vector<Array>{Array(args)...}, {});
}
template <class... A>
  requires detail::all_arrays<A...>
void print(std::string fmt, const CallbackOptions& options, const A&... args) {
  detail::debug_print(std::move(fmt), std::vector<Array>{Array(args)...}, options);
}

// A run-time assertion in traced code (jax.experimental.checkify.check, raising at once): when
// the code runs and any element of the boolean `pred` is false, the call running it — the
// jitted function's, or eagerly this one — throws a ValueError "debug::check failed: " +
// format(fmt, args). A debug callback: never removed as dead code, per example under vmap, on
// primal values under grad.
//   st::debug::check(st::all(x > 0.0f), "x must be positive, got {}", x);
template <class... A>
  requires detail::all_arrays<A...>
void check(const Array& pred, std::string fmt, const A&... args) {
  detail::debug_check(pred, std::move(fmt), std::vector<Array>{Array(args)...});
}

}  // namespace debug
}  // namespace strata
