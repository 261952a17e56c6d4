// The cuda target's code generation for whole programs, checked everywhere the target is built
// (no GPU needed): the fused patterns of the fusion tests (softmax, layer norm, an MLP and its
// gradient, the seed line, reductions along either axis, transposes, argmax) are lowered with
// jit(f, {.device = cuda:0}).lower(...).as_text("ptx"), and the toolkit's ptxas accepts the PTX.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <unistd.h>

#include "strata/strata.h"

#include "ptxas_check.h"

namespace st = strata;
using strata::testing::ptxas_errors;
using st::Array;

namespace {

const st::Device kGpu{st::DeviceKind::cuda, 0};

bool cuda_target_built() {
  try {
    st::jit([](const Array& x) { return x; }, {.device = kGpu}).lower(st::zeros({1})).stages();
    return true;
  } catch (const st::Error&) {
    return false;
  }
}


Array softmax(const Array& x) { return st::softmax(x, -1); }
Array layer_norm(const Array& x, const Array& g, const Array& b) {
  Array mu = st::mean(x, -1, true);
  Array var = st::mean((x - mu) * (x - mu), -1, true);
  return (x - mu) * st::rsqrt(var + 1e-5f) * g + b;
}
Array mlp(const Array& x, const Array& w1, const Array& b1, const Array& w2, const Array& b2) {
  return st::matmul(st::relu(st::matmul(x, w1) + b1), w2) + b2;
}
Array mlp_loss(const Array& w1, const Array& b1, const Array& w2, const Array& b2, const Array& x, const Array& y) {
  Array e = mlp(x, w1, b1, w2, b2) - y;
  return st::mean(e * e);
}

struct Program {
  const char* name;
  std::function<st::Lowered()> lower;
};

std::vector<Program> programs() {
  st::JitOptions o{.device = kGpu};
  Array x = st::zeros({64, 300}), v = st::zeros({300});
  return {
      {"softmax", [=] { return st::jit(softmax, o).lower(x); }},
      {"layer_norm", [=] { return st::jit(layer_norm, o).lower(x, v, v); }},
      {"mlp", [=] {
         return st::jit(mlp, o).lower(st::zeros({16, 8}), st::zeros({8, 32}), st::zeros({32}), st::zeros({32, 2}),
                                      st::zeros({2}));
       }},
      {"mlp_grad", [=] {
         return st::jit(st::grad(mlp_loss, st::argnums<0, 1, 2, 3>), o)
             .lower(st::zeros({8, 32}), st::zeros({32}), st::zeros({32, 2}), st::zeros({2}), st::zeros({16, 8}),
                    st::zeros({16, 2}));
       }},
      {"seed_bf16", [=] {
         auto seed = [](const Array& a, const Array& w, const Array& b) { return st::relu(st::matmul(a, w) + b); };
         return st::jit(seed, o).lower(st::zeros({8, 64}, st::bf16), st::zeros({64, 32}, st::bf16),
                                       st::zeros({32}, st::bf16));
       }},
      {"sum_rows", [=] { return st::jit([](const Array& a) { return st::sum(a, 1); }, o).lower(x); }},
      {"sum_columns", [=] { return st::jit([](const Array& a) { return st::sum(a, 0); }, o).lower(x); }},
      {"sum_all", [=] { return st::jit([](const Array& a) { return st::sum(a); }, o).lower(x); }},
      // Large enough to be split into chunks (a block each) and a block combining the partials.
      {"sum_all_split", [=] { return st::jit([](const Array& a) { return st::sum(a); }, o).lower(st::zeros({512, 1024})); }},
      {"mean_squares_split_f64", [=] {
         return st::jit([](const Array& a) { return st::mean(a * a); }, o).lower(st::zeros({1 << 20}, st::f64));
       }},
      {"column_sum_and_max_split", [=] {
         return st::jit([](const Array& a) { return st::sum(a, 0) * st::max(a, 0); }, o).lower(st::zeros({8192, 48}));
       }},
      {"column_mean_3d_split", [=] {
         return st::jit([](const Array& a) { return st::mean(a, 0); }, o).lower(st::zeros({600, 7, 33}));
       }},
      {"max_and_sum_split", [=] {
         return st::jit([](const Array& a) { return st::max(a) + st::sum(st::exp(a)); }, o).lower(st::zeros({300, 1000}));
       }},
      // Few long rows: each row's chunks a block each, then a block a row combining them.
      {"mean_few_long_rows_split", [=] {
         return st::jit([](const Array& a) { return st::mean(a, 1); }, o).lower(st::zeros({8, 1 << 17}));
       }},
      {"sum_exp_two_axes_few_rows_split_f64", [=] {
         return st::jit([](const Array& a) { return st::sum(st::exp(a), {1, 2}); }, o)
             .lower(st::zeros({3, 64, 4096}, st::f64));
       }},
      // Softmax and layer norm over few long rows: a parallel loop per loop of the row, each split.
      {"softmax_few_long_rows_split", [=] { return st::jit(softmax, o).lower(st::zeros({4, 1 << 16})); }},
      {"layer_norm_few_long_rows_split", [=] {
         return st::jit(layer_norm, o).lower(st::zeros({4, 1 << 16}), st::zeros({1 << 16}), st::zeros({1 << 16}));
       }},
      {"max_rows_f64", [=] {
         return st::jit([](const Array& a) { return st::max(a, 1); }, o).lower(st::zeros({64, 300}, st::f64));
       }},
      {"argmax", [=] { return st::jit([](const Array& a) { return st::argmax(a, 1); }, o).lower(x); }},
      {"transpose_chain", [=] {
         return st::jit([](const Array& a) { return st::exp(st::transpose(a)) * 2.0f; }, o).lower(x);
       }},
      {"transpose_tiles", [=] {
         return st::jit([](const Array& a, const Array& b) { return st::exp(st::transpose(a)) * b; }, o)
             .lower(st::zeros({1000, 300}), st::zeros({300, 1000}));
       }},
      {"transpose_tiles_batched_f64", [=] {
         return st::jit([](const Array& a) { return st::transpose(a, {0, 2, 1}); }, o).lower(st::zeros({5, 77, 130}, st::f64));
       }},
      {"batched_matmul", [=] {
         return st::jit([](const Array& a, const Array& b) { return st::matmul(a, b); }, o)
             .lower(st::zeros({3, 16, 8}), st::zeros({3, 8, 4}));
       }},
      {"concatenate_pad", [=] {
         return st::jit([](const Array& a) { return st::concatenate({a, st::exp(a)}, 0); }, o).lower(x);
       }},
  };
}

TEST(CudaCodegen, FusedProgramsMakePtxThatPtxasAccepts) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  for (const Program& p : programs()) {
    SCOPED_TRACE(p.name);
    st::Lowered l = p.lower();
    const std::string& ptx = l.as_text("ptx");
    const std::string& gpu = l.as_text("gpu");
    if (gpu.find("gpu.launch_func") == std::string::npos) {
      EXPECT_TRUE(ptx.empty()) << ptx;  // a program of library calls only (the seed line)
      continue;
    }
    EXPECT_NE(ptx.find(".visible .entry"), std::string::npos) << ptx;
    std::string errors = ptxas_errors(ptx);
    EXPECT_TRUE(errors.empty()) << "ptxas refuses the PTX:\n" << errors << "\n" << ptx;
  }
}

