// tracer/window_rules.h — the geometry of window ops (jax.lax.reduce_window and its relatives,
// StableHLO's reduce_window and select_and_scatter), shared by the tracer's shape rules, the
// eager kernels and the dialect's verifiers. No MLIR, no exceptions.
#pragma once

#include "shape_rules.h"

namespace strata::shape_rules {

// One window per result element: in each dimension the operand is dilated by base_dilation
// (base_dilation - 1 holes between elements), padded by (padding_low, padding_high), and the
// window (its taps window_dilation apart) steps by window_strides.
struct WindowParams {
  IntList window_dimensions, window_strides, padding_low, padding_high, base_dilation, window_dilation;
};

// The result shape of reduce_window. Every list has the operand's rank; sizes, strides and
// dilations are positive, padding non-negative.
Result reduce_window(const Shape& operand, const WindowParams& w);

// Where tap `k` of the window of result index `o` reads, in one dimension: the operand index,
// or -1 for padding or a hole of the base dilation.
inline int64_t window_source(int64_t o, int64_t k, int64_t n, const WindowParams& w, size_t d) {
  int64_t p = o * w.window_strides[d] + k * w.window_dilation[d] - w.padding_low[d];
  if (p < 0 || p % w.base_dilation[d] != 0) return -1;
  int64_t q = p / w.base_dilation[d];
  return q < n ? q : -1;
}

// Ones of `rank`; zeros of `rank` (the defaults of absent window lists).
inline IntList ones(size_t rank) { return IntList(rank, 1); }
inline IntList zeros(size_t rank) { return IntList(rank, 0); }

}  // namespace strata::shape_rules
