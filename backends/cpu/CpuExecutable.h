// backends/cpu/CpuExecutable.h — a program compiled for the host CPU: its JIT-linked code, the
// jaxpr's constants (passed ahead of the inputs), and what compilation reported.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/Executable.h"
#include "backends/cpu/JitCode.h"
#include "strata/array.h"

namespace strata::cpu {

struct CpuProgram {
  std::unique_ptr<JitCode> code;
  std::vector<Array> consts;  // the jaxpr's constants, kept alive
  std::vector<AbstractValue> inputs, outputs;
  std::vector<std::pair<std::string, std::string>> stages;  // up to llvm-ir; asm is added lazily
  std::vector<StageTime> times;
  MemoryAnalysis memory;
  CostAnalysis cost;
  std::vector<int> output_aliases;  // per output, the donated input it is written into, or -1
  bool from_disk_cache = false;
  int opt_level = 3;  // for the asm stage, generated on demand
};

class CpuExecutable final : public Executable {
 public:
  explicit CpuExecutable(CpuProgram program);

  void execute(const void* const* inputs, void* const* outputs) const override;
  const std::vector<AbstractValue>& input_types() const override { return p_.inputs; }
  const std::vector<AbstractValue>& output_types() const override { return p_.outputs; }
  std::string assembly() const override;
  const std::vector<std::pair<std::string, std::string>>& stage_texts() const override;
  const std::vector<StageTime>& compile_times() const override { return p_.times; }
  MemoryAnalysis memory_analysis() const override { return p_.memory; }
  CostAnalysis cost_analysis() const override { return p_.cost; }
  std::string device() const override { return "cpu"; }
  const std::vector<int>& output_aliases() const override { return p_.output_aliases; }
  bool from_disk_cache() const override { return p_.from_disk_cache; }

 private:
  // Generates the asm stage from the llvm-ir stage on first use (codegen is not free).
  void ensure_assembly() const;

  CpuProgram p_;
  std::vector<const void*> const_ptrs_;
  EntryFn entry_;
  mutable std::once_flag asm_once_;
  mutable std::vector<std::pair<std::string, std::string>> all_stages_;
};

}  // namespace strata::cpu
