// strata/vectorize.h — jnp.vectorize: a function of core-shaped arrays becomes a function of
// arrays with any leading ("loop") dimensions, broadcast together as NumPy's generalized
// ufuncs are, by one vmap per loop dimension.
//
//   auto matvec = st::vectorize([](const st::Array& m, const st::Array& v) { return st::matmul(m, v); },
//                               "(m,n),(n)->(m)");
//   matvec(ms, vs);   // ms: [B, 1, m, n], vs: [C, n] → [B, C, m]
//
// The signature (NumPy's gufunc syntax) names each input's and output's core dimensions; a
// name means one size everywhere. Without one, every input's core is 0-d (elementwise). Array
// arguments are vectorized; any other argument is passed through unchanged (jnp.vectorize's
// `excluded`). A loop dimension of size 1 is not mapped (the argument is shared, never
// broadcast in memory), as JAX does. f may return an Array or a pytree of them.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/vmap.h"

namespace strata {
namespace detail {

// The core dimension names of each input and output: "(m,n),(n)->(m)".
struct GufuncSignature {
  std::vector<std::vector<std::string>> inputs, outputs;
};
GufuncSignature parse_gufunc_signature(const std::string& signature);

// Checks the arrays' core dimensions against the signature (recording each name's size in
// `sizes`), broadcasts their loop shapes and reshapes each to (its loop shape left-padded with
// 1s to the common rank) + its core shape. Returns the number of loop dimensions.
std::size_t vectorize_inputs(const std::optional<GufuncSignature>& sig, std::vector<Array>& arrays,
                             std::map<std::string, int64_t>& sizes);
// Checks f's (core) outputs against the signature's output dimensions.
void vectorize_check_outputs(const std::optional<GufuncSignature>& sig, const std::vector<Array>& outputs,
                             std::map<std::string, int64_t> sizes);
// x without its leading dimension of size 1.
Array drop_leading(const Array& x);

// For each argument type, its position among the Array arguments (-1: passed through).
template <class... Args>
constexpr std::array<int, sizeof...(Args)> array_positions() {
  std::array<int, sizeof...(Args)> pos{};
  int n = 0;
  std::size_t i = 0;
  ((pos[i++] = std::is_same_v<std::decay_t<Args>, Array> ? n++ : -1), ...);
  return pos;
}

template <class F, class... Args>
struct Vectorized {
  using Result = std::decay_t<std::invoke_result_t<F&, const Args&...>>;
  F& f;
  const std::tuple<const Args&...>& args;
  const std::optional<GufuncSignature>& sig;
  const std::map<std::string, int64_t>& sizes;
  std::size_t loops;

  template <std::size_t I>
  decltype(auto) argument(const std::vector<Array>& arrays) const {
    constexpr int pos = array_positions<Args...>()[I];
    if constexpr (pos >= 0)
      return arrays[static_cast<std::size_t>(pos)];
    else
      return std::get<I>(args);
  }
  template <std::size_t... I>
  Result call(const std::vector<Array>& arrays, std::index_sequence<I...>) const {
    return Result(f(argument<I>(arrays)...));
  }

  // Each array's leading dimension is loop dimension k: vmap along it where its size is not 1.
  Result run(std::size_t k, const std::vector<Array>& arrays) const {
    if (k == loops) {
      Result out = call(arrays, std::index_sequence_for<Args...>{});
      vectorize_check_outputs(sig, tree_flatten(out), sizes);
      return out;
    }
    std::vector<Array> mapped, shared;
    std::vector<bool> is_mapped;
    for (const Array& a : arrays) {
      is_mapped.push_back(a.shape()[0] != 1);
      if (is_mapped.back())
        mapped.push_back(a);
      else
        shared.push_back(drop_leading(a));
    }
    if (mapped.empty())
      return tree_map(run(k + 1, shared), [](const Array& x) { return expand_dims(x, 0); });
    auto body = [this, k, &is_mapped](const std::vector<Array>& m, const std::vector<Array>& s) {
      std::vector<Array> merged;
      std::size_t im = 0, is = 0;
      for (bool b : is_mapped) merged.push_back(b ? m[im++] : s[is++]);
      return run(k + 1, merged);
    };
    return vmap(body, {0, std::nullopt})(mapped, shared);
  }
};

}  // namespace detail

template <class F>
auto vectorize(F f, std::string signature = {}) {
  std::optional<detail::GufuncSignature> sig;
  if (!signature.empty()) sig = detail::parse_gufunc_signature(signature);
  return [f = std::move(f), sig = std::move(sig)](const auto&... args) mutable {
    std::vector<Array> arrays;
    auto add = [&](const auto& a) {
      if constexpr (std::is_same_v<std::decay_t<decltype(a)>, Array>) arrays.push_back(a);
    };
    (add(args), ...);
    std::map<std::string, int64_t> sizes;
    std::size_t loops = detail::vectorize_inputs(sig, arrays, sizes);
    std::tuple<const std::decay_t<decltype(args)>&...> refs(args...);
    detail::Vectorized<F, std::decay_t<decltype(args)>...> v{f, refs, sig, sizes, loops};
    return v.run(0, arrays);
  };
}

}  // namespace strata
