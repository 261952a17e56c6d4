// The CPU runtime: the GEMM and parallel_for behind generated code (lowering/CpuAbi.h), and
// the symbol table the JIT links against. Runtime functions never throw: an exception cannot
// unwind through generated frames, so failures are swallowed (they only come from allocation).
#include "backends/cpu/Runtime.h"

#include <Eigen/Core>
#include <algorithm>
#include <unsupported/Eigen/CXX11/Tensor>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernels/gemm.h"
#include "kernels/packed_gemm.h"
#include "kernels/sort.h"
#include "kernels/linalg.h"  // linear algebra (issue 14)
#include "kernels/fft.h"  // jax.lax.fft
#include "collectives.h"  // collectives (issue 18)
#include "host_callback.h"
#include "kernels/conv.h"  // convolution (issue 13)
#include "kernels/parallel.h"
#include "kernels/types.h"
#include "lowering/CpuAbi.h"

namespace abi = strata::cpu_abi;

// The runtime calls generated code through function pointers (loop tasks, GEMM epilogues, sort
// comparators). UBSan's -fsanitize=function check reads a type signature stored just before the
// callee's entry, which generated code does not have: at best it reads other bytes, at worst the
// page before the code is unmapped (a compilation split into parts puts a task at the start of
// its object's code) and the check itself faults. No function here gets that check.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("function"))), apply_to = function)
#endif

