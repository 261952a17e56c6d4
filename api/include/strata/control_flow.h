// strata/control_flow.h — structured control flow on traced values, with JAX's lax semantics:
// cond, switch_, while_loop, fori_loop, scan. Each traces its functions once into sub-programs
// (so a C++ `if`/`for` on a traced Array is not needed); carries and operands are pytrees.
//
//   st::Array y = st::cond(x.sum() > 0.0f, [](auto v) { return v * 2.0f; }, [](auto v) { return -v; }, x);
//   auto [i, acc] = st::while_loop([](const auto& c) { return c.first < 10; },
//                                  [](const auto& c) { return std::make_pair(c.first + 1, c.second * 2.0f); },
//                                  std::make_pair(st::scalar(0, st::i32), x));
//   auto [last, ys] = st::scan([](st::Array c, st::Array x) { return std::make_pair(c + x, c); },
//                              st::zeros({4}), xs);          // xs: [T, 4]; ys: [T, 4]
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/jaxpr.h"
#include "strata/creation.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {

// Options of scan (JAX's length, reverse, unroll). length is needed when xs has no leaves;
// unroll puts that many steps in each trip of the compiled loop (fewer trips, longer bodies).
struct ScanOptions {
  std::optional<int64_t> length;
  bool reverse = false;
  int unroll = 1;
};

// checkpoint(f) (JAX's jax.checkpoint / remat): f itself, but a scan (or static fori_loop)
// whose body is checkpointed saves only each step's carry for reverse mode and recomputes the
// rest of the step in the backward pass (less memory, more work).
template <class F>
struct Checkpointed {
  F f;
  template <class... A>
  auto operator()(A&&... a) -> decltype(f(std::forward<A>(a)...)) {
    return f(std::forward<A>(a)...);
  }
};
template <class F>
Checkpointed<F> checkpoint(F f) {
  return {std::move(f)};
}

namespace detail {
template <class F>
inline constexpr bool is_checkpointed_v = false;
template <class F>
inline constexpr bool is_checkpointed_v<Checkpointed<F>> = true;

// The i32 index cond binds: a bool or number 0-d predicate becomes 0 (false) or 1 (true).
Array cond_index(const Array& pred, const char* who);
// switch_'s index: a 0-d integer array, as i32.
Array switch_index(const Array& index);
// Throws ShapeError at the first leaf where `got` differs from `want` (structure or type):
// "WHO: GOT_WHAT carry[1].w is f32[4,8], WANT_WHAT was f32[8,4]".
void check_same_tree(const char* who, const char* got_what, const tree::Description& got, const char* want_what,
                     const tree::Description& want);
// Bind the primitives; each jaxpr's captured values become leading operands.
std::vector<Array> cond_call(const Array& index, const std::vector<Jaxpr>& branches, const std::vector<Array>& operands,
                             SourceLocation loc);
std::vector<Array> while_call(const Jaxpr& cond, const Jaxpr& body, const std::vector<Array>& init, SourceLocation loc);
std::vector<Array> scan_call(const Jaxpr& body, std::size_t num_carry, const std::vector<Array>& init,
                             const std::vector<Array>& xs, int64_t length, const ScanOptions& options, bool remat,
                             SourceLocation loc);
// Placeholders of one step's slice of each xs leaf, and the scan's length (checked).
std::vector<Array> scan_slices(const std::vector<Array>& xs, std::optional<int64_t> length, int64_t& out_length);

template <class T>
tree::Description describe(const T& v, const std::string& root) {
  tree::Description d;
  tree::Tree<std::decay_t<T>>::describe(v, root, d);
  return d;
}

// Traces f(operands...) and returns its result (with tracers) and program.
template <class F, class... Ops>
auto trace_branch(F& f, const Ops&... operands) {
  TraceScope scope;
  auto out = call_traced(scope, f, operands...);
  Jaxpr j = scope.finish(tree_flatten(out));
  return std::make_pair(std::move(out), std::move(j));
}

template <class... Fs, class... Ops>
auto switch_impl(const Array& index, std::tuple<Fs...>& branches, SourceLocation loc, const char* who,
                 const char* const* names, const Ops&... operands) {
  std::vector<Jaxpr> jaxprs;
  std::vector<tree::Description> descs;
  auto outs = std::apply([&](auto&... f) { return std::make_tuple(trace_branch(f, operands...)...); }, branches);
  using Out = std::decay_t<decltype(std::get<0>(outs).first)>;
  std::apply([&](auto&... o) {
    static_assert((std::is_same_v<std::decay_t<decltype(o.first)>, Out> && ...),
                  "cond/switch_: every branch must return the same type");
    (jaxprs.push_back(o.second), ...);
    (descs.push_back(describe(o.first, "output")), ...);
  }, outs);
  for (std::size_t k = 1; k < descs.size(); ++k) check_same_tree(who, names[k], descs[k], names[0], descs[0]);
  std::vector<Array> leaves;
  (tree::Tree<std::decay_t<Ops>>::flatten(operands, leaves), ...);
  std::vector<Array> results = cond_call(index, jaxprs, leaves, loc);
  return tree_unflatten(tree_strip(std::get<0>(outs).first), results);
}
}  // namespace detail

