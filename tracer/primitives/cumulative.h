// tracer/primitives/cumulative.h — what cumsum, cumprod, cummax, cummin and cumlogsumexp share
// (jax.lax's cumulative primitives; params `axis`, `reverse`): the shape rule, the eager
// kernel, the derivative rules and the batching rule, per kind.
#pragma once

#include "../primitive.h"

namespace strata::cumulative {

enum class Kind { kSum, kProd, kMax, kMin, kLogSumExp };

// The kind's name in the dialect's strata.cumulative (`sum`, `prod`, …).
const char* kind_name(Kind k);

std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p);
void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p);
// cumsum is linear: its own JVP, and the reversed cumsum as its VJP. The other kinds
// differentiate JAX's way: through the associative scan the primitive computes (a log-depth
// composite of slices, pads and the combining op), traced once per rule invocation.
std::vector<Array> jvp(Kind k, std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                       const Params& p);
std::vector<Array> vjp(Kind k, std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                       const Params& p);
std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& prim, std::span<const Array> args,
                                                      std::span<const int> dims, const Params& p);

// Binds the cumulative primitive of kind k (the tracer-level op, as lax.cumsum).
Array bind(Kind k, const Array& x, int64_t axis, bool reverse);

// Defines the primitive prim::NAME of kind KIND.
#define STRATA_CUMULATIVE_PRIMITIVE(NAME, STR, KIND)                                                      \
  const Primitive prim::NAME{                                                                            \
      .name = STR,                                                                                       \
      .arity = 1,                                                                                        \
      .traits = kTakesComplex, /* not logcumsumexp (the rule) */                                          \
      .shape_rule = [](std::span<const AbstractValue> in, const Params& p) {                             \
        return cumulative::rule(KIND, in, p);                                                            \
      },                                                                                                 \
      .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,                         \
                  const Params& p) { cumulative::kernel(KIND, in, out, p); },                            \
      .jvp = [](std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,             \
                const Params& p) { return cumulative::jvp(KIND, x, t, y, p); },                          \
      .vjp = [](std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,            \
                const Params& p) { return cumulative::vjp(KIND, x, y, ct, p); },                         \
      .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) {                   \
        return cumulative::batch(prim::NAME, a, d, p);                                                   \
      },                                                                                                 \
  };

}  // namespace strata::cumulative
