// dot_general as a batched GEMM: each operand is viewed as [batch, free, contract] or
// [batch, contract, free] without a copy when its dimensions are already in one of those
// orders (Eigen reads the transposed one through a transpose expression); otherwise it is
// copied into [batch, free, contract] (lhs) or [batch, contract, free] (rhs) first.
#include "gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <type_traits>
#include <vector>

#include "copy.h"
#include "packed_gemm.h"
#include "parallel.h"
#include "types.h"

namespace strata::kernels {
namespace {

constexpr int64_t kAlign = 64;
int64_t align_up(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// An operand as a batch of matrices: its dims ordered [batch, rows, cols] where rows/cols are
// (free, contract) or (contract, free).
struct MatrixView {
  const void* data = nullptr;
  int64_t batch = 1, free = 1, contract = 1;
  bool contract_first = false;  // data is [batch, contract, free]
  bool needs_copy = false;      // the dims are in neither order
  IntList perm;                 // the order to copy into, when needs_copy
};

MatrixView view(const void* data, const Shape& s, const IntList& batch, const IntList& contract,
                bool want_contract_first) {
  MatrixView v;
  v.data = data;
  IntList free;
  for (size_t d = 0; d < s.size(); ++d)
    if (std::find(batch.begin(), batch.end(), int64_t(d)) == batch.end() &&
        std::find(contract.begin(), contract.end(), int64_t(d)) == contract.end())
      free.push_back(static_cast<int64_t>(d));
  for (int64_t d : batch) v.batch *= s[static_cast<size_t>(d)];
  for (int64_t d : contract) v.contract *= s[static_cast<size_t>(d)];
  for (int64_t d : free) v.free *= s[static_cast<size_t>(d)];
  auto is_identity = [](const IntList& perm) {
    for (size_t i = 0; i < perm.size(); ++i) if (perm[i] != int64_t(i)) return false;
    return true;
  };
  IntList fc = batch, cf = batch;
  fc.insert(fc.end(), free.begin(), free.end());
  fc.insert(fc.end(), contract.begin(), contract.end());
  cf.insert(cf.end(), contract.begin(), contract.end());
  cf.insert(cf.end(), free.begin(), free.end());
  if (is_identity(fc)) { v.contract_first = false; return v; }
  if (is_identity(cf)) { v.contract_first = true; return v; }
  v.needs_copy = true;
  v.perm = want_contract_first ? cf : fc;
  v.contract_first = want_contract_first;
  return v;
}

// Copies the operand into the order v.perm, at `dst`.
void rearrange(MatrixView& v, const Shape& s, std::size_t isz, void* dst) {
  std::vector<int64_t> strides = contiguous_strides(s), ps;
  Shape pshape;
  for (int64_t d : v.perm) { ps.push_back(strides[static_cast<size_t>(d)]); pshape.push_back(s[static_cast<size_t>(d)]); }
  strided_copy(v.data, 0, ps, dst, pshape, isz);
  v.data = dst;
}

template <class C>
using RowMat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out[b] (M×N) = L[b] (M×K, or K×M transposed) * R[b] (K×N, or N×K transposed), row-major.
template <class C>
void gemm(const C* l, const C* r, C* o, const MatrixView& lv, const MatrixView& rv, bool parallel) {
  int64_t M = lv.free, N = rv.free, K = lv.contract, B = lv.batch;
  auto one = [&](int64_t b, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    const C* lb = l + b * M * K;
    const C* rb = r + b * K * N;
    Eigen::Map<RowMat<C>> ob(o + b * M * N, M, N);
    // No copies: the transposed layouts go through Eigen's transpose expressions, which its
    // GEMM reads directly.
    if (!lv.contract_first && !rv.contract_first) {
      ob.block(m0, n0, m1 - m0, n1 - n0).noalias() =
          Eigen::Map<const RowMat<C>>(lb, M, K).middleRows(m0, m1 - m0) *
          Eigen::Map<const RowMat<C>>(rb, N, K).transpose().middleCols(n0, n1 - n0);
    } else if (!lv.contract_first && rv.contract_first) {
      ob.block(m0, n0, m1 - m0, n1 - n0).noalias() =
          Eigen::Map<const RowMat<C>>(lb, M, K).middleRows(m0, m1 - m0) *
          Eigen::Map<const RowMat<C>>(rb, K, N).middleCols(n0, n1 - n0);
    } else if (rv.contract_first) {
      ob.block(m0, n0, m1 - m0, n1 - n0).noalias() =
          Eigen::Map<const RowMat<C>>(lb, K, M).transpose().middleRows(m0, m1 - m0) *
          Eigen::Map<const RowMat<C>>(rb, K, N).middleCols(n0, n1 - n0);
    } else {
      ob.block(m0, n0, m1 - m0, n1 - n0).noalias() =
          Eigen::Map<const RowMat<C>>(lb, K, M).transpose().middleRows(m0, m1 - m0) *
          Eigen::Map<const RowMat<C>>(rb, N, K).transpose().middleCols(n0, n1 - n0);
    }
  };
  int64_t flops = 2 * B * M * N * K;
  int threads = flops < (1 << 18) ? 1 : num_threads();
  if constexpr (std::is_same_v<C, float> || std::is_same_v<C, double>) {
    if (packed_gemm_suits(M, N, lv.contract_first)) {
      auto product = [&](int64_t b, bool split) {
        auto g = GemmOperands<C>::contiguous(l + b * M * K, lv.contract_first, r + b * K * N, !rv.contract_first,
                                             o + b * M * N, M, N, K);
        packed_gemm(g, M, N, K, split);
      };
      if (parallel && B >= threads && threads > 1)
        parallel_for(B, 1, [&](int64_t lo, int64_t hi) { for (int64_t b = lo; b < hi; ++b) product(b, false); });
      else
        for (int64_t b = 0; b < B; ++b) product(b, parallel);
      return;
    }
  }
  if (!parallel) {
    for (int64_t b = 0; b < B; ++b) one(b, 0, M, 0, N);
    return;
  }
  if (B >= threads || threads == 1) {
    parallel_for(B, B >= threads ? 1 : B, [&](int64_t lo, int64_t hi) {
      for (int64_t b = lo; b < hi; ++b) one(b, 0, M, 0, N);
    });
    return;
  }
  // One matrix per batch: split the larger of M and N across the cores.
  for (int64_t b = 0; b < B; ++b) {
    if (M >= N) parallel_for(M, 1, [&](int64_t lo, int64_t hi) { one(b, lo, hi, 0, N); });
    else parallel_for(N, 1, [&](int64_t lo, int64_t hi) { one(b, 0, M, lo, hi); });
  }
}

// The rhs is wanted as [batch, contract, free] (K×N), the lhs as [batch, free, contract].
struct Plan {
  MatrixView lv, rv;
  int64_t lhs_copy = 0, rhs_copy = 0, widened = 0;  // workspace bytes of each part
};

Plan plan(DType dtype, const void* lhs, const void* rhs, const DotGeneralDims& d) {
  Plan p;
  p.lv = view(lhs, d.lhs, d.lhs_batch, d.lhs_contract, false);
  p.rv = view(rhs, d.rhs, d.rhs_batch, d.rhs_contract, true);
  int64_t isz = static_cast<int64_t>(itemsize(dtype));
  if (p.lv.needs_copy) p.lhs_copy = align_up(num_elements(d.lhs) * isz);
  if (p.rv.needs_copy) p.rhs_copy = align_up(num_elements(d.rhs) * isz);
  if (is_narrow_float(dtype) || is_subbyte_integer(dtype)) {
    int64_t M = p.lv.free, N = p.rv.free, K = p.lv.contract, B = p.lv.batch;
    p.widened = align_up(B * M * K * 4) + align_up(B * K * N * 4) + align_up(B * M * N * 4);
  }
  return p;
}

}  // namespace

int64_t dot_general_workspace_bytes(DType dtype, const DotGeneralDims& dims) {
  Plan p = plan(dtype, nullptr, nullptr, dims);
  return p.lhs_copy + p.rhs_copy + p.widened;
}

void dot_general(DType dtype, const void* lhs, const void* rhs, void* out,
                 const DotGeneralDims& dims, void* workspace, bool parallel) {
  Plan p = plan(dtype, lhs, rhs, dims);
  std::vector<char> owned;
  char* ws = static_cast<char*>(workspace);
  if (!ws && p.lhs_copy + p.rhs_copy + p.widened > 0) {
    owned.resize(static_cast<size_t>(p.lhs_copy + p.rhs_copy + p.widened + kAlign));
    ws = owned.data() + (kAlign - reinterpret_cast<uintptr_t>(owned.data()) % kAlign) % kAlign;
  }
  std::size_t isz = itemsize(dtype);
  if (p.lv.needs_copy) { rearrange(p.lv, dims.lhs, isz, ws); ws += p.lhs_copy; }
  if (p.rv.needs_copy) { rearrange(p.rv, dims.rhs, isz, ws); ws += p.rhs_copy; }
  const MatrixView &lv = p.lv, &rv = p.rv;
  int64_t M = lv.free, N = rv.free, K = lv.contract, B = lv.batch;
  dispatch_any(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename ComputeOf<S>::type;
    if constexpr (std::is_same_v<S, bool>) {
      throw Error("internal: bool dot_general");
    } else if constexpr (std::is_same_v<S, C>) {
      if (K == 0) { std::fill_n(static_cast<S*>(out), B * M * N, S(0)); return; }
      if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) {
        // Signed products and sums wrap (two's complement, as compiled code and XLA do): the
        // same bits in unsigned arithmetic, where wrapping is defined (UBSan found the overflow).
        using U = std::make_unsigned_t<C>;
        gemm<U>(static_cast<const U*>(lv.data), static_cast<const U*>(rv.data), static_cast<U*>(out), lv, rv, parallel);
      } else {
        gemm<C>(static_cast<const C*>(lv.data), static_cast<const C*>(rv.data), static_cast<C*>(out), lv, rv, parallel);
      }
    } else {
      // bf16/f16 and the 8-bit floats: widen to f32, multiply, round once on store. Sub-byte
      // integers: widen to 32 bits and multiply wrapping (unsigned arithmetic); their low bits
      // are the product modulo 2^N.
      using W = std::conditional_t<is_intN_storage<S>, uint32_t, float>;
      const DType wide = is_intN_storage<S> ? DType::u32 : DType::f32;
      W* l = reinterpret_cast<W*>(ws);
      W* r = reinterpret_cast<W*>(ws + align_up(B * M * K * 4));
      W* o = reinterpret_cast<W*>(ws + align_up(B * M * K * 4) + align_up(B * K * N * 4));
      convert_elements(lv.data, dtype, l, wide, B * M * K);
      convert_elements(rv.data, dtype, r, wide, B * K * N);
      std::fill_n(o, B * M * N, W(0));
      if (K > 0) gemm<W>(l, r, o, lv, rv, parallel);
      convert_elements(o, wide, out, dtype, B * M * N);
    }
  });
}

}  // namespace strata::kernels
