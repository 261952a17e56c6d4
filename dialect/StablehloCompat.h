// dialect/StablehloCompat.h — StableHLO text read as `strata`. `strata` is modelled on
// StableHLO: its ops have StableHLO's names (where they differ, kRenamed in the .cpp) and
// accept StableHLO's pretty syntax. This dialect registers the `stablehlo` namespace and hands
// each `stablehlo.X` it sees to the parser of `strata.X`, so the op is a strata op from the
// moment it is parsed: one definition of each op's semantics, locations kept.
//
// What has no strata op stays an unregistered `stablehlo.*` op (generic form, or
// `stablehlo.custom_call`, parsed here); unregisteredOps() lists them for a clear refusal.
#pragma once

#include <string>
#include <vector>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Support/LogicalResult.h"

namespace llvm {
class raw_ostream;
}
namespace mlir {
class ModuleOp;
class OpBuilder;
class Value;
class Location;
}

namespace mlir::strata {

class StablehloCompatDialect : public Dialect {
 public:
  explicit StablehloCompatDialect(MLIRContext* context);
  ~StablehloCompatDialect() override;
  static StringRef getDialectNamespace() { return "stablehlo"; }

  std::optional<ParseOpHook> getParseOperationHook(StringRef opName) const override;
  // #stablehlo<precision DEFAULT> and the like: hints strata accepts and ignores.
  Attribute parseAttribute(DialectAsmParser& parser, Type type) const override;
  void printAttribute(Attribute attr, DialectAsmPrinter& printer) const override;

 private:
  struct Hooks;
  std::unique_ptr<Hooks> hooks_;
};

// CHLO's unary ops that strata has (chlo.erf, chlo.sinh, ...), read as strata's.
class ChloCompatDialect : public Dialect {
 public:
  explicit ChloCompatDialect(MLIRContext* context);
  static StringRef getDialectNamespace() { return "chlo"; }
  std::optional<ParseOpHook> getParseOperationHook(StringRef opName) const override;
};

// Prints `module` (strata, before fusion) as StableHLO text in generic form, which
// StableHLO's parser reads (tools/check_stablehlo_export.py checks it with StableHLO's own and
// runs it with XLA): strata.X as stablehlo.X (CHLO for erf, sinh, next_after and the like),
// attributes as StableHLO's (#stablehlo.conv/gather/scatter/dot), and as JAX writes them:
// integer_pow as multiplies, exp2 as exp(x ln 2), cumulative as a reduce_window, linalg's
// cholesky and triangular_solve as StableHLO's, scatter's combiner as its region. Fails with
// a diagnostic naming the op on one StableHLO has no equivalent of: threefry2x32, linalg's
// lu/qr/eigh/svd (JAX's LAPACK custom calls), collectives (shard_map's replica groups),
// gather in FILL mode, fusion (a later stage), an op of another dialect than strata/func.
LogicalResult exportStablehlo(ModuleOp module, llvm::raw_ostream& os);

// The strata op a `stablehlo.NAME` op is ("strata." + the strata name).
std::string strataNameOf(StringRef stablehloName);

// Turns the generic-form `stablehlo.*` ops of `module` (unregistered after parsing) into their
// strata ops, translating StableHLO's attributes (#stablehlo<comparison_direction LT>,
// #stablehlo.dot<...>) into strata's; ops strata has not are left for firstUnregisteredOp.
LogicalResult importGenericOps(ModuleOp module);

// StableHLO forms strata's ops do not take, rewritten into ones they do (importGenericOps runs
// it last): clamp's 0-d bounds broadcast; a convolution whose result type differs from its
// operands' (i8 → i32) computed in the wider type and converted; bitcast_convert between
// element widths or of complex numbers as bitcastConvert's ops.
LogicalResult rewriteImportedForms(ModuleOp module);

// A convolution of complex numbers as four of their real parts, (a + ib) ⊛ (c + id) =
// (a ⊛ c − b ⊛ d) + i (a ⊛ d + b ⊛ c) (strata.convolution takes real operands; the eager kernel
// computes the same four); `op` is replaced and the new value returned. Any other convolution
// is left as it is (its result returned).
class ConvolutionOp;
Value convolutionOfComplexParts(ConvolutionOp op, OpBuilder& b);

// StableHLO's (and jax.lax's) bitcast_convert of x to `out`, in strata ops: real elements of
// one width one strata.bitcast_convert; between widths, wide → narrow adds a last dimension of
// the ratio and narrow → wide removes it (element k of it holds bits [k·w, (k+1)·w) of the wide
// value, i1 one bit each), by shifts and masks; complex<E> is its (real, imaginary) parts, the
// order in memory. A mismatch of shapes is reported on error() (which names the op).
FailureOr<Value> bitcastConvert(OpBuilder& b, Location loc, Value x, RankedTensorType out,
                                llvm::function_ref<InFlightDiagnostic()> error);

// gather's and scatter's batching dimensions as start-index columns: `indices` with one iota
// column per dimension of `indicesBatchingDims` appended along `indexVectorDim` (made explicit,
// and `indexVectorDim` updated, when it is the rank); the caller maps each column to its operand
// batching dimension and collapses that dimension.
Value batchIndexColumns(OpBuilder& b, Location loc, Value indices, int64_t& indexVectorDim,
                        ArrayRef<int64_t> indicesBatchingDims);

// `text` with each `dense<"0x..."> : tensor<...xi1>` written one byte per element (as StableHLO's
// testdata and newer MLIR write it) bit-packed, as MLIR 22's parser reads i1 hex data (it
// refuses the byte form: "elements hex data size is invalid"). Other text is unchanged.
std::string packByteBoolLiterals(StringRef text);

// The first op of `module` (in walk order) that is not a registered op: a StableHLO op strata
// has no op for, a custom_call, or an op of another dialect read as unregistered. Null if none.
Operation* firstUnregisteredOp(ModuleOp module);

}  // namespace mlir::strata

MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::strata::StablehloCompatDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::strata::ChloCompatDialect)