namespace {

// The runtime's GEMM is the eager kernel's (tracer/kernels/gemm.h) on the canonical 3-D views
// the compiler hands it, so compiled and eager dot_general compute the same bits.
strata::kernels::DotGeneralDims canonical_dims(int64_t flags, int64_t B, int64_t M, int64_t N, int64_t K) {
  strata::kernels::DotGeneralDims d;
  bool lhs_km = flags & abi::kLhsContractFirst, rhs_nk = flags & abi::kRhsFreeFirst;
  d.lhs = lhs_km ? strata::Shape{B, K, M} : strata::Shape{B, M, K};
  d.rhs = rhs_nk ? strata::Shape{B, N, K} : strata::Shape{B, K, N};
  d.lhs_batch = {0};
  d.rhs_batch = {0};
  d.lhs_contract = {lhs_km ? 1 : 2};
  d.rhs_contract = {rhs_nk ? 2 : 1};
  return d;
}

void dot(strata::DType t, int64_t flags, int64_t B, int64_t M, int64_t N, int64_t K,
         const void* lhs, const void* rhs, void* out, void* workspace) noexcept {
  try {
    bool parallel = flags & abi::kDotParallel;
    strata::kernels::DotGeneralDims d = canonical_dims(flags, B, M, N, K);
    if (strata::is_narrow_float(t)) {
      // Widen both operands into the workspace, multiply in f32; the compiled code rounds.
      float* l = static_cast<float*>(workspace);
      float* r = l + B * M * K;
      strata::kernels::convert_elements(lhs, t, l, strata::DType::f32, B * M * K);
      strata::kernels::convert_elements(rhs, t, r, strata::DType::f32, B * K * N);
      strata::kernels::dot_general(strata::DType::f32, l, r, out, d, nullptr, parallel);
      return;
    }
    strata::kernels::dot_general(t, lhs, rhs, out, d, nullptr, parallel);
  } catch (...) {
  }
}

using EpilogueFn = void (*)(void* ctx, int64_t m0, int64_t m1, int64_t n0, int64_t n1);

// Eigen's tensor contraction calls its output kernel on each block of the result as soon as
// the block is final (after the last slice of the contraction dimension), while it is in cache;
// this one hands the block to the generated epilogue. Eigen evaluates a row-major contraction as
// the transposed column-major one (swapped_arguments): its rows are then our columns.
struct EpilogueKernel {
  EpilogueFn epilogue;
  void* ctx;
  int64_t row0;  // the chunk's first row in the whole output
  template <typename Index, typename Scalar>
  EIGEN_ALWAYS_INLINE void operator()(const Eigen::internal::blas_data_mapper<Scalar, Index, Eigen::ColMajor>&,
                                      const Eigen::TensorContractionParams& params, Index i, Index j,
                                      Index rows, Index cols) const {
    if (params.swapped_arguments) epilogue(ctx, row0 + j, row0 + j + cols, i, i + rows);
    else epilogue(ctx, row0 + i, row0 + i + rows, j, j + cols);
  }
};

// out (M×N) = lhs × rhs with `epilogue` run on every block of out right after the GEMM writes
// it. Rows are split across the pool (columns when N > M). A share of rows of a row-major lhs
// goes through Eigen's tensor contraction, whose output kernel runs the epilogue per block in
// cache at no cost to the GEMM; otherwise (a transposed lhs, or few rows: the share is then
// small enough to stay in cache) the share is multiplied whole, then given to the epilogue.
template <class T>
void dot_with_epilogue(int64_t flags, int64_t M, int64_t N, int64_t K, const T* l, const T* r, T* o,
                       EpilogueFn epilogue, void* ctx) {
  using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Tensor2 = Eigen::TensorMap<Eigen::Tensor<const T, 2, Eigen::RowMajor>>;
  bool lhs_km = flags & abi::kLhsContractFirst, rhs_nk = flags & abi::kRhsFreeFirst;
  if (strata::kernels::packed_gemm_suits(M, N, lhs_km)) {
    // The eager kernel's GEMM (same bits), which hands each final block to the epilogue itself.
    auto g = strata::kernels::GemmOperands<T>::contiguous(l, lhs_km, r, rhs_nk, o, M, N, K);
    strata::kernels::GemmBlockFn block = [&](int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
      epilogue(ctx, m0, m1, n0, n1);
    };
    strata::kernels::packed_gemm(g, M, N, K, (flags & abi::kDotParallel) != 0, &block);
    return;
  }
  Eigen::Map<RowMat> out(o, M, N);
  auto whole = [&](int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    if (m1 <= m0 || n1 <= n0) return;
    auto c = out.block(m0, n0, m1 - m0, n1 - n0);
    if (K == 0) {
      c.setZero();
    } else if (!lhs_km && !rhs_nk) {
      c.noalias() = Eigen::Map<const RowMat>(l, M, K).middleRows(m0, m1 - m0) *
                    Eigen::Map<const RowMat>(r, K, N).middleCols(n0, n1 - n0);
    } else if (!lhs_km && rhs_nk) {
      c.noalias() = Eigen::Map<const RowMat>(l, M, K).middleRows(m0, m1 - m0) *
                    Eigen::Map<const RowMat>(r, N, K).transpose().middleCols(n0, n1 - n0);
    } else if (!rhs_nk) {
      c.noalias() = Eigen::Map<const RowMat>(l, K, M).transpose().middleRows(m0, m1 - m0) *
                    Eigen::Map<const RowMat>(r, K, N).middleCols(n0, n1 - n0);
    } else {
      c.noalias() = Eigen::Map<const RowMat>(l, K, M).transpose().middleRows(m0, m1 - m0) *
                    Eigen::Map<const RowMat>(r, N, K).transpose().middleCols(n0, n1 - n0);
    }
    epilogue(ctx, m0, m1, n0, n1);
  };
  auto rows = [&](int64_t m0, int64_t m1) {
    if (m1 <= m0) return;
    if (lhs_km || K == 0 || N == 0) return whole(m0, m1, 0, N);
    Tensor2 a(l + m0 * K, m1 - m0, K);
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>> c(o + m0 * N, m1 - m0, N);
    EpilogueKernel kernel{epilogue, ctx, m0};
    if (rhs_nk) {
      Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> dims{Eigen::IndexPair<Eigen::Index>(1, 1)};
      c = a.contract(Tensor2(r, N, K), dims, kernel);
    } else {
      Eigen::array<Eigen::IndexPair<Eigen::Index>, 1> dims{Eigen::IndexPair<Eigen::Index>(1, 0)};
      c = a.contract(Tensor2(r, K, N), dims, kernel);
    }
  };
  bool parallel = (flags & abi::kDotParallel) && 2 * M * N * K >= (1 << 18) && strata::kernels::num_threads() > 1;
  if (M >= N) {
    if (parallel) strata::kernels::parallel_for(M, 1, rows);
    else rows(0, M);
  } else {
    auto cols = [&](int64_t n0, int64_t n1) { whole(0, M, n0, n1); };
    if (parallel) strata::kernels::parallel_for(N, 1, cols);
    else cols(0, N);
  }
}

// compiler-rt's f16/bf16 conversions, for targets where LLVM calls them instead of using an
// instruction (correctly rounded, through Eigen's conversions).
_Float16 truncsfhf2(float v) {
  Eigen::half h(v);
  _Float16 r;
  std::memcpy(&r, &h, 2);
  return r;
}
_Float16 truncdfhf2(double v) {
  Eigen::half h(strata::kernels::round_to_odd_f32(v));
  _Float16 r;
  std::memcpy(&r, &h, 2);
  return r;
}
float extendhfsf2(_Float16 v) {
  Eigen::half h;
  std::memcpy(&h, &v, 2);
  return static_cast<float>(h);
}
__bf16 truncsfbf2(float v) {
  Eigen::bfloat16 h(v);
  __bf16 r;
  std::memcpy(&r, &h, 2);
  return r;
}
__bf16 truncdfbf2(double v) {
  Eigen::bfloat16 h(strata::kernels::round_to_odd_f32(v));
  __bf16 r;
  std::memcpy(&r, &h, 2);
  return r;
}
float extendbfsf2(__bf16 v) {
  uint16_t bits;
  std::memcpy(&bits, &v, 2);
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

void sincos_f64(double x, double* s, double* c) { *s = std::sin(x); *c = std::cos(x); }
void sincos_f32(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }

}  // namespace

extern "C" {

#define STRATA_RT_DOT(suffix, dtype)                                                              \
  void strata_rt_dot_##suffix(int64_t flags, int64_t B, int64_t M, int64_t N, int64_t K,          \
                              const void* lhs, const void* rhs, void* out, void* workspace) {     \
    dot(strata::DType::dtype, flags, B, M, N, K, lhs, rhs, out, workspace);                        \
  }
STRATA_RT_DOT(f32, f32)
STRATA_RT_DOT(f64, f64)
STRATA_RT_DOT(i32, i32)
STRATA_RT_DOT(i64, i64)
STRATA_RT_DOT(bf16, bf16)
STRATA_RT_DOT(f16, f16)
STRATA_RT_DOT(c64, c64)
STRATA_RT_DOT(c128, c128)
STRATA_RT_DOT(f8e4m3fn, f8_e4m3fn)
STRATA_RT_DOT(f8e5m2, f8_e5m2)
STRATA_RT_DOT(f8e4m3fnuz, f8_e4m3fnuz)
STRATA_RT_DOT(f8e5m2fnuz, f8_e5m2fnuz)
STRATA_RT_DOT(f8e4m3b11fnuz, f8_e4m3b11fnuz)
STRATA_RT_DOT(f8e4m3, f8_e4m3)
STRATA_RT_DOT(f8e3m4, f8_e3m4)
STRATA_RT_DOT(f8e8m0fnu, f8_e8m0fnu)
STRATA_RT_DOT(f6e2m3fn, f6_e2m3fn)
STRATA_RT_DOT(f6e3m2fn, f6_e3m2fn)
STRATA_RT_DOT(f4e2m1fn, f4_e2m1fn)
#undef STRATA_RT_DOT

// B = 1 only (the compiler fuses epilogues into 2-D dots).
#define STRATA_RT_DOT_EP(suffix, T)                                                                \
  void strata_rt_dot_ep_##suffix(int64_t flags, int64_t, int64_t M, int64_t N, int64_t K,          \
                                 const void* lhs, const void* rhs, void* out, void*,               \
                                 EpilogueFn epilogue, void* ctx) {                                  \
    try {                                                                                          \
      dot_with_epilogue<T>(flags, M, N, K, static_cast<const T*>(lhs), static_cast<const T*>(rhs), \
                           static_cast<T*>(out), epilogue, ctx);                                   \
    } catch (...) {                                                                                \
    }                                                                                              \
  }
