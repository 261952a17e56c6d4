// lowering/CpuAbi.h — the contract between the code the CPU pipeline generates and the runtime
// that runs it (backends/cpu): the entry point, the order of its buffers, and the runtime
// functions the generated code calls. Plain C++, included by both sides.
#pragma once

#include <cstdint>

namespace strata::cpu_abi {

// void strata_entry(void* const* buffers): one pointer per buffer, in this order — the
// jaxpr's constants, its inputs, its outputs, then the scratch arena (64-byte aligned,
// scratch_bytes long; the one place temporaries live). All contiguous and row-major; outputs
// must not overlap inputs.
inline constexpr const char* kEntry = "strata_entry";

// void strata_rt_dot_<t>(int64_t flags, int64_t B, int64_t M, int64_t N, int64_t K,
//                        const void* lhs, const void* rhs, void* out, void* workspace)
// out[b] (M×N, row-major) = lhs[b] (M×K, or K×M when kLhsContractFirst) ×
// rhs[b] (K×N, or N×K when kRhsFreeFirst); <t> is f32, f64, i32, i64, c64, c128 (out of the same
// type) or bf16, f16 or a byte float, f8e4m3fn .. f4e2m1fn (out in f32; workspace holds 4·(B·M·K + B·K·N) bytes for
// the widened operands).
inline constexpr const char* kDotPrefix = "strata_rt_dot_";
inline constexpr int64_t kLhsContractFirst = 1;
inline constexpr int64_t kRhsFreeFirst = 2;
inline constexpr int64_t kDotParallel = 4;

// void strata_rt_dot_ep_<t>(the nine arguments above, void (*epilogue)(void* ctx, int64_t m0,
//                           int64_t m1, int64_t n0, int64_t n1), void* ctx)
// for <t> = f32, f64 and B = 1: out = lhs × rhs as strata_rt_dot_<t>, and epilogue(ctx, ...)
// on each block [m0, m1) × [n0, n1) of out right after the GEMM has written it (still in
// cache). The blocks cover out exactly once; they may run on any thread of the pool.
inline constexpr const char* kDotEpiloguePrefix = "strata_rt_dot_ep_";

// void strata_rt_parallel_for(void (*body)(void* ctx, int64_t lo, int64_t hi), void* ctx,
//                             int64_t n, int64_t grain)
// Runs body over [0, n) split into chunks of at least `grain` across the thread pool.
inline constexpr const char* kParallelFor = "strata_rt_parallel_for";

// Loops with fewer iterations (counting inner loops) than this stay on one thread.
inline constexpr int64_t kParallelThreshold = 1 << 15;

// void strata_rt_sort(const void* const* data, const int64_t* codes, int64_t num_operands,
//                     int64_t outer, int64_t n, int64_t inner, int64_t flags)
// Sorts the operands (contiguous [outer, n, inner] buffers, in place) along n, as
// kernels::sort (tracer/kernels/sort.h): codes[i] = bytes | kind << 8 (kernels::SortKeyKind);
// flags = num_keys << 8 | the bits below.
inline constexpr const char* kSort = "strata_rt_sort";
inline constexpr int64_t kSortDescending = 1;
inline constexpr int64_t kSortCanonical = 2;
inline constexpr int64_t kSortStable = 4;
// void strata_rt_sort_cmp(the seven arguments above,
//                         uint8_t (*less)(void* ctx, const void* const* lhs, const void* const* rhs))
// The same with a comparator compiled from the op's region (lhs[i], rhs[i]: the elements of
// operand i); num_keys is not used.
inline constexpr const char* kSortComparator = "strata_rt_sort_cmp";

// void strata_rt_linalg(int64_t kind, int64_t flags, int64_t element, int64_t batch, int64_t m,
//                       int64_t n, int64_t b_rows, int64_t b_cols, void* p0, void* p1, void* p2,
//                       void* p3)
// kernels::linalg (tracer/kernels/linalg.h) with a LinalgCall of these fields (element: bit 0
// f64 parts, bit 1 complex: 0 f32, 1 f64, 2 c64, 3 c128): p0… hold the
// operands (contiguous row-major), then the results to fill, the rest null (linear algebra,
// issue 14).
inline constexpr int64_t kLinalgBuffers = 4;
inline constexpr const char* kLinalg = "strata_rt_linalg";

// void strata_rt_fft(int64_t type, int64_t f64, int64_t batch, int64_t rank, int64_t n0,
//                    int64_t n1, int64_t n2, const void* in, void* out)
// kernels::fft (tracer/kernels/fft.h): type an fft_rules::Type, the transform over the last
// `rank` dimensions with fft lengths n0… (the unused ones 1), batch the product of the others;
// contiguous row-major buffers.
inline constexpr const char* kFft = "strata_rt_fft";

// void strata_rt_collective(int64_t kind, int64_t dtype, int64_t group, int64_t in_elements,
//                           const void* in, void* out, const int64_t* perm_dest)
// collectives::run (tracer/collectives.h) for strata.collective: kind a collective_rules::Kind,
// dtype a strata::DType, group a collective_rules::pack()ed group; perm_dest (ppermute: the
// member each member sends to, or -1) or null. A transport failure prints it and aborts the
// process (under mpirun the launcher then ends every rank), as no exception crosses JIT code.
inline constexpr const char* kCollective = "strata_rt_collective";

// void strata_rt_conv(int64_t dtype, const int64_t* desc, const void* lhs, const void* rhs, void* out)
// kernels::conv_general_dilated (tracer/kernels/conv.h) for strata.convolution: dtype a
// strata::DType (bf16, f16, f32, f64); lhs, rhs, out contiguous row-major; desc, for rank r
// and s = r - 2 spatial dims: r, the lhs, rhs and out shapes (r each), the lhs, rhs and out specs
// (r each: batch/out-feature, feature/in-feature, spatial...), window strides, padding low,
// padding high, lhs dilation, rhs dilation (s each), feature_group_count, batch_group_count.
inline constexpr const char* kConv = "strata_rt_conv";

// void strata_rt_host_callback(int64_t id, const int64_t* desc, void* const* buffers)
// host_callbacks::run (tracer/host_callback.h) for strata.host_callback: the host function
// registered under `id` on the buffers (the operands, then the results to fill; contiguous
// row-major); desc: the number of operands and of results, then per buffer its strata::DType,
// rank and dimensions. It never throws: a failure is kept for the calling thread, later
// callbacks of the run are skipped, and the executable reports it when the run returns.
inline constexpr const char* kHostCallback = "strata_rt_host_callback";
inline constexpr int64_t conv_desc_size(int64_t rank) { return 1 + 6 * rank + 5 * (rank - 2) + 2; }

}  // namespace strata::cpu_abi
