// dialect/ElementTypes.h — strata's dtypes as MLIR element types and back: i1; i2, i4, i8 ..
// i64; ui2, ui4, ui8 .. ui64; f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E4M3,
// f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN, bf16, f16, f32, f64; complex<f32>,
// complex<f64>. Any other type (tf32, i3, si32, complex<bf16>, ...) has no dtype:
// the one definition of which element types strata has, for the lowering from jaxprs and the
// StableHLO import alike. Compiler-side only.
#pragma once

#include <optional>

#include "llvm/ADT/APFloat.h"
#include "mlir/IR/Types.h"
#include "kernels/float8.h"
#include "strata/dtype.h"

namespace mlir {
class MLIRContext;
}

namespace mlir::strata {

Type elementType(MLIRContext* ctx, ::strata::DType dtype);
std::optional<::strata::DType> dtypeOf(Type elementType);

// Bits an element occupies: a complex number's two parts (complex<f32>: 64), else the type's
// own width (Type::getIntOrFloatBitWidth, which has none for complex types).
unsigned storageBits(Type elementType);
// The bytes of a statically shaped tensor or memref (an i1 element takes one byte).
int64_t storageBytes(Type shapedType);

// The layout of one of strata's byte floats (f8E4M3FN, f8E5M2, ... f6E2M3FN, f4E2M1FN):
// tracer/kernels/float8.h's, which the eager conversions use; nullopt for any other type. They
// have no LLVM type: stored as i8 (the 6- and 4-bit ones as i6 and i4, a byte each too).
std::optional<::strata::kernels::Float8Format> float8Format(Type elementType);
inline bool isFloat8(Type elementType) { return float8Format(elementType).has_value(); }
// +inf (-inf when `negative`), or the largest finite value of a float type without infinities
// (f8E4M3FN: ±448), or for f8E8M0FNU, which has no sign, its smallest value 2^-127 when
// `negative`: the identity of max and min.
llvm::APFloat floatExtreme(const llvm::fltSemantics& semantics, bool negative);

}  // namespace mlir::strata
