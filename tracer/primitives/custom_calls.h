// tracer/primitives/custom_calls.h — what custom_vjp_call and custom_jvp_call (calls of a
// function whose derivative is the user's) share: the shape rule (fun's types) and the batched
// version of their sub-programs.
#pragma once

#include <span>
#include <vector>

#include "../jaxpr.h"

namespace strata::custom_calls {

// The output types of `fun` after checking that `in` are its input types.
std::vector<AbstractValue> rule(const char* name, std::span<const AbstractValue> in, const JaxprImpl& fun);
// `j` taking and returning every value with a leading batch dimension of size n (outputs that
// do not depend on the batch broadcast), for the vmap of a custom call.
std::shared_ptr<const JaxprImpl> batched(const JaxprImpl& j, int64_t n);
// The operands with the batch along dimension 0 (an unbatched one repeated) and its size.
std::pair<std::vector<Array>, int64_t> batch_front(std::span<const Array> args, std::span<const int> dims);

}  // namespace strata::custom_calls
