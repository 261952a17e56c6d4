// backends/cpu/Runtime.h — the functions generated code calls (lowering/CpuAbi.h), and the
// table of every symbol the JIT resolves for it: the runtime, the libm functions and memory
// builtins LLVM emits calls to, and the compiler-rt conversions for f16/bf16. The JIT
// resolves nothing else (no lookup in the process's symbol table).
#pragma once

#include <cstdint>
#include <vector>

namespace strata::backends::cpu {

struct RuntimeSymbol {
  const char* name;
  void* address;
};

// Every symbol generated code may reference, by its (unmangled) name.
const std::vector<RuntimeSymbol>& runtime_symbols();

}  // namespace strata::backends::cpu
