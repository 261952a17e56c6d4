// strata/jit.h — jit: trace a function once per signature, compile it, cache the executable.
//
//   auto f = st::jit(layer);                     // or st::jit(layer, {.name = "layer"})
//   st::Array y = f(x, w, b);                    // traced, compiled, cached, run
//   y = f(x2, w, b);                             // same signature: straight to the executable
//   auto lowered = f.lower(x, w, b);             // traced and lowered only
//   std::cout << lowered.as_text("canonicalized");
//   auto compiled = lowered.compile();           // compiled for exactly this signature
//   std::cout << compiled.as_text();             // its assembly
//
// The cache key is the tree structure of the arguments, each array's shape, dtype and weak
// type, and the values of static (non-Array) arguments; the function's identity, the device
// and the compile options are fixed per jitted object, whose cache dies with it. Calls from
// many threads are safe. Set `.log = true`, or STRATA_LOG=compiles in the environment, to see
// each compilation with its time per stage and, on a recompile, what changed.
#pragma once

#include <any>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/errors.h"
#include "strata/jit_options.h"
#include "strata/jaxpr.h"
#include "strata/pytree.h"
#include "strata/transforms.h"

namespace strata {


// Bytes an executable touches per call.
struct MemoryStats {
  int64_t argument_bytes = 0, output_bytes = 0;
  int64_t scratch_bytes = 0;      // its one scratch arena
  int64_t temporaries_bytes = 0;  // all temporaries before any sharing
};
struct CostStats {
  double flops = 0, bytes_accessed = 0;
};
struct JitStats {
  uint64_t hits = 0, misses = 0, compiles = 0;
  // The last compilation's time per stage in ms, in order: "trace", then each compiler stage
  // ("strata" … "llvm-ir", "asm", "link"; "disk-cache" for a persistent-cache hit).
  std::vector<std::pair<std::string, double>> last_compile_ms;
};

namespace detail {
struct JitState;
struct CacheEntry;
std::shared_ptr<JitState> make_jit_state(JitOptions options);
// `arg_ends`: the number of leaves up to the end of each argument (needed only when
// JitOptions::donate names arguments).
std::shared_ptr<const CacheEntry> make_entry(JitState& state, const Jaxpr& jaxpr, const tree::Signature& sig,
                                             tree::Description description, std::any out_proto, double trace_ms,
                                             const std::vector<std::size_t>& arg_ends = {});
}  // namespace detail
class Lowered;
namespace detail {
// Lowers a traced program through every stage, for JitOptions::device or else where `leaves`
// (the call's array arguments) would run it; throws Error with the compiler's diagnostics.
Lowered lower_jaxpr(const Jaxpr& jaxpr, JitState& state, const std::vector<Array>& leaves);
// The hot path: the cached entry for `sig`, or null (counts a hit or a miss).
std::shared_ptr<const CacheEntry> lookup(JitState& state, const tree::Signature& sig);
// The same without counting: for a second look under the compile lock.
std::shared_ptr<const CacheEntry> find(JitState& state, const tree::Signature& sig);
// Serialises compilations of one jitted function (so 8 threads missing at once compile once).
struct CompileLock {
  explicit CompileLock(JitState& state);
  ~CompileLock();
  JitState& state;
};
std::vector<Array> run_entry(const CacheEntry& e, const std::vector<Array>& leaves);
const std::any& entry_out_proto(const CacheEntry& e);
bool signature_matches(const CacheEntry& e, const tree::Signature& sig);
// Throws ValueError: "Compiled NAME: argument 0 is f32[16,4096], but it was compiled for f32[8,4096]…".
[[noreturn]] void signature_mismatch(const CacheEntry& e, const tree::Description& got, const std::string& name);
std::string entry_assembly(const CacheEntry& e);
MemoryStats entry_memory(const CacheEntry& e);
CostStats entry_cost(const CacheEntry& e);
void entry_execute(const CacheEntry& e, const void* const* inputs, void* const* outputs);
std::size_t cache_size(const JitState& state);
JitStats stats(const JitState& state);
const JitOptions& options(const JitState& state);
bool tracing();  // inside make_jaxpr, grad, another jit's trace …
bool donates(const JitState& state);
// The leaf count at the end of each argument, for donation.
template <class... Args>
std::vector<std::size_t> argument_ends(const JitState& state, const Args&... args) {
  std::vector<std::size_t> ends;
  if (!donates(state)) return ends;
  tree::Signature s;
  ((tree::Tree<Args>::sign(args, s), ends.push_back(s.leaves.size())), ...);
  return ends;
}

}  // namespace detail

// A function traced and lowered for one signature: its program at every stage.
class Lowered {
 public:
  // The program after `stage`: "jaxpr", "strata", "canonicalized", "cse", … (see stages()),
  // the same text `strata-opt --emit=STAGE` prints. Throws ValueError for an unknown stage.
  // Stages after "strata" are computed on first request (the pipeline up to that stage).
  // "stablehlo": the program after "cse" as StableHLO text (generic form), which StableHLO's
  // tools and st::load_stablehlo read (throws Error for an op StableHLO has not, e.g. threefry).
  const std::string& as_text(std::string_view stage = "strata") const;
  // The stage names, in order.
  std::vector<std::string> stages() const;
  // The traced program.
  const Jaxpr& jaxpr() const;

