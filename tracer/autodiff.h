// tracer/autodiff.h — forward and reverse mode as transformations of jaxprs.
//
// Both evaluate in the current context: eagerly on concrete arrays, or, inside a trace, by
// binding their equations there — which is how grad composes with jit and with itself.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "jaxpr.h"

namespace strata::ad {

// Forward mode: runs `j` on `primals` with `tangents` (one per input; null = zero) and returns
// the outputs and their tangents (null = zero).
struct JvpResult {
  std::vector<Array> outputs, tangents;
};
JvpResult jvp(const JaxprImpl& j, std::span<const Array> primals, std::span<const Array> tangents);

// The reverse-mode program of `j`: inputs (primals..., one cotangent for each of the first
// `num_ct` outputs...), outputs (outputs..., the cotangent of each input i with wrt[i], zeros
// where it does not depend on the output cotangents). Outputs past num_ct (auxiliary data)
// get no cotangent. Built by tracing the forward equations and then each equation's VJP
// rule in reverse order, accumulating cotangents with `add`.
std::shared_ptr<JaxprImpl> vjp_program(const JaxprImpl& j, const std::vector<bool>& wrt, size_t num_ct);

// Partial evaluation of `j` when its first `known.size()` inputs are known: evaluates every
// equation that depends only on known values now (in the current context), skipping those no
// requested output needs, and returns the rest as a program over (residuals..., unknown
// inputs...). Residuals are exactly the known values the unknown equations read.
struct Partial {
  std::vector<Array> known_outputs;  // values of outvars [0, num_known_outputs)
  std::vector<Array> residuals;
  std::shared_ptr<JaxprImpl> unknown;  // outputs: outvars [num_known_outputs, end)
};
Partial partial_eval(const JaxprImpl& j, std::span<const Array> known, size_t num_known_outputs);

// The reverse pass of a linearised function: residuals plus the unknown program.
struct Backward {
  std::vector<Array> residuals;
  std::shared_ptr<JaxprImpl> program;
  // Input cotangents (for the inputs differentiated) from output cotangents (null = zero).
  std::vector<Array> operator()(std::span<const Array> cotangents) const;
};

// vjp of `j` at `primals`: the outputs now, and the backward function. Throws DTypeError for a
// non-float input in `wrt` (naming its index and type).
struct VjpResult {
  std::vector<Array> outputs;
  std::shared_ptr<Backward> backward;
};
VjpResult vjp(const JaxprImpl& j, std::span<const Array> primals, const std::vector<bool>& wrt,
              size_t num_ct, const char* who);

// The transpose of `f`, a function linear in its inputs (of types `avals`): the cotangent of
// each input from one cotangent per output (null = zero), under the pairing Re Σ a·b. f is
// traced once and transposed by reverse mode (its VJP at zero), in the current context — so
// inside a rule it binds into the trace being built. Values f captures are constants of it.
// How VJPs come from JVP rules: custom_jvp_call's, the complex linear-algebra primitives'.
using LinearFn = std::function<std::vector<Array>(std::span<const Array>)>;
std::vector<Array> linear_transpose(const LinearFn& f, std::span<const AbstractValue> avals,
                                    std::span<const Array> cotangents);

// While a VJP rule runs inside vjp_program: whether the cotangent of the equation's operand i
// is needed (a differentiated input reaches it). A rule may skip the others (return null), and
// custom calls use it to refuse differentiation through closed-over values. Outside a rule (or
// past the operands): true.
bool cotangent_needed(size_t operand);

// Removes equations whose outputs no output needs (in place).
void dead_code_elimination(JaxprImpl& j);

}  // namespace strata::ad
