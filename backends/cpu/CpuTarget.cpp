// The CPU target (backends/Target.h): the host's stages after `fused` (lowering/CpuPipeline.h),
// LLVM code generation for the host, and the object linked into the process by the JIT.
//
// 1. linalg … llvm-dialect run as MLIR stages; the compile path records each.
// 2. compile(): the LLVM dialect is translated to LLVM IR, optimised for the host at -O<n> and
//    compiled to ELF objects, in parts on all cores (lowering/ParallelCodegen.h); the objects
//    (framed: the persistent cache's payload) are linked by ORC (JitCode).
// 3. The asm stage is generated on demand from the llvm-ir text (CpuExecutable).
#include "backends/Target.h"
#include "backends/Pipeline.h"
#include "backends/cpu/CpuExecutable.h"
#include "backends/cpu/JitCode.h"
#include "kernels/parallel.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "lowering/CpuAbi.h"
#include "lowering/CpuPipeline.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/ParallelCodegen.h"
#include "lowering/Stages.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "transforms/BufferAssignment.h"

namespace strata::backends::cpu {
namespace {

using mlir::strata::Stage;

// The host's stages, in order. Buffers are assigned once bufferization has made every
// temporary an allocation; the loops stage then places them in the scratch arena.
const Stage kStages[] = {
    mlir::strata::kLinalgStage,
    mlir::strata::kBufferizedStage,
    mlir::strata::kBuffersStage,
    {"loops", "scf loops, runtime GEMM calls, parallel loops outlined, scratch arena", mlir::strata::addLoopsPasses},
    {"llvm-dialect", "the LLVM dialect, with the entry point strata_entry", mlir::strata::addLlvmDialectPasses},
    {"llvm-ir", "LLVM IR after LLVM's -O pipeline for the host CPU", nullptr, mlir::strata::translateToLlvmIr},
    {"asm", "the host CPU's assembly", nullptr, mlir::strata::translateToAssembly},
};

class CpuTarget final : public backends::Target {
 public:
  DeviceKind kind() const override { return DeviceKind::cpu; }
  const char* name() const override { return "cpu"; }
  int device_count() const override { return 1; }
  llvm::ArrayRef<Stage> stages() const override { return kStages; }
  void register_dialects(mlir::DialectRegistry& registry) const override {
    mlir::strata::registerCpuPipelineInterfaces(registry);
  }
  // The runtime GEMM runs an epilogue on each output block for f32 and f64 (strata_rt_dot_ep_*).
  void configure(mlir::strata::PipelineOptions& options) const override {
    options.dotEpilogueTypes = {"f32", "f64"};
    options.runtimeConvolution = true;  // the eager kernel's blocked implicit GEMM (issue 13)
    options.cpuThreads = strata::kernels::num_threads();
  }
  // The pool's size too: few long rows are cut differently for more threads.
  std::string fingerprint() const override {
    const mlir::strata::HostTarget& host = mlir::strata::hostTarget();
    return host.triple + "\n" + host.cpu + "\n" + host.features + "\nthreads " +
           std::to_string(strata::kernels::num_threads());
  }

  absl::StatusOr<std::shared_ptr<const Executable>> compile(mlir::ModuleOp module, backends::Program& program,
                                                            const JitOptions& options,
                                                            std::string& payload) const override {
    backends::StageClock clock;
    auto lap = [&](const char* stage) { clock.lap(program.times, stage); };
    backends::read_program_results(module, program);

    mlir::strata::ObjectCode code;
    if (mlir::failed(mlir::strata::compileToObjects(module, options.opt_level, mlir::strata::codegenThreads(), code)))
      return absl::InternalError("the LLVM dialect could not be compiled to machine code");
    program.stages.emplace_back("llvm-ir", std::move(code.ir));
    // The parts ran side by side: llvm-ir is the time to the end of the longest optimisation,
    // asm the rest of the wall clock.
    lap("asm");
    program.times.back().ms = code.total_ms - code.optimize_ms;
    program.times.insert(program.times.end() - 1, StageTime{"llvm-ir", code.optimize_ms});
    std::vector<std::string_view> objects(code.objects.begin(), code.objects.end());
    std::string error;
    std::unique_ptr<JitCode> jit = JitCode::load(objects, cpu_abi::kEntry, error);
    if (!jit) return absl::InternalError(error);
    payload = pack_objects(code.objects);
    lap("link");
    return std::make_shared<CpuExecutable>(CpuProgram{std::move(jit), program, options.opt_level});
  }

  absl::StatusOr<std::shared_ptr<const Executable>> load(std::string_view payload, backends::Program program,
                                                         const JitOptions& options) const override {
    std::string error;
    std::vector<std::string_view> objects;
    if (!unpack_objects(payload, objects)) return absl::InvalidArgumentError("not a payload of the CPU target");
    std::unique_ptr<JitCode> code = JitCode::load(objects, cpu_abi::kEntry, error);
    if (!code) return absl::InvalidArgumentError(error);
    return std::make_shared<CpuExecutable>(CpuProgram{std::move(code), std::move(program), options.opt_level});
  }
};

}  // namespace
}  // namespace strata::backends::cpu

namespace strata::backends {
std::unique_ptr<Target> create_cpu_target() { return std::make_unique<cpu::CpuTarget>(); }
}  // namespace strata::backends
