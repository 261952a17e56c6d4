// strata/pytree.h — pytrees: nested C++ containers whose leaves are Arrays.
//
// Function arguments and results may be any nesting of Array, std::vector, std::array,
// std::tuple, std::pair, std::map<std::string, …> and user structs registered with
// STRATA_PYTREE. Any other value (int, float, bool, std::string, an enum, …) is static: it
// holds no Array, and transforms bake it into the trace (and, under jit, into the cache key).
#pragma once

#include <array>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/errors.h"

namespace strata {

// Registers a struct as a pytree node whose children are the named fields, in order:
//   struct Params { st::Array w1, b1, w2; };
//   STRATA_PYTREE(Params, w1, b1, w2);
// Use it at namespace scope, in the struct's own namespace (it defines functions found by
// argument-dependent lookup). Fields may themselves be pytrees or static values.
#define STRATA_PYTREE(Type, ...)                                                              \
  [[maybe_unused]] inline auto strata_pytree_fields(Type& strata_self) {                     \
    return std::tie(STRATA_PP_FOR_EACH(STRATA_PP_FIELD, __VA_ARGS__));                       \
  }                                                                                           \
  [[maybe_unused]] inline auto strata_pytree_fields(const Type& strata_self) {               \
    return std::tie(STRATA_PP_FOR_EACH(STRATA_PP_FIELD, __VA_ARGS__));                       \
  }                                                                                           \
  [[maybe_unused]] inline constexpr const char* strata_pytree_names(const Type*) {           \
    return #__VA_ARGS__;                                                                      \
  }                                                                                           \
  static_assert(true, "")

// ---- Preprocessor iteration (up to 24 fields) ----
#define STRATA_PP_FIELD(f) strata_self.f
#define STRATA_PP_EXPAND(x) x
#define STRATA_PP_FE_1(m, a) m(a)
#define STRATA_PP_FE_2(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_1(m, __VA_ARGS__))
#define STRATA_PP_FE_3(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_2(m, __VA_ARGS__))
#define STRATA_PP_FE_4(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_3(m, __VA_ARGS__))
#define STRATA_PP_FE_5(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_4(m, __VA_ARGS__))
#define STRATA_PP_FE_6(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_5(m, __VA_ARGS__))
#define STRATA_PP_FE_7(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_6(m, __VA_ARGS__))
#define STRATA_PP_FE_8(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_7(m, __VA_ARGS__))
#define STRATA_PP_FE_9(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_8(m, __VA_ARGS__))
#define STRATA_PP_FE_10(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_9(m, __VA_ARGS__))
#define STRATA_PP_FE_11(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_10(m, __VA_ARGS__))
#define STRATA_PP_FE_12(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_11(m, __VA_ARGS__))
#define STRATA_PP_FE_13(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_12(m, __VA_ARGS__))
#define STRATA_PP_FE_14(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_13(m, __VA_ARGS__))
#define STRATA_PP_FE_15(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_14(m, __VA_ARGS__))
#define STRATA_PP_FE_16(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_15(m, __VA_ARGS__))
#define STRATA_PP_FE_17(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_16(m, __VA_ARGS__))
#define STRATA_PP_FE_18(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_17(m, __VA_ARGS__))
#define STRATA_PP_FE_19(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_18(m, __VA_ARGS__))
#define STRATA_PP_FE_20(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_19(m, __VA_ARGS__))
#define STRATA_PP_FE_21(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_20(m, __VA_ARGS__))
#define STRATA_PP_FE_22(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_21(m, __VA_ARGS__))
#define STRATA_PP_FE_23(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_22(m, __VA_ARGS__))
#define STRATA_PP_FE_24(m, a, ...) m(a), STRATA_PP_EXPAND(STRATA_PP_FE_23(m, __VA_ARGS__))
#define STRATA_PP_GET(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, \
                      _18, _19, _20, _21, _22, _23, _24, N, ...) N
#define STRATA_PP_FOR_EACH(m, ...)                                                               \
  STRATA_PP_EXPAND(STRATA_PP_GET(__VA_ARGS__, STRATA_PP_FE_24, STRATA_PP_FE_23, STRATA_PP_FE_22, \
                                 STRATA_PP_FE_21, STRATA_PP_FE_20, STRATA_PP_FE_19, STRATA_PP_FE_18, \
                                 STRATA_PP_FE_17, STRATA_PP_FE_16, STRATA_PP_FE_15, STRATA_PP_FE_14, \
                                 STRATA_PP_FE_13, STRATA_PP_FE_12, STRATA_PP_FE_11, STRATA_PP_FE_10, \
                                 STRATA_PP_FE_9, STRATA_PP_FE_8, STRATA_PP_FE_7, STRATA_PP_FE_6,     \
                                 STRATA_PP_FE_5, STRATA_PP_FE_4, STRATA_PP_FE_3, STRATA_PP_FE_2,     \
                                 STRATA_PP_FE_1)(m, __VA_ARGS__))

