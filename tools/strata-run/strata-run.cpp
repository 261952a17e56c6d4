// strata-run: compiles and runs MLIR files — StableHLO as JAX and StableHLO's tests write it,
// or the strata dialect — through strata's compiler, on the CPU.
//
//   strata-run FILE.mlir [--split-input-file] [--entry NAME] [--input a.npy ...]
//              [--output-dir D] [--check b.npy ...] [--rtol X] [--atol X]
//
// A function holding StableHLO's assertions (the `check` dialect's ops, or custom calls
// @check.*) is a test: its checked values become extra results, the function is compiled and
// run, and each value is compared as its check says. Otherwise the entry function (@main, or
// --entry) runs on the --input arrays; --check compares its results with .npy files and
// --output-dir writes them as NAME.out<i>.npy. One line per test (PASS/FAIL), then
// "N passed, M failed"; the exit status is 1 when any failed.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "dialect/StablehloCompat.h"
#include "dialect/StrataOps.h"
#include "lowering/JaxprToStrata.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "strata/strata.h"
#include "tools/strata-run/CheckOps.h"

namespace cl = llvm::cl;
namespace st = strata;
using strata::run::Check;

// strata-run's own options: --help lists these, not LLVM's hundreds (--help-hidden does).
static cl::OptionCategory category("strata-run options");
static cl::opt<std::string> inputFile(cl::Positional, cl::cat(category), cl::desc("<file.mlir>"), cl::Required);
static cl::opt<bool> splitInput("split-input-file", cl::cat(category), cl::desc("Run each '// -----' chunk as its own module"));
static cl::opt<std::string> entryName("entry", cl::cat(category), cl::desc("The function to run (default: @main, or every test)"));
static cl::list<std::string> inputs("input", cl::cat(category), cl::desc("An argument of the entry function (.npy), in order"));
static cl::list<std::string> expected("check", cl::cat(category), cl::desc("An expected result of the entry function (.npy), in order"));
static cl::opt<std::string> outputDir("output-dir", cl::cat(category), cl::desc("Write the entry's results here as NAME.out<i>.npy"));
static cl::opt<double> rtolFlag("rtol", cl::cat(category), cl::desc("Relative tolerance of --check"), cl::init(1e-5));
static cl::opt<double> atolFlag("atol", cl::cat(category), cl::desc("Absolute tolerance of --check"), cl::init(1e-6));

