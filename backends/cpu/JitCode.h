// backends/cpu/JitCode.h — machine code loaded into the process: an object file linked by
// LLVM's ORC JIT against the runtime's symbols (and nothing else), and its entry point.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace strata::backends::cpu {

using EntryFn = void (*)(void* const* buffers);

class JitCode {
 public:
  // Links `object` (an ELF object for the host) and finds `entry` in it. Null with `error`.
  static std::unique_ptr<JitCode> load(std::string_view object, const char* entry, std::string& error);
  ~JitCode();
  EntryFn entry() const { return entry_; }

 private:
  struct Impl;
  explicit JitCode(std::unique_ptr<Impl> impl, EntryFn entry);
  std::unique_ptr<Impl> impl_;
  EntryFn entry_ = nullptr;
};

}  // namespace strata::backends::cpu