// cond(pred, true_fn, false_fn, operands...): true_fn(operands...) if the 0-d pred holds, else
// false_fn(operands...). Both branches are traced and must return the same pytree type.
template <class TF, class FF, class... Ops>
auto cond(const Array& pred, TF true_fn, FF false_fn, const Ops&... operands) {
  static const char* const names[] = {"false_fn output", "true_fn output"};
  std::tuple<FF, TF> branches{std::move(false_fn), std::move(true_fn)};
  return detail::switch_impl(detail::cond_index(pred, "cond"), branches, SourceLocation::current(), "cond", names,
                             operands...);
}

// switch_(index, std::tuple{f0, f1, ...}, operands...): branches[index](operands...), the
// index clamped to the branches (JAX's lax.switch). A std::vector of std::function works too.
template <class... Fs, class... Ops>
auto switch_(const Array& index, std::tuple<Fs...> branches, const Ops&... operands) {
  static_assert(sizeof...(Fs) >= 1, "switch_: needs at least one branch");
  static const char* const names[] = {"branch 0 output", "branch 1 output", "branch 2 output", "branch 3 output",
                                      "branch 4 output", "branch 5 output", "branch 6 output", "branch 7 output",
                                      "branch 8 output", "branch 9 output", "a branch's output"};
  static_assert(sizeof...(Fs) <= 10, "switch_: at most 10 branches in a tuple; use a std::vector of std::function");
  return detail::switch_impl(detail::switch_index(index), branches, SourceLocation::current(), "switch_", names,
                             operands...);
}
template <class R, class... A, class... Ops>
R switch_(const Array& index, const std::vector<std::function<R(A...)>>& branches, const Ops&... operands) {
  if (branches.empty()) throw ValueError("switch_: needs at least one branch");
  std::vector<Jaxpr> jaxprs;
  std::optional<R> first;
  tree::Description want;
  for (std::size_t k = 0; k < branches.size(); ++k) {
    auto f = branches[k];
    auto [out, j] = detail::trace_branch(f, operands...);
    tree::Description d = detail::describe(out, "output");
    if (k == 0) {
      want = d;
      first = out;
    } else {
      detail::check_same_tree("switch_", "a branch's output", d, "branch 0 output", want);
    }
    jaxprs.push_back(j);
  }
  std::vector<Array> leaves;
  (tree::Tree<std::decay_t<Ops>>::flatten(operands, leaves), ...);
  std::vector<Array> results = detail::cond_call(detail::switch_index(index), jaxprs, leaves, SourceLocation::current());
  return tree_unflatten(tree_strip(*first), results);
}

