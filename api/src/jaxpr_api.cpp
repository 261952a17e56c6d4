// The public Jaxpr handle and the trace scope behind make_jaxpr.
#include <ostream>

#include "jaxpr.h"
#include "strata/jaxpr.h"
#include "strata/transforms.h"
#include "trace.h"

namespace strata {

std::string Jaxpr::to_string() const { return impl_->str(); }
int Jaxpr::num_inputs() const { return static_cast<int>(impl_->invars.size()); }
int Jaxpr::num_outputs() const { return static_cast<int>(impl_->outvars.size()); }
int Jaxpr::num_equations() const { return static_cast<int>(impl_->eqns.size()); }
std::vector<std::string> Jaxpr::primitive_names() const {
  std::vector<std::string> names;
  for (const Equation& e : impl_->eqns) names.emplace_back(e.prim->name);
  return names;
}

std::ostream& operator<<(std::ostream& os, const Jaxpr& j) { return os << j.to_string(); }

std::vector<Array> eval_jaxpr(const Jaxpr& jaxpr, const std::vector<Array>& args) {
  return eval_jaxpr(*jaxpr.impl(), args);
}

namespace detail {

TraceScope::TraceScope() : state_(begin_trace()) {}
TraceScope::~TraceScope() {
  if (state_ && state_->alive) abandon_trace(*state_);
}

std::vector<Array> TraceScope::inputs(const std::vector<Array>& leaves) {
  std::vector<Array> out;
  out.reserve(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    // Only the abstract value is read, so a tracer of a finished trace (a structure prototype
    // from an earlier trace, as custom_vjp uses) serves as well as a concrete array.
    if (!leaves[i].valid()) throw ValueError("argument leaf " + std::to_string(i) + " is a null Array");
    out.push_back(new_input(*state_, leaves[i].impl()->aval));
  }
  return out;
}

Jaxpr TraceScope::finish(const std::vector<Array>& outputs) {
  return Jaxpr(end_trace(*state_, outputs));
}

Array abstract_array(const ShapeDtypeStruct& s) {
  for (int64_t d : s.shape)
    if (d < 0) throw ShapeError("eval_shape: a ShapeDtypeStruct with a negative dimension, " + s.str());
  std::shared_ptr<TraceState> t = begin_trace();
  Array a = new_input(*t, AbstractValue{s.shape, s.dtype, false});
  end_trace(*t, {});
  return a;
}

std::vector<ShapeDtypeStruct> output_types(const Jaxpr& j) {
  std::vector<ShapeDtypeStruct> out;
  for (const Atom& a : j.impl()->outvars) {
    const AbstractValue& av = j.impl()->aval(a);
    out.emplace_back(av.shape, av.dtype);
  }
  return out;
}

}  // namespace detail
}  // namespace strata