  struct Impl;
  explicit Lowered(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

 protected:
  std::shared_ptr<const Impl> impl_;
};

// A function compiled for one signature. Callable with arguments of exactly that signature;
// others are refused with an error (it never recompiles).
template <class Out, class... Args>
class Compiled {
 public:
  Compiled(std::shared_ptr<const detail::CacheEntry> entry, std::string name)
      : entry_(std::move(entry)), name_(std::move(name)) {}

  Out operator()(const Args&... args) const {
    thread_local tree::Signature sig;
    sig.clear();
    (tree::Tree<Args>::sign(args, sig), ...);
    if (!detail::signature_matches(*entry_, sig)) {
      tree::Description got;
      int i = 0;
      ((tree::Tree<Args>::describe(args, "argument " + std::to_string(i++), got)), ...);
      detail::signature_mismatch(*entry_, got, name_);
    }
    return run(sig.leaves);
  }
  // The generated code, as assembly.
  std::string as_text() const { return detail::entry_assembly(*entry_); }
  MemoryStats memory_analysis() const { return detail::entry_memory(*entry_); }
  CostStats cost_analysis() const { return detail::entry_cost(*entry_); }
  // The compiled code alone, on raw buffers: one row-major buffer per argument leaf and one
  // preallocated per output leaf, of exactly the compiled types, on the compiled device. No
  // check, no allocation, no donation: what a call costs below the API (the baseline of jit's
  // dispatch overhead). Throws Error when the executable reports a failure.
  void execute_raw(const void* const* inputs, void* const* outputs) const {
    detail::entry_execute(*entry_, inputs, outputs);
  }

 private:
  Out run(const std::vector<Array>& leaves) const {
    std::vector<Array> outs = detail::run_entry(*entry_, leaves);
    return tree_unflatten(std::any_cast<const Out&>(detail::entry_out_proto(*entry_)), outs);
  }
  std::shared_ptr<const detail::CacheEntry> entry_;
  std::string name_;
};

namespace detail {
template <class Out, class... Args>
class LoweredFn : public Lowered {
 public:
  LoweredFn(Lowered l, std::shared_ptr<JitState> state, tree::Signature sig, tree::Description d, std::any proto,
            std::vector<std::size_t> arg_ends)
      : Lowered(std::move(l)), state_(std::move(state)), sig_(std::move(sig)), desc_(std::move(d)),
        proto_(std::move(proto)), arg_ends_(std::move(arg_ends)) {}
  // Compiles the lowered program for exactly this signature.
  Compiled<Out, Args...> compile() const {
    CompileLock lock(*state_);
    return Compiled<Out, Args...>(make_entry(*state_, jaxpr(), sig_, desc_, proto_, 0.0, arg_ends_),
                                  options(*state_).name);
  }

