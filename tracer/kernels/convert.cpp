#include "parallel.h"
#include "types.h"

namespace strata::kernels {

void convert_elements(const void* src, DType from, void* dst, DType to, int64_t n) {
  dispatch_any(from, [&](auto ft) {
    using F = typename decltype(ft)::type;
    dispatch_any(to, [&](auto tt) {
      using T = typename decltype(tt)::type;
      const F* s = static_cast<const F*>(src);
      T* d = static_cast<T*>(dst);
      parallel_for(n, kElementwiseGrain, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) d[i] = convert_value<T>(s[i]);
      });
    });
  });
}

}  // namespace strata::kernels
