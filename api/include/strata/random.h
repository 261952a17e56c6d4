// strata/random.h — counter-based random numbers (JAX's threefry2x32 keys).
//
// Randomness is explicit: a key (i32[2]) plus a shape determine the numbers, so results are
// reproducible and the functions trace like any other op. Never reuse a key: split it.
#pragma once

#include <cstdint>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::random {

// A key from a seed, as jax.random.PRNGKey: [seed >> 32, seed & 0xFFFFFFFF].
Array key(uint64_t seed);
// `num` new independent keys, as an i32[num, 2] array (take rows with `slice` or `key_at`).
Array split(const Array& key, int num = 2, SourceLocation loc = SourceLocation::current());
// Row i of a split: an i32[2] key.
Array key_at(const Array& keys, int i, SourceLocation loc = SourceLocation::current());
// Uniformly random 32-bit patterns (as i32).
Array bits(const Array& key, const Shape& shape, SourceLocation loc = SourceLocation::current());
// Uniform floats in [minval, maxval).
Array uniform(const Array& key, const Shape& shape, DType dtype = f32, double minval = 0.0,
              double maxval = 1.0, SourceLocation loc = SourceLocation::current());
// Standard normal floats (Box–Muller on two uniform streams).
Array normal(const Array& key, const Shape& shape, DType dtype = f32,
             SourceLocation loc = SourceLocation::current());

}  // namespace strata::random
