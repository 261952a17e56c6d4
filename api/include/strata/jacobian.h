// strata/jacobian.h — whole Jacobians and Hessians, as JAX's jacfwd, jacrev and hessian:
//
//   auto J = st::jacfwd(f)(x);       // f: R^n -> R^m, x: f32[n] -> J: f32[m, n]
//   auto H = st::hessian(loss)(w);   // loss: 0-d -> H: w.shape + w.shape
//
// The Jacobian of an output of shape O with respect to an Array argument of shape I has shape
// O + I. jacfwd pushes the n = |I| basis tangents through f's JVP at once (vmap of jvp: one
// traced program, batched); jacrev pulls the |O| basis cotangents back through one
// linearisation (vmap of the VJP), so prefer jacfwd for tall Jacobians and jacrev for wide
// ones; hessian is jacfwd(jacrev(f)), as JAX's. All compose with jit, vmap and each other.
//
// Options, in any order: argnums<i, j, …> (default argnums<0>; several give a std::tuple with
// one Jacobian per argument), holomorphic, has_aux (f returns (output, aux); the result is
// (Jacobian, aux), aux from one more call of f; hessian(f, has_aux) likewise). The output may be a pytree of Arrays (the result has
// its structure, each leaf replaced by its Jacobian); the differentiated arguments are Arrays.
// With several argnums and a pytree output the nesting is argument first — result[j] is the
// tree of Jacobians with respect to argument j — where JAX's puts the output tree outside
// (a C++ tree's leaves are Arrays, not tuples); for an Array output the two agree.
// Complex values follow JAX: jacfwd needs real inputs and jacrev real outputs, unless
// holomorphic (complex inputs and outputs: the Jacobian is f'(z)); jacrev of a real output
// with respect to a complex input gives grad's convention, ∂f/∂x − i·∂f/∂y.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/ops.h"
#include "strata/pytree.h"
#include "strata/vmap.h"

