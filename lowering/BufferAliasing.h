// lowering/BufferAliasing.h — whether memrefs of the entry function may share bytes, once it is
// bufferized: each is traced through views to its base buffer (viewedBuffer), an argument of
// the function (distinct buffers), a global (its own storage), or an allocation (distinct from
// the others until buffer assignment places it at a byte range of the arena, strata.offset).
// Used to fuse loops and to mark outlined functions' arguments `noalias`.
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace mlir {
class Value;

namespace strata {

// Whether two base buffers (not views) may share bytes; an unknown producer may.
bool basesMayShareBytes(Value a, Value b);
// Two base buffers at the same address: one buffer, or two allocations at one arena offset.
bool sameStart(Value a, Value b);
// Whether two memrefs may share bytes (traced through views to their bases).
bool mayShareBytes(Value a, Value b);
// One buffer: the same value, or two allocations of one type at one arena offset.
bool sameBuffer(Value a, Value b);
// No two memrefs among `values` may share bytes: an outlined function may mark them `noalias`.
bool noTwoShareBytes(llvm::ArrayRef<Value> values);

}  // namespace strata
}  // namespace mlir
