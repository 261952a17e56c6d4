// tracer/primitives/iota.cpp — `iota[dtype, shape, dimension]`: each element is its index
// along `dimension` (StableHLO's iota). No operands.
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("iota", in, 0);
  DType t = p.get_dtype("dtype");
  if (t == DType::bool_) throw DTypeError("iota: expects a numeric dtype, but got bool");
  Shape out = primitives::check("iota", shape_rules::iota(p.get_ints("shape"), p.get_int("dimension")));
  return {AbstractValue{out, t, false}};
}

void kernel(std::span<const KernelArg>, std::span<const KernelArg> out, const Params& p) {
  const Shape& s = out[0].shape();
  size_t dim = static_cast<size_t>(p.get_int("dimension"));
  int64_t inner = 1;
  for (size_t d = dim + 1; d < s.size(); ++d) inner *= s[d];
  int64_t n = s[dim];
  kernels::dispatch(out[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out[0].as<T>();
    for (int64_t i = 0; i < out[0].size(); ++i)
      o[i] = kernels::convert_value<T>(static_cast<int64_t>((i / inner) % n));
  });
}

}  // namespace

const Primitive prim::kIota{
    .name = "iota",
    .arity = 0,
    .traits = kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
};

}  // namespace strata
