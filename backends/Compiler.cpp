// The one compile path (Compiler.h): a jaxpr lowered to `strata`, the shared stages, then the
// target's, and the target's executable; Lowered's texts come from the same stage list.
//
// 1. The jaxpr is lowered to `strata` in a context holding the target's dialects.
// 2. The stages run in order, each timed, printed and measured (flops after `cse`, bytes where
//    the target measures them).
// 3. After `cse`, the program text keys the persistent cache: a hit rebuilds the executable
//    from the stored payload and skips everything after.
// 4. After the target's last MLIR stage, the target generates code and makes the executable
//    (stages that only translate — llvm-ir, asm — are the target's business then).
// Never throws: exceptions stop at this file's boundary (none cross MLIR or LLVM frames, which
// report through diagnostics), and failures come back as the diagnostics' text.
#include "backends/Compiler.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "backends/DiskCache.h"
#include "backends/Pipeline.h"
#include "dialect/StrataOps.h"
#include "host_callback.h"
#include "kernels/env_flag.h"
#include "jaxpr.h"
#include "llvm/Support/raw_ostream.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/StrataToJaxpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "dialect/StablehloCompat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "transforms/EntryFunction.h"

namespace strata::compiler {
namespace {

using mlir::strata::Stage;

// A context for one program of `target`, collecting its diagnostics as text.
//
// Contexts are reused: setting one up (the registry, loading the dialects) was ~4% of a small
// program's first call. A context serves one compilation at a time and at most kContextUses in
// all (what they uniqued — types, attributes, constants — stays in it), then is dropped.
class ContextPool {
 public:
  static constexpr int kContextUses = 64;
  std::unique_ptr<mlir::MLIRContext> take(const backends::Target& target, int& uses) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto& free = free_[&target];
      if (!free.empty()) {
        auto [context, n] = std::move(free.back());
        free.pop_back();
        uses = n;
        return std::move(context);
      }
    }
    mlir::DialectRegistry registry;
    backends::register_dialects(registry, target);
    uses = 0;
    return std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  }
  void give(const backends::Target& target, std::unique_ptr<mlir::MLIRContext> context, int uses) {
    if (uses >= kContextUses) return;
    std::lock_guard<std::mutex> lock(mu_);
    auto& free = free_[&target];
    if (free.size() < 8) free.emplace_back(std::move(context), uses);
  }
  static ContextPool& get() {
    static ContextPool* pool = new ContextPool;  // never destroyed: compilations may run at exit
    return *pool;
  }

 private:
  std::mutex mu_;
  std::map<const backends::Target*, std::vector<std::pair<std::unique_ptr<mlir::MLIRContext>, int>>> free_;
};

