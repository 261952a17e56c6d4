// jax.lax.rng_bit_generator (strata/ops.h): the primitive with its params; its rules check the
// key and the dtype (tracer/primitives/rng_bit_generator.cpp).
#include "op_helpers.h"

namespace strata {

std::pair<Array, Array> rng_bit_generator(const Array& key, const Shape& shape, DType dtype, RngAlgorithm algorithm,
                                          SourceLocation loc) {
  Params p{{"shape", IntList(shape.begin(), shape.end())},
           {"dtype", dtype},
           {"algorithm", static_cast<int64_t>(algorithm)}};
  std::vector<Array> r = lax::bind(prim::kRngBitGenerator, std::span<const Array>(&key, 1), p, loc);
  return {r[0], r[1]};
}

}  // namespace strata
