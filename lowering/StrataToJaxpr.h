// lowering/StrataToJaxpr.h — a function of the `strata` dialect (an imported StableHLO module)
// becomes a jaxpr, the inverse of JaxprToStrata: so that a st::Module function called inside a
// trace (jit, grad, vmap, make_jaxpr) binds strata's primitives, with their rules.
#pragma once

#include <memory>

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace strata {
struct JaxprImpl;
}

namespace mlir::strata {

// The jaxpr of `fn` (its arguments the invars, its results the outvars; non-scalar constants
// become constvars holding their values, scalar ones literals; calls to other functions of
// the module are inlined; regions become sub-jaxprs with what they read from above as leading
// inputs). Null after a diagnostic at the op that has no jaxpr form; never throws.
std::shared_ptr<const ::strata::JaxprImpl> convertStrataToJaxpr(func::FuncOp fn);

}  // namespace mlir::strata