struct Session {
  explicit Session(const backends::Target& target)
      : target(target), owned(ContextPool::get().take(target, uses)), context(*owned) {
    handler.emplace(&context, [this](mlir::Diagnostic& d) {
      backends::print_diagnostic(stream, d);
      return mlir::success();
    });
  }
  // The module of this compilation must be gone by now (declared after the session).
  ~Session() {
    handler.reset();
    ContextPool::get().give(target, std::move(owned), uses + 1);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  // The jaxpr as a verified `strata` module, or null after a diagnostic.
  mlir::OwningOpRef<mlir::ModuleOp> lower(const JaxprImpl& jaxpr) {
    auto module = mlir::strata::lowerJaxprToStrata(context, jaxpr, mlir::UnknownLoc::get(&context));
    if (!module || mlir::failed(mlir::verify(*module))) {
      if (errors.empty()) errors = "error: lowering failed\n";
      return {};
    }
    return module;
  }

  const backends::Target& target;
  int uses = 0;
  std::unique_ptr<mlir::MLIRContext> owned;
  mlir::MLIRContext& context;
  std::string errors;
  llvm::raw_string_ostream stream{errors};
  std::optional<mlir::ScopedDiagnosticHandler> handler;
};

std::string no_target(Device d) {
  std::string names;
  for (const backends::Target* t : backends::all_targets()) names += (names.empty() ? "" : ", ") + std::string(t->name());
  return "error: no compiler target for " + d.str() + " in this build (targets: " + names + ")\n";
}

CompileResult failure(std::string message) {
  if (message.empty()) message = "error: compilation failed\n";
  return CompileResult{nullptr, std::move(message)};
}

// The target of options.device, or null with the reason in `error`.
const backends::Target* device_target(const JitOptions& options, std::string& error) {
  const backends::Target* target = backends::find_target(options.device.value_or(cpu()).kind);
  if (!target) {
    error = no_target(options.device.value_or(cpu()));
    return nullptr;
  }
  if (options.device.value_or(cpu()).index < 0 || options.device.value_or(cpu()).index >= target->device_count()) {
    error = "error: no device " + options.device.value_or(cpu()).str() + " (this process has " +
            std::to_string(target->device_count()) + ")\n";
    return nullptr;
  }
  return target;
}

CompileResult run_pipeline(Session& session, mlir::ModuleOp module, const backends::Target& target,
                           backends::Program& prog, const JitOptions& options, std::span<const int> donated,
                           backends::StageClock& clock, bool stage_texts);

CompileResult compile_impl(const JaxprImpl& jaxpr, const JitOptions& options, std::span<const int> donated,
                           bool stage_texts) {
  std::string error;
  const backends::Target* target = device_target(options, error);
  if (!target) return failure(error);

  backends::Program prog;
  for (int v : jaxpr.invars) prog.inputs.push_back(jaxpr.vars[static_cast<size_t>(v)]);
  for (const Atom& a : jaxpr.outvars) prog.outputs.push_back(jaxpr.aval(a));
  for (size_t i = 0; i < jaxpr.constvars.size(); ++i) {
    if (i >= jaxpr.consts.size() || !jaxpr.consts[i].valid() || !jaxpr.consts[i].data())
      return failure("error: cannot compile a jaxpr whose constant " + std::to_string(i) +
                     " has no value (a tracer of an enclosing trace)\n");
    prog.consts.push_back(jaxpr.consts[i]);
    prog.memory.argument_bytes += static_cast<int64_t>(jaxpr.vars[static_cast<size_t>(jaxpr.constvars[i])].nbytes());
  }
  for (const AbstractValue& a : prog.inputs) prog.memory.argument_bytes += static_cast<int64_t>(a.nbytes());
  for (const AbstractValue& a : prog.outputs) prog.memory.output_bytes += static_cast<int64_t>(a.nbytes());

  backends::StageClock clock;
  // A persistent cache entry keeps every stage's text, so that a hit shows them too.
  stage_texts = stage_texts || !options.cache_dir.empty();
  if (stage_texts) prog.stages.emplace_back("jaxpr", jaxpr.str() + "\n");
  host_callbacks::collect(jaxpr, prog.host_callbacks);

  Session session(*target);
  mlir::OwningOpRef<mlir::ModuleOp> module = session.lower(jaxpr);
  if (!module) return failure(session.errors);
  return run_pipeline(session, *module, *target, prog, options, donated, clock, stage_texts);
}

// The stages from `strata` on, the persistent cache and the target's code generation, for the
// program `module` (whose entry function's arguments are prog's consts, then its inputs).
CompileResult run_pipeline(Session& session, mlir::ModuleOp module, const backends::Target& target,
                           backends::Program& prog, const JitOptions& options, std::span<const int> donated,
                           backends::StageClock& clock, bool stage_texts) {
  // The MLIR stages only: translating stages (llvm-ir, asm) print what the target generates.
  llvm::SmallVector<const Stage*> stages;
  for (const Stage* s : backends::pipeline(target))
    if (!s->translate) stages.push_back(s);
  mlir::strata::PipelineOptions po = backends::pipeline_options(
      target, options, static_cast<int64_t>(prog.consts.size()), static_cast<int64_t>(prog.inputs.size()), donated);
  po.verifyEachPass = false;  // after each stage only
  mlir::strata::StageCost cost;
  auto record = [&](const Stage& stage, const std::string*) {
    if (stage.measure) stage.measure(module, cost);
    // Printing every stage is ~5-10% of a first call: only when asked for (or for the cache).
    if (stage_texts) prog.stages.emplace_back(stage.name, mlir::strata::printStage(module, stage));
    clock.lap(prog.times, stage.name);
  };

  // Shared stages up to `cse`, where the persistent cache is consulted.
  const llvm::StringRef cse = mlir::strata::kCacheKeyStage;
  if (mlir::failed(mlir::strata::runStages(module, stages, po, {}, cse, record))) return failure(session.errors);
  const size_t shared = prog.stages.size();  // jaxpr … cse: what a cache hit computes anyway
  std::string key;
  // A host callback's id means something only in this process: such programs are not cached
  // (JAX's persistent cache skips them too).
  const bool persist = !options.cache_dir.empty() && !module.walk([](mlir::strata::HostCallbackOp) {
                                                                 return mlir::WalkResult::interrupt();
                                                               }).wasInterrupted();
  if (persist) {  // (stage_texts is then on: the key is the cse stage's text)
    key = backends::cache_key(prog.stages.back().second, codegen_key(options, donated),
                              std::string(target.name()) + "\n" + target.fingerprint());
    backends::CacheEntry entry;
    if (backends::cache_load(options.cache_dir, key, entry)) {
      backends::Program cached = prog;
      for (auto& s : entry.stages) cached.stages.push_back(std::move(s));
      cached.memory.scratch_bytes = entry.memory.scratch_bytes;
      cached.memory.temporaries_bytes = entry.memory.temporaries_bytes;
      cached.cost = entry.cost;
      cached.output_aliases = entry.output_aliases;
      cached.from_disk_cache = true;
      clock.lap(cached.times, "disk-cache");  // only a hit's times show the cache
      auto exe = target.load(entry.payload, std::move(cached), options);
      if (exe.ok()) return CompileResult{*std::move(exe), ""};
      // A stale or foreign payload: compile afresh.
    }
  }

  if (mlir::failed(mlir::strata::runStages(module, stages, po, cse, {}, record))) return failure(session.errors);
  prog.cost.flops = cost.flops;
  prog.cost.bytes_accessed = cost.bytes_accessed;
  std::string payload;
  absl::StatusOr<std::shared_ptr<const Executable>> exe = target.compile(module, prog, options, payload);
  if (!exe.ok()) return failure(session.errors + "error: " + std::string(exe.status().message()) + "\n");

  if (persist && !payload.empty()) {
    backends::CacheEntry entry;
    entry.payload = std::move(payload);
    entry.stages.assign(prog.stages.begin() + static_cast<std::ptrdiff_t>(shared), prog.stages.end());
    entry.memory = prog.memory;
    entry.cost = prog.cost;
    entry.output_aliases = prog.output_aliases;
    backends::cache_store(options.cache_dir, key, entry);
  }
  return CompileResult{*std::move(exe), ""};
}

// `type` as an AbstractValue, or a diagnostic at `loc` naming what strata does not take.
std::optional<AbstractValue> abstract_value(mlir::Type type, mlir::Location loc, llvm::StringRef what) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  std::optional<DType> dtype = tensor ? mlir::strata::dtypeOf(tensor.getElementType()) : std::nullopt;
  if (!tensor || !tensor.hasStaticShape() || !dtype) {
    mlir::emitError(loc) << "strata compiles functions of tensors of static shape and the element types i1, "
                            "i8, i16, i32, i64, ui8, ui16, ui32, ui64, bf16, f16, f32, f64, but "
                         << what << " is " << type;
    return std::nullopt;
  }
  return AbstractValue{Shape(tensor.getShape().begin(), tensor.getShape().end()), *dtype, false};
}

