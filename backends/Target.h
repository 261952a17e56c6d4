// backends/Target.h — a compiler target: one kind of device, the stages its programs go through
// after the shared ones, and how it turns the last of them into an Executable. Internal to the
// compiler (MLIR types); the API reaches targets only through backends/Compiler.h.
//
// The shared stages (lowering/Stages.h: strata → canonicalized → cse → fused) are the same for
// every target; each target appends its own (the CPU: linalg … llvm-ir, asm). Targets are
// listed in backends/CMakeLists.txt (STRATA_TARGETS); a new one is a folder with a class
// implementing this interface and a `createXxxTarget()` function — no shared code changes.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "backends/Executable.h"
#include "llvm/ADT/ArrayRef.h"
#include "strata/array.h"
#include "strata/jit_options.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
namespace strata {
struct Stage;
struct PipelineOptions;
}  // namespace strata
}  // namespace mlir

namespace strata {
class HostCallback;
}

namespace strata::backends {

// What the compile path knows of a program when its target takes over, and what an Executable
// reports: the jaxpr's interface and constants, each stage's text and time, the analyses.
struct Program {
  std::vector<AbstractValue> inputs, outputs;
  std::vector<Array> consts;  // the jaxpr's constants, passed ahead of the inputs
  std::vector<std::pair<std::string, std::string>> stages;
  std::vector<StageTime> times;
  MemoryAnalysis memory;
  CostAnalysis cost;
  std::vector<int> output_aliases;  // per output, the donated input it is written into, or -1
  bool from_disk_cache = false;
  // The host functions the program calls (tracer/host_callback.h), kept alive with it.
  std::vector<std::shared_ptr<const HostCallback>> host_callbacks;
};

// Times the stages of one compilation: each lap() appends the time since the previous one.
class StageClock {
 public:
  void lap(std::vector<StageTime>& times, std::string stage) {
    std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now();
    times.push_back({std::move(stage), std::chrono::duration<double, std::milli>(now - last_).count()});
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

class Target {
 public:
  virtual ~Target() = default;

  virtual DeviceKind kind() const = 0;
  // "cpu": strata-opt's --target, the stage files' and the persistent cache's name for it.
  virtual const char* name() const = 0;
  // How many devices of this kind the process has (the CPU: 1).
  virtual int device_count() const = 0;

  // The stages after `fused`, in order: MLIR stages, then those that translate (llvm-ir, asm).
  virtual llvm::ArrayRef<mlir::strata::Stage> stages() const = 0;
  // The dialect interfaces its stages need (bufferization models, LLVM IR translation).
  virtual void register_dialects(mlir::DialectRegistry& registry) const = 0;
  // Tells the shared stages what its code generation accepts (PipelineOptions::
  // dotEpilogueTypes: which dots fusion may give an epilogue).
  virtual void configure(mlir::strata::PipelineOptions& options) const = 0;

  // What besides the program and the options decides the generated code (the host CPU and its
  // features, a GPU's architecture): part of the persistent cache's key.
  virtual std::string fingerprint() const = 0;

  // The executable for `module`, which its last MLIR stage has just produced; `program`
  // carries what the earlier stages reported, and the target adds its own to it (generated
  // code's stages and times, the scratch size, output aliases) before the executable takes a
  // copy. `payload` receives what the persistent cache keeps to rebuild the executable with
  // load() (an object file, a cubin).
  virtual absl::StatusOr<std::shared_ptr<const Executable>> compile(mlir::ModuleOp module, Program& program,
                                                                    const JitOptions& options,
                                                                    std::string& payload) const = 0;
  // The executable from a payload compile() produced (a persistent cache hit).
  virtual absl::StatusOr<std::shared_ptr<const Executable>> load(std::string_view payload, Program program,
                                                                 const JitOptions& options) const = 0;
};

// The target for a device kind, or by name; null when this build has none.
const Target* find_target(DeviceKind kind);
const Target* find_target(std::string_view name);
// Every target built in, in the order of STRATA_TARGETS.
std::vector<const Target*> all_targets();

}  // namespace strata::backends
