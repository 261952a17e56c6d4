// Parallel code generation (lowering/ParallelCodegen.h): a program's LLVM module split into parts
// compiled on threads, linked together by the JIT, computes what the unsplit module computes;
// the llvm-ir text holds every part and still gives assembly; the cache payload frames the
// objects and refuses what is not such a payload.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "backends/cpu/JitCode.h"
#include "lowering/CpuAbi.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/ParallelCodegen.h"
#include "llvm/Support/CommandLine.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;

namespace {

// Several kernels (elementwise, row reductions, GEMMs with epilogues): big enough to split.
st::Array program(const st::Array& x, const st::Array& y) {
  st::Array a = x;
  for (int block = 0; block < 3; ++block) {
    a = st::sin(a) * y + 0.5f;
    a = st::exp(-(a * a));
    a = a - st::max(a, {1}, true);
    a = st::matmul(st::tanh(a), y);
  }
  return a;
}

struct Compiled {
  mlir::strata::ObjectCode code;
  std::unique_ptr<st::backends::cpu::JitCode> jit;
  int64_t scratch_bytes = 0;
};

// The program's llvm-dialect stage compiled in at most `parts` parts and linked.
void compile(const std::string& llvm_dialect, unsigned parts, Compiled& c) {
  const st::backends::Target* target = st::backends::find_target(st::DeviceKind::cpu);
  ASSERT_NE(target, nullptr);
  mlir::DialectRegistry registry;
  st::backends::register_dialects(registry, *target);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(llvm_dialect, &context);
  ASSERT_TRUE(module);
  auto scratch = (*module)->getAttrOfType<mlir::IntegerAttr>("strata.scratch_bytes");
  ASSERT_TRUE(scratch);
  c.scratch_bytes = scratch.getInt();
  ASSERT_TRUE(mlir::succeeded(mlir::strata::compileToObjects(*module, 3, parts, c.code)));
  std::vector<std::string_view> objects(c.code.objects.begin(), c.code.objects.end());
  std::string error;
  c.jit = st::backends::cpu::JitCode::load(objects, st::cpu_abi::kEntry, error);
  ASSERT_TRUE(c.jit) << error;
}

#if defined(__clang__)
__attribute__((no_sanitize("function")))  // generated code has no UBSan type signature
#endif
std::vector<float> run(const Compiled& c, const std::vector<float>& x, const std::vector<float>& y, size_t n) {
  std::vector<float> out(n);
  std::vector<char> scratch(static_cast<size_t>(c.scratch_bytes) + 64);
  void* buffers[] = {const_cast<float*>(x.data()), const_cast<float*>(y.data()), out.data(), scratch.data()};
  c.jit->entry()(buffers);
  return out;
}

}  // namespace

TEST(ParallelCodegen, SplitModuleLinksAndComputesWhatTheWholeModuleComputes) {
  st::Array x = st::random::normal(st::random::key(1), {64, 64});
  st::Array y = st::random::normal(st::random::key(2), {64, 64}) * 0.1f;
  std::string text = st::jit(program).lower(x, y).as_text("llvm-dialect");
  Compiled whole, split;
  compile(text, 1, whole);
  compile(text, 3, split);
  ASSERT_EQ(whole.code.objects.size(), 1u);
  ASSERT_GE(split.code.objects.size(), 2u) << "the program should be big enough to split";
  EXPECT_EQ(whole.code.ir.find(mlir::strata::kPartMarker), std::string::npos);
  EXPECT_NE(split.code.ir.find(std::string(mlir::strata::kPartMarker) + "1 of "), std::string::npos);

  std::vector<float> xs = x.to_vector<float>(), ys = y.to_vector<float>();
  std::vector<float> a = run(whole, xs, ys, 64 * 64), b = run(split, xs, ys, 64 * 64);
  std::vector<float> eager = program(x, y).to_vector<float>();
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i], b[i]) << i;  // the same code, only in other objects
    EXPECT_NEAR(a[i], eager[i], 1e-4f * (1 + std::abs(eager[i]))) << i;
  }
  // What one part takes from another is reached through the GOT and PLT: the JIT may map the
  // parts' objects more than 2 GiB apart (it did under ASan), out of reach of a direct 32-bit
  // PC-relative reference, which a dso_local or hidden declaration would get.
  std::istringstream lines(split.code.ir);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("declare ") || line.find(" = external ") != std::string::npos) {
      EXPECT_EQ(line.find("dso_local"), std::string::npos) << line;
      EXPECT_EQ(line.find("hidden"), std::string::npos) << line;
    }
  // The split llvm-ir text gives assembly for every part.
  std::string assembly, error;
  ASSERT_TRUE(mlir::strata::assemblyFromLlvmIr(split.code.ir, 3, assembly, error)) << error;
  EXPECT_NE(assembly.find("strata_entry:"), std::string::npos);
  EXPECT_NE(assembly.find(std::string(mlir::strata::kPartMarker) + "1 of "), std::string::npos);
}

TEST(ParallelCodegen, SmallModulesStayWhole) {
  st::Array x = st::ones({8});
  std::string text = st::jit([](const st::Array& v) { return v * 2.0f; }).lower(x).as_text("llvm-dialect");
  Compiled c;
  compile(text, 8, c);
  EXPECT_EQ(c.code.objects.size(), 1u);
}

TEST(ParallelCodegen, PayloadFramesTheObjectsAndRefusesAnythingElse) {
  namespace cpu = st::backends::cpu;
  std::string payload = cpu::pack_objects({"first object", "", "third"});
  std::vector<std::string_view> objects;
  ASSERT_TRUE(cpu::unpack_objects(payload, objects));
  ASSERT_EQ(objects.size(), 3u);
  EXPECT_EQ(objects[0], "first object");
  EXPECT_EQ(objects[1], "");
  EXPECT_EQ(objects[2], "third");
  // Truncated, extended, foreign, empty: refused (the cache then compiles afresh).
  EXPECT_FALSE(cpu::unpack_objects(payload.substr(0, payload.size() - 1), objects));
  EXPECT_FALSE(cpu::unpack_objects(payload + "x", objects));
  EXPECT_FALSE(cpu::unpack_objects("\x7f" "ELF an old single-object payload", objects));
  EXPECT_FALSE(cpu::unpack_objects("", objects));
  std::string huge_count = payload.substr(0, payload.find('\n') + 1) + std::string(8, '\xff');
  EXPECT_FALSE(cpu::unpack_objects(huge_count, objects));
}

// The host's code generation runs without LLVM's loop strength reduction (LlvmCodegen.cpp) by
// setting LLVM's global -disable-lsr while it builds its pipeline; the option is left as it was
// for other targets (the NVPTX serialiser) and for the user's own STRATA_LLVM_OPTIONS.
TEST(ParallelCodegen, HostCodegenLeavesLlvmsLsrOptionAsItWas) {
  st::Array x = st::random::normal(st::random::key(1), {64, 64}), y = st::random::normal(st::random::key(2), {64, 64});
  std::string text = st::jit(program).lower(x, y).as_text("llvm-dialect");
  auto& options = llvm::cl::getRegisteredOptions();
  auto it = options.find("disable-lsr");
  ASSERT_NE(it, options.end());
  auto* option = static_cast<llvm::cl::opt<bool>*>(it->second);
  for (bool before : {false, true}) {
    option->setValue(before);
    Compiled c;
    compile(text, 2, c);
    EXPECT_EQ(option->getValue(), before);
  }
  option->setValue(false);
}
