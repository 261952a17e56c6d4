// bench/programs.h — the programs more than one benchmark measures, defined once.
#pragma once

#include <cstdint>

#include "strata/strata.h"

namespace bench {

inline strata::Array rnd(const strata::Shape& shape, uint64_t seed) {
  return strata::random::normal(strata::random::key(seed), shape);
}

// The seed line: relu(x·w + b).
inline strata::Array seed_line(const strata::Array& x, const strata::Array& w, const strata::Array& b) {
  return strata::relu(strata::matmul(x, w) + b);
}

// A chain of 8 elementwise ops (the comments count them), run on kChainN floats.
inline constexpr int64_t kChainN = 16 << 20;
inline strata::Array chain8(const strata::Array& x, const strata::Array& y) {
  strata::Array a = x * 1.5f + y;              // 2
  strata::Array b = strata::maximum(a, 0.0f);  // 3
  strata::Array c = b * b - y;                 // 5
  strata::Array d = c / 3.0f;                  // 6
  strata::Array e = d + x;                     // 7
  return strata::minimum(e, 10.0f);            // 8
}

}  // namespace bench
