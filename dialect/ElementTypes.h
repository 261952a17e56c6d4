// dialect/ElementTypes.h — strata's dtypes as MLIR element types and back: i1; i8 .. i64;
// ui8 .. ui64; bf16, f16, f32, f64. Any other type (complex, f8, i4, si32, ...) has no dtype:
// the one definition of which element types strata has, for the lowering from jaxprs and the
// StableHLO import alike. Compiler-side only.
#pragma once

#include <optional>

#include "mlir/IR/Types.h"
#include "strata/dtype.h"

namespace mlir {
class MLIRContext;
}

namespace mlir::strata {

Type elementType(MLIRContext* ctx, ::strata::DType dtype);
std::optional<::strata::DType> dtypeOf(Type elementType);

}  // namespace mlir::strata