// The stages a GPU program goes through, as Lowered lists them.
TEST(CudaCodegen, LoweredListsTheGpuStages) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  std::vector<std::string> stages =
      st::jit([](const Array& x) { return x * 2.0f; }, {.device = kGpu}).lower(st::zeros({4})).stages();
  for (const char* s : {"fused", "loops", "gpu", "nvvm", "ptx"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), s), stages.end()) << s;
}

// Row reductions run one row per block (the softmax's first kernel reduces with shuffles);
// the seed line is a single cuBLASLt call with the bias+relu epilogue, no kernel.
TEST(CudaCodegen, RowReductionsUseTheBlockAndTheSeedLineIsOneLibraryCall) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  st::JitOptions o{.device = kGpu};
  st::Lowered s = st::jit(softmax, o).lower(st::zeros({64, 300}));
  EXPECT_NE(s.as_text("gpu").find("gpu.all_reduce"), std::string::npos) << s.as_text("gpu");
  auto seed = [](const Array& a, const Array& w, const Array& b) { return st::relu(st::matmul(a, w) + b); };
  auto gelu_seed = [](const Array& a, const Array& w, const Array& b) { return st::gelu(st::matmul(a, w) + b); };
  auto no_bias = [](const Array& a, const Array& w, const Array& b) { return st::relu(st::matmul(a, w)) + 0.0f * b; };
  // bf16 and f16 too: cuBLASLt adds the bias and applies the activation in f32 before its one
  // rounding, so the program is that one call (epilogue 3: + bias then relu; 6: + bias then gelu).
  for (st::DType t : {st::f32, st::bf16, st::f16}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    Array a = st::zeros({8, 64}, t), w = st::zeros({64, 32}, t), b = st::zeros({32}, t);
    const std::string call = "call @strata_rt_dot_" + std::string(st::short_name(t));
    for (auto [fn, kind] : {std::pair{+seed, "%c3_i64"}, std::pair{+gelu_seed, "%c6_i64"}}) {
      st::Lowered l = st::jit(fn, o).lower(a, w, b);
      const std::string& gpu = l.as_text("gpu");
      EXPECT_EQ(gpu.find("gpu.launch_func"), std::string::npos) << gpu;
      EXPECT_NE(gpu.find(call), std::string::npos) << gpu;
      EXPECT_NE(gpu.find(kind), std::string::npos) << gpu;
    }
    // relu without a bias (then an unrelated op): epilogue 1, and a kernel after the call.
    const std::string& gpu = st::jit(no_bias, o).lower(a, w, b).as_text("gpu");
    EXPECT_NE(gpu.find(call), std::string::npos) << gpu;
    EXPECT_NE(gpu.find("gpu.launch_func"), std::string::npos) << gpu;
  }
}

