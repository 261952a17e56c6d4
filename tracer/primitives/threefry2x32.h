// tracer/primitives/threefry2x32.h — the Threefry-2x32 cipher: on one block (the eager kernels
// of threefry2x32 and rng_bit_generator's THREE_FRY), and written with elementwise u32
// primitives, for keys that vary per element (the primitive takes one 0-d key): its batching
// rule with batched keys, and random's per-lane samplers (api/src/random.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "../lax.h"

namespace strata::threefry {

// The 20 rounds on one block (x0, x1) under the key (k0, k1).
inline std::array<uint32_t, 2> block(uint32_t k0, uint32_t k1, uint32_t x0, uint32_t x1) {
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ 0x1BD11BDAu};
  constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  uint32_t a = x0 + ks[0], b = x1 + ks[1];
  for (int group = 0; group < 5; ++group) {
    for (int r : kRot[group % 2]) {
      a += b;
      b = (b << r) | (b >> (32 - r));
      b ^= a;
    }
    a += ks[(group + 1) % 3];
    b += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return {a, b};
}

// (y0, y1) for u32 operands of one shape (or 0-d), the same 20 rounds as the kernel.
std::pair<Array, Array> elementwise(const Array& k0, const Array& k1, const Array& x0, const Array& x1,
                                    lax::Loc loc = lax::Loc::current());

}  // namespace strata::threefry
