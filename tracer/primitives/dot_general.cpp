// tracer/primitives/dot_general.cpp — `dot_general[lhs_batch, rhs_batch, lhs_contract,
// rhs_contract]`: a batched tensor contraction (StableHLO's dot_general). Result dimensions:
// batch, then lhs free, then rhs free. Eager: Eigen GEMM on both cores.
#include "ad_rules.h"
#include <algorithm>

#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("dot_general", in, 2);
  if (in[0].dtype != in[1].dtype)
    throw DTypeError("dot_general: expects operands of one dtype, but got " + in[0].str() + " and " + in[1].str());
  if (in[0].dtype == DType::bool_)
    throw DTypeError("dot_general: expects numeric operands, but got " + in[0].str());
  Shape out = primitives::check(
      "dot_general",
      shape_rules::dot_general(in[0].shape, in[1].shape, p.get_ints("lhs_batch"), p.get_ints("rhs_batch"),
                               p.get_ints("lhs_contract"), p.get_ints("rhs_contract")));
  return {AbstractValue{out, in[0].dtype, in[0].weak && in[1].weak}};
}

// An operand as a batch of matrices: its dims ordered [batch, rows, cols] where rows/cols are
// (free, contract) or (contract, free). `transposed` says which order the data is in.
struct MatrixView {
  const void* data;
  int64_t batch = 1, free = 1, contract = 1;
  bool contract_first = false;  // data is [batch, contract, free]
  std::vector<char> copy;       // owns data when the operand had to be rearranged
};

MatrixView view(const KernelArg& a, const IntList& batch, const IntList& contract, bool want_contract_first) {
  const Shape& s = a.shape();
  MatrixView v;
  IntList free;
  for (size_t d = 0; d < s.size(); ++d)
    if (std::find(batch.begin(), batch.end(), int64_t(d)) == batch.end() &&
        std::find(contract.begin(), contract.end(), int64_t(d)) == contract.end())
      free.push_back(static_cast<int64_t>(d));
  for (int64_t d : batch) v.batch *= s[static_cast<size_t>(d)];
  for (int64_t d : contract) v.contract *= s[static_cast<size_t>(d)];
  for (int64_t d : free) v.free *= s[static_cast<size_t>(d)];
  // Try both natural orders without copying, preferring the one GEMM likes.
  auto is_identity = [](const IntList& perm) {
    for (size_t i = 0; i < perm.size(); ++i) if (perm[i] != int64_t(i)) return false;
    return true;
  };
  IntList fc = batch, cf = batch;
  fc.insert(fc.end(), free.begin(), free.end());
  fc.insert(fc.end(), contract.begin(), contract.end());
  cf.insert(cf.end(), contract.begin(), contract.end());
  cf.insert(cf.end(), free.begin(), free.end());
  v.data = a.data;
  if (is_identity(fc)) { v.contract_first = false; return v; }
  if (is_identity(cf)) { v.contract_first = true; return v; }
  const IntList& perm = want_contract_first ? cf : fc;
  std::vector<int64_t> strides = kernels::contiguous_strides(s), ps;
  Shape pshape;
  for (int64_t d : perm) { ps.push_back(strides[static_cast<size_t>(d)]); pshape.push_back(s[static_cast<size_t>(d)]); }
  v.copy.resize(a.aval->nbytes());
  kernels::strided_copy(a.data, 0, ps, v.copy.data(), pshape, itemsize(a.dtype()));
  v.data = v.copy.data();
  v.contract_first = want_contract_first;
  return v;
}

template <class C>
using RowMat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out[b] (M×N) = L[b] (M×K, or K×M transposed) * R[b] (K×N, or N×K transposed), row-major.
template <class C>
void gemm(const C* l, const C* r, C* o, const MatrixView& lv, const MatrixView& rv) {
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
  int threads = flops < (1 << 18) ? 1 : kernels::num_threads();
  if (B >= threads || threads == 1) {
    kernels::parallel_for(B, B >= threads ? 1 : B, [&](int64_t lo, int64_t hi) {
      for (int64_t b = lo; b < hi; ++b) one(b, 0, M, 0, N);
    });
    return;
  }
  // One matrix per batch: split the larger of M and N across the cores.
  for (int64_t b = 0; b < B; ++b) {
    if (M >= N) kernels::parallel_for(M, 1, [&](int64_t lo, int64_t hi) { one(b, lo, hi, 0, N); });
    else kernels::parallel_for(N, 1, [&](int64_t lo, int64_t hi) { one(b, 0, M, lo, hi); });
  }
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  // The rhs is wanted as [batch, contract, free] (K×N), the lhs as [batch, free, contract].
  MatrixView lv = view(in[0], p.get_ints("lhs_batch"), p.get_ints("lhs_contract"), false);
  MatrixView rv = view(in[1], p.get_ints("rhs_batch"), p.get_ints("rhs_contract"), true);
  int64_t M = lv.free, N = rv.free, K = lv.contract, B = lv.batch;
  kernels::dispatch(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    if constexpr (std::is_same_v<S, uint8_t>) {
      throw Error("internal: bool dot_general");
    } else if constexpr (std::is_same_v<S, C>) {
      if (K == 0) { std::fill_n(out[0].as<S>(), out[0].size(), S(0)); return; }
      gemm<C>(static_cast<const C*>(lv.data), static_cast<const C*>(rv.data), out[0].as<C>(), lv, rv);
    } else {
      // bf16/f16: widen to f32, multiply, round once on store.
      std::vector<float> l(static_cast<size_t>(B * M * K)), r(static_cast<size_t>(B * K * N)), o(static_cast<size_t>(B * M * N), 0.0f);
      kernels::convert_elements(lv.data, in[0].dtype(), l.data(), DType::f32, B * M * K);
      kernels::convert_elements(rv.data, in[1].dtype(), r.data(), DType::f32, B * K * N);
      if (K > 0) gemm<float>(l.data(), r.data(), o.data(), lv, rv);
      kernels::convert_elements(o.data(), DType::f32, out[0].data, out[0].dtype(), B * M * N);
    }
  });
}