STRATA_RT_DOT_EP(f32, float)
STRATA_RT_DOT_EP(f64, double)
#undef STRATA_RT_DOT_EP

void strata_rt_parallel_for(void (*body)(void*, int64_t, int64_t), void* ctx, int64_t n,
                            int64_t grain) {
  try {
    strata::kernels::parallel_for(n, grain, [body, ctx](int64_t lo, int64_t hi) { body(ctx, lo, hi); });
  } catch (...) {  // the pool could not start: run serially
    body(ctx, 0, n);
  }
}

// Sort (CpuAbi.h): the eager kernel's (tracer/kernels/sort.h) on the buffers given.
namespace {
using SortLessFn = uint8_t (*)(void*, const void* const*, const void* const*);
void run_sort(void* const* data, const int64_t* codes, int64_t count, int64_t outer, int64_t n, int64_t inner,
              int64_t flags, SortLessFn less) {
  namespace k = strata::kernels;
  std::vector<k::SortOperand> ops;
  for (int64_t i = 0; i < count; ++i)
    ops.push_back({data[i], codes[i] & 0xFF, static_cast<k::SortKeyKind>(codes[i] >> 8)});
  k::SortSpec spec;
  spec.outer = outer;
  spec.n = n;
  spec.inner = inner;
  spec.num_keys = std::max<int64_t>(1, flags >> 8);
  spec.descending = flags & strata::cpu_abi::kSortDescending;
  spec.canonical_floats = flags & strata::cpu_abi::kSortCanonical;
  spec.stable = flags & strata::cpu_abi::kSortStable;
  if (!less) return k::sort(ops, spec);
  k::sort(ops, spec, [](void* fn, const void* const* l, const void* const* r) {
    return reinterpret_cast<SortLessFn>(fn)(nullptr, l, r) != 0;
  }, reinterpret_cast<void*>(less));
}
}  // namespace

