// backends/Compiler.h — the compiler as the API sees it: plain C++, no MLIR or LLVM type. One
// compile path serves jit (compile), Lowered (lower) and strata-opt (which drives the same
// stage list on MLIR it parsed, through backends/Pipeline.h).
//
// The boundary between the public API (which throws strata::Error) and the compiler (MLIR,
// built without exceptions): nothing here throws; failures come back as the text of the MLIR
// diagnostics, each with the file:line:col of the user's code.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/Executable.h"
#include "strata/jit_options.h"

namespace strata {

struct JaxprImpl;

namespace compiler {

// How many devices of `kind` this process has (0 when no target of that kind is built in).
int device_count(DeviceKind kind);

// Every stage of a program compiled for `kind`, in order: "jaxpr", the shared stages (strata,
// canonicalized, cse, fused), then the target's. Empty when no target serves `kind`.
std::vector<std::string> stage_names(DeviceKind kind);

struct StageText {
  std::string stage;
  std::string text;          // as `strata-opt --emit=STAGE` prints it
  std::string located_text;  // with locations (loc(...)), when asked for
};

struct LowerResult {
  std::vector<StageText> stages;  // the stages run, in order, when `error` is empty
  std::string error;              // the diagnostics, when lowering or a pipeline failed
  bool ok() const { return error.empty(); }
};

// Lowers `jaxpr` to the `strata` dialect and runs the stages for options.device on it, every
// one, or up to and including `last` (a name of stage_names()). `last` = "stablehlo": the
// stages up to cse, then the program as StableHLO text (a last stage named "stablehlo").
LowerResult lower(const JaxprImpl& jaxpr, const JitOptions& options, std::string_view last = {},
                  bool with_locations = false);

// Compiles `jaxpr` for options.device. `donated` lists the jaxpr inputs (positions among its
// invars) whose buffers an output of the same type may take over (JitOptions::donate names
// arguments; jit turns them into these). With options.cache_dir, the persistent cache is
// consulted after `cse` and filled at the end. The executable's stage_texts() hold every stage
// (jaxpr … asm) with `stage_texts`; without it (jit's calls: Lowered prints stages on demand)
// only llvm-ir and asm, unless options.cache_dir is set (an entry keeps every stage).
CompileResult compile(const JaxprImpl& jaxpr, const JitOptions& options, std::span<const int> donated = {},
                      bool stage_texts = true);

// Compiles the function `entry` of a module of MLIR text for options.device, as compile()
// compiles a jaxpr: its arguments are the inputs, its results the outputs. The text is the
// `strata` dialect or StableHLO as JAX exports it (dialect/StablehloCompat.h); the module's
// other functions are helpers the entry calls (inlined). Empty `entry`: @main, or the one
// public function. `filename` names the text in diagnostics (file:line:col).
CompileResult compile_mlir(std::string_view text, std::string_view filename, std::string_view entry,
                           const JitOptions& options);

// The function `entry` of a module of MLIR text (as compile_mlir reads it) as a jaxpr of
// strata's primitives, so that calling it inside a trace binds them (st::Module under jit,
// grad, vmap). Its non-scalar constants are constvars holding their values; the module's other
// functions are inlined. `error` holds the diagnostics (file:line:col of the op that has no
// jaxpr form) when `jaxpr` is null.
struct ImportResult {
  std::shared_ptr<const JaxprImpl> jaxpr;
  std::string error;
  bool ok() const { return jaxpr != nullptr; }
};
ImportResult import_mlir(std::string_view text, std::string_view filename, std::string_view entry,
                         const JitOptions& options);

// Whether the generated code checks its loads and stores: options.check_bounds, or
// STRATA_CHECK_BOUNDS=1 (any value but empty and "0") in the environment.
bool check_bounds(const JitOptions& options);

// The text of what in `options` changes the generated code (part of the persistent cache key).
std::string codegen_key(const JitOptions& options, std::span<const int> donated = {});

}  // namespace compiler
}  // namespace strata
