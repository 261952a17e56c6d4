// backends/cpu/JitCode.h — machine code loaded into the process: an object file linked by
// LLVM's ORC JIT against the runtime's symbols (and nothing else), and its entry point.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata::backends::cpu {

using EntryFn = void (*)(void* const* buffers);

// The persistent cache's payload: the objects of one program, framed (a magic word, the count,
// each size, then the bytes). unpack_objects is false for a payload that is not one.
std::string pack_objects(const std::vector<std::string>& objects);
bool unpack_objects(std::string_view payload, std::vector<std::string_view>& objects);

class JitCode {
 public:
  // Links `objects` (ELF objects for the host, the parts of one program) and finds `entry` in
  // them. Null with `error`.
  static std::unique_ptr<JitCode> load(const std::vector<std::string_view>& objects, const char* entry,
                                       std::string& error);
  ~JitCode();
  EntryFn entry() const { return entry_; }

 private:
  struct Impl;
  explicit JitCode(std::unique_ptr<Impl> impl, EntryFn entry);
  std::unique_ptr<Impl> impl_;
  EntryFn entry_ = nullptr;
};

}  // namespace strata::backends::cpu
