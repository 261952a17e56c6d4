// strata/pytree.h — pytrees: nested C++ containers whose leaves are Arrays.
//
// Function arguments and results may be any nesting of Array, std::vector, std::array,
// std::tuple, std::pair, std::map<std::string, …> and user structs registered with
// STRATA_PYTREE. Any other value (int, float, bool, std::string, an enum, …) is static: it
// holds no Array, and transforms bake it into the trace (and, under jit, into the cache key).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
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

// The signature of a call, as jit's cache key: the tree structure, each leaf's abstract value
// (shape, dtype, weak type) and the value of each static argument, as 64-bit words; plus the
// leaves themselves. Reused across calls (clear() keeps capacity), so the hot path does not
// allocate.
struct Signature {
  std::vector<uint64_t> words;
  std::vector<Array> leaves;
  void clear() {
    words.clear();
    leaves.clear();
  }
  void word(uint64_t w) { words.push_back(w); }
  void leaf(const Array& a);  // the leaf and its abstract value
  void bytes(const void* data, std::size_t n);
  uint64_t hash() const;
};

// One readable line per leaf or static value ("argument 0" → "f32[8,4096]"), for the jit log's
// "recompiling f: argument 0 f32[8,4096] → f32[16,4096]".
using Description = std::vector<std::pair<std::string, std::string>>;
void describe_leaf(const Array& a, const std::string& path, Description& out);

// Structure tokens: one per container kind, so that [a, (b,)] and [(a,), b] differ.
enum : uint64_t { kTokArray = 1, kTokVector, kTokArrayN, kTokTuple, kTokPair, kTokMap, kTokStruct, kTokStatic };

template <class T>
concept Hashable = requires(const T& v) { { std::hash<T>{}(v) } -> std::convertible_to<std::size_t>; };

// A static value into the signature: arithmetic values and enums by bits, strings by bytes,
// other types by std::hash (they must have one, and equal hashes are taken as equal values).
template <class T>
void sign_static(const T& v, Signature& s) {
  s.word(kTokStatic);
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    uint64_t w = 0;
    std::memcpy(&w, &v, sizeof(T) <= 8 ? sizeof(T) : 8);
    s.word(w);
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    std::string_view sv = v;
    s.word(sv.size());
    s.bytes(sv.data(), sv.size());
  } else if constexpr (Hashable<T>) {
    s.word(std::hash<T>{}(v));
  } else {
    static_assert(Hashable<T>, "strata: a static (non-Array) argument must be arithmetic, an enum, a string, or have std::hash");
  }
}

template <class T>
std::string describe_static(const T& v) {
  if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
  else if constexpr (std::is_arithmetic_v<T>) return std::to_string(v);
  else if constexpr (std::is_enum_v<T>) return "enum " + std::to_string(static_cast<long long>(v));
  else if constexpr (std::is_convertible_v<const T&, std::string_view>) return "\"" + std::string(std::string_view(v)) + "\"";
  else return "a value with hash " + std::to_string(std::hash<T>{}(v));
}

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
  static void sign(const T& v, Signature& s) { sign_static(v, s); }
  static void describe(const T& v, const std::string& path, Description& out) {
    out.emplace_back(path + " (static)", describe_static(v));
  }
};

template <>
struct Tree<Array> {
  static constexpr bool kStatic = false;
  static void flatten(const Array& a, std::vector<Array>& out) { out.push_back(a); }
  static Array unflatten(const Array&, const Array*& it) { return *it++; }
  static void sign(const Array& a, Signature& s) {
    s.word(kTokArray);
    s.leaf(a);
  }
  static void describe(const Array& a, const std::string& path, Description& out) { describe_leaf(a, path, out); }
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
  static void sign(const std::vector<T>& v, Signature& s) {
    s.word(kTokVector);
    s.word(v.size());
    for (const T& x : v) Tree<T>::sign(x, s);
  }
  static void describe(const std::vector<T>& v, const std::string& path, Description& out) {
    for (std::size_t i = 0; i < v.size(); ++i) Tree<T>::describe(v[i], path + "[" + std::to_string(i) + "]", out);
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
  static void sign(const std::array<T, N>& v, Signature& s) {
    s.word(kTokArrayN);
    s.word(N);
    for (const T& x : v) Tree<T>::sign(x, s);
  }
  static void describe(const std::array<T, N>& v, const std::string& path, Description& out) {
    for (std::size_t i = 0; i < N; ++i) Tree<T>::describe(v[i], path + "[" + std::to_string(i) + "]", out);
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
  static void sign(const std::tuple<Ts...>& t, Signature& s) {
    s.word(kTokTuple);
    s.word(sizeof...(Ts));
    std::apply([&](const auto&... x) { (Tree<std::decay_t<decltype(x)>>::sign(x, s), ...); }, t);
  }
  static void describe(const std::tuple<Ts...>& t, const std::string& path, Description& out) {
    std::size_t i = 0;
    std::apply([&](const auto&... x) {
      ((Tree<std::decay_t<decltype(x)>>::describe(x, path + "[" + std::to_string(i++) + "]", out)), ...);
    }, t);
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
  static void sign(const std::pair<A, B>& p, Signature& s) {
    s.word(kTokPair);
    Tree<A>::sign(p.first, s);
    Tree<B>::sign(p.second, s);
  }
  static void describe(const std::pair<A, B>& p, const std::string& path, Description& out) {
    Tree<A>::describe(p.first, path + ".first", out);
    Tree<B>::describe(p.second, path + ".second", out);
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
  static void sign(const std::map<std::string, V>& m, Signature& s) {
    s.word(kTokMap);
    s.word(m.size());
    for (const auto& [k, v] : m) {
      s.word(k.size());
      s.bytes(k.data(), k.size());
      Tree<V>::sign(v, s);
    }
  }
  static void describe(const std::map<std::string, V>& m, const std::string& path, Description& out) {
    for (const auto& [k, v] : m) Tree<V>::describe(v, path + "[\"" + k + "\"]", out);
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
  static void sign(const T& v, Signature& s) {
    s.word(kTokStruct);
    std::apply([&](const auto&... f) { (Tree<std::decay_t<decltype(f)>>::sign(f, s), ...); }, strata_pytree_fields(v));
  }
  static void describe(const T& v, const std::string& path, Description& out) {
    // Field names come from the STRATA_PYTREE macro's text: "w1, b1, w2".
    std::string names = strata_pytree_names(static_cast<const T*>(nullptr));
    std::size_t pos = 0;
    auto next_name = [&] {
      std::size_t end = names.find(',', pos);
      std::string n = names.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      pos = end == std::string::npos ? names.size() : end + 1;
      n.erase(0, n.find_first_not_of(' '));
      return n;
    };
    std::apply([&](const auto&... f) { ((Tree<std::decay_t<decltype(f)>>::describe(f, path + "." + next_name(), out)), ...); },
               strata_pytree_fields(v));
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

// `value` with every leaf replaced by a null Array: its structure (and static values) alone.
template <class T>
T tree_strip(const T& value) {
  return tree_map(value, [](const Array&) { return Array(); });
}

// True when T carries no Arrays at all (a static argument).
template <class T>
inline constexpr bool is_static_v = tree::Tree<std::decay_t<T>>::kStatic;

}  // namespace strata
