// dialect/StrataDialect.td — the `strata` dialect, its element types and its op base classes.
//
// The ops follow StableHLO's names and semantics (StablehloOps.td) on builtin ranked tensors
// of static shape. Everything a pass or a doc needs to know about an op is declared in ODS.
#ifndef STRATA_DIALECT_TD
#define STRATA_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"

def Strata_Dialect : Dialect {
  let name = "strata";
  let cppNamespace = "::mlir::strata";
  let summary = "strata's array ops: StableHLO's ops on builtin ranked tensors";
  let description = [{
    The program a strata function computes, after tracing and lowering from its jaxpr. Ops
    are named and specified as StableHLO specifies them, on statically shaped builtin tensors
    of `f32`, `f64`, `bf16`, `f16`, `complex<f32>`, `complex<f64>`, `i1` and the integers
    (signless read as signed, as jaxprs' `i32`/`i64`; `ui8`..`ui64` unsigned; `i1` is `bool`).
    Passes that change how a program is computed (canonicalization, CSE, fusion, buffer
    assignment) run on this dialect.
  }];
  // The scalar bodies of ops on complex numbers are `complex` ops.
  let dependentDialects = ["::mlir::complex::ComplexDialect"];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;  // StrataDialect.cpp: ops computing empty tensors become constants
  let extraClassDeclaration = [{
    // The canonicalizer's frozen patterns for this context, kept here because the dialect
    // lives as long as the context (defined and used in lowering/Canonicalize.cpp).
    struct CanonicalizationCache;
    std::shared_ptr<CanonicalizationCache> canonicalizationCache;
  }];
}

//===----------------------------------------------------------------------------------===//
// Types: statically shaped tensors of the thirty element types (complex<f32>, complex<f64>
// are c64, c128; f8E4M3FN, f8E5M2 and the rest the 8-, 6- and 4-bit floats). Integers are StableHLO's:
// signless (i2 .. i64) for the signed dtypes, unsigned (ui2 .. ui64) for the unsigned ones; the
// lowering erases the signedness (strata-to-linalg) once each op has recorded what it needs.
//===----------------------------------------------------------------------------------===//

def Strata_Int : AnyTypeOf<[I<2>, I<4>, I8, I16, I32, I64, UI<2>, UI<4>, UI8, UI16, UI32, UI64], "2/4/8/16/32/64-bit signless or unsigned integer">;
def Strata_Complex : AnyTypeOf<[Complex<F32>, Complex<F64>], "complex<f32> or complex<f64>">;
def Strata_Float8 : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3FNUZ, F8E5M2FNUZ, F8E4M3B11FNUZ, F8E4M3, F8E3M4, F8E8M0FNU,
                               F6E2M3FN, F6E3M2FN, F4E2M1FN], "8-, 6- or 4-bit float">;
def Strata_Tensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8, I1, Strata_Int, Strata_Complex]>;
def Strata_RealTensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8, I1, Strata_Int]>;
def Strata_FloatTensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8]>;
def Strata_InexactTensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8, Strata_Complex]>;
def Strata_ComplexTensor : StaticShapeTensorOf<[Strata_Complex]>;
def Strata_NumericTensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8, Strata_Int, Strata_Complex]>;
def Strata_RealNumericTensor : StaticShapeTensorOf<[F32, F64, BF16, F16, Strata_Float8, Strata_Int]>;
def Strata_IntTensor : StaticShapeTensorOf<[Strata_Int]>;
def Strata_PredOrIntTensor : StaticShapeTensorOf<[I1, Strata_Int]>;
def Strata_PredTensor : StaticShapeTensorOf<[I1]>;
def Strata_I32Tensor : StaticShapeTensorOf<[I32]>;
// A 0-d i32 tensor; buildable, so assembly formats need not spell its type.
def Strata_I32Scalar : 0DTensorOf<[I32]>,
    BuildableType<"::mlir::RankedTensorType::get({}, $_builder.getI32Type())">;

//===----------------------------------------------------------------------------------===//
// Base classes.
//===----------------------------------------------------------------------------------===//

class Strata_Op<string mnemonic, list<Trait> traits = []> :
    Op<Strata_Dialect, mnemonic, traits>;

#endif  // STRATA_DIALECT_TD
