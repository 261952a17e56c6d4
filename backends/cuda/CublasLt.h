// backends/cuda/CublasLt.h — row-major GEMMs through cuBLASLt, loaded at run time with dlopen
// (libcublasLt.so.13, then /usr/local/cuda/lib64/libcublasLt.so.13); cublasLt.h is included for
// its types only.
//
//   D[M,N] = epilogue(op(A) @ op(B) (+ bias[N]))    op(A): [M,K], op(B): [K,N]
//
// all row-major and contiguous; with batch > 1 each operand's i-th matrix starts stride_* elements
// after the previous one (0: the same matrix for every batch; not for D). The descriptors and the
// algorithm are chosen once per shape, type, epilogue, alignment and workspace size and cached,
// so a repeated GEMM costs one cublasLtMatmul.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace strata::backends::cuda {

// The element type of A, B, bias and D; accumulation is in f32 for all three (bf16 and f16 on
// tensor cores). f32 uses exact f32 products unless allow_tf32.
enum class GemmType { f32, bf16, f16 };

// Applied to each element of the product, in order: + bias[column] then relu or gelu (the tanh
// approximation, CUBLASLT_EPILOGUE_GELU).
enum class GemmEpilogue { none, relu, gelu, bias, relu_bias, gelu_bias };

struct GemmArgs {
  int device = 0;
  GemmType type = GemmType::f32;
  int64_t m = 0, n = 0, k = 0;
  // A is stored [K,M] (resp. B [N,K]) row-major and used transposed.
  bool trans_a = false, trans_b = false;
  int64_t batch = 1;
  int64_t stride_a = 0, stride_b = 0, stride_d = 0;  // elements; used when batch > 1
  const void* a = nullptr;
  const void* b = nullptr;
  void* d = nullptr;
  const void* bias = nullptr;  // N elements of `type`, shared by all batches (bias epilogues)
  GemmEpilogue epilogue = GemmEpilogue::none;
  bool allow_tf32 = false;
  void* workspace = nullptr;  // device memory cuBLASLt may use; 32 MiB is plenty on Hopper
  std::size_t workspace_bytes = 0;
  CUstream stream = nullptr;  // the device's strata stream when null
};

// True when libcublasLt.so.13 was loaded (a GEMM still needs a GPU: see Driver).
bool cublaslt_available();
// Why it is not (empty when it is).
const std::string& cublaslt_why_unavailable();

// Queues the GEMM on args.stream. Errors name the cuBLASLt call and its status, or the argument
// at fault.
absl::Status gemm(const GemmArgs& args);

}  // namespace strata::backends::cuda
