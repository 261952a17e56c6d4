// tracer/kernels/wrapping.h — integer arithmetic of the eager kernels: it wraps around (two's
// complement), as in XLA and in the compiled code (LLVM's add/sub/mul without nsw). Signed
// overflow is undefined behaviour in C++ (UBSan: "signed integer overflow"), so integers are
// computed in their unsigned type; floats are unchanged.
#pragma once

#include <functional>
#include <type_traits>

namespace strata::kernels {

// The unsigned type integer arithmetic on T wraps in: T's own, or `unsigned` for types narrower
// than int (whose unsigned values would otherwise promote to a signed int and overflow).
template <class T, bool kNarrow = (sizeof(T) < sizeof(unsigned))>
struct WrapUnsigned {
  using type = unsigned;
};
template <class T>
struct WrapUnsigned<T, false> {
  using type = std::make_unsigned_t<T>;
};
template <class T>
using wrap_unsigned_t = typename WrapUnsigned<T>::type;

template <class F>
struct Wrapping {
  template <class T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = wrap_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(F{}(static_cast<U>(a), static_cast<U>(b))));
    } else {
      return F{}(a, b);
    }
  }
};
using WrappingAdd = Wrapping<std::plus<>>;
using WrappingSub = Wrapping<std::minus<>>;
using WrappingMul = Wrapping<std::multiplies<>>;

// -x; -INT_MIN is INT_MIN.
struct WrappingNeg {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(wrap_unsigned_t<T>(0) - static_cast<wrap_unsigned_t<T>>(a));
    else return -a;
  }
};
// |x|; |INT_MIN| is INT_MIN; unsigned values are their own.
struct WrappingAbs {
  template <class T> T operator()(T a) const {
    if constexpr (std::is_unsigned_v<T>) return a;
    else return a < T(0) ? WrappingNeg{}(a) : a;
  }
};

// x + y, x - y, x * y of two Eigen array expressions, wrapping for integers.
template <class X, class Y> auto wrapping_add(const X& x, const Y& y) {
  if constexpr (std::is_integral_v<typename X::Scalar>) return x.binaryExpr(y, WrappingAdd{});
  else return x + y;
}
template <class X, class Y> auto wrapping_sub(const X& x, const Y& y) {
  if constexpr (std::is_integral_v<typename X::Scalar>) return x.binaryExpr(y, WrappingSub{});
  else return x - y;
}
template <class X, class Y> auto wrapping_mul(const X& x, const Y& y) {
  if constexpr (std::is_integral_v<typename X::Scalar>) return x.binaryExpr(y, WrappingMul{});
  else return x * y;
}

}  // namespace strata::kernels