// Parses `text` and imports its StableHLO ops; `main` is the function `entry` (as compile_mlir
// picks it). Null after a diagnostic.
mlir::OwningOpRef<mlir::ModuleOp> parse_module(Session& session, std::string_view text, std::string_view filename,
                                               std::string_view entry, mlir::func::FuncOp& main) {
  mlir::ParserConfig config(&session.context, /*verifyAfterParse=*/false);  // verified after the import
  // MLIR's lexer relies on a '\0' after its buffer (an identifier ending the text runs on into
  // what follows), so the text is parsed from a terminated copy (found by fuzz_strata_opt).
  // (StableHLO's byte-per-element i1 hex data packed as MLIR 22 reads it.)
  const std::string terminated = mlir::strata::packByteBoolLiterals(llvm::StringRef(text.data(), text.size()));
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
      terminated, config, llvm::StringRef(filename.data(), filename.size()));
  if (!module || mlir::failed(mlir::strata::importGenericOps(*module))) return {};
  if (mlir::Operation* op = mlir::strata::firstUnregisteredOp(*module)) {
    auto callee = op->getAttrOfType<mlir::StringAttr>("call_target_name");
    op->emitError() << op->getName() << (callee ? " @" + callee.getValue().str() : std::string())
                                << " has no strata op";
    return {};
  }
  for (auto fn : module->getOps<mlir::func::FuncOp>()) {
    bool isEntry = entry.empty() ? fn.getSymName() == "main" : fn.getSymName() == llvm::StringRef(entry.data(), entry.size());
    if (isEntry) main = fn;
  }
  if (!main && entry.empty()) main = mlir::strata::entryFunction(*module);
  if (!main || main.isExternal()) {
    mlir::emitError(module->getLoc()) << "expects a function @" << (entry.empty() ? "main" : std::string(entry))
                                      << " with a body in the module";
    return {};
  }
  return module;
}