void strata_rt_sort(void* const* data, const int64_t* codes, int64_t count, int64_t outer, int64_t n, int64_t inner,
                    int64_t flags) {
  try {
    run_sort(data, codes, count, outer, n, inner, flags, nullptr);
  } catch (...) {
  }
}
void strata_rt_sort_cmp(void* const* data, const int64_t* codes, int64_t count, int64_t outer, int64_t n,
                        int64_t inner, int64_t flags, SortLessFn less) {
  try {
    run_sort(data, codes, count, outer, n, inner, flags, less);
  } catch (...) {
  }
}

// Linear algebra (CpuAbi.h; issue 14): the eager kernels' code (tracer/kernels/linalg.h).
void strata_rt_linalg(int64_t kind, int64_t flags, int64_t element, int64_t batch, int64_t m, int64_t n,
                      int64_t b_rows, int64_t b_cols, void* p0, void* p1, void* p2, void* p3) {
  try {
    strata::kernels::LinalgCall c{.kind = static_cast<strata::linalg_rules::Kind>(kind), .flags = flags,
                                  .f64 = (element & 1) != 0, .complex = (element & 2) != 0, .batch = batch, .m = m, .n = n,
                                  .b_rows = b_rows, .b_cols = b_cols};
    void* const buffers[] = {p0, p1, p2, p3};
    size_t inputs = strata::linalg_rules::num_operands(c.kind);
    strata::kernels::linalg(c, const_cast<const void* const*>(buffers), buffers + inputs);
  } catch (...) {
  }
}

// The FFT (CpuAbi.h): the eager kernel (tracer/kernels/fft.h) on the buffers; it never throws
// on values, and its plans' allocation failing is the one exception left.
void strata_rt_fft(int64_t type, int64_t f64, int64_t batch, int64_t rank, int64_t n0, int64_t n1, int64_t n2,
                   const void* in, void* out) {
  try {
    strata::shape_rules::IntList lengths{n0, n1, n2};
    lengths.resize(static_cast<size_t>(rank));
    strata::kernels::fft({.type = static_cast<strata::fft_rules::Type>(type), .f64 = f64 != 0, .batch = batch, .lengths = lengths},
                         in, out);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strata: the FFT of the compiled program failed: %s\n", e.what());
    std::fflush(stderr);
    std::abort();
  }
}

