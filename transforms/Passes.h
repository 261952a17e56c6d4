// transforms/Passes.h — the passes of transforms/ (declared in Passes.td): strata-fuse on the
// `strata` dialect, strata-assign-buffers on the bufferized program. Compiler-side only.
#pragma once

#include <memory>

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace memref {
class MemRefDialect;
}
namespace strata {
class StrataDialect;

#define GEN_PASS_DECL
#include "transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "transforms/Passes.h.inc"

}  // namespace strata
}  // namespace mlir