 private:
  std::shared_ptr<JitState> state_;
  tree::Signature sig_;
  tree::Description desc_;
  std::any proto_;
  std::vector<std::size_t> arg_ends_;
};
}  // namespace detail

// The result of jit(f): callable with the same arguments as f (pytrees of Arrays plus static
// values), returning what f returns. Copies share one cache.
template <class F>
class Jitted {
 public:
  Jitted(F f, JitOptions options) : f_(std::move(f)), state_(detail::make_jit_state(std::move(options))) {}

  template <class... Args>
  auto operator()(const Args&... args) const {
    using Out = std::decay_t<std::invoke_result_t<F&, const Args&...>>;
    // Inside another trace (grad(jit(f)), jit(jit(f)), make_jaxpr) jit is transparent: f's
    // equations are recorded in the enclosing trace, which compiles them with the rest.
    if (detail::tracing()) return Out(f_(args...));
    thread_local tree::Signature sig;
    sig.clear();
    (tree::Tree<Args>::sign(args, sig), ...);
    std::shared_ptr<const detail::CacheEntry> entry = detail::lookup(*state_, sig);
    if (!entry) entry = compile(sig, args...);
    std::vector<Array> outs = detail::run_entry(*entry, sig.leaves);
    return tree_unflatten(std::any_cast<const Out&>(detail::entry_out_proto(*entry)), outs);
  }

  // Traces f on arguments shaped like `args` and lowers it (does not compile).
  template <class... Args>
  auto lower(const Args&... args) const {
    using Out = std::decay_t<std::invoke_result_t<F&, const Args&...>>;
    tree::Signature sig;
    (tree::Tree<Args>::sign(args, sig), ...);
    tree::Description d;
    describe(d, args...);
    detail::TraceScope scope;
    auto out = detail::call_traced(scope, f_, args...);
    Lowered l = detail::lower_jaxpr(scope.finish(tree_flatten(out)), *state_, sig.leaves);
    return detail::LoweredFn<Out, Args...>(std::move(l), state_, std::move(sig), std::move(d),
                                            std::any(Out(tree_strip(out))), detail::argument_ends(*state_, args...));
  }

  // Compiled signatures held now.
  std::size_t cache_size() const { return detail::cache_size(*state_); }
  JitStats stats() const { return detail::stats(*state_); }

 private:
  template <class... Args>
  static void describe(tree::Description& d, const Args&... args) {
    int i = 0;
    ((tree::Tree<Args>::describe(args, "argument " + std::to_string(i++), d)), ...);
  }

  template <class... Args>
  std::shared_ptr<const detail::CacheEntry> compile(const tree::Signature& sig, const Args&... args) const {
    using Out = std::decay_t<std::invoke_result_t<F&, const Args&...>>;
    detail::CompileLock lock(*state_);
    // Another thread may have compiled this signature while we waited.
    if (auto e = detail::find(*state_, sig)) return e;
    tree::Description d;
    describe(d, args...);
    auto t0 = std::chrono::steady_clock::now();
    detail::TraceScope scope;
    auto out = detail::call_traced(scope, f_, args...);
    Jaxpr j = scope.finish(tree_flatten(out));
    double trace_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return detail::make_entry(*state_, j, sig, std::move(d), std::any(Out(tree_strip(out))), trace_ms,
                              detail::argument_ends(*state_, args...));
  }

  // Mutable so that functors with a non-const call operator (st::custom_vjp's) can be jitted;
  // jit assumes f is pure, as JAX does.
  mutable F f_;
  std::shared_ptr<detail::JitState> state_;
};

// jit(f) compiles f for each signature it is called with; see Jitted.
template <class F>
Jitted<F> jit(F f, JitOptions options = {}) {
  return Jitted<F>(std::move(f), std::move(options));
}

}  // namespace strata