// while_loop(cond_fn, body_fn, init): carry = init; while (cond_fn(carry)) carry = body_fn(carry).
// cond_fn returns a 0-d bool Array; body_fn returns the carry's pytree type, leaf types
// unchanged. Not reverse-differentiable (as in JAX); use scan or a static fori_loop.
template <class C, class B, class T>
T while_loop(C cond_fn, B body_fn, const T& init) {
  static_assert(!is_static_v<T>, "while_loop: the carry must hold Arrays");
  auto [pred, cj] = detail::trace_branch(cond_fn, init);
  static_assert(std::is_same_v<std::decay_t<decltype(pred)>, Array>, "while_loop: cond_fn must return an Array");
  auto [out, bj] = detail::trace_branch(body_fn, init);
  static_assert(std::is_same_v<std::decay_t<decltype(out)>, T>, "while_loop: body_fn must return the carry's type");
  detail::check_same_tree("while_loop", "body output", detail::describe(out, "carry"), "input",
                          detail::describe(init, "carry"));
  std::vector<Array> results = detail::while_call(cj, bj, tree_flatten(init), SourceLocation::current());
  return tree_unflatten(init, results);
}

// scan(f, init, xs, options) → (final carry, stacked ys): f(carry, x) returns (carry, y) as a
// std::pair or std::tuple of two; x is one step's slice of every leaf of xs (along axis 0),
// and the ys are stacked along a new axis 0. xs may be std::tuple<>{} with options.length.
template <class F, class C, class X>
auto scan(F f, const C& init, const X& xs, ScanOptions options = {}) {
  std::vector<Array> x_leaves = tree_flatten(xs);
  int64_t length = 0;
  std::vector<Array> slices = detail::scan_slices(x_leaves, options.length, length);
  X x_proto = tree_unflatten(xs, slices);
  detail::TraceScope scope;
  auto out = detail::call_traced(scope, f, init, x_proto);
  using Carry = std::decay_t<decltype(std::get<0>(out))>;
  static_assert(std::is_same_v<Carry, C>, "scan: f must return (carry, y) with the carry's type");
  std::vector<Array> body_out = tree_flatten(std::get<0>(out));
  std::size_t num_carry = body_out.size();
  for (const Array& y : tree_flatten(std::get<1>(out))) body_out.push_back(y);
  Jaxpr j = scope.finish(body_out);
  detail::check_same_tree("scan", "body output", detail::describe(std::get<0>(out), "carry"), "input",
                          detail::describe(init, "carry"));
  std::vector<Array> results = detail::scan_call(j, num_carry, tree_flatten(init), x_leaves, length, options,
                                                 detail::is_checkpointed_v<F>, SourceLocation::current());
  std::vector<Array> carry(results.begin(), results.begin() + static_cast<std::ptrdiff_t>(num_carry));
  std::vector<Array> ys(results.begin() + static_cast<std::ptrdiff_t>(num_carry), results.end());
  return std::make_pair(tree_unflatten(init, carry), tree_unflatten(tree_strip(std::get<1>(out)), ys));
}

// fori_loop(lo, hi, body, init): for (i = lo; i < hi; ++i) x = body(i, x), i an i32 Array.
// With int bounds the trip count is static and the loop is a scan (reverse-differentiable;
// st::checkpoint(body) recomputes each step in reverse mode); with Array bounds it is a
// while_loop.
template <class B, class T>
T fori_loop(int64_t lo, int64_t hi, B body, const T& init) {
  auto step = [&body](const std::pair<Array, T>& c, const std::tuple<>&) {
    T next = body(c.first, c.second);
    return std::make_pair(std::make_pair(c.first + 1, std::move(next)), std::tuple<>{});
  };
  using Step = decltype(step);
  int64_t n = hi > lo ? hi - lo : 0;
  auto init_c = std::make_pair(full({}, static_cast<double>(lo), i32), init);
  if constexpr (detail::is_checkpointed_v<B>) {
    return scan(Checkpointed<Step>{step}, init_c, std::tuple<>{}, {.length = n}).first.second;
  } else {
    return scan(step, init_c, std::tuple<>{}, {.length = n}).first.second;
  }
}
template <class B, class T>
T fori_loop(const Array& lo, const Array& hi, B body, const T& init) {
  Array lo32 = detail::switch_index(lo), hi32 = detail::switch_index(hi);
  auto c = while_loop([hi32](const std::pair<Array, T>& s) { return s.first < hi32; },
                      [&body](const std::pair<Array, T>& s) { return std::make_pair(s.first + 1, body(s.first, s.second)); },
                      std::make_pair(lo32, init));
  return c.second;
}

}  // namespace strata