// A row reduction over few long rows splits each row: 8 rows of 2^20 make 1024 blocks (128
// chunks a row, 8192 elements each, reduced across the block), then 8 blocks combine them;
// a softmax's rows, one parallel loop per loop of the row, the same way.
TEST(CudaCodegen, FewLongRowsSplitAcrossBlocks) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  st::Lowered l = st::jit([](const Array& a) { return st::sum(a, 1); }, {.device = kGpu}).lower(st::zeros({8, 1 << 20}));
  const std::string& gpu = l.as_text("gpu");
  EXPECT_NE(gpu.find("blocks in (%c1024, %c1, %c1) threads in (%c256"), std::string::npos) << gpu;
  EXPECT_NE(gpu.find("blocks in (%c8, %c1, %c1) threads in (%c128"), std::string::npos) << gpu;
  // A softmax of 8 such rows: the max and the sum of exponentials each in 1024 blocks then 8,
  // the division over the whole array.
  const std::string& sm = st::jit(softmax, {.device = kGpu}).lower(st::zeros({8, 1 << 20})).as_text("gpu");
  size_t wide = 0;
  for (size_t at = sm.find("blocks in (%c1024, %c1, %c1)"); at != std::string::npos; at = sm.find("blocks in (%c1024, %c1, %c1)", at + 1))
    ++wide;
  EXPECT_EQ(wide, 2u) << sm;
}

// A transpose goes through shared memory: a workgroup buffer, a barrier, shared loads/stores.
TEST(CudaCodegen, TransposesUseSharedMemory) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  st::Lowered l = st::jit([](const Array& a) { return st::transpose(a) * 2.0f; }, {.device = kGpu}).lower(st::zeros({512, 384}));
  const std::string& ptx = l.as_text("ptx");
  for (const char* want : {".shared .align", "st.shared", "bar.sync", "ld.shared"})
    EXPECT_NE(ptx.find(want), std::string::npos) << want << "\n" << ptx;
}

// An elementwise chain moves 16 bytes a thread access: 128-bit loads and stores in its PTX
// (with the scalar fallback for misaligned buffers beside them); bf16 moves 8 bytes (LLVM
// spells the store as two 32-bit words).
TEST(CudaCodegen, ElementwiseChainsUseWideAccesses) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  auto chain = [](const Array& x, const Array& y) { return st::tanh(x * y + 1.0f) - st::exp(-x) * 0.5f; };
  for (st::DType t : {st::f32, st::bf16}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    st::Lowered l = st::jit(chain, {.device = kGpu}).lower(st::zeros({256, 1024}, t), st::zeros({1024}, t));
    const std::string& ptx = l.as_text("ptx");
    const char* load = t == st::f32 ? "ld.global.v4.b32" : "ld.global.v4.b16";
    const char* store = t == st::f32 ? "st.global.v4.b32" : "st.global.v2.b32";
    EXPECT_NE(ptx.find(load), std::string::npos) << ptx;
    EXPECT_NE(ptx.find(store), std::string::npos) << ptx;
    std::string errors = ptxas_errors(ptx);
    EXPECT_TRUE(errors.empty()) << "ptxas refuses the PTX:\n" << errors;
  }
}

}  // namespace
