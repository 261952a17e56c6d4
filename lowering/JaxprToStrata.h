// lowering/JaxprToStrata.h — a jaxpr becomes a module in the `strata` dialect.
#pragma once

#include <optional>
#include <string_view>

#include "dialect/ElementTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "strata/dtype.h"

namespace strata {
struct JaxprImpl;
struct AbstractValue;
class Array;
// True when `primitive_name` (a name in tracer/primitive_list.def) has a lowering entry.
bool has_lowering(std::string_view primitive_name);
}

namespace mlir::strata {

// Builds `module { func.func @main(...) }` from `jaxpr`:
//  - @main's arguments are the jaxpr's constvars, then its invars (constvars carry the
//    argument attribute `strata.constvar`: a caller passes their values first);
//  - each equation becomes ops located at its SourceLoc (the user's file:line:col), or at
//    `fallback` when it has none;
//  - sub-jaxprs (custom_vjp_call's and custom_jvp_call's `fun`) become private functions that @main calls.
// Returns null after emitting a diagnostic when an equation cannot be lowered; never throws.
OwningOpRef<ModuleOp> lowerJaxprToStrata(MLIRContext& context, const ::strata::JaxprImpl& jaxpr,
                                         Location fallback);

// An abstract value's tensor type (elementType, dtypeOf: dialect/ElementTypes.h), and a
// concrete array's elements as a constant of `type`.
RankedTensorType tensorType(MLIRContext* ctx, const ::strata::AbstractValue& av);
DenseElementsAttr denseOf(RankedTensorType type, const ::strata::Array& a);

// The dialect op the primitive named `primitive` lowers to ("strata.exponential"), or "" for
// a primitive that lowers to none (stop_gradient, custom_vjp_call, custom_jvp_call) or is unknown.
llvm::StringRef loweredOpName(llvm::StringRef primitive);

}  // namespace mlir::strata
