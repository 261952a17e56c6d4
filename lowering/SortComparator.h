// lowering/SortComparator.h — strata.sort's comparator region: the one jax.lax.sort means
// (built when a jaxpr is lowered), and its recognition (so that the CPU code calls the runtime's
// radix and key sorts rather than a compiled comparator).
#pragma once

#include <optional>

#include "dialect/StrataOps.h"

namespace mlir::strata {

// Fills the empty `region` with jax.lax.sort's comparator over `elements` (one element type
// an operand): the first numKeys operands compared lexicographically, each by LT — floats in
// total order after -0.0 becomes 0.0 and every nan one nan (JAX's _sort_lt_comparator).
void buildLexicographicComparator(OpBuilder& b, Location loc, Region& region, TypeRange elements, int64_t numKeys);

// A comparator the runtime's key sort computes: the first numKeys operands, lexicographically,
// all ascending (LT) or all descending (GT); floats in total order, canonical when they go
// through JAX's -0.0/nan canonicalisation; codes[i] = bytes | kernels::SortKeyKind << 8.
struct StandardSort {
  int64_t numKeys = 1;
  bool descending = false;
  bool canonical = false;
  SmallVector<int64_t> codes;
};
std::optional<StandardSort> recognizeComparator(SortOp op);

// bytes | kind << 8 for an element type as an unsigned (or signed) key.
int64_t sortKeyCode(Type element, std::optional<bool> unsignedInt = std::nullopt);

}  // namespace mlir::strata
