// tracer/primitives/custom_calls.h — what custom_vjp_call and custom_jvp_call (calls of a
// function whose derivative is the user's) share: the shape rule (fun's types) and the batched
// version of their sub-programs, and the values they capture.
#pragma once

#include <span>
#include <vector>

#include "../jaxpr.h"

namespace strata::custom_calls {

// The output types of `fun` after checking that `in` are its input types.
std::vector<AbstractValue> rule(const char* name, std::span<const AbstractValue> in, const JaxprImpl& fun);
// `j` taking and returning every value with a leading batch dimension of size n (outputs that
// do not depend on the batch broadcast), for the vmap of a custom call; with `mapped`, only the
// inputs i with mapped[i] are batched (the others keep their shape).
std::shared_ptr<const JaxprImpl> batched(const JaxprImpl& j, int64_t n, const std::vector<bool>& mapped = {});
// The operands with the batch along dimension 0 (an unbatched one repeated) and its size.
std::pair<std::vector<Array>, int64_t> batch_front(std::span<const Array> args, std::span<const int> dims);

// The same for a custom call whose first `num_consts` operands are captured values: those stay
// unbatched when they are (they get no derivative, so nothing needs them batched).
struct FrontBatch {
  std::vector<Array> operands;
  int64_t size = 0;
  std::vector<bool> consts_mapped;
  // Which inputs of a program whose first num_consts inputs are the captured values to batch.
  std::vector<bool> mapped(const JaxprImpl& program) const;
};
FrontBatch batch_front(std::span<const Array> args, std::span<const int> dims, size_t num_consts);

// The values the function and its rules captured (tracers of an enclosing jit or vmap, concrete
// arrays) are their leading `num_consts` operands, as JAX hoists them. They pass through jit
// and vmap; differentiating with respect to one is refused (the user's rule only covers the
// explicit arguments), as JAX refuses it.
int64_t num_consts(const Params& p);
// Throws that refusal for `name` (custom_jvp or custom_vjp).
[[noreturn]] void refuse_closed_over(const char* name);

}  // namespace strata::custom_calls
