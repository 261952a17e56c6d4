// A program compiled for the host CPU (CpuExecutable.h).
#include "backends/cpu/CpuExecutable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "lowering/LlvmCodegen.h"

namespace strata::cpu {
namespace {

// One scratch arena per thread, grown to the largest any executable has asked for on that
// thread: calls allocate nothing once a thread has run its largest program.
struct Arena {
  void* data = nullptr;
  size_t size = 0;
  ~Arena() { std::free(data); }
  void* get(size_t bytes) {
    if (bytes <= size && data) return data;
    size_t want = (bytes + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, want == 0 ? 64 : want);
    if (!p) return nullptr;
    std::free(data);
    data = p;
    size = want;
    return data;
  }
};

thread_local Arena arena;

}  // namespace

CpuExecutable::CpuExecutable(CpuProgram program) : p_(std::move(program)) {
  for (const Array& c : p_.consts) const_ptrs_.push_back(c.data());
  entry_ = p_.code ? p_.code->entry() : nullptr;
}

void CpuExecutable::execute(const void* const* inputs, void* const* outputs) const {
  size_t nc = const_ptrs_.size(), ni = p_.inputs.size(), no = p_.outputs.size();
  size_t n = nc + ni + no + 1;
  void* stack[64];
  std::unique_ptr<void*[]> heap;
  void** buffers = stack;
  if (n > 64) {
    heap.reset(new (std::nothrow) void*[n]);
    if (!heap) return;
    buffers = heap.get();
  }
  size_t k = 0;
  for (const void* p : const_ptrs_) buffers[k++] = const_cast<void*>(p);
  for (size_t i = 0; i < ni; ++i) buffers[k++] = const_cast<void*>(inputs[i]);
  // An output written into a donated input: the code never touches its own pointer.
  for (size_t i = 0; i < no; ++i) {
    int alias = i < p_.output_aliases.size() ? p_.output_aliases[i] : -1;
    buffers[k++] = alias >= 0 ? const_cast<void*>(inputs[alias]) : outputs[i];
  }
  void* scratch = arena.get(static_cast<size_t>(p_.memory.scratch_bytes));
  if (!scratch) {
    std::fputs("strata: cannot allocate the scratch arena\n", stderr);
    std::abort();
  }
  buffers[k] = scratch;
  entry_(buffers);
}

void CpuExecutable::ensure_assembly() const {
  std::call_once(asm_once_, [this] {
    all_stages_ = p_.stages;
    std::string ir, text, error;
    for (const auto& [stage, t] : p_.stages)
      if (stage == "llvm-ir") ir = t;
    if (ir.empty() || !mlir::strata::assemblyFromLlvmIr(ir, p_.opt_level, text, error))
      text = "; no assembly: " + (error.empty() ? std::string("no llvm-ir stage") : error) + "\n";
    all_stages_.emplace_back("asm", std::move(text));
  });
}

std::string CpuExecutable::assembly() const {
  ensure_assembly();
  return all_stages_.back().second;
}

const std::vector<std::pair<std::string, std::string>>& CpuExecutable::stage_texts() const {
  ensure_assembly();
  return all_stages_;
}

}  // namespace strata::cpu
