// strata/stablehlo.h — programs written in JAX, run from C++ with no Python. A module of
// StableHLO text, as `jax.jit(f).lower(*args).as_text()` writes it, is compiled by strata's
// compiler (the StableHLO ops are read as the `strata` ops of the same meaning) and called
// with Arrays:
//
//   st::Module m = st::load_stablehlo("transformer_block.mlir");
//   std::vector<st::Array> out = m("main")(x, w1, w2);
//
// Each function is compiled on its first call and kept; its argument types are fixed by the
// text, and a call with others is refused naming both. Called inside jit, grad or vmap, a
// function binds strata's primitives (its ops converted to a jaxpr), so it composes with them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/array.h"
#include "strata/jit_options.h"

namespace strata {

class Module;

// One function of a Module.
class ModuleFunction {
 public:
  // Runs the function: on concrete arrays, its compiled code (compiled once, kept); inside a
  // trace (jit, grad, vmap, make_jaxpr), its ops as strata's primitives, so that they trace,
  // differentiate and batch like the API's own (an op with no jaxpr form is an Error naming it
  // and its file:line:col).
  std::vector<Array> operator()(const std::vector<Array>& args) const;
  template <class... A>
  std::vector<Array> operator()(const A&... args) const {
    return (*this)(std::vector<Array>{Array(args)...});
  }
  // The compiled function's stages, as strata-opt --emit prints them (compiles if needed).
  std::string as_text(std::string_view stage = "fused") const;

 private:
  friend class Module;
  std::vector<Array> trace(const std::vector<Array>& args) const;
  struct State;
  std::shared_ptr<State> state_;
};

class Module {
 public:
  // The function `name` (compiled on its first call). Unknown names are refused at the call.
  ModuleFunction operator()(std::string_view name = "main") const;
  const std::string& text() const;

 private:
  friend Module load_stablehlo(std::string_view, const JitOptions&);
  friend class ModuleFunction;
 public:
  struct State;  // internal

 private:
  std::shared_ptr<State> state_;
};

// The module in `text_or_path`: MLIR text (StableHLO or strata), or the path of a file holding
// it (anything that does not look like MLIR and names an existing file). Parsing and compiling
// happen at the first call; their errors are Errors with the file:line:col of the text.
Module load_stablehlo(std::string_view text_or_path, const JitOptions& options = {});

}  // namespace strata
