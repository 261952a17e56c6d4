// tracer/primitives/elementwise.h — shared rules and kernels of the elementwise primitives.
//
// Each elementwise primitive's file picks its dtype class, result-type rule and scalar
// operation from here; the file itself stays the one place that defines the primitive.
#pragma once

#include "../scalar_policy.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <string>

#include "../kernels/parallel.h"
#include "../kernels/types.h"
#include "../primitive.h"
#include "../shape_rules.h"

namespace strata::elementwise {

using kernels::bf16_t;
using kernels::f16_t;

// Which operand dtypes an elementwise primitive accepts: kFloat real floats, kInexact floats
// or complex, kNumeric anything but bool, kRealNumeric neither bool nor complex, kOrdered
// anything but complex (what has an order), kAny everything.
enum class Accepts { kFloat, kInexact, kNumeric, kRealNumeric, kIntOrBool, kInt, kOrdered, kAny };

inline bool accepts(Accepts a, DType t) {
  switch (a) {
    case Accepts::kFloat: return is_floating(t);
    case Accepts::kInexact: return is_inexact(t);
    case Accepts::kNumeric: return t != DType::bool_;
    case Accepts::kRealNumeric: return t != DType::bool_ && !is_complex(t);
    case Accepts::kIntOrBool: return is_integer(t) || t == DType::bool_;
    case Accepts::kInt: return is_integer(t);
    case Accepts::kOrdered: return !is_complex(t);
    case Accepts::kAny: return true;
  }
  return false;
}

inline const char* accepts_text(Accepts a) {
  switch (a) {
    case Accepts::kFloat: return "a real floating-point dtype (bf16, f16, f32, f64)";
    case Accepts::kInexact: return "a floating-point or complex dtype (bf16, f16, f32, f64, c64, c128)";
    case Accepts::kNumeric: return "a numeric dtype (not bool)";
    case Accepts::kRealNumeric: return "a real numeric dtype (not bool, not complex)";
    case Accepts::kIntOrBool: return "an integer or bool dtype";
    case Accepts::kInt: return "an integer dtype";
    case Accepts::kOrdered: return "an ordered dtype (not complex)";
    case Accepts::kAny: return "any dtype";
  }
  return "";
}

// The common rule: every operand has one dtype (the API promotes first) and one shape, or is
// 0-d. The result has that shape, the given dtype (or the operands'), and is weak iff all
// operands are.
std::vector<AbstractValue> rule(std::string_view name, std::span<const AbstractValue> in,
                                Accepts accepts, bool result_bool);

// ---- Batching ----

// The batching rule of an elementwise primitive `p` (JAX's broadcast_batcher): batch
// dimensions move to the front, unbatched operands of rank > 0 and batched ones of per-example
// rank 0 broadcast to the batched shape (unbatched 0-d operands stay 0-d, as elementwise
// primitives accept them); the outputs are batched along dimension 0.
std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& p, std::span<const Array> args,
                                                      std::span<const int> batch_dims,
                                                      const Params& params);
template <const Primitive& P>
std::pair<std::vector<Array>, std::vector<int>> batch_rule(std::span<const Array> args,
                                                           std::span<const int> batch_dims,
                                                           const Params& params) {
  return batch(P, args, batch_dims, params);
}

// ---- Kernels ----

template <class T> using Vec = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T> using CMap = Eigen::Map<const Vec<T>>;
template <class T> using MMap = Eigen::Map<Vec<T>>;

// Each thread's chunk is evaluated in blocks of kBlock elements: an Op::eval that materialises
// temporaries (exp's range check, a bf16 operand cast to f32, a broadcast 0-d operand) then
// allocates 16-32 KiB from the heap's free lists, not a chunk-sized buffer (8M elements of a
// 16M-element op on two threads) that is mapped, page-faulted and unmapped on every call:
// eager exp of 16M f32 took 48 ms that way against 5 for the same loop compiled.
inline constexpr int64_t kBlock = 4096;

// Whether every element of a block is >= lo (and <= hi), by vectorised reductions (Eigen's
// all() of a comparison is a scalar loop); a NaN makes both false. Kernels whose fast path
// holds on a range (exp, log, logistic) redo a block's other lanes only when these fail.
template <class X, class T>
bool all_at_least(const X& x, T lo) {
  return x.template minCoeff<Eigen::PropagateNaN>() >= lo;
}
template <class X, class T>
bool all_within(const X& x, T lo, T hi) {
  return all_at_least(x, lo) && x.template maxCoeff<Eigen::PropagateNaN>() <= hi;
}

