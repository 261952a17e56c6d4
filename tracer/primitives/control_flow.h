// tracer/primitives/control_flow.h — what the control-flow primitives (cond, while, scan) share:
// sub-programs traced as open jaxprs (captured values become leading inputs, passed as operands,
// as JAX hoists a closed jaxpr's consts), type checks, and the derivative and batching
// versions of a sub-program.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "../jaxpr.h"

namespace strata::control_flow {

// An open sub-program: no constvars; what it captured is `consts`, which the caller passes as
// its leading operands (invars [0, consts.size()) stand for them).
struct Traced {
  JaxprPtr jaxpr;
  std::vector<Array> consts;
};

std::vector<AbstractValue> in_avals(const JaxprImpl& j);
std::vector<AbstractValue> out_avals(const JaxprImpl& j);
// The avals of `xs`.
std::vector<AbstractValue> avals_of(std::span<const Array> xs);

// `closed` with its constvars turned into leading invars; its consts come back separately.
Traced open(const JaxprImpl& closed);
// Traces `f` on fresh inputs of `avals` in a new trace and opens the result.
using TraceFn = std::function<std::vector<Array>(std::span<const Array>)>;
Traced trace(std::span<const AbstractValue> avals, const TraceFn& f);
// The same, closed: what it captured stays in its consts (for params that hold a closed jaxpr).
JaxprPtr trace_closed(std::span<const AbstractValue> avals, const TraceFn& f);
// `j` with unused inputs of `extra` types inserted before invar `at`.
JaxprPtr with_unused_inputs(const JaxprImpl& j, size_t at, std::span<const AbstractValue> extra);

// Branches that captured different values all take all of them (cond's operands; a custom
// call's programs): the joined branches and the values, branch 0's first, a value captured by
// several branches (the same array) once.
std::pair<JaxprList, std::vector<Array>> join_branches(const std::vector<Traced>& ts);

bool same_type(const AbstractValue& a, const AbstractValue& b);  // shape and dtype
// Throws ShapeError "WHO: WHAT i is T, but expected U" at the first mismatch (or count).
void expect_types(const std::string& who, const std::string& what, std::span<const AbstractValue> got,
                  std::span<const AbstractValue> want);

// Whether values of this type carry derivatives (float and complex).
bool differentiable(const AbstractValue& a);
// Concatenation helpers.
template <class T>
std::vector<T> cat(std::initializer_list<std::span<const T>> parts) {
  std::vector<T> r;
  for (auto p : parts) r.insert(r.end(), p.begin(), p.end());
  return r;
}

// Forward mode of `j`: a program over (primals..., tangents of the inputs with nonzero[i]...)
// returning (outputs..., tangents of the float outputs (zeros instantiated)...).
Traced jvp_program(const JaxprImpl& j, const std::vector<bool>& nonzero);
// The residuals of a partial evaluation over inputs `in`, split: a residual that is an input
// j with forwardable[j] is passed on as that input (src gets j), the others (src gets -1) are
// returned, for the forward pass to output.
std::vector<Array> computed_residuals(std::span<const Array> residuals, std::span<const Array> in,
                                      const std::vector<bool>& forwardable, std::vector<int>& src);
// `j` without its debug callbacks, sub-programs included: what a backward pass recomputes of a
// forward pass that already ran them (JAX runs them once, in the forward pass).
JaxprPtr without_debug_callbacks(const JaxprImpl& j);
// Input cotangents of `j` (for the float inputs i with needed[i]; all float inputs when
// `needed` is empty) from its primal inputs and one cotangent per output (zeros for non-float
// outputs): a program over (inputs..., cotangents...), without j's debug callbacks.
Traced backward_program(const JaxprImpl& j, const std::vector<bool>& needed = {});
// `j` applied to a batch: inputs with batched[i] carry a leading batch dimension of `size`;
// every output does. Returns the batched program.
Traced batch_program(const JaxprImpl& j, const std::vector<bool>& batched, int64_t size);

}  // namespace strata::control_flow
