// tracer/primitives/threefry2x32.h — the Threefry-2x32 cipher of threefry2x32.cpp written with
// elementwise u32 primitives, for keys that vary per element (the primitive takes one 0-d key):
// its batching rule with batched keys, and random's per-lane samplers (api/src/random.cpp).
#pragma once

#include <utility>

#include "../lax.h"

namespace strata::threefry {

// (y0, y1) for u32 operands of one shape (or 0-d), the same 20 rounds as the kernel.
std::pair<Array, Array> elementwise(const Array& k0, const Array& k1, const Array& x0, const Array& x1,
                                    lax::Loc loc = lax::Loc::current());

}  // namespace strata::threefry