namespace {

struct Tally {
  int passed = 0, failed = 0;
  void pass(const std::string& name, const std::string& note) {
    ++passed;
    std::cout << "PASS " << name << note << "\n";
  }
  // One line a test: the first line of a diagnostic that has several (the op printed after).
  void fail(const std::string& name, const std::string& why) {
    ++failed;
    size_t error = why.find("error: ");
    std::string line = error == std::string::npos ? why : why.substr(error);
    line = line.substr(0, line.find('\n'));
    std::cout << "FAIL " << name << ": " << line << "\n";
  }
};

// An array's values as a constant of its own type (for comparing with the expected ones).
mlir::DenseElementsAttr asAttr(mlir::MLIRContext& ctx, const st::Array& a) {
  return mlir::strata::denseOf(mlir::strata::tensorType(&ctx, {a.shape(), a.dtype(), false}), a);
}

std::string lineOf(mlir::Location loc) {
  if (auto f = mlir::dyn_cast<mlir::FileLineColLoc>(loc)) return ":" + std::to_string(f.getLine());
  return "";
}

// Runs function `fn` of `module` (a test when it holds checks, else the entry).
void runFunction(mlir::ModuleOp module, llvm::StringRef fnName, const std::string& label,
                 const std::vector<st::Array>& args, Tally& tally) {
  mlir::OwningOpRef<mlir::ModuleOp> copy(mlir::cast<mlir::ModuleOp>(module->clone()));
  auto fn = copy->lookupSymbol<mlir::func::FuncOp>(fnName);
  std::string name = label + lineOf(fn.getLoc()) + " @" + fnName.str();
  // The checks' operands become extra results; their ops go.
  std::vector<Check> checks;
  std::vector<std::pair<int, int>> slots;  // per check: actual's result, expected's (or -1)
  llvm::SmallVector<mlir::Value> extra;
  llvm::SmallVector<mlir::Operation*> dead;
  std::string error;
  fn.walk([&](mlir::Operation* op) {
    std::optional<Check> c = strata::run::asCheck(op, error);
    if (!c) return;
    int base = static_cast<int>(fn.getNumResults() + extra.size());
    slots.push_back({base, op->getNumOperands() == 2 ? base + 1 : -1});
    for (mlir::Value v : op->getOperands()) extra.push_back(v);
    checks.push_back(*c);
    dead.push_back(op);
  });
  if (!error.empty()) return tally.fail(name, error);
  const int numResults = static_cast<int>(fn.getNumResults());
  mlir::OpBuilder b(copy->getContext());
  for (mlir::Operation* op : dead) {
    b.setInsertionPoint(op);
    for (mlir::Value r : op->getResults()) {  // check.eq's i1 result: the check holds
      auto t = mlir::cast<mlir::RankedTensorType>(r.getType());
      r.replaceAllUsesWith(mlir::strata::ConstantOp::create(b, op->getLoc(), t, mlir::DenseElementsAttr::get(t, true)));
    }
    op->erase();
  }
  if (!extra.empty()) {
    fn.walk([&](mlir::func::ReturnOp ret) { ret->insertOperands(ret.getNumOperands(), extra); });
    llvm::SmallVector<mlir::Type> results(fn.getResultTypes());
    for (mlir::Value v : extra) results.push_back(v.getType());
    fn.removeResAttrsAttr();
    fn.setType(mlir::FunctionType::get(copy->getContext(), fn.getArgumentTypes(), results));
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  copy->print(os, mlir::OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*prettyForm=*/false));

  std::vector<st::Array> outs;
  try {
    outs = st::load_stablehlo(text)(fnName.str())(args);
  } catch (const std::exception& e) {
    return tally.fail(name, e.what());
  }
  mlir::MLIRContext& ctx = *copy->getContext();
  for (size_t i = 0; i < checks.size(); ++i) {
    mlir::DenseElementsAttr actual = asAttr(ctx, outs[static_cast<size_t>(slots[i].first)]);
    mlir::DenseElementsAttr want = checks[i].expected ? checks[i].expected
                                                      : asAttr(ctx, outs[static_cast<size_t>(slots[i].second)]);
    if (want.getType() != actual.getType() && want.isSplat()) want = want.resizeSplat(actual.getType());
    std::string diff = strata::run::compareValues(checks[i], actual, want);
    if (!diff.empty()) return tally.fail(name, checks[i].what + ": " + diff);
  }
  if (!expected.empty()) {
    if (expected.size() != static_cast<size_t>(numResults))
      return tally.fail(name, std::to_string(expected.size()) + " --check files for " + std::to_string(numResults) + " results");
    Check rel;
    rel.compare = strata::run::Compare::kRelative;
    rel.rtol = rtolFlag;
    rel.atol = atolFlag;
    for (int i = 0; i < numResults; ++i) {
      st::Array want = st::load_npy(expected[static_cast<size_t>(i)]);
      const st::Array& got = outs[static_cast<size_t>(i)];
      if (want.shape() != got.shape() || want.dtype() != got.dtype())
        return tally.fail(name, "result " + std::to_string(i) + " is " + st::type_string(got.dtype(), got.shape()) +
                                    ", but " + expected[static_cast<size_t>(i)] + " holds " + st::type_string(want.dtype(), want.shape()));
      std::string diff = strata::run::compareValues(rel, asAttr(ctx, got), asAttr(ctx, want));
      if (!diff.empty()) return tally.fail(name, "result " + std::to_string(i) + " vs " + expected[static_cast<size_t>(i)] + ": " + diff);
    }
  }
  if (!outputDir.empty()) {
    std::filesystem::create_directories(outputDir.getValue());
    for (int i = 0; i < numResults; ++i)
      st::save_npy(outputDir + "/" + fnName.str() + ".out" + std::to_string(i) + ".npy", outs[static_cast<size_t>(i)]);
  }
  std::string note = checks.empty() ? "" : " (" + std::to_string(checks.size()) + " checks)";
  if (!expected.empty()) note += " (" + std::to_string(expected.size()) + " results match)";
  tally.pass(name, note);
}

// One module (a file, or one chunk of it): every function holding checks, or the entry.
// Returns whether it ran a function (with --entry, a chunk without that function runs none).
bool runChunk(mlir::MLIRContext& ctx, std::unique_ptr<llvm::MemoryBuffer> buffer, const std::string& label,
              const std::vector<st::Array>& args, Tally& tally) {
  llvm::SourceMgr sourceMgr;
  // StableHLO's byte-per-element i1 hex data, packed as MLIR 22 reads it.
  std::string packed = mlir::strata::packByteBoolLiterals(buffer->getBuffer());
  if (packed != buffer->getBuffer())
    buffer = llvm::MemoryBuffer::getMemBufferCopy(packed, buffer->getBufferIdentifier());
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream ds(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &ctx, ds);
  // Verified by compile_mlir after StableHLO's generic ops are imported.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, mlir::ParserConfig(&ctx, /*verifyAfterParse=*/false));
  if (!module) {
    tally.fail(label, "cannot parse:\n" + diagnostics);
    return true;
  }
  std::vector<std::string> tests;
  for (auto fn : module->getOps<mlir::func::FuncOp>()) {
    if (fn.isExternal()) continue;
    // A test holds a check, or a check-like op runFunction will report as not understood.
    bool hasCheck = false;
    fn.walk([&](mlir::Operation* op) {
      std::string notUnderstood;
      hasCheck |= strata::run::asCheck(op, notUnderstood).has_value() || !notUnderstood.empty();
    });
    if ((entryName.empty() && hasCheck) || fn.getSymName() == entryName.getValue()) tests.push_back(fn.getSymName().str());
  }
  if (tests.empty() && entryName.empty()) {
    if (!module->lookupSymbol<mlir::func::FuncOp>("main")) {
      tally.fail(label, "no function to run (no checks, no @main)");
      return true;
    }
    tests.push_back("main");
  }
  for (const std::string& t : tests) runFunction(*module, t, label, args, tally);
  return !tests.empty();
}

}  // namespace

