// backends/Executable.h — a compiled program, as the API sees it: plain C++, no MLIR or LLVM
// type. The one interface between the public API and the compiler: compile a jaxpr for a
// device → an Executable; run it on buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "abstract_value.h"

namespace strata {

struct JaxprImpl;

// How to compile. Part of jit's cache key (see key()).
struct CompileOptions {
  int opt_level = 3;                // LLVM -O level for the generated code
  bool parallel = true;             // split large loops and GEMMs across the cores
  // Passes of the compiler that can be switched off (a later issue adds fusion and buffer
  // assignment; each gets a flag here so that its effect can be measured).
  bool fuse = true;
  bool assign_buffers = true;
  // Inputs (positions among the jaxpr's invars) whose buffers the caller gives up: an output of
  // the same shape and dtype may be written into one (see Executable::output_aliases).
  std::vector<int> donate;
  // Persistent cache: when set, compiled objects are kept in this directory, keyed on the
  // program text, the target and the strata version; a restarted process skips codegen.
  std::string cache_dir;
  // A stable text of everything above that changes the generated code.
  std::string key() const;
};

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

class Executable {
 public:
  virtual ~Executable() = default;

  // Runs the program. `inputs` point to the data of each input of the jaxpr (its invars, in
  // order; the executable holds the jaxpr's constants itself), `outputs` to preallocated
  // buffers for each output; all contiguous, row-major, of the types below. Inputs are only
  // read, except those outputs are written into (output_aliases). Thread-safe: many threads may
  // run one executable at once. Never throws; never allocates beyond its scratch.
  virtual void execute(const void* const* inputs, void* const* outputs) const = 0;

  virtual const std::vector<AbstractValue>& input_types() const = 0;
  virtual const std::vector<AbstractValue>& output_types() const = 0;

  // The generated machine code as assembly text (the `asm` stage).
  virtual std::string assembly() const = 0;
  // The program after each compiler stage, as strata-opt --emit prints it.
  virtual const std::vector<std::pair<std::string, std::string>>& stage_texts() const = 0;
  virtual const std::vector<StageTime>& compile_times() const = 0;
  virtual MemoryAnalysis memory_analysis() const = 0;
  virtual CostAnalysis cost_analysis() const = 0;
  // "cpu" or "cuda:0".
  virtual std::string device() const = 0;
  // Per output, the donated input (CompileOptions::donate) whose buffer it is written into, or
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

// Compiles `jaxpr` for the host CPU. Never throws: failures come back in `error`.
CompileResult compile_for_cpu(const JaxprImpl& jaxpr, const CompileOptions& options);

}  // namespace strata
