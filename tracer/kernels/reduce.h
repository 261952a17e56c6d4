// tracer/kernels/reduce.h — reductions over any set of axes, for the reduce_* primitives.
//
// The operand is viewed as a matrix [kept, reduced]: when the reduced axes are the trailing
// ones each row reduces in place; when they are the leading ones, whole rows are combined
// into an accumulator (vectorised along the kept axis); otherwise the operand is first
// transposed so that the reduced axes come last. bf16/f16 accumulate in f32.
#pragma once

#include <memory>

#include <algorithm>
#include <limits>
#include <vector>

#include "complex_math.h"
#include "copy.h"
#include "parallel.h"
#include "types.h"
#include "../primitive.h"

namespace strata::kernels {

// The sum of v[lo, lo + n): blocks of 1024 by Eigen (its packet lanes take 32-64 terms each),
// the block sums pairwise, so the rounding error grows with log n rather than with n over the
// lanes (Eigen's sum of 16M f32 normals was 1e-2..8e-2 off; JAX's 1e-4, numpy's pairwise 1e-3).
template <class V> typename V::Scalar cascade_sum(const V& v, Eigen::Index lo, Eigen::Index n) {
  constexpr Eigen::Index kBlock = 1024;
  if (n <= kBlock) return v.segment(lo, n).sum();
  const Eigen::Index half = (n / kBlock + 1) / 2 * kBlock;  // at a block boundary
  return cascade_sum(v, lo, half) + cascade_sum(v, lo + half, n - half);
}

// The identities of max and min for storage type S, in compute type T: -inf and +inf, or the
// extremes of a type without infinities (an integer type; f8_e4m3fn: ±448, as JAX).
template <class T, class S = T> T lowest() {
  if constexpr (std::numeric_limits<S>::has_infinity) return -std::numeric_limits<T>::infinity();
  else return static_cast<T>(std::numeric_limits<S>::lowest());
}
template <class T, class S = T> T highest() {
  if constexpr (std::numeric_limits<S>::has_infinity) return std::numeric_limits<T>::infinity();
  else return static_cast<T>(std::numeric_limits<S>::max());
}

// Op provides, for compute type C:
//   static C init<C, S>();                           identity element (S: the storage type)
//   static C reduce(const Eigen::ArrayBase<D>& v);   whole-vector reduction (non-empty v)
//   static void combine(Acc& acc, const Row& row);   acc = op(acc, row), elementwise
// and may say `template <class S> static constexpr bool joins_init`: the identity then takes
// part in every result (complex max/min, where (-inf, 0) can win, as in StableHLO's reduce).
template <class Op, class S>
constexpr bool joins_init() {
  if constexpr (requires { Op::template joins_init<S>; }) return Op::template joins_init<S>;
  else return false;
}

template <class Op>
void reduce_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const IntList& axes = p.get_ints("axes");
  const Shape& shape = in[0].shape();
  size_t rank = shape.size();
  std::vector<bool> red(rank, false);
  for (int64_t a : axes) red[static_cast<size_t>(a)] = true;
  int64_t kept = out[0].size();
  int64_t n = 1;
  for (int64_t a : axes) n *= shape[static_cast<size_t>(a)];

