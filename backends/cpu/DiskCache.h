// backends/cpu/DiskCache.h — the persistent cache of compiled CPU code (CompileOptions::
// cache_dir): one file per program, named by a hash of the program text (the `cse` stage), the
// compile options, the target (triple, CPU, features) and the strata and LLVM versions. An
// entry holds the object file and what the Executable reports (stage texts, analyses), so a
// hit skips everything after `cse`. Unreadable, corrupt or unwritable entries are ignored.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/Executable.h"

namespace strata::cpu {

struct CacheEntry {
  std::string object;
  std::vector<std::pair<std::string, std::string>> stages;
  MemoryAnalysis memory;
  CostAnalysis cost;
  std::vector<int> output_aliases;
};

// The key of `program` compiled with `options` for this host, as 64 hex digits.
std::string cache_key(std::string_view program, const CompileOptions& options);
// Reads the entry `key` of `dir` into `out`; false when missing or unreadable.
bool cache_load(const std::string& dir, const std::string& key, CacheEntry& out);
// Writes the entry (atomically: a temporary file renamed into place); failures are ignored.
void cache_store(const std::string& dir, const std::string& key, const CacheEntry& entry);

}  // namespace strata::cpu
