// dialect/StrataOps.h — the ops of the `strata` dialect, generated from StrataOps.td.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/StrataDialect.h"

#include "StrataEnums.h.inc"
#include "StrataInterfaces.h.inc"

namespace mlir::OpTrait::strata {
// Marks elementwise ops whose per-element cost is well above a load and a store (transcendentals,
// division, powers): the fusion pass does not recompute them for several consumers or for every
// element of a broadcast.
template <typename ConcreteType>
class Expensive : public TraitBase<ConcreteType, Expensive> {};
}  // namespace mlir::OpTrait::strata

namespace mlir::strata {
// The geometry of a window op (reduce_window, select_and_scatter), one entry a dimension, with
// StableHLO's defaults for absent attributes.
struct WindowGeometry {
  SmallVector<int64_t> window, strides, baseDilations, windowDilations, paddingLow, paddingHigh;
};
}  // namespace mlir::strata

#define GET_OP_CLASSES
#include "StrataOps.h.inc"
