// tracer/kernels/sort.h — sorting several arrays of one shape together along a dimension
// (jax.lax.sort, StableHLO's sort). Shared by the eager kernel (tracer/primitives/sort.cpp) and
// the compiled code's runtime (backends/cpu), so that both give the same bits.
#pragma once

#include <cstdint>
#include <span>

#include "float8.h"
#include "strata/dtype.h"

namespace strata::kernels {

// How an operand's bits order when it is a key.
// (The byte floats: their own kinds, for where nan starts: e4m3fn has no infinity, the fnuz
// formats' one nan is 0x80, and the 6- and 4-bit ones have their sign in bit 5 or 3 and no
// nan; e8m0fnu, unsigned with its nan at 0xFF, orders as kUnsigned. The signed sub-byte
// integers too: their sign is bit 3 or 1 of the byte, whose higher bits are zero.)
enum class SortKeyKind : int64_t {
  kUnsigned = 0, kSigned = 1, kFloat = 2, kBFloat16 = 3, kFloat8E4M3FN = 4, kFloat8E5M2 = 5, kSigned4 = 6, kSigned2 = 7,
  kFloat8FNUZ = 8, kFloat8E4M3 = 9, kFloat8E3M4 = 10, kFloat6 = 11, kFloat4 = 12,
};

// The key kind of a byte float (the eager kernel's and the compiled comparator's one mapping).
constexpr SortKeyKind float8_sort_kind(const Float8Format& f) {
  switch (f.specials) {
    case Float8Specials::kFN: return SortKeyKind::kFloat8E4M3FN;
    case Float8Specials::kFNUZ: return SortKeyKind::kFloat8FNUZ;
    case Float8Specials::kE8M0: return SortKeyKind::kUnsigned;
    case Float8Specials::kNone: return f.bits == 6 ? SortKeyKind::kFloat6 : SortKeyKind::kFloat4;
    case Float8Specials::kIEEE: break;
  }
  return f.exp_bits == 5 ? SortKeyKind::kFloat8E5M2 : f.exp_bits == 4 ? SortKeyKind::kFloat8E4M3 : SortKeyKind::kFloat8E3M4;
}

// One operand, sorted in place: `bytes` per element (1, 2, 4 or 8), contiguous row-major.
struct SortOperand {
  void* data;
  int64_t bytes;
  SortKeyKind kind;
};
SortOperand sort_operand(void* data, DType dtype);

// The operands viewed as [outer, n, inner], each line of n elements (stride inner) sorted.
// Without a comparator the first num_keys operands are the keys, compared lexicographically,
// ascending (descending: each key reversed); floats in total order, and with canonical_floats
// as jax.lax.sort's comparator: -0.0 equal to 0.0 and every nan equal, after +inf.
struct SortSpec {
  int64_t outer = 1, n = 0, inner = 1;
  int64_t num_keys = 1;
  bool descending = false;
  bool canonical_floats = true;
  bool stable = true;
};

// A general comparator: whether the elements at lhs[k] (one pointer per operand) sort before
// those at rhs[k]. Any function is safe (a merge sort, which never reads outside the line);
// the result is a sort when it is a strict weak order.
using SortLess = bool (*)(void* ctx, const void* const* lhs, const void* const* rhs);

// Sorts in place (lines split across the thread pool). `less` null: the spec's keys.
void sort(std::span<const SortOperand> operands, const SortSpec& spec, SortLess less = nullptr,
          void* ctx = nullptr);

}  // namespace strata::kernels
