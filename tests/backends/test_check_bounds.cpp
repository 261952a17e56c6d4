// JitOptions::check_bounds (STRATA_CHECK_BOUNDS=1): the generated code checks every memref
// load, store and view; an out-of-bounds access prints the op and its location and aborts.
// Programs traced from the API never index out of bounds (that would be a compiler bug), so
// the aborting case is a hand-written `loops`-stage module whose loop runs one element past
// its buffers, taken through the CPU target's remaining stages and run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "backends/Compiler.h"
#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "lowering/PipelineOptions.h"
#include "lowering/Stages.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "abstract_value.h"
#include "strata/strata.h"

namespace st = strata;

namespace {

// exp over 4 elements at the `loops` stage, with the loop's bound `n`: 5 reads and writes one
// element past both buffers.
std::string loops_module(int n) {
  return R"(module attributes {strata.scratch_bytes = 0 : i64, strata.temporaries_bytes = 0 : i64} {
  func.func @main(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<0xi8>) attributes {strata.entry_arg_types = [memref<4xf32>, memref<4xf32>, memref<0xi8>]} {
    %c0 = arith.constant 0 : index
    %cn = arith.constant )" +
         std::to_string(n) + R"( : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %cn step %c1 {
      %0 = memref.load %arg0[%i] : memref<4xf32> loc("kernel.cc":7:3)
      %1 = math.exp %0 : f32
      memref.store %1, %arg1[%i] : memref<4xf32> loc("kernel.cc":8:3)
    }
    return
  }
}
)";
}

// Compiles `text` (the loops stage) through the CPU target's later stages and runs it on
// [0, 1, 2, 3]; returns the output, or an error message.
std::string compile_and_run(const std::string& text, bool check_bounds, std::vector<float>& out) {
  const st::backends::Target* target = st::backends::find_target(st::DeviceKind::cpu);
  if (!target) return "no cpu target";
  mlir::DialectRegistry registry;
  st::backends::register_dialects(registry, *target);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module) return "parse failed";
  st::JitOptions options;
  options.check_bounds = check_bounds;
  mlir::strata::PipelineOptions po = st::backends::pipeline_options(*target, options, 0, 1, {});
  llvm::SmallVector<const mlir::strata::Stage*> stages;
  for (const mlir::strata::Stage* s : st::backends::pipeline(*target))
    if (!s->translate) stages.push_back(s);
  if (mlir::failed(mlir::strata::runStages(*module, stages, po, "loops", {}, [](const mlir::strata::Stage&, const std::string*) {})))
    return "stages failed";
  st::backends::Program prog;
  prog.inputs.push_back(st::AbstractValue{{4}, st::f32});
  prog.outputs.push_back(st::AbstractValue{{4}, st::f32});
  std::string payload;
  auto exe = target->compile(*module, prog, options, payload);
  if (!exe.ok()) return std::string(exe.status().message());
  std::vector<float> in{0, 1, 2, 3};
  out.assign(4, 0);
  const void* inputs[] = {in.data()};
  void* outputs[] = {out.data()};
  absl::Status s = (*exe)->execute(inputs, outputs);
  return s.ok() ? "" : std::string(s.message());
}

}  // namespace

TEST(CheckBounds, InBoundsCodeRunsAndComputesTheSame) {
  std::vector<float> checked, plain;
  ASSERT_EQ(compile_and_run(loops_module(4), true, checked), "");
  ASSERT_EQ(compile_and_run(loops_module(4), false, plain), "");
  EXPECT_EQ(checked, plain);
  EXPECT_FLOAT_EQ(checked[3], std::exp(3.0f));
}

TEST(CheckBoundsDeathTest, AnOutOfBoundsLoadAbortsNamingTheOpAndItsLocation) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::vector<float> out;
  EXPECT_DEATH(compile_and_run(loops_module(5), true, out),
               "bounds check of the generated code failed.*\n.*memref.load.*\n.*out-of-bounds access\n"
               "Location: loc\\(\"kernel.cc\":7:3\\)");
}

TEST(CheckBounds, TheOptionAndTheEnvironmentChangeTheCodeAndTheCacheKey) {
  auto f = [](const st::Array& x) { return st::exp(x) + 1.0f; };
  st::Array x = st::arange(8, st::f32);
  unsetenv("STRATA_CHECK_BOUNDS");
  st::JitOptions plain_options, checked_options;
  checked_options.check_bounds = true;
  std::string plain = st::jit(f, plain_options).lower(x).as_text("llvm-dialect");
  std::string checked = st::jit(f, checked_options).lower(x).as_text("llvm-dialect");
  // The checks' messages are globals (@assert_msg_N) printed through `puts` before `abort`.
  EXPECT_EQ(plain.find("@assert_msg"), std::string::npos);
  EXPECT_NE(checked.find("@assert_msg"), std::string::npos);
  EXPECT_NE(checked.find("llvm.call @abort"), std::string::npos);
  EXPECT_NE(st::compiler::codegen_key(plain_options), st::compiler::codegen_key(checked_options));
  setenv("STRATA_CHECK_BOUNDS", "1", 1);
  EXPECT_EQ(st::compiler::codegen_key(plain_options), st::compiler::codegen_key(checked_options));
  EXPECT_NE(st::jit(f, plain_options).lower(x).as_text("llvm-dialect").find("@assert_msg"), std::string::npos);
  // A checked executable computes what eager mode does.
  std::vector<float> got = st::jit(f, plain_options)(x).to_vector<float>();
  std::vector<float> want = f(x).to_vector<float>();
  unsetenv("STRATA_CHECK_BOUNDS");
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * std::abs(want[i]));
}
