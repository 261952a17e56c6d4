// tracer/kernels/parallel.h — a small persistent thread pool and parallel_for for eager kernels.
#pragma once

#include <cstdint>
#include <functional>

namespace strata::kernels {

// Elements below which an elementwise loop stays on one thread (threading costs ~5 µs).
inline constexpr int64_t kElementwiseGrain = 1 << 15;

// Number of threads parallel_for uses (the hardware's, at least 1).
int num_threads();

// Splits [0, n) into at most num_threads() contiguous chunks of at least `grain` elements and
// runs fn(begin, end) on each, the caller taking one chunk. Nested calls run serially.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace strata::kernels
