// lowering/Lower.h — the compiler as the API sees it: plain C++, no MLIR type.
//
// The boundary between the public API (which throws strata::Error) and the compiler (MLIR,
// built without exceptions): nothing here throws, and failures come back as the text of the
// MLIR diagnostics, each with the file:line:col of the user's code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct JaxprImpl;

// True when `primitive_name` (a name in tracer/primitive_list.def) lowers to the dialect.
bool has_lowering(std::string_view primitive_name);

namespace lowering {

// The name of every stage, in order: "jaxpr", then the MLIR stages of lowering/Stages.cpp.
std::vector<std::string> stage_names();

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

// The compiler switches the stages after `cse` read (CompileOptions' counterparts).
struct Options {
  bool parallel = true;
  bool fuse = true;
  bool assign_buffers = true;
  int opt_level = 3;
};

// Lowers `jaxpr` to the `strata` dialect and runs the stages on it, every one, or up to and
// including `last` (a name of stage_names()).
LowerResult lower(const JaxprImpl& jaxpr, bool with_locations = false, const Options& options = {},
                  std::string_view last = {});

}  // namespace lowering
}  // namespace strata
