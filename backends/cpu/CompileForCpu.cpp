// compile_for_cpu: a jaxpr through every stage of lowering/Stages.h to machine code linked into
// the process (backends/Executable.h).
//
// 1. The jaxpr is lowered to `strata` and the MLIR stages run in order, each timed and printed.
// 2. After `cse`, the program text keys the persistent cache: a hit loads the stored object
//    and skips everything after (codegen included).
// 3. After `llvm-dialect`, LLVM IR is optimised for the host, compiled to an object file and
//    linked by the JIT against the runtime (JitCode); the asm stage is produced on demand.
// Never throws: exceptions stop at this file's boundary (none cross MLIR or LLVM frames, which
// report through diagnostics), and failures come back as the diagnostics' text.
#include <chrono>

#include "backends/Executable.h"
#include "backends/cpu/CpuExecutable.h"
#include "backends/cpu/DiskCache.h"
#include "backends/cpu/JitCode.h"
#include "dialect/StrataOps.h"
#include "jaxpr.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "lowering/CpuAbi.h"
#include "lowering/CpuPasses.h"
#include "lowering/Dialects.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/Stages.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

namespace strata {
namespace {

using Clock = std::chrono::steady_clock;

// "file:line:col: error: message" for the first file location in `d`, then its notes.
void printDiagnostic(llvm::raw_ostream& os, mlir::Diagnostic& d) {
  std::string where;
  d.getLocation()->walk([&](mlir::Location l) {
    if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(l)) {
      where = f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
              std::to_string(f.getColumn()) + ": ";
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  const char* severity = d.getSeverity() == mlir::DiagnosticSeverity::Error     ? "error"
                         : d.getSeverity() == mlir::DiagnosticSeverity::Warning ? "warning"
                                                                                : "note";
  os << where << severity << ": " << d.str() << "\n";
  for (mlir::Diagnostic& note : d.getNotes()) printDiagnostic(os, note);
}

double elements(mlir::Type t) {
  auto s = llvm::dyn_cast<mlir::ShapedType>(t);
  return s && s.hasStaticShape() ? static_cast<double>(s.getNumElements()) : 1.0;
}

double bytes(mlir::Type t) {
  auto s = llvm::dyn_cast<mlir::ShapedType>(t);
  if (!s || !s.hasStaticShape()) return 0;
  int64_t bits = s.getElementTypeBitWidth();
  return static_cast<double>(s.getNumElements()) * static_cast<double>(std::max<int64_t>(1, bits / 8));
}

// Flops of the strata program: 2·M·N·K per batch for dot_general, one per element for
// elementwise ops and random bits, one per input element for reductions.
double flopsOf(mlir::ModuleOp module) {
  double flops = 0;
  module.walk([&](mlir::Operation* op) {
    if (auto dot = llvm::dyn_cast<mlir::strata::DotGeneralOp>(op)) {
      auto lhs = llvm::cast<mlir::RankedTensorType>(dot.getLhs().getType());
      double k = 1;
      for (int64_t d : dot.getLhsContractingDimensions()) k *= static_cast<double>(lhs.getDimSize(d));
      flops += 2 * elements(dot.getType()) * k;
    } else if (auto reduce = llvm::dyn_cast<mlir::strata::ReduceOp>(op)) {
      flops += elements(reduce.getInputs()[0].getType());
    } else if (op->getParentOfType<mlir::strata::ReduceOp>()) {
      // counted by the reduce
    } else if (op->hasTrait<mlir::OpTrait::Elementwise>() ||
               llvm::isa<mlir::strata::Threefry2x32Op>(op)) {
      if (!llvm::isa<mlir::strata::BitcastConvertOp>(op)) flops += elements(op->getResult(0).getType());
    }
  });
  return flops;
}

// Bytes read and written by the kernels of the (fused) linalg program: each linalg op reads
// its inputs and writes its results; slices and inserts copy their elements.
double bytesOf(mlir::ModuleOp module) {
  double total = 0;
  module.walk([&](mlir::Operation* op) {
    if (auto l = llvm::dyn_cast<mlir::linalg::LinalgOp>(op)) {
      for (mlir::Value v : l.getDpsInputs()) total += bytes(v.getType());
      for (mlir::Value v : op->getResults()) total += bytes(v.getType());
    } else if (auto s = llvm::dyn_cast<mlir::tensor::InsertSliceOp>(op)) {
      total += 2 * bytes(s.getSource().getType());
    } else if (auto s = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(op)) {
      total += 2 * bytes(s.getType());
    }
  });
  return total;
}

struct Timer {
  Clock::time_point last = Clock::now();
  std::vector<StageTime>* times;
  void lap(const std::string& stage) {
    Clock::time_point now = Clock::now();
    times->push_back({stage, std::chrono::duration<double, std::milli>(now - last).count()});
    last = now;
  }
};

CompileResult failure(std::string message) {
  if (message.empty()) message = "error: compilation failed\n";
  return CompileResult{nullptr, std::move(message)};
}

CompileResult compile(const JaxprImpl& jaxpr, const CompileOptions& options) {
  cpu::CpuProgram prog;
  prog.opt_level = options.opt_level;
  Timer timer{Clock::now(), &prog.times};
  prog.stages.emplace_back("jaxpr", jaxpr.str() + "\n");
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

  mlir::DialectRegistry registry;
  mlir::strata::registerStrataDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& d) {
    printDiagnostic(errorStream, d);
    return mlir::success();
  });
  auto module = mlir::strata::lowerJaxprToStrata(context, jaxpr, mlir::UnknownLoc::get(&context));
  if (!module || mlir::failed(mlir::verify(*module))) return failure(errors);

  std::string key;
  for (const mlir::strata::Stage& stage : mlir::strata::stages()) {
    if (stage.translate) break;  // llvm-ir and asm: below
    if (stage.addPasses) {
      mlir::PassManager pm(&context);
      stage.addPasses(pm);
      if (mlir::failed(pm.run(*module))) return failure(errors);
    }
    std::string name = stage.name;
    if (name == "cse") prog.cost.flops = flopsOf(*module);
    if (name == "linalg") prog.cost.bytes_accessed = bytesOf(*module);
    prog.stages.emplace_back(name, mlir::strata::printStage(*module, stage));
    timer.lap(name);
    if (name != "cse") continue;
    mlir::strata::setCpuOptions(*module, options.parallel, options.opt_level, options.fuse,
                                options.assign_buffers);
    if (!options.donate.empty()) {
      // Entry arguments: the constants, then the inputs, then the outputs.
      llvm::SmallVector<int64_t> args;
      for (int i : options.donate)
        if (i >= 0 && static_cast<size_t>(i) < prog.inputs.size())
          args.push_back(static_cast<int64_t>(prog.consts.size()) + i);
      mlir::Builder b(&context);
      (*module)->setAttr("strata.donate", b.getDenseI64ArrayAttr(args));
      (*module)->setAttr("strata.num_inputs",
                         b.getI64IntegerAttr(static_cast<int64_t>(prog.consts.size() + prog.inputs.size())));
    }
    if (options.cache_dir.empty()) continue;
    key = cpu::cache_key(prog.stages.back().second, options);
    cpu::CacheEntry entry;
    if (!cpu::cache_load(options.cache_dir, key, entry)) continue;
    std::string error;
    std::unique_ptr<cpu::JitCode> code = cpu::JitCode::load(entry.object, cpu_abi::kEntry, error);
    if (!code) continue;  // a stale or foreign object: compile afresh
    timer.lap("disk-cache");
    for (auto& s : entry.stages)
      if (s.first != "jaxpr" && s.first != "strata" && s.first != "canonicalized" && s.first != "cse")
        prog.stages.push_back(std::move(s));
    prog.code = std::move(code);
    prog.memory.scratch_bytes = entry.memory.scratch_bytes;
    prog.memory.temporaries_bytes = entry.memory.temporaries_bytes;
    prog.cost.bytes_accessed = entry.cost.bytes_accessed;
    prog.output_aliases = entry.output_aliases;
    prog.from_disk_cache = true;
    return CompileResult{std::make_shared<cpu::CpuExecutable>(std::move(prog)), ""};
  }
  prog.memory.scratch_bytes = mlir::strata::moduleIntAttr(*module, "strata.scratch_bytes", 0);
  prog.memory.temporaries_bytes = mlir::strata::moduleIntAttr(*module, "strata.temporaries_bytes", 0);
  if (auto aliases = (*module)->getAttrOfType<mlir::DenseI64ArrayAttr>("strata.output_aliases"))
    for (int64_t a : aliases.asArrayRef())
      prog.output_aliases.push_back(a < 0 ? -1 : static_cast<int>(a - static_cast<int64_t>(prog.consts.size())));

  // LLVM: optimise for the host, generate the object, link it.
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = mlir::strata::createHostTargetMachine(options.opt_level, error);
  if (!tm) return failure("error: " + error + "\n");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::strata::translateAndOptimize(*module, llvmContext, *tm, options.opt_level);
  if (!llvmModule) return failure(errors);
  prog.stages.emplace_back("llvm-ir", mlir::strata::printLlvmModule(*llvmModule));
  timer.lap("llvm-ir");
  llvm::SmallVector<char, 0> object;
  if (!mlir::strata::emitMachineCode(*llvmModule, *tm, false, object, error))
    return failure("error: " + error + "\n");
  timer.lap("asm");
  std::string_view objectView(object.data(), object.size());
  prog.code = cpu::JitCode::load(objectView, cpu_abi::kEntry, error);
  if (!prog.code) return failure("error: " + error + "\n");
  timer.lap("link");

  if (!options.cache_dir.empty()) {
    cpu::CacheEntry entry;
    entry.object.assign(objectView);
    entry.stages = prog.stages;
    entry.memory = prog.memory;
    entry.cost = prog.cost;
    entry.output_aliases = prog.output_aliases;
    cpu::cache_store(options.cache_dir, key, entry);
  }
  return CompileResult{std::make_shared<cpu::CpuExecutable>(std::move(prog)), ""};
}

}  // namespace

CompileResult compile_for_cpu(const JaxprImpl& jaxpr, const CompileOptions& options) {
  try {
    return compile(jaxpr, options);
  } catch (const std::exception& e) {
    return failure(std::string("error: internal: ") + e.what() + "\n");
  } catch (...) {
    return failure("error: internal: unknown exception\n");
  }
}

}  // namespace strata