namespace tree {

template <class T>
concept Registered = requires(T& t) { strata_pytree_fields(t); };

// Tree<T> knows how to walk T: `flatten` appends T's leaves in order; `unflatten` rebuilds a T
// shaped like `proto` taking leaves from `it` in the same order. A type without a
// specialisation is static: it has no leaves and is copied as it is.
template <class T, class = void>
struct Tree {
  static constexpr bool kStatic = true;
  static void flatten(const T&, std::vector<Array>&) {}
  static T unflatten(const T& proto, const Array*&) { return proto; }
};

template <>
struct Tree<Array> {
  static constexpr bool kStatic = false;
  static void flatten(const Array& a, std::vector<Array>& out) { out.push_back(a); }
  static Array unflatten(const Array&, const Array*& it) { return *it++; }
};

template <class T>
struct Tree<std::vector<T>> {
  static constexpr bool kStatic = false;
  static void flatten(const std::vector<T>& v, std::vector<Array>& out) {
    for (const T& x : v) Tree<T>::flatten(x, out);
  }
  static std::vector<T> unflatten(const std::vector<T>& proto, const Array*& it) {
    std::vector<T> r;
    r.reserve(proto.size());
    for (const T& x : proto) r.push_back(Tree<T>::unflatten(x, it));
    return r;
  }
};

template <class T, std::size_t N>
struct Tree<std::array<T, N>> {
  static constexpr bool kStatic = false;
  static void flatten(const std::array<T, N>& v, std::vector<Array>& out) {
    for (const T& x : v) Tree<T>::flatten(x, out);
  }
  static std::array<T, N> unflatten(const std::array<T, N>& proto, const Array*& it) {
    std::array<T, N> r = proto;
    for (std::size_t i = 0; i < N; ++i) r[i] = Tree<T>::unflatten(proto[i], it);
    return r;
  }
};

template <class... Ts>
struct Tree<std::tuple<Ts...>> {
  static constexpr bool kStatic = false;
  static void flatten(const std::tuple<Ts...>& t, std::vector<Array>& out) {
    std::apply([&](const auto&... x) { (Tree<std::decay_t<decltype(x)>>::flatten(x, out), ...); }, t);
  }
  static std::tuple<Ts...> unflatten(const std::tuple<Ts...>& proto, const Array*& it) {
    // Braced initialisation evaluates left to right, so leaves are consumed in order.
    return std::apply([&](const auto&... x) { return std::tuple<Ts...>{Tree<std::decay_t<decltype(x)>>::unflatten(x, it)...}; }, proto);
  }
};

template <class A, class B>
struct Tree<std::pair<A, B>> {
  static constexpr bool kStatic = false;
  static void flatten(const std::pair<A, B>& p, std::vector<Array>& out) {
    Tree<A>::flatten(p.first, out);
    Tree<B>::flatten(p.second, out);
  }
  static std::pair<A, B> unflatten(const std::pair<A, B>& proto, const Array*& it) {
    A a = Tree<A>::unflatten(proto.first, it);
    B b = Tree<B>::unflatten(proto.second, it);
    return {std::move(a), std::move(b)};
  }
};

template <class V>
struct Tree<std::map<std::string, V>> {
  static constexpr bool kStatic = false;
  static void flatten(const std::map<std::string, V>& m, std::vector<Array>& out) {
    for (const auto& [k, v] : m) Tree<V>::flatten(v, out);
  }
  static std::map<std::string, V> unflatten(const std::map<std::string, V>& proto, const Array*& it) {
    std::map<std::string, V> r;
    for (const auto& [k, v] : proto) r.emplace(k, Tree<V>::unflatten(v, it));
    return r;
  }
};

template <class T>
struct Tree<T, std::enable_if_t<Registered<T>>> {
  static constexpr bool kStatic = false;
  static void flatten(const T& s, std::vector<Array>& out) {
    std::apply([&](const auto&... f) { (Tree<std::decay_t<decltype(f)>>::flatten(f, out), ...); },
               strata_pytree_fields(s));
  }
  static T unflatten(const T& proto, const Array*& it) {
    T r = proto;
    auto src = strata_pytree_fields(proto);
    auto dst = strata_pytree_fields(r);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(dst) = Tree<std::decay_t<decltype(std::get<I>(src))>>::unflatten(std::get<I>(src), it)), ...);
    }(std::make_index_sequence<std::tuple_size_v<decltype(src)>>{});
    return r;
  }
};

}  // namespace tree

// The leaves of `value`, in order (depth first, fields and elements in order, maps by key).
template <class T>
std::vector<Array> tree_flatten(const T& value) {
  std::vector<Array> leaves;
  tree::Tree<std::decay_t<T>>::flatten(value, leaves);
  return leaves;
}

// A value shaped like `proto` with its leaves replaced by `leaves` (as many as proto has).
template <class T>
T tree_unflatten(const T& proto, std::span<const Array> leaves) {
  std::size_t want = tree_flatten(proto).size();
  if (want != leaves.size())
    throw ValueError("tree_unflatten: the structure has " + std::to_string(want) +
                     " leaves, but got " + std::to_string(leaves.size()));
  const Array* it = leaves.data();
  return tree::Tree<T>::unflatten(proto, it);
}

// `f` applied to every leaf: tree_map(params, [](const Array& p) { return p * 0.5f; }).
template <class T, class F>
T tree_map(const T& value, F&& f) {
  std::vector<Array> leaves = tree_flatten(value);
  for (Array& a : leaves) a = f(a);
  return tree_unflatten(value, leaves);
}

// True when T carries no Arrays at all (a static argument).
template <class T>
inline constexpr bool is_static_v = tree::Tree<std::decay_t<T>>::kStatic;

}  // namespace strata