// Collectives (CpuAbi.h; issue 18): collectives::run, as the eager kernels.
void strata_rt_collective(int64_t kind, int64_t dtype, int64_t group, int64_t in_elements, const void* in, void* out,
                          const int64_t* perm_dest) {
  try {
    namespace cr = strata::collective_rules;
    strata::collectives::Call c{.kind = static_cast<cr::Kind>(kind), .dtype = static_cast<strata::DType>(dtype),
                                .group = cr::unpack(group), .in_elements = in_elements};
    if (perm_dest) c.dest.assign(perm_dest, perm_dest + cr::size(c.group));
    strata::collectives::run(c, in, out);
  } catch (const std::exception& e) {
    // No exception crosses JIT frames: the rank ends, and under mpirun the launcher ends the rest.
    std::fprintf(stderr, "strata: a collective of the compiled program failed: %s\n", e.what());
    std::fflush(stderr);
    std::abort();
  }
}

// Convolution (CpuAbi.h; issue 13): the eager kernel (tracer/kernels/conv.h) on the buffers.
void strata_rt_conv(int64_t dtype, const int64_t* desc, const void* lhs, const void* rhs, void* out) {
  try {
    const int64_t rank = desc[0], nsp = rank - 2;
    const int64_t* at = desc + 1;
    auto take = [&](int64_t n) {
      strata::IntList v(at, at + n);
      at += n;
      return v;
    };
    strata::Shape ls = take(rank), rs = take(rank), os = take(rank);
    strata::shape_rules::ConvParams p;
    p.lhs_spec = take(rank);
    p.rhs_spec = take(rank);
    p.out_spec = take(rank);
    p.window_strides = take(nsp);
    p.padding_low = take(nsp);
    p.padding_high = take(nsp);
    p.lhs_dilation = take(nsp);
    p.rhs_dilation = take(nsp);
    p.feature_group_count = at[0];
    p.batch_group_count = at[1];
    strata::kernels::conv_general_dilated(static_cast<strata::DType>(dtype), lhs, rhs, out, ls, rs, os, p);
  } catch (const std::exception& e) {
    // Only allocation can fail here (the compiler checked the shapes); no exception crosses JIT frames.
    std::fprintf(stderr, "strata: a convolution of the compiled program failed: %s\n", e.what());
    std::fflush(stderr);
    std::abort();
  }
}

// Host callbacks (CpuAbi.h): host_callbacks::run, which never throws (it keeps a failure for
// the executable to report when the run returns).
void strata_rt_host_callback(int64_t id, const int64_t* desc, void* const* buffers) {
  strata::host_callbacks::run(id, desc, buffers);
}

}  // extern "C"

