// strata's dtypes as MLIR element types and back (ElementTypes.h).
#include "dialect/ElementTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

namespace mlir::strata {

namespace st = ::strata;

Type elementType(MLIRContext* ctx, st::DType t) {
  Builder b(ctx);
  switch (t) {
    case st::DType::bool_: return b.getI1Type();
    case st::DType::i8: return b.getI8Type();
    case st::DType::i16: return b.getI16Type();
    case st::DType::i32: return b.getI32Type();
    case st::DType::i64: return b.getI64Type();
    case st::DType::u8: return b.getIntegerType(8, /*isSigned=*/false);
    case st::DType::u16: return b.getIntegerType(16, /*isSigned=*/false);
    case st::DType::u32: return b.getIntegerType(32, /*isSigned=*/false);
    case st::DType::u64: return b.getIntegerType(64, /*isSigned=*/false);
    case st::DType::bf16: return b.getBF16Type();
    case st::DType::f16: return b.getF16Type();
    case st::DType::f32: return b.getF32Type();
    case st::DType::f64: return b.getF64Type();
    case st::DType::c64: return ComplexType::get(b.getF32Type());
    case st::DType::c128: return ComplexType::get(b.getF64Type());
    case st::DType::f8_e4m3fn: return Float8E4M3FNType::get(ctx);
    case st::DType::f8_e5m2: return Float8E5M2Type::get(ctx);
    case st::DType::i4: return b.getIntegerType(4);
    case st::DType::u4: return b.getIntegerType(4, /*isSigned=*/false);
    case st::DType::i2: return b.getIntegerType(2);
    case st::DType::u2: return b.getIntegerType(2, /*isSigned=*/false);
  }
  return b.getF32Type();
}

unsigned storageBits(Type t) {
  if (auto c = dyn_cast<ComplexType>(t)) return 2 * c.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

int64_t storageBytes(Type t) {
  auto s = cast<ShapedType>(t);
  return s.getNumElements() * std::max<int64_t>(1, storageBits(s.getElementType()) / 8);
}

bool isFloat8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

llvm::APFloat floatExtreme(const llvm::fltSemantics& semantics, bool negative) {
  return llvm::APFloat::semanticsHasInf(semantics) ? llvm::APFloat::getInf(semantics, negative)
                                                   : llvm::APFloat::getLargest(semantics, negative);
}

std::optional<st::DType> dtypeOf(Type t) {
  for (st::DType d : st::kAllDTypes)
    if (elementType(t.getContext(), d) == t) return d;
  return std::nullopt;
}

}  // namespace mlir::strata
