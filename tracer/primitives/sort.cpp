// tracer/primitives/sort.cpp — `sort[dimension, is_stable, num_keys] operands...`: the operands
// (one shape) sorted together along `dimension` by the first num_keys of them,
// lexicographically (jax.lax.sort). Floats order as lax.sort's comparator: -0.0 equals 0.0,
// every nan equals every other and sorts after +inf. The kernel is shared with compiled code
// (kernels/sort.h).
#include "../array_impl.h"
#include "../batching.h"
#include "batch_rules.h"
#include "../kernels/sort.h"
#include "../lax.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  std::vector<Shape> shapes;
  for (const AbstractValue& a : in) shapes.push_back(a.shape);
  primitives::check("sort", shape_rules::sort(shapes, p.get_int("dimension"), p.get_int("num_keys")));
  (void)p.get<bool>("is_stable");
  // Complex operands ride along; as keys they have no order here (st::sort sorts complex
  // arrays by their real, then imaginary parts, as two keys).
  for (int64_t i = 0; i < p.get_int("num_keys"); ++i)
    if (is_complex(in[static_cast<size_t>(i)].dtype))
      throw DTypeError("sort: expects real keys (complex ones sort by their real and imaginary parts as two keys, as "
                       "st::sort does), but key " + std::to_string(i) + " is " + in[static_cast<size_t>(i)].str());
  return std::vector<AbstractValue>(in.begin(), in.end());
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  std::vector<kernels::SortOperand> ops;
  for (size_t i = 0; i < in.size(); ++i) {
    std::memcpy(out[i].data, in[i].data, in[i].aval->nbytes());
    ops.push_back(kernels::sort_operand(out[i].data, out[i].dtype()));
  }
  const Shape& s = in[0].shape();
  size_t dim = static_cast<size_t>(p.get_int("dimension"));
  kernels::SortSpec spec;
  spec.n = s[dim];
  for (size_t d = 0; d < dim; ++d) spec.outer *= s[d];
  for (size_t d = dim + 1; d < s.size(); ++d) spec.inner *= s[d];
  spec.num_keys = p.get_int("num_keys");
  spec.stable = p.get<bool>("is_stable");
  kernels::sort(ops, spec);
}

Params with_keys(const Params& p, int64_t num_keys) {
  Params q = p;
  q.set("num_keys", num_keys);
  return q;
}

// The tangents ride along as extra operands: they are permuted as their primals are.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>,
                       const Params& p) {
  std::vector<Array> ops(x.begin(), x.end());
  std::vector<size_t> which;
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i].valid()) {
      ops.push_back(t[i]);
      which.push_back(i);
    }
  std::vector<Array> out(x.size());
  if (which.empty()) return out;
  std::vector<Array> sorted = lax::bind(prim::kSort, ops, p);
  for (size_t k = 0; k < which.size(); ++k) out[which[k]] = sorted[x.size() + k];
  return out;
}

// The permutation (an i32 iota sorted with the keys), then each cotangent sorted by it: the
// element that went to position j comes back from j.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct,
                       const Params& p) {
  std::vector<Array> out(x.size());
  std::vector<Array> cts;
  std::vector<size_t> which;
  for (size_t i = 0; i < ct.size(); ++i)
    if (ct[i].valid() && is_inexact(x[i].dtype())) {
      cts.push_back(ct[i]);
      which.push_back(i);
    }
  if (which.empty()) return out;
  int64_t num_keys = p.get_int("num_keys");
  std::vector<Array> keyed(x.begin(), x.begin() + num_keys);
  const Shape& s = x[0].shape();
  keyed.push_back(lax::bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList(s.begin(), s.end())},
                                                    {"dimension", p.get_int("dimension")}}));
  Array perm = lax::bind(prim::kSort, keyed, p).back();
  std::vector<Array> back{perm};
  back.insert(back.end(), cts.begin(), cts.end());
  std::vector<Array> r = lax::bind(prim::kSort, back, with_keys(p, 1));
  for (size_t k = 0; k < which.size(); ++k) out[which[k]] = r[1 + k];
  return out;
}

std::pair<std::vector<Array>, std::vector<int>> batch(std::span<const Array> args, std::span<const int> dims,
                                                      const Params& p) {
  int64_t size = batching::batch_size(args, dims);
  std::vector<Array> ops;
  for (size_t i = 0; i < args.size(); ++i) ops.push_back(batching::front_or_repeat(args, dims, i, size));
  Params q = p;
  q.set("dimension", p.get_int("dimension") + 1);
  return {lax::bind(prim::kSort, ops, q), std::vector<int>(args.size(), 0)};
}

}  // namespace

const Primitive prim::kSort{
    .name = "sort",
    .traits = kTakesComplex,  // as payload (the rule refuses complex keys)
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
