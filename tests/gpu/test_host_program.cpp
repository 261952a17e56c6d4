// The host side of a GPU executable, checked without a GPU: the gpu stage's @main read as a
// HostProgram (launches with their grids and arguments, cuBLASLt steps with their epilogue and
// bias, copies), and the HostProgram's byte form (the persistent cache's payload) read back.
#include <gtest/gtest.h>

#include "backends/Pipeline.h"
#include "backends/Target.h"
#include "backends/cuda/HostProgram.h"
#include "backends/cuda/HostSteps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "strata/strata.h"

namespace st = strata;
namespace cuda = strata::backends::cuda;
using st::Array;

namespace {

const st::Device kGpu{st::DeviceKind::cuda, 0};

// The program `lowered` at the gpu stage, parsed back and read as a host program.
absl::StatusOr<cuda::HostProgram> host_program_of(const st::Lowered& lowered, int inputs, int outputs) {
  const st::backends::Target* target = st::backends::find_target(st::DeviceKind::cuda);
  mlir::DialectRegistry registry;
  st::backends::register_dialects(registry, *target);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(lowered.as_text("gpu"), &context);
  if (!module) return absl::InternalError("the gpu stage does not parse");
  return cuda::host_program(*module, 0, inputs, outputs);
}

TEST(HostProgram, SoftmaxIsTwoLaunchesOverItsBuffers) {
  if (!st::backends::find_target(st::DeviceKind::cuda)) GTEST_SKIP() << "no cuda target in this build";
  st::Lowered l = st::jit([](const Array& x) { return st::softmax(x, -1); }, {.device = kGpu}).lower(st::zeros({64, 300}));
  absl::StatusOr<cuda::HostProgram> p = host_program_of(l, 1, 1);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->steps.size(), 2u) << p->str();
  const cuda::Step& rows = p->steps[0];
  EXPECT_EQ(rows.kind, cuda::Step::Kind::launch);
  EXPECT_EQ(rows.grid[0], 64u);    // one block per row
  EXPECT_EQ(rows.block[0], 256u);
  bool reads_input = false, writes_output = false;
  for (const cuda::KernelArg& a : rows.args) {
    EXPECT_EQ(a.kind, cuda::KernelArg::Kind::pointer);
    reads_input = reads_input || a.buffer.base == cuda::BufferRef::Base::input;
    writes_output = writes_output || a.buffer.base == cuda::BufferRef::Base::output;
  }
  EXPECT_TRUE(reads_input && writes_output) << p->str();
  // The elementwise kernel: 4 consecutive elements a thread (wide accesses), 256 threads a block.
  EXPECT_EQ(p->steps[1].grid[0], (64u * 300 / 4 + 255) / 256);
  EXPECT_EQ(p->kernels.size(), 2u);
}

// In f32, bf16 and f16 the seed line is one step: the GEMM (type 0 f32, 1 bf16, 2 f16) with
// epilogue 3 and the bias input, writing the output itself.
TEST(HostProgram, TheSeedLineIsOneGemmWithItsEpilogue) {
  if (!st::backends::find_target(st::DeviceKind::cuda)) GTEST_SKIP() << "no cuda target in this build";
  auto seed = [](const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); };
  for (st::DType t : {st::f32, st::bf16, st::f16}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    st::Lowered l = st::jit(seed, {.device = kGpu}).lower(st::zeros({8, 64}, t), st::zeros({64, 32}, t), st::zeros({32}, t));
    absl::StatusOr<cuda::HostProgram> p = host_program_of(l, 3, 1);
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(p->steps.size(), 1u) << p->str();
    const cuda::Step& g = p->steps[0];
    ASSERT_EQ(g.kind, cuda::Step::Kind::gemm);
    ASSERT_EQ(g.args.size(), 11u);
    EXPECT_EQ(g.args[0].i, t == st::f32 ? 0 : t == st::bf16 ? 1 : 2);
    EXPECT_EQ(g.args[2].i, 1);   // B
    EXPECT_EQ(g.args[3].i, 8);   // M
    EXPECT_EQ(g.args[4].i, 32);  // N
    EXPECT_EQ(g.args[5].i, 64);  // K
    EXPECT_EQ(g.args[6].buffer.base, cuda::BufferRef::Base::input);
    EXPECT_EQ(g.args[6].buffer.index, 0);
    EXPECT_EQ(g.args[7].buffer.index, 1);
    EXPECT_EQ(g.args[8].buffer.base, cuda::BufferRef::Base::output);
    EXPECT_EQ(g.args[9].i, 3);  // + bias, then relu
    EXPECT_EQ(g.args[10].kind, cuda::KernelArg::Kind::pointer);
    EXPECT_EQ(g.args[10].buffer.base, cuda::BufferRef::Base::input);
    EXPECT_EQ(g.args[10].buffer.index, 2);
    EXPECT_NE(p->str().find("epilogue bias+relu in2"), std::string::npos) << p->str();
  }
}

