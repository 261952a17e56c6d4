// dialect/StrataInterfaces.td — what passes ask a `strata` op instead of keeping lists of ops.
//
//  - ScalarOpInterface: an elementwise op's element as scalar arith/math code (its semantics,
//    written in the op's ODS record); the lowering to loops and the fusion emitter call it.
//  - IndexMapOpInterface: an op that moves elements without arithmetic, each result element
//    being the operand's at an affine function of its index (broadcast_in_dim, transpose,
//    slice, unit reshapes); fusion reads through it.
// The cost class is a trait (Strata_Expensive in StrataOps.td); elementwise is MLIR's
// Elementwise trait, which every op with a ScalarOpInterface has.
#ifndef STRATA_INTERFACES_TD
#define STRATA_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Strata_ScalarOpInterface : OpInterface<"ScalarOpInterface"> {
  let cppNamespace = "::mlir::strata";
  let description = [{
    An elementwise op whose result element is a function of its operands' elements at the same
    index, built as scalar code (arith, math) by `buildScalar`.
  }];
  let methods = [
    InterfaceMethod<[{
        The result element from `args`, one per operand: each in the compute type of that
        operand's element type (f32 for bf16 and f16, see dialect/ScalarOps.h), or in its
        storage type when `movesStoredBits`. Returns a value of the compute type of
        `resultType` (the result's element type), or of `resultType` itself when
        `movesStoredBits`.
      }], "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder&":$b, "::mlir::Location":$loc, "::mlir::ValueRange":$args,
           "::mlir::Type":$resultType)>,
    InterfaceMethod<[{
        Whether the op only moves stored elements (select, bitcast_convert): it then reads and
        returns storage-type elements, and no rounding follows.
      }], "bool", "movesStoredBits">,
  ];
}

def Strata_IndexMapOpInterface : OpInterface<"IndexMapOpInterface"> {
  let cppNamespace = "::mlir::strata";
  let description = [{
    An op with one data operand whose result element at index i is that operand's element at
    `getOperandIndexMap()(i)`: it moves data, computes nothing.
  }];
  let methods = [
    InterfaceMethod<[{
        The affine map from a result index (one dimension per result dimension) to the index of
        operand 0 it reads, or a null map when the op is not such a map (a reshape that
        reorders elements across dimensions).
      }], "::mlir::AffineMap", "getOperandIndexMap">,
  ];
}

#endif  // STRATA_INTERFACES_TD