  // Which layout: reduced axes (ignoring size-1 dims) all trailing, all leading, or mixed.
  bool trailing = true, leading = true;
  {
    bool seen_red = false, seen_kept = false;
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] == 1) continue;
      if (red[d]) { seen_red = true; if (seen_kept) leading = false; }
      else { seen_kept = true; if (seen_red) trailing = false; }
    }
  }

  dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (!Op::template supports<S>) {
      throw Error("internal: unsupported dtype in reduction");
    } else {
      using C = typename ComputeOf<S>::type;
      using Vec = Eigen::Array<C, Eigen::Dynamic, 1>;
      const S* x = in[0].as<S>();
      S* y = out[0].as<S>();
      if (n == 0 || kept == 0) {
        for (int64_t i = 0; i < kept; ++i) y[i] = static_cast<S>(Op::template init<C, S>());
        return;
      }
      std::unique_ptr<S[]> moved;  // not std::vector: vector<bool> has no data()
      if (!trailing && leading) {
        // acc[kept] = combine over the n rows: blocks of 64 rows in order, the blocks pairwise
        // (a column sum's rounding error then grows with log n rather than n).
        parallel_for(kept, kElementwiseGrain / 4, [&](int64_t lo, int64_t hi) {
          int64_t w = hi - lo;
          auto row = [&](int64_t r) {
            return Eigen::Map<const Eigen::Array<S, Eigen::Dynamic, 1>>(x + r * kept + lo, w).template cast<C>();
          };
          auto rows = [&](auto& self, int64_t first, int64_t count) -> Vec {
            constexpr int64_t kBlock = 64;
            if (count > kBlock) {
              int64_t half = (count / kBlock + 1) / 2 * kBlock;  // at a block boundary
              Vec acc = self(self, first, half);
              Op::combine(acc, self(self, first + half, count - half));
              return acc;
            }
            Vec acc = row(first);
            for (int64_t r = 1; r < count; ++r) Op::combine(acc, row(first + r));
            return acc;
          };
          Vec acc = rows(rows, 0, n);
          if constexpr (joins_init<Op, S>()) Op::combine(acc, Vec::Constant(w, Op::template init<C, S>()));
          Eigen::Map<Eigen::Array<S, Eigen::Dynamic, 1>>(y + lo, w) = acc.template cast<S>();
        });
        return;
      }
      if (!trailing) {
        // Transpose so that the reduced axes come last, then reduce rows.
        std::vector<int64_t> strides = contiguous_strides(shape), perm_strides;
        Shape perm_shape;
        for (size_t d = 0; d < rank; ++d)
          if (!red[d]) { perm_shape.push_back(shape[d]); perm_strides.push_back(strides[d]); }
        for (size_t d = 0; d < rank; ++d)
          if (red[d]) { perm_shape.push_back(shape[d]); perm_strides.push_back(strides[d]); }
        moved.reset(new S[static_cast<size_t>(in[0].size())]);
        strided_copy(x, 0, perm_strides, moved.get(), perm_shape, sizeof(S));
        x = moved.get();
      }
      parallel_for(kept, std::max<int64_t>(1, kElementwiseGrain / n), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          Eigen::Map<const Eigen::Array<S, Eigen::Dynamic, 1>> row(x + r * n, n);
          C v = Op::reduce(row.template cast<C>());
          if constexpr (joins_init<Op, S>()) {
            Eigen::Array<C, 2, 1> pair(Op::template init<C, S>(), v);
            v = Op::reduce(pair);
          }
          y[r] = static_cast<S>(v);
        }
      });
    }
  });
}

// reduce_max (kMax) and reduce_min's Op: nan propagates; complex numbers in the lexicographic
// order (complex_extremum), from the identity (the init takes part, as in StableHLO's reduce
// and JAX).
template <bool kMax>
struct ExtremumReduce {
  template <class S> static constexpr bool supports = !std::is_same_v<S, bool>;
  template <class S> static constexpr bool joins_init = is_complex_storage<S>;
  template <class T, class S> static T init() {
    if constexpr (is_complex_storage<T>) return complex_extremum_identity<kMax, typename T::value_type>();
    else if constexpr (kMax) return lowest<T, S>();
    else return highest<T, S>();
  }
  template <class V> static auto reduce(const V& v) {
    using T = typename V::Scalar;
    if constexpr (is_complex_storage<T>) return v.redux([](T a, T b) { return complex_extremum<kMax>(a, b); });
    else if constexpr (kMax) return v.template maxCoeff<Eigen::PropagateNaN>();
    else return v.template minCoeff<Eigen::PropagateNaN>();
  }
  template <class A, class R> static void combine(A& acc, const R& row) {
    using T = typename A::Scalar;
    if constexpr (is_complex_storage<T>) acc = acc.binaryExpr(row, [](T a, T b) { return complex_extremum<kMax>(a, b); });
    else if constexpr (kMax) acc = acc.binaryExpr(row, Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>());
    else acc = acc.binaryExpr(row, Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>());
  }
};

// The shape rule of reduce_sum/max/min/prod[axes].
std::vector<AbstractValue> reduce_rule(std::string_view op, std::span<const AbstractValue> in,
                                       const Params& p, bool allow_bool);
// The rule of reduce_and/reduce_or: a bool operand only.
std::vector<AbstractValue> bool_reduce_rule(std::string_view op, std::span<const AbstractValue> in,
                                            const Params& p);

}  // namespace strata::kernels
