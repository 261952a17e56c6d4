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
    case st::DType::f8_e4m3fnuz: return Float8E4M3FNUZType::get(ctx);
    case st::DType::f8_e5m2fnuz: return Float8E5M2FNUZType::get(ctx);
    case st::DType::f8_e4m3b11fnuz: return Float8E4M3B11FNUZType::get(ctx);
    case st::DType::f8_e4m3: return Float8E4M3Type::get(ctx);
    case st::DType::f8_e3m4: return Float8E3M4Type::get(ctx);
    case st::DType::f8_e8m0fnu: return Float8E8M0FNUType::get(ctx);
    case st::DType::f6_e2m3fn: return Float6E2M3FNType::get(ctx);
    case st::DType::f6_e3m2fn: return Float6E3M2FNType::get(ctx);
    case st::DType::f4_e2m1fn: return Float4E2M1FNType::get(ctx);
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

std::optional<::strata::kernels::Float8Format> float8Format(Type t) {
  namespace k = ::strata::kernels;
  if (isa<Float8E4M3FNType>(t)) return k::kE4M3FN;
  if (isa<Float8E5M2Type>(t)) return k::kE5M2;
  if (isa<Float8E4M3FNUZType>(t)) return k::kE4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(t)) return k::kE5M2FNUZ;
  if (isa<Float8E4M3B11FNUZType>(t)) return k::kE4M3B11FNUZ;
  if (isa<Float8E4M3Type>(t)) return k::kE4M3;
  if (isa<Float8E3M4Type>(t)) return k::kE3M4;
  if (isa<Float8E8M0FNUType>(t)) return k::kE8M0FNU;
  if (isa<Float6E2M3FNType>(t)) return k::kE2M3FN;
  if (isa<Float6E3M2FNType>(t)) return k::kE3M2FN;
  if (isa<Float4E2M1FNType>(t)) return k::kE2M1FN;
  return std::nullopt;
}

llvm::APFloat floatExtreme(const llvm::fltSemantics& semantics, bool negative) {
  if (llvm::APFloat::semanticsHasInf(semantics)) return llvm::APFloat::getInf(semantics, negative);
  if (negative && !llvm::APFloat::semanticsHasSignedRepr(semantics)) return llvm::APFloat::getSmallest(semantics);
  return llvm::APFloat::getLargest(semantics, negative);
}

std::optional<st::DType> dtypeOf(Type t) {
  for (st::DType d : st::kAllDTypes)
    if (elementType(t.getContext(), d) == t) return d;
  return std::nullopt;
}

}  // namespace mlir::strata