namespace strata::backends::cpu {

namespace {
// JitOptions::check_bounds: a failed check (cf.assert, from MLIR's runtime op verification)
// prints its message (the op, what failed, its location) through `puts`, then calls `abort`.
int check_failed_puts(const char* message) {
  std::fprintf(stderr, "strata: a bounds check of the generated code failed (check_bounds):\n%s\n", message);
  std::fflush(stderr);
  return 0;
}
[[noreturn]] void check_failed_abort() { std::abort(); }
}  // namespace

const std::vector<RuntimeSymbol>& runtime_symbols() {
  using F1 = float (*)(float);
  using D1 = double (*)(double);
  using F2 = float (*)(float, float);
  using D2 = double (*)(double, double);
  static const std::vector<RuntimeSymbol> symbols = {
      {"strata_rt_dot_f32", reinterpret_cast<void*>(&strata_rt_dot_f32)},
      {"strata_rt_dot_f64", reinterpret_cast<void*>(&strata_rt_dot_f64)},
      {"strata_rt_dot_i32", reinterpret_cast<void*>(&strata_rt_dot_i32)},
      {"strata_rt_dot_i64", reinterpret_cast<void*>(&strata_rt_dot_i64)},
      {"strata_rt_dot_bf16", reinterpret_cast<void*>(&strata_rt_dot_bf16)},
      {"strata_rt_dot_f16", reinterpret_cast<void*>(&strata_rt_dot_f16)},
      {"strata_rt_dot_c64", reinterpret_cast<void*>(&strata_rt_dot_c64)},
      {"strata_rt_dot_c128", reinterpret_cast<void*>(&strata_rt_dot_c128)},
      {"strata_rt_dot_f8e4m3fn", reinterpret_cast<void*>(&strata_rt_dot_f8e4m3fn)},
      {"strata_rt_dot_f8e5m2", reinterpret_cast<void*>(&strata_rt_dot_f8e5m2)},
      {"strata_rt_dot_f8e4m3fnuz", reinterpret_cast<void*>(&strata_rt_dot_f8e4m3fnuz)},
      {"strata_rt_dot_f8e5m2fnuz", reinterpret_cast<void*>(&strata_rt_dot_f8e5m2fnuz)},
      {"strata_rt_dot_f8e4m3b11fnuz", reinterpret_cast<void*>(&strata_rt_dot_f8e4m3b11fnuz)},
      {"strata_rt_dot_f8e4m3", reinterpret_cast<void*>(&strata_rt_dot_f8e4m3)},
      {"strata_rt_dot_f8e3m4", reinterpret_cast<void*>(&strata_rt_dot_f8e3m4)},
      {"strata_rt_dot_f8e8m0fnu", reinterpret_cast<void*>(&strata_rt_dot_f8e8m0fnu)},
      {"strata_rt_dot_f6e2m3fn", reinterpret_cast<void*>(&strata_rt_dot_f6e2m3fn)},
      {"strata_rt_dot_f6e3m2fn", reinterpret_cast<void*>(&strata_rt_dot_f6e3m2fn)},
      {"strata_rt_dot_f4e2m1fn", reinterpret_cast<void*>(&strata_rt_dot_f4e2m1fn)},
      {"strata_rt_dot_ep_f32", reinterpret_cast<void*>(&strata_rt_dot_ep_f32)},
      {"strata_rt_dot_ep_f64", reinterpret_cast<void*>(&strata_rt_dot_ep_f64)},
      {abi::kParallelFor, reinterpret_cast<void*>(&strata_rt_parallel_for)},
      {abi::kSort, reinterpret_cast<void*>(&strata_rt_sort)},
      {abi::kSortComparator, reinterpret_cast<void*>(&strata_rt_sort_cmp)},
      {abi::kLinalg, reinterpret_cast<void*>(&strata_rt_linalg)},  // linear algebra (issue 14)
      {abi::kFft, reinterpret_cast<void*>(&strata_rt_fft)},
      {abi::kCollective, reinterpret_cast<void*>(&strata_rt_collective)},  // collectives (issue 18)
      {abi::kConv, reinterpret_cast<void*>(&strata_rt_conv)},  // convolution (issue 13)
      {abi::kHostCallback, reinterpret_cast<void*>(&strata_rt_host_callback)},
      {"puts", reinterpret_cast<void*>(&check_failed_puts)},
      {"abort", reinterpret_cast<void*>(&check_failed_abort)},
      // Memory builtins (memref.copy, loop idioms).
      {"memcpy", reinterpret_cast<void*>(&std::memcpy)},
      {"memmove", reinterpret_cast<void*>(&std::memmove)},
      {"memset", reinterpret_cast<void*>(&std::memset)},
      // libm: the calls LLVM makes for math intrinsics and frem, and the strata-math-to-libm-calls ones.
      {"expf", reinterpret_cast<void*>(static_cast<F1>(&::expf))},
      {"exp", reinterpret_cast<void*>(static_cast<D1>(&::exp))},
      {"exp2f", reinterpret_cast<void*>(static_cast<F1>(&::exp2f))},
      {"exp2", reinterpret_cast<void*>(static_cast<D1>(&::exp2))},
      {"exp10f", reinterpret_cast<void*>(static_cast<F1>(&::exp10f))},
      {"exp10", reinterpret_cast<void*>(static_cast<D1>(&::exp10))},
      {"logf", reinterpret_cast<void*>(static_cast<F1>(&::logf))},
      {"log", reinterpret_cast<void*>(static_cast<D1>(&::log))},
      {"log2f", reinterpret_cast<void*>(static_cast<F1>(&::log2f))},
      {"log2", reinterpret_cast<void*>(static_cast<D1>(&::log2))},
      {"log10f", reinterpret_cast<void*>(static_cast<F1>(&::log10f))},
      {"log10", reinterpret_cast<void*>(static_cast<D1>(&::log10))},
  // The strata-math-to-libm-calls ones (lowering/LibmCalls.def), f32 and f64.
#define STRATA_LIBM(OpClass, name)                                          \
  {#name "f", reinterpret_cast<void*>(static_cast<F1>(&::name##f))}, \
      {#name, reinterpret_cast<void*>(static_cast<D1>(&::name))},
#define STRATA_LIBM2(OpClass, name)                                         \
  {#name "f", reinterpret_cast<void*>(static_cast<F2>(&::name##f))}, \
      {#name, reinterpret_cast<void*>(static_cast<D2>(&::name))},
#include "lowering/LibmCalls.def"
#undef STRATA_LIBM2
#undef STRATA_LIBM
      {"sinf", reinterpret_cast<void*>(static_cast<F1>(&::sinf))},
      {"sin", reinterpret_cast<void*>(static_cast<D1>(&::sin))},
      {"cosf", reinterpret_cast<void*>(static_cast<F1>(&::cosf))},
      {"cos", reinterpret_cast<void*>(static_cast<D1>(&::cos))},
      {"sincosf", reinterpret_cast<void*>(&sincos_f32)},
      {"sincos", reinterpret_cast<void*>(&sincos_f64)},
      {"powf", reinterpret_cast<void*>(static_cast<F2>(&::powf))},
      {"pow", reinterpret_cast<void*>(static_cast<D2>(&::pow))},
      {"fmodf", reinterpret_cast<void*>(static_cast<F2>(&::fmodf))},
      {"fmod", reinterpret_cast<void*>(static_cast<D2>(&::fmod))},
      {"sqrtf", reinterpret_cast<void*>(static_cast<F1>(&::sqrtf))},
      {"sqrt", reinterpret_cast<void*>(static_cast<D1>(&::sqrt))},
      {"floorf", reinterpret_cast<void*>(static_cast<F1>(&::floorf))},
      {"floor", reinterpret_cast<void*>(static_cast<D1>(&::floor))},
      {"ceilf", reinterpret_cast<void*>(static_cast<F1>(&::ceilf))},
      {"ceil", reinterpret_cast<void*>(static_cast<D1>(&::ceil))},
      {"roundf", reinterpret_cast<void*>(static_cast<F1>(&::roundf))},
      {"round", reinterpret_cast<void*>(static_cast<D1>(&::round))},
      {"roundevenf", reinterpret_cast<void*>(static_cast<F1>(&::roundevenf))},
      {"roundeven", reinterpret_cast<void*>(static_cast<D1>(&::roundeven))},
      {"fabsf", reinterpret_cast<void*>(static_cast<F1>(&::fabsf))},
      {"fabs", reinterpret_cast<void*>(static_cast<D1>(&::fabs))},
      {"ldexpf", reinterpret_cast<void*>(static_cast<float (*)(float, int)>(&::ldexpf))},
      {"ldexp", reinterpret_cast<void*>(static_cast<double (*)(double, int)>(&::ldexp))},
      // compiler-rt's half and bfloat16 conversions.
      {"__truncsfhf2", reinterpret_cast<void*>(&truncsfhf2)},
      {"__truncdfhf2", reinterpret_cast<void*>(&truncdfhf2)},
      {"__extendhfsf2", reinterpret_cast<void*>(&extendhfsf2)},
      {"__gnu_f2h_ieee", reinterpret_cast<void*>(&truncsfhf2)},
      {"__gnu_h2f_ieee", reinterpret_cast<void*>(&extendhfsf2)},
      {"__truncsfbf2", reinterpret_cast<void*>(&truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void*>(&truncdfbf2)},
      {"__extendbfsf2", reinterpret_cast<void*>(&extendbfsf2)},
  };
  return symbols;
}

}  // namespace strata::backends::cpu

#if defined(__clang__)
#pragma clang attribute pop
#endif
