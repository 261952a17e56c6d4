// tracer/batching.h — vectorisation (vmap) as an interpretation of jaxprs: each equation runs
// through its primitive's batching rule (Primitive::batch), in the current context — eagerly
// on concrete arrays, or bound into an enclosing trace — which is how vmap composes with jit
// and grad.
#pragma once

#include <span>
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

// `x` with its dimension `from` moved to position `to` (x itself when they are equal).
Array move_dim(const Array& x, int from, int to);

// `x` repeated along a new leading dimension of `size`: the batch of an unbatched value.
Array broadcast_batch(const Array& x, int64_t size);

}  // namespace strata::batching
