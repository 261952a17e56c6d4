// backends/cpu/CpuExecutable.h — a program compiled for the host CPU: its JIT-linked code, the
// jaxpr's constants (passed ahead of the inputs), and what compilation reported.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/Executable.h"
#include "backends/Target.h"
#include "backends/cpu/JitCode.h"
#include "strata/array.h"

namespace strata::backends::cpu {

struct CpuProgram {
  std::unique_ptr<JitCode> code;
  backends::Program p;  // stages up to llvm-ir (asm is added lazily), constants kept alive
  int opt_level = 3;    // for the asm stage, generated on demand
};

class CpuExecutable final : public Executable {
 public:
  explicit CpuExecutable(CpuProgram program);

  absl::Status execute(const void* const* inputs, void* const* outputs, Stream* stream = nullptr) const override;
  const std::vector<AbstractValue>& input_types() const override { return p_.inputs; }
  const std::vector<AbstractValue>& output_types() const override { return p_.outputs; }
  std::string assembly() const override;
  const std::vector<std::pair<std::string, std::string>>& stage_texts() const override;
  const std::vector<StageTime>& compile_times() const override { return p_.times; }
  MemoryAnalysis memory_analysis() const override { return p_.memory; }
  CostAnalysis cost_analysis() const override { return p_.cost; }
  Device device() const override { return Device{DeviceKind::cpu, 0}; }
  const std::vector<int>& output_aliases() const override { return p_.output_aliases; }
  bool from_disk_cache() const override { return p_.from_disk_cache; }

 private:
  // Generates the asm stage from the llvm-ir stage on first use (codegen is not free).
  void ensure_assembly() const;

  std::unique_ptr<JitCode> code_;
  backends::Program p_;
  int opt_level_;
  std::vector<const void*> const_ptrs_;
  EntryFn entry_;
  mutable std::once_flag asm_once_;
  mutable std::vector<std::pair<std::string, std::string>> all_stages_;
};

}  // namespace strata::backends::cpu
