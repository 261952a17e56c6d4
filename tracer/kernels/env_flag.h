// tracer/kernels/env_flag.h — the one reading of strata's on/off environment switches
// (STRATA_CHECK_BOUNDS, STRATA_EIGEN_GEMM, STRATA_LLVM_LSR, STRATA_LLVM_UNROLL): on when set to
// anything but "" or "0", so that NAME=0 turns a switch off wherever it is read.
#pragma once

#include <cstdlib>
#include <string_view>

namespace strata::kernels {

inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string_view(v) != "0";
}

}  // namespace strata::kernels
