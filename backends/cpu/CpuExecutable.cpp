// A program compiled for the host CPU (CpuExecutable.h).
#include "backends/cpu/CpuExecutable.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

#include "host_callback.h"
#include "lowering/LlvmCodegen.h"

namespace strata::backends::cpu {
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

CpuExecutable::CpuExecutable(CpuProgram program)
    : code_(std::move(program.code)), p_(std::move(program.p)), opt_level_(program.opt_level) {
  for (const Array& c : p_.consts) const_ptrs_.push_back(c.data());
  entry_ = code_ ? code_->entry() : nullptr;
}

// No UBSan function-type check on the call of the generated entry point: it has no type
// signature before it to check (see Runtime.cpp).
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
absl::Status CpuExecutable::execute(const void* const* inputs, void* const* outputs, Stream* stream) const {
  if (stream && stream->device().kind != DeviceKind::cpu)
    return absl::InvalidArgumentError("a CPU executable was given a stream of " + stream->device().str());
  // The entry's argument array (constants, inputs, outputs, scratch), one per thread, grown
  // once to the largest an executable has needed on that thread. A run started by a host
  // callback of a run on this thread (nested) has its own array and arena: the outer run's are
  // in use.
  thread_local int depth = 0;
  thread_local std::vector<void*> outer_buffers;
  struct Nested {
    std::vector<void*> buffers;
    Arena arena;
  };
  std::optional<Nested> nested;  // made only for a nested run: nothing more on the common path
  if (depth > 0) nested.emplace();
  std::vector<void*>& buffers = nested ? nested->buffers : outer_buffers;
  Arena& arena_used = nested ? nested->arena : arena;
  size_t nc = const_ptrs_.size(), ni = p_.inputs.size(), no = p_.outputs.size();
  if (buffers.size() < nc + ni + no + 1) {
    try {
      buffers.resize(nc + ni + no + 1);
    } catch (const std::bad_alloc&) {
      return absl::ResourceExhaustedError("cannot allocate the argument array of " +
                                          std::to_string(nc + ni + no + 1) + " buffers");
    }
  }
  size_t k = 0;
  for (const void* p : const_ptrs_) buffers[k++] = const_cast<void*>(p);
  for (size_t i = 0; i < ni; ++i) buffers[k++] = const_cast<void*>(inputs[i]);
  // An output written into a donated input: the code never touches its own pointer.
  for (size_t i = 0; i < no; ++i) {
    int alias = i < p_.output_aliases.size() ? p_.output_aliases[i] : -1;
    buffers[k++] = alias >= 0 ? const_cast<void*>(inputs[alias]) : outputs[i];
  }
  void* scratch = arena_used.get(static_cast<size_t>(p_.memory.scratch_bytes));
  if (!scratch)
    return absl::ResourceExhaustedError("cannot allocate the scratch arena of " +
                                        std::to_string(p_.memory.scratch_bytes) + " bytes");
  buffers[k] = scratch;
  if (depth == 0) host_callbacks::take_pending();  // a failure nobody collected is stale
  ++depth;
  entry_(buffers.data());
  --depth;
  // A host callback that failed kept its exception for this thread (host_callbacks::run); the
  // API rethrows it (host_callbacks::rethrow_pending) on seeing this status.
  if (std::string what; host_callbacks::pending(what)) return absl::AbortedError("a host callback failed: " + what);
  return absl::OkStatus();
}

void CpuExecutable::ensure_assembly() const {
  std::call_once(asm_once_, [this] {
    all_stages_ = p_.stages;
    std::string ir, text, error;
    for (const auto& [stage, t] : p_.stages)
      if (stage == "llvm-ir") ir = t;
    if (ir.empty() || !mlir::strata::assemblyFromLlvmIr(ir, opt_level_, text, error))
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

}  // namespace strata::backends::cpu
