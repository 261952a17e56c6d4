// lowering/Dialects.h — the dialects strata's pipelines use, registered in one place so that
// strata-opt and the C++ API parse and print programs identically.
#pragma once

namespace mlir {
class DialectRegistry;
}

namespace mlir::strata {

// `strata` and the upstream dialects the stages lower through (func, arith, math, complex,
// tensor, linalg, scf, cf, memref, bufferization, vector, affine, llvm).
void registerStrataDialects(DialectRegistry& registry);

}  // namespace mlir::strata
