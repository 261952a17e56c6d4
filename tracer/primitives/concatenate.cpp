// tracer/primitives/concatenate.cpp — `concatenate[dimension]`: the operands joined along one
// dimension; they agree in every other dimension and in dtype.
#include "batch_rules.h"
#include "../array_impl.h"
#include "../trace.h"
#include "ad_rules.h"
#include <cstring>

#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  std::vector<Shape> shapes;
  bool weak = true;
  for (const AbstractValue& a : in) {
    if (a.dtype != in[0].dtype)
      throw DTypeError("concatenate: expects operands of one dtype, but got " + in[0].str() +
                       " and " + a.str());
    shapes.push_back(a.shape);
    weak = weak && a.weak;
  }
  Shape out = primitives::check("concatenate", shape_rules::concatenate(shapes, p.get_int("dimension")));
  return {AbstractValue{out, in[0].dtype, weak}};
}

// Viewed as [outer, dim * inner], each operand contributes a block of columns to every row.
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  size_t dim = static_cast<size_t>(p.get_int("dimension"));
  const Shape& os = out[0].shape();
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < dim; ++d) outer *= os[d];
  for (size_t d = dim + 1; d < os.size(); ++d) inner *= os[d];
  size_t isz = itemsize(out[0].dtype());
  int64_t row = os[dim] * inner * static_cast<int64_t>(isz);
  int64_t col = 0;
  for (const KernelArg& a : in) {
    int64_t w = a.shape()[dim] * inner * static_cast<int64_t>(isz);
    for (int64_t r = 0; r < outer; ++r)
      std::memcpy(static_cast<char*>(out[0].data) + r * row + col,
                  static_cast<const char*>(a.data) + r * w, static_cast<size_t>(w));
    col += w;
  }
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  bool any = false;
  for (const Array& a : t) any = any || a.valid();
  if (!any) return {Array()};
  std::vector<Array> ts;
  for (size_t i = 0; i < x.size(); ++i) ts.push_back(ad::instantiate(t[i], detail::aval_of(x[i])));
  return lax::bind(prim::kConcatenate, ts, p);
}
// Each operand's cotangent is its slice of the output's.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  size_t dim = static_cast<size_t>(p.get_int("dimension"));
  std::vector<Array> out;
  int64_t offset = 0;
  for (const Array& a : x) {
    IntList lo(a.shape().size(), 0), hi(ct[0].shape().begin(), ct[0].shape().end()), step(a.shape().size(), 1);
    lo[dim] = offset;
    hi[dim] = offset + a.shape()[dim];
    out.push_back(lax::slice(ct[0], lo, hi, step));
    offset += a.shape()[dim];
  }
  return out;
}


// Batched: every operand with the batch dimension first (an unbatched one broadcast along it),
// concatenated one dimension further on.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  int64_t size = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) size = args[i].shape(dims[i]);
  std::vector<Array> xs;
  for (size_t i = 0; i < args.size(); ++i)
    xs.push_back(dims[i] != not_mapped ? batching::front(args, dims, i) : batching::broadcast_batch(args[i], size));
  Params q = p;
  q.set("dimension", p.get_int("dimension") + 1);
  return {lax::bind(prim::kConcatenate, xs, q), {0}};
}

}  // namespace

const Primitive prim::kConcatenate{
    .name = "concatenate",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
