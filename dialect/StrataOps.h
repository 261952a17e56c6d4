// dialect/StrataOps.h — the ops of the `strata` dialect, generated from StrataOps.td.
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/StrataDialect.h"

#include "StrataEnums.h.inc"

#define GET_OP_CLASSES
#include "StrataOps.h.inc"
