// tracer/batching.h — vectorisation (vmap) as an interpretation of jaxprs: each equation runs
// through its primitive's batching rule (Primitive::batch), in the current context — eagerly
// on concrete arrays, or bound into an enclosing trace — which is how vmap composes with jit
// and grad.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jaxpr.h"

namespace strata::batching {

struct Result {
  std::vector<Array> outputs;
  std::vector<int> dims;  // per output, its batch dimension, or not_mapped
};

// Runs `j` on `args`, args[i] batched along dims[i] (not_mapped: the same value for every
// example). Equations whose operands are all unbatched run as they are. Throws ValueError
// naming the primitive when one that needs it has no batching rule.
Result batch_jaxpr(const JaxprImpl& j, std::span<const Array> args, std::span<const int> dims);

// The axis name of the vmap whose batching interpreter is running (empty: none, or an unnamed
// vmap): the collective primitives' batching rules compute a collective over it along the batch
// dimension, and pass any other axis through. vmap sets it around batch_jaxpr.
std::string_view current_axis();
class ScopedAxis {
 public:
  explicit ScopedAxis(std::string name);
  ~ScopedAxis();
  ScopedAxis(const ScopedAxis&) = delete;
  ScopedAxis& operator=(const ScopedAxis&) = delete;

 private:
  std::string saved_;
};

// `x` with its dimension `from` moved to position `to` (x itself when they are equal).
Array move_dim(const Array& x, int from, int to);

// `x` repeated along a new leading dimension of `size`: the batch of an unbatched value.
Array broadcast_batch(const Array& x, int64_t size);

}  // namespace strata::batching
