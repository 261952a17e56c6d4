// backends/Executable.h — a compiled program, as the API sees it: plain C++, no MLIR or LLVM
// type. backends/Compiler.h compiles a jaxpr for a device into one; it runs on buffers of
// that device, on the caller's thread or queued on a Stream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "abstract_value.h"
#include "strata/device.h"

namespace strata {

// Time spent in each stage of one compilation, for the compile log.
struct StageTime {
  std::string stage;
  double ms = 0;
};

struct MemoryAnalysis {
  int64_t argument_bytes = 0;
  int64_t output_bytes = 0;
  int64_t scratch_bytes = 0;       // the executable's one scratch arena
  int64_t temporaries_bytes = 0;   // all temporaries, before any sharing
};

struct CostAnalysis {
  double flops = 0;                // multiply-adds count 2
  double bytes_accessed = 0;       // bytes read and written by all kernels
};

// An ordered queue of work on one device (a CUDA stream on a GPU). Work given to an executable
// with a stream may still be running when execute() returns; synchronize() waits for it. On
// the CPU work runs on the calling thread, so its stream is always idle.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual Device device() const = 0;
  // Waits until every piece of work given to the stream is done; its first failure, if any.
  virtual absl::Status synchronize() = 0;
};

class Executable {
 public:
  virtual ~Executable() = default;

  // Runs the program. `inputs` point to the data of each input of the jaxpr (its invars, in
  // order; the executable holds the jaxpr's constants itself), `outputs` to preallocated
  // buffers for each output; all contiguous, row-major, of the types below, in the memory of
  // device(). Inputs are only read, except those outputs are written into (output_aliases).
  // With a `stream` of device(), the work is queued on it and the outputs are ready once it is
  // synchronized; without one, execute() returns when they are ready. Thread-safe: many
  // threads may run one executable at once. Never throws: a failure (no memory for the
  // scratch arena, a device error) comes back as the status, and then the outputs hold no
  // result.
  virtual absl::Status execute(const void* const* inputs, void* const* outputs, Stream* stream = nullptr) const = 0;

  virtual const std::vector<AbstractValue>& input_types() const = 0;
  virtual const std::vector<AbstractValue>& output_types() const = 0;

  // The generated machine code as assembly text (the `asm` stage).
  virtual std::string assembly() const = 0;
  // The program after each compiler stage, as strata-opt --emit prints it (the MLIR stages only
  // when the compile asked for them: compiler::compile's `stage_texts`).
  virtual const std::vector<std::pair<std::string, std::string>>& stage_texts() const = 0;
  virtual const std::vector<StageTime>& compile_times() const = 0;
  virtual MemoryAnalysis memory_analysis() const = 0;
  virtual CostAnalysis cost_analysis() const = 0;
  // Where it runs, and where its inputs and outputs live.
  virtual Device device() const = 0;
  // Per output, the donated input (JitOptions::donate) whose buffer it is written into, or
  // -1; empty when there are none. For such an output execute() ignores outputs[j] and writes
  // the result into inputs[i], which the caller must own alone.
  virtual const std::vector<int>& output_aliases() const {
    static const std::vector<int> none;
    return none;
  }
  // True when the code came from the persistent cache (codegen skipped).
  virtual bool from_disk_cache() const = 0;
};

struct CompileResult {
  std::shared_ptr<const Executable> executable;
  std::string error;  // the compiler's diagnostics, with the user's file:line:col, on failure
  bool ok() const { return executable != nullptr; }
};

}  // namespace strata
