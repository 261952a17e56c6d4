// tracer/primitives/dot_general.cpp — `dot_general[lhs_batch, rhs_batch, lhs_contract,
// rhs_contract]`: a batched tensor contraction (StableHLO's dot_general). Result dimensions:
// batch, then lhs free, then rhs free. Eager: Eigen GEMM split across the thread pool.
#include "batch_rules.h"
#include "ad_rules.h"
#include <algorithm>

#include "common.h"
#include "../kernels/gemm.h"

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

// The GEMM itself is shared with the compiled code's runtime (tracer/kernels/gemm.h).
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  kernels::DotGeneralDims dims{in[0].shape(), in[1].shape(), p.get_ints("lhs_batch"), p.get_ints("rhs_batch"),
                               p.get_ints("lhs_contract"), p.get_ints("rhs_contract")};
  kernels::dot_general(in[0].dtype(), in[0].data, in[1].data, out[0].data, dims, nullptr);
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
  Array r = lax::bind1(prim::kDotGeneral, {ct, other}, p);
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
  return identity ? r : lax::bind1(prim::kTranspose, {r}, Params{{"permutation", perm}});
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  Array a = t[0].valid() ? lax::bind1(prim::kDotGeneral, {t[0], x[1]}, p) : Array();
  Array b = t[1].valid() ? lax::bind1(prim::kDotGeneral, {x[0], t[1]}, p) : Array();
  return {ad::add_cotangent(a, b)};
}
// Reads both inputs.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  const IntList &lb = p.get_ints("lhs_batch"), &rb = p.get_ints("rhs_batch");
  const IntList &lc = p.get_ints("lhs_contract"), &rc = p.get_ints("rhs_contract");
  return {transpose_operand(ct[0], x[0], x[1], lb, lc, rb, rc, true),
          transpose_operand(ct[0], x[1], x[0], rb, rc, lb, lc, false)};
}


// Batched: both operands batched → one more batch dimension (the result's first); one of them
// batched → its batch dimension is one more free dimension, which the result orders after the
// batch dimensions (lhs free dimensions first, then rhs).
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  const IntList &lc = p.get_ints("lhs_contract"), &rc = p.get_ints("rhs_contract");
  const IntList &lb = p.get_ints("lhs_batch"), &rb = p.get_ints("rhs_batch");
  bool lhs = dims[0] != not_mapped, rhs = dims[1] != not_mapped;
  Array a = lhs ? batching::front(args, dims, 0) : args[0];
  Array b = rhs ? batching::front(args, dims, 1) : args[1];
  if (lhs && rhs)
    return {{lax::dot_general(a, b, batching::shifted(lc), batching::shifted(rc), batching::shifted(lb, 0),
                              batching::shifted(rb, 0))},
            {0}};
  if (lhs)
    return {{lax::dot_general(a, b, batching::shifted(lc), rc, batching::shifted(lb), rb)}, {static_cast<int>(lb.size())}};
  int lhs_free = static_cast<int>(args[0].ndim() - static_cast<int64_t>(lc.size() + lb.size()));
  return {{lax::dot_general(a, b, lc, batching::shifted(rc), lb, batching::shifted(rb))},
          {static_cast<int>(lb.size()) + lhs_free}};
}

}  // namespace

const Primitive prim::kDotGeneral{
    .name = "dot_general",
    .arity = 2,
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
