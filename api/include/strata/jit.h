// strata/jit.h — jit: trace a function once per signature and compile it.
//
//   auto f = st::jit(layer);                    // or st::jit(layer, {.dump_dir = "ir"})
//   st::Lowered l = f.lower(x, w, b);           // traced and lowered, not compiled
//   std::cout << l.as_text("canonicalized");    // what `strata-opt --emit=canonicalized` prints
//
// Compiling and calling the function (f(x, w, b), .compile()) come with the CPU backend.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/jaxpr.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {

struct JitOptions {
  // When set, every stage of every function this jit lowers is written into this directory
  // (created if missing) as NAME.N.STAGE.jaxpr / .mlir, with source locations, ready for
  // strata-opt. N counts the lowerings of this process.
  std::string dump_dir;
  // The function's name in dump files.
  std::string name = "fn";
};

// A function traced and lowered for one signature: its program at every stage.
class Lowered {
 public:
  // The program after `stage`: "jaxpr", "strata", "canonicalized", "cse" (see stages()), the
  // same text `strata-opt --emit=STAGE` prints. Throws ValueError for an unknown stage.
  const std::string& as_text(std::string_view stage = "strata") const;
  // The stage names, in order.
  std::vector<std::string> stages() const;
  // The traced program.
  const Jaxpr& jaxpr() const;

  struct Impl;
  explicit Lowered(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<const Impl> impl_;
};

namespace detail {
// What a jitted function keeps between calls: its options (and, with the backend, its
// compiled executables).
struct JitState;
std::shared_ptr<JitState> make_jit_state(JitOptions options);
// Lowers a traced program through every stage; throws Error with the compiler's diagnostics.
Lowered lower_jaxpr(const Jaxpr& jaxpr, JitState& state);
}  // namespace detail

// The result of jit(f): callable with the same arguments as f (pytrees of Arrays and static
// values) once the backend exists; lower(args...) stops after lowering.
template <class F>
class Jitted {
 public:
  Jitted(F f, JitOptions options)
      : f_(std::move(f)), state_(detail::make_jit_state(std::move(options))) {}

  // Traces f on arguments shaped like `args` (as make_jaxpr does) and lowers it.
  template <class... Args>
  Lowered lower(const Args&... args) const {
    detail::TraceScope scope;
    auto out = detail::call_traced(scope, f_, args...);
    return detail::lower_jaxpr(scope.finish(tree_flatten(out)), *state_);
  }

 private:
  F f_;
  std::shared_ptr<detail::JitState> state_;
};

// jit(f) compiles f for each signature it is called with; see Jitted.
template <class F>
Jitted<F> jit(F f, JitOptions options = {}) {
  return Jitted<F>(std::move(f), std::move(options));
}

}  // namespace strata
