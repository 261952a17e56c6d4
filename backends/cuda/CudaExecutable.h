// backends/cuda/CudaExecutable.h — a program compiled for one GPU: its cubin loaded on the
// device, the host program (HostProgram.h) that launches its kernels, its constants in device
// memory, and what compilation reported.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "backends/Executable.h"
#include "backends/Target.h"
#include "backends/cuda/HostProgram.h"

namespace strata::backends::cuda {

// Loads `cubin` on GPU `device` and uploads the constants; an error when the device cannot
// take it. `ptx` is kept for the ptx stage and the assembly.
absl::StatusOr<std::shared_ptr<const Executable>> make_executable(HostProgram host, std::string cubin,
                                                                  std::string ptx, backends::Program program,
                                                                  int device);

}  // namespace strata::backends::cuda
