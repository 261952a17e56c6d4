// backends/DiskCache.h — the persistent cache of compiled code (JitOptions::cache_dir), for
// every target: one file per program, named by a hash of the program text (the `cse` stage),
// the options that change the generated code, the target's name and fingerprint (the host
// CPU's triple and features, a GPU's architecture), the compiler's build id and LLVM's
// version. An entry holds the target's payload (an object file, a cubin) and what the
// Executable reports (stage texts, analyses), so a hit skips everything after `cse`.
// Unreadable, corrupt or unwritable entries are ignored.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/CompilerBuildId.h"
#include "backends/Executable.h"

namespace strata::backends {

struct CacheEntry {
  std::string payload;  // the target's: what Target::load rebuilds the executable from
  std::vector<std::pair<std::string, std::string>> stages;
  MemoryAnalysis memory;
  CostAnalysis cost;
  std::vector<int> output_aliases;
};

// The key of `program` compiled with the options `codegen_key` (compiler::codegen_key) by the
// target `target` (its name and fingerprint) and the compiler `build_id`, as 64 hex digits.
std::string cache_key(std::string_view program, std::string_view codegen_key, std::string_view target,
                      std::string_view build_id = compiler_build_id());
// Reads the entry `key` of `dir` into `out`; false when missing or unreadable.
bool cache_load(const std::string& dir, const std::string& key, CacheEntry& out);
// Writes the entry (atomically: a temporary file renamed into place); failures are ignored.
void cache_store(const std::string& dir, const std::string& key, const CacheEntry& entry);

}  // namespace strata::backends
