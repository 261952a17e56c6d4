// Which memrefs may share bytes (BufferAliasing.h).
#include "lowering/BufferAliasing.h"

#include <optional>
#include <utility>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "transforms/BufferAssignment.h"

namespace mlir::strata {
namespace {

// [offset, end) of an allocation placed in the arena.
std::optional<std::pair<int64_t, int64_t>> arenaRange(Value base) {
  auto alloc = base.getDefiningOp<memref::AllocOp>();
  if (!alloc) return std::nullopt;
  auto offset = alloc->getAttrOfType<IntegerAttr>(kOffsetAttr);
  if (!offset) return std::nullopt;
  return std::make_pair(offset.getInt(), offset.getInt() + byteSize(alloc.getType()));
}

bool isFunctionArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

}  // namespace

// The same memory at the same address: one buffer, or two allocations at one arena offset.
bool sameStart(Value a, Value b) {
  if (a == b) return true;
  auto ra = arenaRange(a), rb = arenaRange(b);
  return ra && rb && ra->first == rb->first;
}

bool basesMayShareBytes(Value a, Value b) {
  if (a == b) return true;
  if (isFunctionArgument(a) && isFunctionArgument(b)) return false;  // distinct buffers (donation
                                                                     // rewrites uses to one)
  auto ra = arenaRange(a), rb = arenaRange(b);
  if (ra && rb) return ra->first < rb->second && rb->first < ra->second;
  // A global is its own storage: it shares bytes only with the same global.
  auto globalA = a.getDefiningOp<memref::GetGlobalOp>(), globalB = b.getDefiningOp<memref::GetGlobalOp>();
  if (globalA && globalB) return globalA.getName() == globalB.getName();
  bool allocA = a.getDefiningOp<memref::AllocOp>() != nullptr, allocB = b.getDefiningOp<memref::AllocOp>() != nullptr;
  bool otherA = allocA || isFunctionArgument(a), otherB = allocB || isFunctionArgument(b);
  if ((globalA && otherB) || (globalB && otherA)) return false;
  // A fresh allocation is distinct from the arguments and from other allocations (those not yet
  // placed are placed by liveness on the final schedule).
  if ((allocA && otherB) || (allocB && otherA)) return false;
  return true;  // anything else (an unknown producer): assume it may
}

bool mayShareBytes(Value a, Value b) { return basesMayShareBytes(viewedBuffer(a), viewedBuffer(b)); }

bool sameBuffer(Value a, Value b) { return a == b || (a.getType() == b.getType() && sameStart(a, b)); }

bool noTwoShareBytes(ArrayRef<Value> values) {
  SmallVector<Value> buffers;
  for (Value v : values)
    if (isa<MemRefType>(v.getType())) buffers.push_back(v);
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j)
      if (mayShareBytes(buffers[i], buffers[j])) return false;
  return true;
}


}  // namespace mlir::strata