// Whole packets. Eigen evaluates an expression in packets (pexp, plog, ptanh: its own
// polynomials) but an unaligned head and a tail shorter than a packet element by element
// (std::exp, libm): two implementations that differ by an ulp on some inputs, so equal inputs
// gave unequal outputs depending on where they sat (argmax of exp of 37 equal floats was 32,
// not 0; tests/jit/test_math_lanes.cpp). So every element of a float op is evaluated inside a
// whole aligned packet: a block that starts 64-byte aligned and spans a multiple of kLanes
// elements directly, any other (a thread's chunk edges, the array's end, a 0-d array) on an
// aligned copy padded with its last element. kLanes<C, O> is a multiple of every packet of the
// compute and output types (64 bytes, AVX-512's; 16 floats, 8 doubles, 32 bf16, 64 bools).
template <class C, class O>
inline constexpr int64_t kLanes = 64 / static_cast<int64_t>(std::min(sizeof(C), sizeof(O)));

// A 64-byte aligned buffer of kBlock elements per thread, type and slot.
template <class T, int kSlot>
T* block_scratch() {
  static_assert(kBlock % 64 == 0);  // a whole number of any kLanes
  thread_local std::unique_ptr<T, decltype(&std::free)> buffer{
      static_cast<T*>(std::aligned_alloc(64, (kBlock * sizeof(T) + 63) / 64 * 64)), &std::free};
  if (!buffer) throw std::bad_alloc();
  return buffer.get();
}

inline bool aligned64(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

// Runs block(b, e) over [lo, hi) in blocks on a global grid of kBlock, so that a chunk's
// blocks after its first start aligned wherever the thread pool cut.
template <class F>
void for_blocks(int64_t lo, int64_t hi, F&& block) {
  for (int64_t b = lo; b < hi;) {
    const int64_t e = std::min(hi, (b / kBlock + 1) * kBlock);
    block(b, e);
    b = e;
  }
}

// Copies n elements from p to an aligned scratch buffer, padded to `padded` elements with the
// last one (a value the op is defined on).
template <class S, int kSlot>
const S* padded_copy(const S* p, int64_t n, int64_t padded) {
  S* buffer = block_scratch<S, kSlot>();
  std::copy(p, p + n, buffer);
  std::fill(buffer + n, buffer + padded, p[n - 1]);
  return buffer;
}

// Op::eval(x...), given the storage type's bit width when it takes one (`template <int Bits,
// class X> eval`): shifts, population_count and clz, since the sub-byte integers compute in
// 8 bits (kernels/int_n.h).
template <class Op, class S, class... X>
auto op_eval(const X&... x) {
  if constexpr (requires { Op::template eval<kernels::int_bits<S>>(x...); })
    return Op::template eval<kernels::int_bits<S>>(x...);
  else
    return Op::eval(x...);
}

// Evaluates out = op(x) over chunks split across the thread pool. Op::eval takes an Eigen
// array expression in the compute type C (f32 for bf16/f16) and returns one; the result is
// cast to the output storage type O.
template <class S, class O, class Op>
void map_unary(const KernelArg& a, const KernelArg& o) {
  using C = typename kernels::ComputeOf<S>::type;
  const S* x = a.as<S>();
  O* y = o.as<O>();
  // The one expression every element goes through.
  auto eval = [](const S* xp, O* yp, int64_t n) {
    CMap<S> xm(xp, n);
    MMap<O> ym(yp, n);
    if constexpr (std::is_same_v<S, C>) ym = op_eval<Op, S>(xm).template cast<O>();
    else ym = op_eval<Op, S>(xm.template cast<C>()).template cast<O>();
  };
  kernels::parallel_for(o.size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
    for_blocks(lo, hi, [&](int64_t b, int64_t e) {
      const int64_t n = e - b, lanes = kLanes<C, O>;
      if (!std::is_floating_point_v<C> || (n % lanes == 0 && aligned64(y + b))) return eval(x + b, y + b, n);
      const int64_t padded = (n + lanes - 1) / lanes * lanes;
      O* out = block_scratch<O, 2>();
      eval(padded_copy<S, 0>(x + b, n, padded), out, padded);
      std::copy(out, out + n, y + b);
    });
  });
}

