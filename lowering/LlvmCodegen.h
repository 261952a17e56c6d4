// lowering/LlvmCodegen.h — from the LLVM dialect to native code for the host CPU: translation
// to LLVM IR, LLVM's -O pipeline, and machine code (object or assembly). Used by the llvm-ir and
// asm stages and by backends/cpu. Internal to the compiler (LLVM types).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
}  // namespace llvm

namespace mlir {
class ModuleOp;
}

namespace mlir::strata {

// The host: target triple, CPU name (llvm::sys::getHostCPUName) and its features.
struct HostTarget {
  std::string triple, cpu, features;
};
const HostTarget& hostTarget();

// A TargetMachine for the host at -O`optLevel` (PIC, small code model, as the JIT links it).
// Null with `error` set on failure.
std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(int optLevel, std::string& error);

// The same from a per-process pool, for the compile path: creating a TargetMachine (parsing the
// host's ~200 features, building its subtarget) costs ~3% of a small program's first call. The
// machine goes back to the pool when the handle is destroyed; one thread uses it at a time.
struct ReturnTargetMachine {
  int optLevel = 3;
  void operator()(llvm::TargetMachine* tm) const;
};
using PooledTargetMachine = std::unique_ptr<llvm::TargetMachine, ReturnTargetMachine>;
PooledTargetMachine acquireHostTargetMachine(int optLevel, std::string& error);

// The module (LLVM dialect) as LLVM IR, with the host's data layout, triple, CPU and features,
// verified. Null after a diagnostic on `module`.
std::unique_ptr<llvm::Module> translateForHost(ModuleOp module, llvm::LLVMContext& context, llvm::TargetMachine& tm);
// LLVM's default -O`optLevel` pipeline (loop and SLP vectorisation included) for the host.
void optimizeModule(llvm::Module& module, llvm::TargetMachine& tm, int optLevel);
// Both.
std::unique_ptr<llvm::Module> translateAndOptimize(ModuleOp module, llvm::LLVMContext& context,
                                                   llvm::TargetMachine& tm, int optLevel);

// Machine code for `module`: an ELF object, or assembly text. Returns false with `error`.
// Code generation changes the module: pass one that is not used afterwards.
bool emitMachineCode(llvm::Module& module, llvm::TargetMachine& tm, bool assembly,
                     llvm::SmallVectorImpl<char>& out, std::string& error);

std::string printLlvmModule(const llvm::Module& module);

// The line that starts each part's IR in the llvm-ir text of a compilation split into parts
// (ParallelCodegen.h), followed by the part's number.
inline constexpr const char* kPartMarker = "; strata: part ";

// The host's assembly for LLVM IR text (already optimised: code generation only): one module,
// or several, each after a kPartMarker line.
bool assemblyFromLlvmIr(const std::string& ir, int optLevel, std::string& assembly, std::string& error);

// Registers the host target with LLVM (once per process).
void initializeNativeTarget();

// Held while another target builds an LLVM code generation pipeline (the NVPTX serialiser):
// the host's pipeline is built with some of LLVM's global options changed (emitMachineCode),
// and LLVM reads them while it builds a pipeline.
std::unique_lock<std::mutex> lockCodegenOptions();

}  // namespace mlir::strata