int main(int argc, char** argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "strata-run: compile and run StableHLO or strata MLIR files\n");
  mlir::DialectRegistry registry;
  strata::backends::register_dialects(registry, *strata::backends::find_target(st::DeviceKind::cpu));
  strata::run::registerCheckDialect(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  Tally tally;
  std::vector<st::Array> args;
  try {
    for (const std::string& path : inputs) args.push_back(st::load_npy(path));
  } catch (const std::exception& e) {
    std::cerr << "strata-run: " << e.what() << "\n";
    return 2;
  }
  auto file = llvm::MemoryBuffer::getFile(inputFile);
  if (!file) {
    std::cerr << "strata-run: cannot read " << inputFile << ": " << file.getError().message() << "\n";
    return 2;
  }
  llvm::StringRef text = (*file)->getBuffer();
  std::string base = std::filesystem::path(inputFile.getValue()).filename().string();
  bool ran = false;
  if (!splitInput) {
    ran = runChunk(ctx, llvm::MemoryBuffer::getMemBuffer(text, inputFile), base, args, tally);
  } else {
    // Each chunk keeps its lines' numbers: it is padded with the newlines before it.
    size_t start = 0, line = 0;
    while (start <= text.size()) {
      size_t sep = text.find("// -----", start);
      while (sep != llvm::StringRef::npos && sep > 0 && text[sep - 1] != '\n') sep = text.find("// -----", sep + 1);
      llvm::StringRef chunk = text.slice(start, sep == llvm::StringRef::npos ? text.size() : sep);
      std::string padded(line, '\n');
      padded += chunk.str();
      ran |= runChunk(ctx, llvm::MemoryBuffer::getMemBufferCopy(padded, inputFile), base, args, tally);
      if (sep == llvm::StringRef::npos) break;
      line += chunk.count('\n');
      size_t next = text.find('\n', sep);
      if (next == llvm::StringRef::npos) break;
      line += 1;
      start = next + 1;
    }
  }
  if (!ran) tally.fail(base, "no function @" + entryName.getValue() + " to run");
  std::cout << tally.passed << " passed, " << tally.failed << " failed\n";
  return tally.failed ? 1 : 0;
}
