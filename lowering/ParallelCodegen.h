// lowering/ParallelCodegen.h — the host's object code for a module (LLVM dialect), with LLVM's
// optimisation and code generation spread over threads: the module's functions are split into
// parts of about equal size (a function stays with the functions it calls directly, so the
// inliner sees them together), and each part is optimised and compiled on its own thread, in
// its own LLVMContext with its own TargetMachine. The parts are separate ELF objects that the
// JIT links together. Internal to the compiler (LLVM types stay in the .cpp).
#pragma once

#include <string>
#include <vector>

#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
}

namespace mlir::strata {

struct ObjectCode {
  std::vector<std::string> objects;  // one ELF object per part
  std::string ir;                    // the optimised IR of every part (kPartMarker before each when split)
  double optimize_ms = 0;            // translation and the longest part's optimisation (wall clock)
  double total_ms = 0;               // everything, wall clock
};

// How many parts a compilation may use: STRATA_COMPILE_THREADS when set (1 = no split), else
// the hardware's threads, at most 16.
unsigned codegenThreads();

// Compiles `module` at -O`optLevel` into at most `parts` objects (one when the module is small
// or has a single group of functions). Fails after a diagnostic on `module`.
LogicalResult compileToObjects(ModuleOp module, int optLevel, unsigned parts, ObjectCode& out);

}  // namespace mlir::strata
