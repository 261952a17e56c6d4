// tracer/primitives/dynamic_slice.cpp — `dynamic_slice[slice_sizes] operand *start_indices`:
// the `slice_sizes` box of the operand at run-time starts (one 0-d i32 a dimension), each start
// clamped to [0, dim - size] so that the box stays inside (JAX's lax.dynamic_slice, StableHLO's
// dynamic_slice).
#include "dynamic_slice_common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  if (in.empty()) throw ValueError("dynamic_slice: expects an operand and its start indices, but got no operands");
  const AbstractValue& x = in[0];
  const IntList& sizes = p.get_ints("slice_sizes");
  dynamic_slicing::check_starts("dynamic_slice", x, in.subspan(1));
  if (sizes.size() != x.shape.size())
    throw ShapeError("dynamic_slice: expects " + std::to_string(x.shape.size()) + " slice sizes for " + x.str() +
                     ", but got " + shape_rules::list_string(sizes));
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] < 0 || sizes[d] > x.shape[d])
      throw ShapeError("dynamic_slice: expects slice sizes within the operand " + x.str() + ", but got " +
                       shape_rules::list_string(sizes));
  return {AbstractValue{Shape(sizes.begin(), sizes.end()), x.dtype, x.weak}};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  const Shape& xs = in[0].shape();
  std::vector<int64_t> starts = dynamic_slicing::clamped_starts(in.subspan(1), xs, out[0].shape());
  std::vector<int64_t> strides = kernels::contiguous_strides(xs);
  int64_t offset = 0;
  for (size_t d = 0; d < xs.size(); ++d) offset += starts[d] * strides[d];
  kernels::strided_copy(in[0].data, offset, strides, out[0].data, out[0].shape(), itemsize(in[0].dtype()));
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  if (!t[0].valid()) return {Array()};
  std::vector<Array> args(x.begin(), x.end());
  args[0] = t[0];
  return lax::bind(prim::kDynamicSlice, args, p);
}

// The cotangent written into zeros of the operand's shape at the same (clamped) starts.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  std::vector<Array> r(x.size());
  std::vector<Array> starts(x.begin() + 1, x.end());
  r[0] = lax::dynamic_update_slice(lax::zeros(detail::aval_of(x[0])), ct[0], starts);
  return r;
}

// An unbatched start: the whole batch dimension first, then the example's box.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  dynamic_slicing::refuse_batched_starts("dynamic_slice", dims.subspan(1));
  Array x = batching::front(args, dims);
  std::vector<Array> starts{lax::scalar(0, DType::i32)};
  starts.insert(starts.end(), args.begin() + 1, args.end());
  IntList sizes{x.shape(0)};
  for (int64_t v : p.get_ints("slice_sizes")) sizes.push_back(v);
  return {{lax::dynamic_slice(x, starts, sizes)}, {0}};
}

}  // namespace

const Primitive prim::kDynamicSlice{
    .name = "dynamic_slice",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
