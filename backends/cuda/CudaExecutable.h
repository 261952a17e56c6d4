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

// CUDA graphs. A program of two or more steps called again with the same buffers (inputs,
// outputs) records its steps once as a graph and from then on replays it: one graph launch a
// call instead of a launch per step. Buffers seen once run as plain launches (a graph pays
// off only when replayed); an executable keeps its graphs for the last few buffer sets, and
// one scratch arena and cuBLASLt workspace for all of them (their launches are ordered on the
// device stream). On by default; STRATA_CUDA_GRAPHS=0, or set_graphs_enabled(false), turns it off.
void set_graphs_enabled(bool on);
bool graphs_enabled();
struct GraphStats {
  uint64_t captures = 0;  // graphs recorded
  uint64_t replays = 0;   // calls run as one graph launch
  uint64_t failures = 0;  // programs whose capture failed (they run as plain launches)
};
GraphStats graph_stats();  // of the whole process, for tests and benchmarks

// Loads `cubin` on GPU `device` and uploads the constants; an error when the device cannot
// take it. `ptx` is kept for the ptx stage and the assembly.
absl::StatusOr<std::shared_ptr<const Executable>> make_executable(HostProgram host, std::string cubin,
                                                                  std::string ptx, backends::Program program,
                                                                  int device);

}  // namespace strata::backends::cuda