namespace strata {

namespace detail {

// Throw a DTypeError naming the argument when `x` cannot be differentiated this way.
void check_jacobian_input(const Array& x, int argument, bool forward, bool holomorphic, const char* who);
void check_jacobian_output(const Array& y, std::size_t leaf, bool forward, bool holomorphic, const char* who);
// [n] + shape: the n = |shape| unit arrays of `dtype` stacked (n × n identity, reshaped).
Array unit_basis(const Shape& shape, DType dtype);
// jacfwd's batched JVPs, [n] + out_shape (one per basis tangent, n = |in_shape|), as the
// Jacobian out_shape + in_shape (the basis axis moved last, then unflattened).
Array columns_to_jacobian(const Array& columns, const Shape& out_shape, const Shape& in_shape);

// f with argument I replaced by `xi` (the others as given).
template <int I, class F, class Tuple, std::size_t... K>
decltype(auto) call_replacing(F& f, const Tuple& args, const Array& xi, std::index_sequence<K...>) {
  auto pick = [&]<std::size_t k>(std::integral_constant<std::size_t, k>) -> decltype(auto) {
    if constexpr (k == static_cast<std::size_t>(I)) return (xi);
    else return (std::get<k>(args));
  };
  return f(pick(std::integral_constant<std::size_t, K>{})...);
}

template <bool kForward, bool kHolo, int I, class F, class... Args>
auto jacobian_wrt(F& f, const char* who, const Args&... args) {
  using Arg = std::decay_t<std::tuple_element_t<I, std::tuple<Args...>>>;
  static_assert(std::is_same_v<Arg, Array>, "jacfwd/jacrev: the differentiated arguments must be Arrays");
  auto all = std::forward_as_tuple(args...);
  const Array& x = std::get<I>(all);
  check_jacobian_input(x, I, kForward, kHolo, who);
  auto partial = [&](const Array& xi) { return call_replacing<I>(f, all, xi, std::index_sequence_for<Args...>{}); };
  using Out = std::decay_t<decltype(partial(x))>;
  if constexpr (kForward) {
    if (x.size() == 0) {  // no basis tangents: zeros shaped O + I
      auto out = partial(x);
      std::vector<Array> jac;
      for (const Array& o : tree_flatten(out)) {
        check_jacobian_output(o, jac.size(), true, kHolo, who);
        Shape s = o.shape();
        s.insert(s.end(), x.shape().begin(), x.shape().end());
        jac.push_back(zeros(s, o.dtype()));
      }
      return tree_unflatten(tree_strip(out), jac);
    }
    auto push = [&](const Array& t) { return jvp(partial, x, t).second; };
    auto cols = vmap(push, {0})(unit_basis(x.shape(), x.dtype()));  // leaves [n] + O
    std::vector<Array> jac = tree_flatten(cols);
    for (std::size_t k = 0; k < jac.size(); ++k) {
      check_jacobian_output(jac[k], k, true, kHolo, who);
      Shape o(jac[k].shape().begin() + 1, jac[k].shape().end());
      jac[k] = columns_to_jacobian(jac[k], o, x.shape());
    }
    return tree_unflatten(tree_strip(cols), jac);
  } else {
    auto [out, pullback] = vjp(partial, x);
    std::vector<Array> outs = tree_flatten(out);
    for (std::size_t k = 0; k < outs.size(); ++k) check_jacobian_output(outs[k], k, false, kHolo, who);
    Out proto = tree_strip(out);
    std::vector<Array> jac;
    for (std::size_t k = 0; k < outs.size(); ++k) {
      Shape s = outs[k].shape();
      s.insert(s.end(), x.shape().begin(), x.shape().end());
      if (outs[k].size() == 0 || x.size() == 0) {
        jac.push_back(zeros(s, x.dtype()));
        continue;
      }
      // One basis cotangent on leaf k, zeros on the others: rows of d(leaf k)/dx.
      auto pull = [&](const Array& c) {
        std::vector<Array> cts;
        for (std::size_t j = 0; j < outs.size(); ++j) cts.push_back(j == k ? c : zeros_like(outs[j]));
        return std::get<0>(pullback(tree_unflatten(proto, cts)));
      };
      jac.push_back(reshape(vmap(pull, {0})(unit_basis(outs[k].shape(), outs[k].dtype())), s));
    }
    return tree_unflatten(proto, jac);
  }
}

template <bool kForward, bool kHolo, class F, int... I>
auto jacobians(F& f, const char* who, const auto&... args) {
  if constexpr (sizeof...(I) == 1) return jacobian_wrt<kForward, kHolo, I...>(f, who, args...);
  else return std::tuple{jacobian_wrt<kForward, kHolo, I>(f, who, args...)...};
}

template <bool kForward, bool kHolo, bool kAux, class F, int... I>
auto jacobian_fn(F f, ArgNums<I...>, const char* who) {
  static_assert(sizeof...(I) > 0 && increasing<I...>(), "jacfwd/jacrev: argnums must be increasing");
  return [f = std::move(f), who](const auto&... args) mutable {
    static_assert(((I >= 0 && I < static_cast<int>(sizeof...(args))) && ...), "jacfwd/jacrev: argnums out of range");
    if constexpr (kAux) {
      // f returns (output, aux): the Jacobian of the output, and aux as f gives it.
      auto output = [&f](const auto&... a) { return f(a...).first; };
      auto jac = jacobians<kForward, kHolo, decltype(output), I...>(output, who, args...);
      return std::make_pair(std::move(jac), f(args...).second);
    } else {
      return jacobians<kForward, kHolo, F, I...>(f, who, args...);
    }
  };
}

template <class... Opt>
struct JacobianOptions {
  static constexpr bool holo = GradOptions<Opt...>::holo, aux = GradOptions<Opt...>::aux;
};

}  // namespace detail

// jacfwd(f, options...)(args...) → ∂f/∂(argument 0), forward mode (see the top of the file).
template <class F, class... Opt>
auto jacfwd(F f, Opt...) {
  using O = detail::JacobianOptions<Opt...>;
  return detail::jacobian_fn<true, O::holo, O::aux>(std::move(f), typename detail::ArgNumsOf<Opt...>::type{}, "jacfwd");
}

// jacrev(f, options...)(args...) → ∂f/∂(argument 0), reverse mode.
template <class F, class... Opt>
auto jacrev(F f, Opt...) {
  using O = detail::JacobianOptions<Opt...>;
  return detail::jacobian_fn<false, O::holo, O::aux>(std::move(f), typename detail::ArgNumsOf<Opt...>::type{}, "jacrev");
}

// hessian(f, options...)(args...) → the second derivatives of f's output (typically a 0-d loss)
// with respect to argument 0: shape O + I + I. jacfwd of jacrev, as JAX's (with has_aux, jacrev's
// aux passes through jacfwd's).
template <class F, class... Opt>
auto hessian(F f, Opt... opt) {
  return jacfwd(jacrev(std::move(f), opt...), opt...);
}

}  // namespace strata