// out = op(x, y), where either operand may be 0-d (a constant broadcast over the chunk).
template <class S, class O, class Op>
void map_binary(const KernelArg& a, const KernelArg& b, const KernelArg& o) {
  using C = typename kernels::ComputeOf<S>::type;
  const S* x = a.as<S>();
  const S* y = b.as<S>();
  O* z = o.as<O>();
  const bool xs = a.shape().empty() && !o.shape().empty();
  const bool ys = b.shape().empty() && !o.shape().empty();
  // The one expression every element goes through: xp, yp at the block's first element (or the
  // 0-d operand's one).
  auto eval = [&](const S* xp, const S* yp, O* zp, int64_t n) {
    MMap<O> zm(zp, n);
    auto in = [&](const S* p, bool scalar) {
      if constexpr (std::is_same_v<S, C>) {
        return scalar ? Vec<C>(Vec<C>::Constant(n, *p)) : Vec<C>(CMap<S>(p, n));
      } else {
        return scalar ? Vec<C>(Vec<C>::Constant(n, static_cast<C>(*p))) : Vec<C>(CMap<S>(p, n).template cast<C>());
      }
    };
    // Fast paths avoid materialising the operands for the common f32/f64 cases.
    if constexpr (std::is_same_v<S, C>) {
      if (!xs && !ys) {
        zm = op_eval<Op, S>(CMap<S>(xp, n), CMap<S>(yp, n)).template cast<O>();
        return;
      }
      if (!xs && ys) {
        zm = op_eval<Op, S>(CMap<S>(xp, n), Vec<C>::Constant(n, *yp)).template cast<O>();
        return;
      }
      if (xs && !ys) {
        zm = op_eval<Op, S>(Vec<C>::Constant(n, *xp), CMap<S>(yp, n)).template cast<O>();
        return;
      }
    }
    zm = op_eval<Op, S>(in(xp, xs), in(yp, ys)).template cast<O>();
  };
  kernels::parallel_for(o.size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
    for_blocks(lo, hi, [&](int64_t s, int64_t e) {
      const int64_t n = e - s, lanes = kLanes<C, O>;
      const S* xp = xs ? x : x + s;
      const S* yp = ys ? y : y + s;
      if (!std::is_floating_point_v<C> || (n % lanes == 0 && aligned64(z + s))) return eval(xp, yp, z + s, n);
      const int64_t padded = (n + lanes - 1) / lanes * lanes;
      O* out = block_scratch<O, 2>();
      eval(xs ? x : padded_copy<S, 0>(xp, n, padded), ys ? y : padded_copy<S, 1>(yp, n, padded), out, padded);
      std::copy(out, out + n, z + s);
    });
  });
}

// Dispatches on the operand dtype and runs map_unary / map_binary for the dtypes Op accepts.
template <class Op, bool kBoolResult = false>
void unary_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  kernels::dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using O = std::conditional_t<kBoolResult, bool, S>;
    if constexpr (Op::template supports<S>) map_unary<S, O, Op>(in[0], out[0]);
    else throw Error("internal: unsupported dtype in unary kernel");
  });
}

template <class Op, bool kBoolResult = false>
void binary_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  kernels::dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using O = std::conditional_t<kBoolResult, bool, S>;
    if constexpr (Op::template supports<S>) map_binary<S, O, Op>(in[0], in[1], out[0]);
    else throw Error("internal: unsupported dtype in binary kernel");
  });
}

// Storage classes, for Op::supports.
template <class S> inline constexpr bool kIsFloat = kernels::is_float_storage<S>;
template <class S> inline constexpr bool kIsInt = kernels::is_int_storage<S>;
template <class S> inline constexpr bool kIsBool = std::is_same_v<S, bool>;
template <class S> inline constexpr bool kIsComplex = kernels::is_complex_storage<S>;

// binary_kernel's Op for a float function of two operands written over the arithmetic policy
// of tracer/scalar_policy.h (the compiled element instantiates the same F): F{}(o, x, y) per
// element, with o the policy of C++ scalars of the compute type.
template <class F> struct PolicyBinary {
  template <class S> static constexpr bool supports = kIsFloat<S>;
  template <class X, class Y> static auto eval(const X& x, const Y& y) {
    return x.binaryExpr(y, [](auto a, auto b) {
      ScalarOps<decltype(a)> o;
      return F{}(o, a, b);
    });
  }
};

// Applies f to each element of an Eigen array expression (complex kernels: std::exp, std::log,
// ... of std::complex, C99's Annex G special values).
template <class X, class F>
auto each(const X& x, F f) {
  using T = typename X::Scalar;
  return Vec<T>(x.unaryExpr([f](const T& v) { return static_cast<T>(f(v)); }));
}

}  // namespace strata::elementwise
