// lowering/LibraryEpilogue.h — which dot epilogues a GEMM library applies itself (cuBLASLt's
// epilogues: + bias[n], relu, gelu), read off the epilogue generic an output fusion made.
#pragma once

#include <cstdint>

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::strata {

// Bits of the kind the runtime GEMM call takes (0: none). HostProgram.h and the cuda executable
// read the same numbers: 1 relu, 2 + bias, 3 + bias then relu, 4 gelu, 6 + bias then gelu.
enum LibraryEpilogue : int64_t { kNoEpilogue = 0, kRelu = 1, kBias = 2, kGelu = 4 };

// The epilogue `g` computes, in place on the GEMM's output: `+ bias[n]` (its one input, indexed
// by the n loop; set in `bias`), then relu (max with 0) or gelu in its tanh form
// (0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), the products grouped in any way) — or
// kNoEpilogue when it computes anything else.
int64_t libraryEpilogue(linalg::GenericOp g, Value& bias);

// The same reading of scalar code: `result` computed from `product` (the GEMM's element) and
// `bias` (the bias element, or null for none), gelu's constants within `tolerance` (relative)
// of their exact values — 1e-6 for f32, a bf16/f16 ulp for constants of those types.
int64_t libraryEpilogueOf(Value result, Value product, Value bias, double tolerance);

// On the generic that a bf16/f16 output fusion becomes when the library can apply its
// epilogue (FusionToLinalg): the kind, an i64. That generic reads the GEMM's f32 product (and
// the bias, indexed by n), computes the epilogue in f32 and rounds once, as the library does.
inline constexpr llvm::StringLiteral kLibraryEpilogueAttr = "strata.library_epilogue";

}  // namespace mlir::strata