CompileResult compile_mlir_impl(std::string_view text, std::string_view filename, std::string_view entry,
                                const JitOptions& options) {
  std::string error;
  const backends::Target* target = device_target(options, error);
  if (!target) return failure(error);
  backends::StageClock clock;
  Session session(*target);
  mlir::func::FuncOp main;
  mlir::OwningOpRef<mlir::ModuleOp> module = parse_module(session, text, filename, entry, main);
  if (!module) return failure(session.errors);
  // The entry stays public under its name; every other function becomes a private helper.
  for (auto fn : module->getOps<mlir::func::FuncOp>())
    if (fn != main) fn.setPrivate();
  main.setPublic();
  if (main.getSymName() != "main") {
    if (module->lookupSymbol("main")) {
      mlir::emitError(main.getLoc()) << "cannot compile @" << main.getSymName() << " from a module that also has a @main";
      return failure(session.errors);
    }
    main.setSymName("main");
  }
  if (mlir::failed(mlir::verify(*module))) return failure(session.errors);

  backends::Program prog;
  for (auto [i, t] : llvm::enumerate(main.getArgumentTypes())) {
    auto a = abstract_value(t, main.getLoc(), "argument " + std::to_string(i));
    if (!a) return failure(session.errors);
    prog.inputs.push_back(*a);
    prog.memory.argument_bytes += static_cast<int64_t>(a->nbytes());
  }
  for (auto [i, t] : llvm::enumerate(main.getResultTypes())) {
    auto a = abstract_value(t, main.getLoc(), "result " + std::to_string(i));
    if (!a) return failure(session.errors);
    prog.outputs.push_back(*a);
    prog.memory.output_bytes += static_cast<int64_t>(a->nbytes());
  }
  return run_pipeline(session, *module, *target, prog, options, {}, clock, /*stage_texts=*/true);
}

}  // namespace

CompileResult compile_mlir(std::string_view text, std::string_view filename, std::string_view entry,
                           const JitOptions& options) {
  try {
    return compile_mlir_impl(text, filename, entry, options);
  } catch (const std::exception& e) {
    return failure(std::string("error: internal: ") + e.what() + "\n");
  }
}

ImportResult import_mlir(std::string_view text, std::string_view filename, std::string_view entry,
                         const JitOptions& options) {
  ImportResult result;
  try {
    std::string error;
    const backends::Target* target = device_target(options, error);
    if (!target) {
      result.error = error;
      return result;
    }
    Session session(*target);
    mlir::func::FuncOp main;
    mlir::OwningOpRef<mlir::ModuleOp> module = parse_module(session, text, filename, entry, main);
    if (module && mlir::succeeded(mlir::verify(*module))) result.jaxpr = mlir::strata::convertStrataToJaxpr(main);
    if (!result.jaxpr) result.error = session.errors.empty() ? "error: import failed\n" : session.errors;
  } catch (const std::exception& e) {
    result.error = std::string("error: internal: ") + e.what() + "\n";
  }
  return result;
}