// gelu (st::gelu, the tanh form) after + bias: cuBLASLt's GELU_BIAS epilogue, no kernel; the
// exact (erf) gelu is not cuBLASLt's and stays a kernel after the GEMM.
TEST(HostProgram, GeluAfterTheBiasIsTheGemmsEpilogue) {
  if (!st::backends::find_target(st::DeviceKind::cuda)) GTEST_SKIP() << "no cuda target in this build";
  for (bool approximate : {true, false}) {
    auto f = [approximate](const Array& x, const Array& w, const Array& b) {
      return st::gelu(st::matmul(x, w) + b, approximate);
    };
    st::Lowered l = st::jit(f, {.device = kGpu}).lower(st::zeros({8, 64}), st::zeros({64, 32}), st::zeros({32}));
    absl::StatusOr<cuda::HostProgram> p = host_program_of(l, 3, 1);
    ASSERT_TRUE(p.ok()) << p.status();
    ASSERT_EQ(p->steps.size(), approximate ? 1u : 2u) << p->str();
    const cuda::Step& g = p->steps[0];
    ASSERT_EQ(g.kind, cuda::Step::Kind::gemm);
    ASSERT_EQ(g.args.size(), 11u);
    if (approximate) {
      EXPECT_EQ(g.args[9].i, 6);  // + bias, then gelu
      EXPECT_EQ(g.args[10].buffer.index, 2);
      EXPECT_NE(p->str().find("epilogue bias+gelu in2"), std::string::npos) << p->str();
    } else {
      EXPECT_EQ(g.args[9].i, 0) << p->str();
      EXPECT_EQ(p->steps[1].kind, cuda::Step::Kind::launch);
    }
  }
}

TEST(HostProgram, AnIdentityIsOneCopy) {
  if (!st::backends::find_target(st::DeviceKind::cuda)) GTEST_SKIP() << "no cuda target in this build";
  st::Lowered l = st::jit([](const Array& x) { return x; }, {.device = kGpu}).lower(st::zeros({5, 7}));
  absl::StatusOr<cuda::HostProgram> p = host_program_of(l, 1, 1);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->steps.size(), 1u) << p->str();
  EXPECT_EQ(p->steps[0].kind, cuda::Step::Kind::copy);
  EXPECT_EQ(p->steps[0].bytes, 5 * 7 * 4);
  EXPECT_TRUE(p->kernels.empty());
}

TEST(HostProgram, TheByteFormReadsBack) {
  cuda::HostProgram p;
  p.kernels = {"main_kernel", "main_kernel_0"};
  p.globals = {std::string("\x01\x02\x03", 3)};
  cuda::Step launch;
  launch.kernel = 1;
  launch.grid[0] = 7;
  launch.block[0] = 256;
  cuda::KernelArg ptr;
  ptr.buffer = {cuda::BufferRef::Base::scratch, 0, 128};
  cuda::KernelArg f;
  f.kind = cuda::KernelArg::Kind::f32;
  f.f = 2.5;
  launch.args = {ptr, f};
  cuda::Step copy;
  copy.kind = cuda::Step::Kind::copy;
  copy.src = {cuda::BufferRef::Base::input, 1, 0};
  copy.dst = {cuda::BufferRef::Base::output, 0, 64};
  copy.bytes = 4096;
  p.steps = {launch, copy};
  std::string payload = cuda::pack_payload(p, "CUBIN", "PTX");
  cuda::HostProgram q;
  std::string cubin, ptx;
  ASSERT_TRUE(cuda::unpack_payload(payload, q, cubin, ptx).ok());
  EXPECT_EQ(cubin, "CUBIN");
  EXPECT_EQ(ptx, "PTX");
  EXPECT_EQ(q.str(), p.str());
  EXPECT_EQ(q.globals, p.globals);
  EXPECT_EQ(q.steps[0].args[0].buffer.offset, 128);
  // A truncated or altered payload is refused, not misread.
  EXPECT_FALSE(cuda::unpack_payload(payload.substr(0, payload.size() - 1), q, cubin, ptx).ok());
  std::string bad = payload;
  bad[9] ^= 0x7f;
  EXPECT_FALSE(cuda::unpack_payload(bad, q, cubin, ptx).ok());
}

}  // namespace