// Rules follow JAX's _dot_general_transpose_lhs/rhs: contract the cotangent with the other
// operand over that operand's free dimensions, then transpose the result into this operand's
// layout.
IntList range(int64_t lo, int64_t hi) {
  IntList r;
  for (int64_t i = lo; i < hi; ++i) r.push_back(i);
  return r;
}
IntList free_dims(size_t rank, const IntList& batch, const IntList& contract) {
  IntList r;
  for (size_t d = 0; d < rank; ++d)
    if (std::find(batch.begin(), batch.end(), int64_t(d)) == batch.end() &&
        std::find(contract.begin(), contract.end(), int64_t(d)) == contract.end())
      r.push_back(static_cast<int64_t>(d));
  return r;
}

// The cotangent of operand `x` (batch xb, contract xc) of a dot with `other` (batch ob,
// contract oc). `x_first` says whether x's free dims come before other's in the output.
Array transpose_operand(const Array& ct, const Array& x, const Array& other, const IntList& xb, const IntList& xc,
                        const IntList& ob, const IntList& oc, bool x_first) {
  IntList xf = free_dims(x.shape().size(), xb, xc), of = free_dims(other.shape().size(), ob, oc);
  int64_t nb = static_cast<int64_t>(xb.size());
  int64_t nxf = static_cast<int64_t>(xf.size()), nof = static_cast<int64_t>(of.size());
  // In ct: [batch, lhs free, rhs free]; other's free dims are at the back (x first) or front.
  IntList ct_other = x_first ? range(nb + nxf, nb + nxf + nof) : range(nb, nb + nof);
  Params p{{"lhs_batch", range(0, nb)}, {"rhs_batch", ob}, {"lhs_contract", ct_other}, {"rhs_contract", of}};
  Array r = ad::bind_prim(prim::kDotGeneral, {ct, other}, p);
  // r: [batch (x's batch order), x free (ascending), other's contract dims (ascending)].
  IntList oc_sorted = oc;
  std::sort(oc_sorted.begin(), oc_sorted.end());
  IntList src = xb;  // the x dimension held by each dimension of r
  src.insert(src.end(), xf.begin(), xf.end());
  for (int64_t o : oc_sorted) src.push_back(xc[static_cast<size_t>(std::find(oc.begin(), oc.end(), o) - oc.begin())]);
  IntList perm(src.size());
  for (size_t j = 0; j < src.size(); ++j)
    perm[j] = std::find(src.begin(), src.end(), static_cast<int64_t>(j)) - src.begin();
  bool identity = true;
  for (size_t j = 0; j < perm.size(); ++j) identity = identity && perm[j] == static_cast<int64_t>(j);
  return identity ? r : ad::bind_prim(prim::kTranspose, {r}, Params{{"permutation", perm}});
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  Array a = t[0].valid() ? ad::bind_prim(prim::kDotGeneral, {t[0], x[1]}, p) : Array();
  Array b = t[1].valid() ? ad::bind_prim(prim::kDotGeneral, {x[0], t[1]}, p) : Array();
  return {ad::add_cotangent(a, b)};
}
// Reads both inputs.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const IntList &lb = p.get_ints("lhs_batch"), &rb = p.get_ints("rhs_batch");
  const IntList &lc = p.get_ints("lhs_contract"), &rc = p.get_ints("rhs_contract");
  return {transpose_operand(ct[0], x[0], x[1], lb, lc, rb, rc, true),
          transpose_operand(ct[0], x[1], x[0], rb, rc, lb, lc, false)};
}

}  // namespace

const Primitive prim::kDotGeneral{
    .name = "dot_general",
    .traits = 0,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
};

}  // namespace strata
