#include "trace.h"

#include <atomic>
#include <cstring>
#include <string>

namespace strata {
namespace {

thread_local std::vector<std::shared_ptr<detail::TraceState>> g_trace_stack;
thread_local const SourceLoc* g_location_override = nullptr;

}  // namespace

using detail::ArrayImpl;
using detail::TraceState;

Array TraceState::new_var(const AbstractValue& aval, int producer_eqn) {
  int id = static_cast<int>(jaxpr.vars.size());
  jaxpr.vars.push_back(aval);
  producer.push_back(producer_eqn);
  auto impl = std::make_shared<ArrayImpl>();
  impl->aval = aval;
  // Tracers keep their trace alive, so that a use after it ended is detected, not dangling.
  impl->trace = shared_from_this();
  impl->var = id;
  return Array(std::move(impl));
}

namespace {

// Whether a concrete array's elements, on the host, are all the same bytes (st::zeros,
// full_like, ones of a shape): it needs only its first element.
bool is_host_splat(const ArrayImpl& impl) {
  if (!impl.buffer || impl.buffer->device.kind != DeviceKind::cpu || !impl.buffer->data) return false;
  const int64_t n = impl.aval.size();
  const size_t w = itemsize(impl.aval.dtype);
  if (n < 2) return false;
  const char* p = static_cast<const char*>(impl.buffer->data);
  for (int64_t i = 1; i < n; ++i)
    if (std::memcmp(p, p + i * static_cast<int64_t>(w), w) != 0) return false;
  return true;
}

}  // namespace

Atom TraceState::atom_for(const Array& a) {
  const auto& impl = a.impl();
  if (impl->trace.get() == this) return Atom{impl->var, {}};
  if (!impl->trace && impl->aval.shape.empty()) return Atom{-1, a};
  auto it = captured.find(impl.get());
  if (it != captured.end()) return Atom{it->second, {}};
  if (!impl->trace && is_host_splat(*impl)) {
    // A concrete splat (what st::zeros, ones or full_like made while tracing) is recorded as
    // broadcast_in_dim of its element, as JAX's traced jnp.zeros is: the compiled program then
    // makes it in registers, fused into its consumers, rather than reading a constant argument
    // from memory at every call.
    Array element = detail::make_concrete(AbstractValue{{}, impl->aval.dtype, impl->aval.weak});
    std::memcpy(element.impl()->buffer->data, impl->buffer->data, itemsize(impl->aval.dtype));
    Equation eqn;
    eqn.prim = &prim::kBroadcastInDim;
    eqn.inputs.push_back(Atom{-1, element});
    eqn.params = Params{{"shape", IntList(impl->aval.shape)}, {"broadcast_dimensions", IntList{}}};
    if (g_location_override) eqn.loc = *g_location_override;
    Array v = new_var(impl->aval, static_cast<int>(jaxpr.eqns.size()));
    eqn.outputs.push_back(v.impl()->var);
    jaxpr.eqns.push_back(std::move(eqn));
    captured.emplace(impl.get(), v.impl()->var);
    splat_sources.push_back(a);  // keeps impl alive, so the pointer key stays unique
    return Atom{v.impl()->var, {}};
  }
  Array v = new_var(impl->aval, -1);
  int id = v.impl()->var;
  jaxpr.constvars.push_back(id);
  jaxpr.consts.push_back(a);  // keeps impl alive, so the pointer key stays unique
  captured.emplace(impl.get(), id);
  return Atom{id, {}};
}

std::shared_ptr<TraceState> begin_trace() {
  auto t = std::make_shared<TraceState>();
  t->level = static_cast<int>(g_trace_stack.size()) + 1;
  g_trace_stack.push_back(t);
  return t;
}

TraceState* current_trace() { return g_trace_stack.empty() ? nullptr : g_trace_stack.back().get(); }

Array new_input(TraceState& trace, const AbstractValue& aval) {
  Array v = trace.new_var(aval, -1);
  trace.jaxpr.invars.push_back(v.impl()->var);
  return v;
}

namespace {
void pop(TraceState& trace) {
  if (g_trace_stack.empty() || g_trace_stack.back().get() != &trace)
    throw Error("internal: trace ended out of order");
  trace.alive = false;
  g_trace_stack.pop_back();
}
}  // namespace

std::shared_ptr<JaxprImpl> end_trace(TraceState& trace, std::span<const Array> outputs) {
  for (const Array& out : outputs) {
    check_usable(out, "the traced function's result");
    trace.jaxpr.outvars.push_back(trace.atom_for(out));
  }
  pop(trace);
  auto result = std::make_shared<JaxprImpl>(std::move(trace.jaxpr));
  trace.jaxpr = JaxprImpl{};
  trace.captured.clear();
  return result;
}

void abandon_trace(TraceState& trace) {
  if (!g_trace_stack.empty() && g_trace_stack.back().get() == &trace) pop(trace);
}

ScopedLocation::ScopedLocation(const SourceLoc& loc) : previous_(g_location_override) {
  g_location_override = &loc;
}
ScopedLocation::~ScopedLocation() { g_location_override = previous_; }

void check_usable(const Array& a, std::string_view op) {
  if (!a.valid())
    throw ValueError(std::string(op) + ": got a null Array (default-constructed, never assigned)");
  if (const std::string* why = a.impl()->donated())
    throw ValueError(std::string(op) + ": " + *why +
                     "; a donated array cannot be used again. Use that call's result, or donate a copy");
  const auto& t = a.impl()->trace;
  if (t && !t->alive)
    throw EscapedTracerError(
        std::string(op) + ": a tracer (" + a.impl()->aval.str() +
        ") was used after the trace that created it had ended. A traced function must return "
        "its results rather than store them (in a global, a captured variable or a member); "
        "pass values in as arguments instead.");
}

namespace {
std::atomic<DeviceEval> g_device_eval_fn{nullptr};
}  // namespace

void set_device_eval(DeviceEval eval) { g_device_eval_fn.store(eval, std::memory_order_release); }

void check_arity(const Primitive& prim, std::size_t operands) {
  if (prim.arity >= 0 && operands != static_cast<std::size_t>(prim.arity))
    throw ShapeError(std::string(prim.name) + ": expects " + std::to_string(prim.arity) + " operand" +
                     (prim.arity == 1 ? "" : "s") + ", but got " + std::to_string(operands));
}

std::vector<Array> eval_eager(const Primitive& prim, std::span<const Array> inputs,
                              const std::vector<AbstractValue>& out_avals, const Params& params) {
  std::vector<KernelArg> in;
  in.reserve(inputs.size());
  for (const Array& a : inputs)
    in.push_back(KernelArg{a.impl()->buffer->data, &a.impl()->aval});
  std::vector<Array> outs;
  std::vector<KernelArg> out;
  outs.reserve(out_avals.size());
  out.reserve(out_avals.size());
  for (const AbstractValue& av : out_avals) {
    outs.push_back(detail::make_concrete(av));
    out.push_back(KernelArg{outs.back().impl()->buffer->data, &outs.back().impl()->aval});
  }
  prim.eager(in, out, params);
  return outs;
}

std::vector<Array> bind(const Primitive& prim, std::span<const Array> inputs,
                        const Params& params, const SourceLoc& loc) {
  std::vector<AbstractValue> in_avals;
  in_avals.reserve(inputs.size());
  for (const Array& a : inputs) {
    check_usable(a, prim.name);
    in_avals.push_back(a.impl()->aval);
  }
  check_arity(prim, in_avals.size());
  std::vector<AbstractValue> out_avals = prim.shape_rule(in_avals, params);
  check_complex(prim, in_avals, out_avals);
  // A result whose element count (or byte size) does not fit in 64 bits is refused here, once
  // for every primitive, before anything is allocated or traced.
  for (const AbstractValue& av : out_avals) {
    uint64_t n = 1;
    bool overflow = false;
    for (int64_t d : av.shape) overflow = overflow || __builtin_mul_overflow(n, static_cast<uint64_t>(d), &n);
    overflow = overflow || n > (uint64_t{1} << 62) / 16;
    if (overflow)
      throw ValueError(std::string(prim.name) + ": the result " + av.str() + " has too many elements");
  }

  TraceState* trace = current_trace();
  if (!trace) {
    // Operands on a device: the primitive runs there (host operands, such as a scalar, are
    // copied over); two devices at once are refused. Operands all on the host: the default
    // device (the CPU unless set otherwise).
    const Device* device = nullptr;
    for (const Array& a : inputs) {
      if (!a.impl()->buffer || a.impl()->buffer->device.kind == DeviceKind::cpu) continue;
      const Device& d = a.impl()->buffer->device;
      if (device && !(*device == d))
        throw ValueError(std::string(prim.name) + ": operands on two devices, " + device->str() + " and " + d.str() +
                         "; move one with st::device_put");
      device = &d;
    }
    Device fallback = detail::default_device_core();
    if (!device && fallback.kind != DeviceKind::cpu) device = &fallback;
    if (device && !prim.has(kRunsOnHost)) {
      DeviceEval eval = g_device_eval_fn.load(std::memory_order_acquire);
      if (!eval)
        throw ValueError(std::string(prim.name) + ": got an array on " + device->str() +
                         ", but this build cannot run operations there");
      return eval(prim, inputs, params, *device);
    }
    if (prim.eval) return prim.eval(inputs, params);
    return eval_eager(prim, inputs, out_avals, params);
  }

  Equation eqn;
  eqn.prim = &prim;
  eqn.params = params;
  eqn.loc = g_location_override ? *g_location_override : loc;
  for (const Array& a : inputs) eqn.inputs.push_back(trace->atom_for(a));
  int eqn_index = static_cast<int>(trace->jaxpr.eqns.size());
  std::vector<Array> outs;
  for (const AbstractValue& av : out_avals) {
    Array v = trace->new_var(av, eqn_index);
    eqn.outputs.push_back(v.impl()->var);
    outs.push_back(std::move(v));
  }
  trace->jaxpr.eqns.push_back(std::move(eqn));
  return outs;
}

Array bind1(const Primitive& prim, std::span<const Array> inputs, const Params& params,
            const SourceLoc& loc) {
  std::vector<Array> outs = bind(prim, inputs, params, loc);
  if (outs.size() != 1) throw Error("internal: " + std::string(prim.name) + " has several results");
  return std::move(outs[0]);
}

std::vector<Array> eval_jaxpr(const JaxprImpl& jaxpr, std::span<const Array> args) {
  if (args.size() != jaxpr.invars.size())
    throw ValueError("eval_jaxpr: the program takes " + std::to_string(jaxpr.invars.size()) +
                     " arguments, but got " + std::to_string(args.size()));
  std::vector<Array> env(jaxpr.vars.size());
  for (size_t i = 0; i < jaxpr.constvars.size(); ++i) env[jaxpr.constvars[i]] = jaxpr.consts[i];
  for (size_t i = 0; i < args.size(); ++i) {
    const AbstractValue& want = jaxpr.vars[jaxpr.invars[i]];
    check_usable(args[i], "eval_jaxpr");
    const AbstractValue& got = args[i].impl()->aval;
    if (got.shape != want.shape || got.dtype != want.dtype)
      throw ShapeError("eval_jaxpr: argument " + std::to_string(i) + " expects " + want.str() +
                       ", but got " + got.str());
    env[jaxpr.invars[i]] = args[i];
  }
  auto read = [&](const Atom& a) { return a.is_literal() ? a.literal : env[a.var]; };
  std::vector<Array> ins;
  for (const Equation& eqn : jaxpr.eqns) {
    ins.clear();
    for (const Atom& a : eqn.inputs) ins.push_back(read(a));
    std::vector<Array> outs = bind(*eqn.prim, ins, eqn.params, eqn.loc);
    for (size_t i = 0; i < outs.size(); ++i) env[eqn.outputs[i]] = std::move(outs[i]);
  }
  std::vector<Array> results;
  for (const Atom& a : jaxpr.outvars) results.push_back(read(a));
  return results;
}

}  // namespace strata
