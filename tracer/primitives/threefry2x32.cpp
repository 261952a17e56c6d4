// tracer/primitives/threefry2x32.cpp — `threefry2x32`: the Threefry-2x32 block cipher (20
// rounds), as JAX's PRNG uses it: (k0, k1, x0, x1) ↦ (y0, y1). Keys are 0-d, counters any
// shape; all values are 32-bit patterns held in i32.
#include "batch_rules.h"
#include "common.h"
#include "threefry2x32.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  primitives::expect_arity("threefry2x32", in, 4);
  for (const AbstractValue& a : in)
    if (a.dtype != DType::i32)
      throw DTypeError("threefry2x32: expects i32 operands (32-bit patterns), but got " + a.str());
  if (!in[0].shape.empty() || !in[1].shape.empty())
    throw ShapeError("threefry2x32: expects 0-d keys, but got " + in[0].str() + " and " + in[1].str());
  if (in[2].shape != in[3].shape)
    throw ShapeError("threefry2x32: expects counters of one shape, but got " + in[2].str() + " and " + in[3].str());
  AbstractValue out{in[2].shape, DType::i32, false};
  return {out, out};
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  const uint32_t k0 = static_cast<uint32_t>(*in[0].as<int32_t>());
  const uint32_t k1 = static_cast<uint32_t>(*in[1].as<int32_t>());
  const uint32_t* x0 = reinterpret_cast<const uint32_t*>(in[2].data);
  const uint32_t* x1 = reinterpret_cast<const uint32_t*>(in[3].data);
  uint32_t* y0 = reinterpret_cast<uint32_t*>(out[0].data);
  uint32_t* y1 = reinterpret_cast<uint32_t*>(out[1].data);
  kernels::parallel_for(in[2].size(), kernels::kElementwiseGrain / 8, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      const auto [a, b] = threefry::block(k0, k1, x0[i], x1[i]);
      y0[i] = a;
      y1[i] = b;
    }
  });
}

// vmap. Counters batched, keys not: the primitive itself on counters with the batch dimension
// first. Keys batched: the cipher elementwise over [batch] + counter shape, with each example's
// key broadcast over its counters.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params&) {
  int64_t n = batching::batch_size(args, dims);
  auto front = [&](size_t i) { return batching::front_or_repeat(args, dims, i, n); };
  Array x0 = front(2), x1 = front(3);
  if (dims[0] == not_mapped && dims[1] == not_mapped) {
    Array in[] = {args[0], args[1], x0, x1};
    return {lax::bind(prim::kThreefry2x32, in), {0, 0}};
  }
  auto u32 = [](const Array& v) { return lax::bind1(prim::kBitcastConvertType, {v}, Params{{"new_dtype", DType::u32}}); };
  auto i32 = [](const Array& v) { return lax::bind1(prim::kBitcastConvertType, {v}, Params{{"new_dtype", DType::i32}}); };
  const Shape& shape = x0.shape();
  auto key = [&](size_t i) { return lax::broadcast_in_dim(u32(front(i)), shape, {0}); };
  auto [y0, y1] = threefry::elementwise(key(0), key(1), u32(x0), u32(x1));
  return {{i32(y0), i32(y1)}, {0, 0}};
}

}  // namespace

std::pair<Array, Array> threefry::elementwise(const Array& k0, const Array& k1, const Array& x0, const Array& x1,
                                              lax::Loc loc) {
  auto c = [](uint32_t v) { return lax::scalar(static_cast<double>(v), DType::u32); };
  auto xor_ = [&](const Array& a, const Array& b) { return lax::bind1(prim::kXor, {a, b}, {}, loc); };
  auto rotl = [&](const Array& v, int r) {
    return lax::or_(lax::bind1(prim::kShiftLeft, {v, c(static_cast<uint32_t>(r))}, {}, loc),
                    lax::bind1(prim::kShiftRightLogical, {v, c(static_cast<uint32_t>(32 - r))}, {}, loc), loc);
  };
  Array ks[3] = {k0, k1, xor_(xor_(k0, k1), c(0x1BD11BDAu))};
  static constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  Array a = lax::add(x0, ks[0], loc), b = lax::add(x1, ks[1], loc);
  for (int block = 0; block < 5; ++block) {
    for (int r : kRot[block % 2]) {
      a = lax::add(a, b, loc);
      b = xor_(rotl(b, r), a);
    }
    a = lax::add(a, ks[(block + 1) % 3], loc);
    b = lax::add(lax::add(b, ks[(block + 2) % 3], loc), c(static_cast<uint32_t>(block + 1)), loc);
  }
  return {a, b};
}

const Primitive prim::kThreefry2x32{
    .name = "threefry2x32",
    .arity = 4,
    .traits = kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .batch = batch,
};

}  // namespace strata
