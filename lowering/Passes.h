// lowering/Passes.h — strata's own passes of the CPU pipeline, declared in Passes.td (their
// create functions and option structs are generated). Compiler-side only.
#pragma once

#include <memory>

#include "lowering/CpuAbi.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
}
namespace func {
class FuncDialect;
}
namespace memref {
class MemRefDialect;
}
namespace strata {

#define GEN_PASS_DECL
#include "lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowering/Passes.h.inc"

}  // namespace strata
}  // namespace mlir
