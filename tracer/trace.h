// tracer/trace.h — traces, tracers and `bind`, the one entry point of every primitive.
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "array_impl.h"
#include "jaxpr.h"

namespace strata {

// One active trace: it records every equation bound while it is the innermost trace
// (everything is staged, as with JAX's omnistaging). Arrays that do not belong to it —
// concrete arrays and tracers of enclosing traces — become constvars (or literals when 0-d
// and concrete; concrete splats become broadcast_in_dim of a literal).
struct detail::TraceState : std::enable_shared_from_this<detail::TraceState> {
  int level = 0;
  bool alive = true;
  JaxprImpl jaxpr;
  std::vector<int> producer;  // var id -> index of the producing equation, -1 for inputs
  std::unordered_map<const ArrayImpl*, int> captured;  // foreign array -> its constvar
  std::vector<Array> splat_sources;  // concrete splats recorded as broadcasts (kept alive)

  Array new_var(const AbstractValue& aval, int producer_eqn);
  Atom atom_for(const Array& a);
};

// Starts a trace nested in the current one (if any); it is the innermost until ended.
std::shared_ptr<detail::TraceState> begin_trace();
// A fresh input variable of `trace`.
Array new_input(detail::TraceState& trace, const AbstractValue& aval);
// Ends `trace` (which must be innermost) with `outputs` as results; its tracers die with it.
std::shared_ptr<JaxprImpl> end_trace(detail::TraceState& trace, std::span<const Array> outputs);
// Ends `trace` without a result (the traced function threw).
void abandon_trace(detail::TraceState& trace);
// The innermost active trace of this thread, or nullptr when running eagerly.
detail::TraceState* current_trace();

// Throws ShapeError when `prim` takes a fixed number of operands other than `operands`.
void check_arity(const Primitive& prim, std::size_t operands);

// Applies `prim` to `inputs`: checks them, computes the result types, then either runs the
// eager kernel (no active trace) or records an equation in the innermost trace.
std::vector<Array> bind(const Primitive& prim, std::span<const Array> inputs,
                        const Params& params, const SourceLoc& loc);
Array bind1(const Primitive& prim, std::span<const Array> inputs, const Params& params,
            const SourceLoc& loc);

// Runs a primitive's eager kernel on concrete inputs (what bind does with no active trace).
std::vector<Array> eval_eager(const Primitive& prim, std::span<const Array> inputs,
                              const std::vector<AbstractValue>& out_avals, const Params& params);

// How eager mode runs a primitive whose operands live on another device than the CPU: the
// primitive compiled for that device once per signature (as JAX runs ops one by one). Set by
// the API, which owns the compiler; null: such operands are refused.
using DeviceEval = std::vector<Array> (*)(const Primitive& prim, std::span<const Array> inputs, const Params& params,
                                          Device device);
void set_device_eval(DeviceEval eval);

// While alive, every equation bound on this thread records `loc` instead of its own call
// site: transforms set it to the location of the user's equation they are expanding, so that
// derivative equations point at the user's code rather than at a rule's file.
class ScopedLocation {
 public:
  explicit ScopedLocation(const SourceLoc& loc);
  ~ScopedLocation();
  ScopedLocation(const ScopedLocation&) = delete;
  ScopedLocation& operator=(const ScopedLocation&) = delete;

 private:
  const SourceLoc* previous_;
};

// Throws the EscapedTracerError or the null-array error for `a` used as an operand of `op`.
void check_usable(const Array& a, std::string_view op);

}  // namespace strata
