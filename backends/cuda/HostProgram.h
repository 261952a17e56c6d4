// backends/cuda/HostProgram.h — the host side of a GPU executable: the list of steps C++ runs
// for each call (kernel launches and copies, as XLA's thunks), over pointers into the call's
// buffers. Plain C++: made from the gpu stage's @main (HostSteps.cpp), kept with the cubin in
// the persistent cache (serialize/parse), run by CudaExecutable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace strata::backends::cuda {

// A device pointer: a byte offset into one of the call's buffers.
struct BufferRef {
  enum class Base : uint8_t { constant, input, output, scratch, global };
  Base base = Base::scratch;
  int index = 0;
  int64_t offset = 0;
};

// One kernel argument, as the kernel's bare-pointer calling convention takes it.
struct KernelArg {
  enum class Kind : uint8_t { pointer, i32, i64, f32, f64 };
  Kind kind = Kind::pointer;
  BufferRef buffer;  // pointer
  int64_t i = 0;     // i32, i64
  double f = 0;      // f32, f64
};

struct Step {
  enum class Kind : uint8_t { launch, copy, gemm };
  Kind kind = Kind::launch;
  // launch: kernels[kernel] on grid × block threads.
  int kernel = 0;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;
  std::vector<KernelArg> args;
  // gemm: a row-major (batched) GEMM through cuBLASLt; args are i64 values — the element type
  // (GemmType), the runtime GEMM's flags (lowering/CpuAbi.h: operand layouts), B, M, N, K —
  // then the pointers of lhs, rhs and the output; optionally the library epilogue (0 none,
  // 1 relu, 2 + bias, 3 + bias then relu, 4 gelu, 6 + bias then gelu: lowering/LibraryEpilogue.h)
  // and the bias pointer (an i64 0 when none).
  // copy: `bytes` from src to dst.
  BufferRef dst, src;
  int64_t bytes = 0;
};

struct HostProgram {
  std::vector<std::string> kernels;  // names in the cubin
  std::vector<Step> steps;
  std::vector<std::string> globals;  // constant buffers (memref.global), their bytes

  // A byte string for the persistent cache, and back (an error for a malformed one).
  std::string serialize() const;
  static absl::StatusOr<HostProgram> parse(std::string_view bytes);
  // One line per step, for the `steps` text of an executable.
  std::string str() const;
};

// A GEMM step's library epilogue (its tenth argument), bits as lowering/LibraryEpilogue.h: 1
// relu, 2 + bias, 4 gelu. The kinds cuBLASLt has: 0 (none), 1, 2, 3, 4, 6.
inline bool gemm_epilogue_known(int64_t kind) { return kind >= 0 && kind <= 6 && kind != 5; }
// Its name in the steps text: "relu", "bias", "bias+relu", "gelu", "bias+gelu" ("" for none).
const char* gemm_epilogue_name(int64_t kind);

// The persistent cache's payload: the host program and the cubin, and back.
std::string pack_payload(const HostProgram& host, std::string_view cubin, std::string_view ptx);
absl::Status unpack_payload(std::string_view payload, HostProgram& host, std::string& cubin, std::string& ptx);

}  // namespace strata::backends::cuda
