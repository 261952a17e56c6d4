// tests/tracer/one_thread.h — run a kernel on one thread, for the tests that its bits do not
// depend on the thread count.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "kernels/parallel.h"

namespace strata::testing {

// f inside a pool task, where nested parallel_for calls run serially (parallel.h).
template <class F>
void on_one_thread(F f) {
  bool ran = false;
  kernels::parallel_for(2, 1, [&](int64_t lo, int64_t) {
    if (lo == 0) f(), ran = true;
  });
  ASSERT_TRUE(ran);
}

}  // namespace strata::testing
