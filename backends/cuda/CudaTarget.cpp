// The cuda target (backends/Target.h): NVIDIA GPUs through LLVM's NVPTX backend.
//
// 1. linalg … nvvm run as MLIR stages (lowering/CudaPipeline.h); the compile path records each.
// 2. compile(): the kernels' PTX (the ptx stage), a cubin from the toolkit's ptxas, and the
//    host program read off @main (HostSteps.h); the cubin and the host program are the
//    persistent cache's payload, so a cache hit loads the cubin without PTX JIT.
// 3. The CUDA driver is loaded at run time (Driver.h): without a GPU the target has no devices
//    and the library still works on the CPU.
#include <string>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "backends/cuda/Allocator.h"
#include "backends/cuda/CudaExecutable.h"
#include "backends/cuda/Driver.h"
#include "backends/cuda/HostSteps.h"
#include "backends/cuda/Ptxas.h"
#include "lowering/CpuPipeline.h"
#include "lowering/CudaPipeline.h"
#include "lowering/Stages.h"
#include "mlir/IR/BuiltinOps.h"
#include "transforms/BufferAssignment.h"

#ifndef STRATA_CUDA_ROOT
#define STRATA_CUDA_ROOT "/usr/local/cuda"
#endif

namespace strata::backends::cuda {
namespace {

using mlir::strata::Stage;

const Stage kStages[] = {
    {"linalg", "linalg/arith/math/tensor, one loop nest per fusion region (control flow refused)",
     mlir::strata::addCudaLinalgPasses, nullptr, nullptr, mlir::strata::measureLinalgBytes},
    mlir::strata::kBufferizedStage,
    mlir::strata::kBuffersStage,
    {"loops", "scf loops, adjacent loops fused, the scratch arena in device memory", mlir::strata::addCudaLoopsPasses},
    {"gpu", "one kernel per loop nest: launches on the host, kernels in a gpu.module", mlir::strata::addGpuKernelPasses},
    {"nvvm", "the kernels in the NVVM and LLVM dialects", mlir::strata::addNvvmPasses},
    {"ptx", "the kernels' PTX (LLVM's NVPTX backend)", nullptr, mlir::strata::translateToPtx},
};

// The architecture kernels are compiled for: GPU 0's when there is one, else sm_90 (the H200),
// with the PTX version that architecture needs.
std::string chip() {
  static const std::string c = [] {
    Driver& d = driver();
    if (d.device_count() > 0) {
      absl::StatusOr<DeviceInfo> info = d.device_info(0);
      if (info.ok()) return "sm_" + std::to_string(info->cc_major * 10 + info->cc_minor);
    }
    return std::string("sm_90");
  }();
  return c;
}

std::string ptx_features(const std::string& chip) {
  int sm = std::atoi(chip.c_str() + 3);
  return sm >= 100 ? "+ptx86" : "+ptx80";
}

class CudaTarget final : public backends::Target {
 public:
  CudaTarget() { register_cuda_memory(); }
  DeviceKind kind() const override { return DeviceKind::cuda; }
  const char* name() const override { return "cuda"; }
  int device_count() const override { return driver().device_count(); }
  llvm::ArrayRef<Stage> stages() const override { return kStages; }
  void register_dialects(mlir::DialectRegistry& registry) const override {
    mlir::strata::registerCudaPipelineInterfaces(registry);
  }
  void configure(mlir::strata::PipelineOptions& options) const override {
    // Dots keep their elementwise epilogue in one fusion: + bias and relu go to cuBLASLt's
    // epilogue, anything else runs as a kernel right after the GEMM.
    options.dotEpilogueTypes = {"f32", "bf16", "f16"};
    options.gpuChip = chip();
    options.gpuFeatures = ptx_features(options.gpuChip);
    options.cudaToolkit = STRATA_CUDA_ROOT;
  }
  std::string fingerprint() const override { return chip() + " " + ptx_features(chip()); }

  absl::StatusOr<std::shared_ptr<const Executable>> compile(mlir::ModuleOp module, backends::Program& program,
                                                            const JitOptions& options,
                                                            std::string& payload) const override {
    backends::StageClock clock;
    backends::read_program_results(module, program);
    mlir::strata::PipelineOptions po;
    po.jit = options;
    configure(po);
    std::string ptx;
    if (mlir::failed(mlir::strata::translateToPtx(module, po, ptx)))
      return absl::InternalError("the kernels could not be compiled to PTX");
    program.stages.emplace_back("ptx", ptx);
    clock.lap(program.times, "ptx");
    absl::StatusOr<HostProgram> host =
        host_program(module, static_cast<int>(program.consts.size()), static_cast<int>(program.inputs.size()),
                     static_cast<int>(program.outputs.size()));
    if (!host.ok()) return host.status();
    // A program of copies only (or nothing) has no kernels, hence no cubin.
    absl::StatusOr<std::string> cubin =
        host->kernels.empty() ? std::string() : ptx_to_cubin(ptx, po.gpuChip, po.cudaToolkit);
    if (!cubin.ok()) return cubin.status();
    clock.lap(program.times, "cubin");
    payload = pack_payload(*host, *cubin, ptx);
    auto exe = make_executable(*std::move(host), *std::move(cubin), std::move(ptx), program, options.device ? options.device->index : 0);
    clock.lap(program.times, "load");
    return exe;
  }

  absl::StatusOr<std::shared_ptr<const Executable>> load(std::string_view payload, backends::Program program,
                                                         const JitOptions& options) const override {
    HostProgram host;
    std::string cubin, ptx;
    if (absl::Status s = unpack_payload(payload, host, cubin, ptx); !s.ok()) return s;
    return make_executable(std::move(host), std::move(cubin), std::move(ptx), std::move(program),
                           options.device ? options.device->index : 0);
  }
};

}  // namespace
}  // namespace strata::backends::cuda

namespace strata::backends {
std::unique_ptr<Target> create_cuda_target() { return std::make_unique<cuda::CudaTarget>(); }
}  // namespace strata::backends