int device_count(DeviceKind kind) {
  const backends::Target* t = backends::find_target(kind);
  return t ? t->device_count() : 0;
}

std::vector<std::string> stage_names(DeviceKind kind) {
  const backends::Target* t = backends::find_target(kind);
  if (!t) return {};
  std::vector<std::string> names{mlir::strata::kJaxprStage.str()};
  for (const Stage* s : backends::pipeline(*t)) names.emplace_back(s->name);
  return names;
}

bool check_bounds(const JitOptions& options) {
  if (options.check_bounds) return true;
  return kernels::env_flag("STRATA_CHECK_BOUNDS");
}

std::string codegen_key(const JitOptions& o, std::span<const int> donated) {
  std::string k = o.device.value_or(cpu()).str() + " O" + std::to_string(o.opt_level) + (o.parallel ? "+parallel" : "-parallel") +
                  (o.fuse ? "+fuse" : "-fuse") + (o.assign_buffers ? "+buffers" : "-buffers") +
                  (check_bounds(o) ? "+check-bounds" : "");
  for (size_t i = 0; i < donated.size(); ++i) k += (i ? "," : "+donate:") + std::to_string(donated[i]);
  return k;
}

LowerResult lower(const JaxprImpl& jaxpr, const JitOptions& options, std::string_view last, bool with_locations) {
  LowerResult result;
  try {
    std::string jaxpr_text = jaxpr.str() + "\n";
    result.stages.push_back({mlir::strata::kJaxprStage.str(), jaxpr_text, jaxpr_text});
    const llvm::StringRef lastStage(last.data(), last.size());
    if (lastStage == mlir::strata::kJaxprStage) return result;
    const backends::Target* target = backends::find_target(options.device.value_or(cpu()).kind);
    if (!target) {
      result.error = no_target(options.device.value_or(cpu()));
      return result;
    }
    Session session(*target);
    mlir::OwningOpRef<mlir::ModuleOp> module = session.lower(jaxpr);
    if (!module) {
      result.error = session.errors;
      return result;
    }
    mlir::strata::PipelineOptions po = backends::pipeline_options(
        *target, options, static_cast<int64_t>(jaxpr.constvars.size()), static_cast<int64_t>(jaxpr.invars.size()), {});
    auto emit = [&](const Stage& stage, const std::string* translated) {
      if (translated) {
        result.stages.push_back({stage.name, *translated, with_locations ? *translated : ""});
        return;
      }
      result.stages.push_back({stage.name, mlir::strata::printStage(*module, stage),
                               with_locations ? mlir::strata::printStage(*module, stage, true) : ""});
    };
    if (lastStage == "stablehlo") {  // the program after cse, exported (Compiler.h)
      if (mlir::failed(mlir::strata::runStages(*module, backends::pipeline(*target), po, {}, mlir::strata::kCacheKeyStage, emit))) {
        result.error = session.errors.empty() ? "error: a pipeline failed\n" : session.errors;
        return result;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      if (mlir::failed(mlir::strata::exportStablehlo(*module, os))) result.error = session.errors;
      else result.stages.push_back({"stablehlo", text, with_locations ? text : ""});
      return result;
    }
    if (mlir::failed(mlir::strata::runStages(*module, backends::pipeline(*target), po, {}, lastStage, emit)))
      result.error = session.errors.empty() ? "error: a pipeline failed\n" : session.errors;
  } catch (const std::exception& e) {
    result.error = std::string("error: internal: ") + e.what() + "\n";
  }
  return result;
}

CompileResult compile(const JaxprImpl& jaxpr, const JitOptions& options, std::span<const int> donated,
                      bool stage_texts) {
  try {
    return compile_impl(jaxpr, options, donated, stage_texts);
  } catch (const std::exception& e) {
    return failure(std::string("error: internal: ") + e.what() + "\n");
  } catch (...) {
    return failure("error: internal: unknown exception\n");
  }
}

}  // namespace strata::compiler
