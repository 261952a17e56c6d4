// tracer/primitives/callbacks.cpp — the host callbacks, JAX's names and rules:
//   pure_callback[callback vmap_method] args...   → the callback's declared results
//   io_callback[callback ordered] args...         → the same, with an effect (kEffect)
//   debug_callback[callback ordered] args...      → nothing, with an effect
// `callback` is a HostCallback (tracer/host_callback.h): a C++ function of host arrays and its
// result types. Eagerly the function runs at once (on host copies of device operands); compiled,
// the runtime calls it (strata.host_callback, lowering/HostCallbackToRuntime.cpp). pure and io
// callbacks have no derivative (JAX's errors); a debug callback sees the primal values. vmap:
// pure_callback as its vmap_method says, io_callback a loop (a scan), debug_callback once per
// example, unrolled (as JAX's rules).
#include <algorithm>

#include "../array_impl.h"
#include "../host_callback.h"
#include "../lax.h"
#include "../trace.h"
#include "batch_rules.h"
#include "control_flow.h"

namespace strata {
namespace {

const HostCallback& callback_of(const Params& p) {
  const HostCallbackPtr& cb = p.get<HostCallbackPtr>("callback");
  if (!cb) throw ValueError("internal: a callback primitive without its callback");
  return *cb;
}

std::vector<AbstractValue> rule(std::span<const AbstractValue>, const Params& p) { return callback_of(p).results(); }
std::vector<AbstractValue> no_results(std::span<const AbstractValue>, const Params& p) {
  callback_of(p);
  return {};
}

// Runs the callback on host copies of the operands; results go where the operands were.
std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  std::vector<Array> host;
  Device device = cpu();
  for (const Array& a : in) {
    if (a.device().kind != DeviceKind::cpu) device = a.device();
    host.push_back(a.device().kind == DeviceKind::cpu ? a : detail::copy_to_device(a, cpu()));
  }
  std::vector<Array> out = callback_of(p)(host);
  if (device.kind != DeviceKind::cpu)
    for (Array& r : out) r = detail::copy_to_device(r, device);
  return out;
}

[[noreturn]] void no_derivative(const Params& p, const char* kind) {
  throw ValueError(callback_of(p).name() + ": " + kind +
                   " callbacks have no derivative (a host function is opaque to autodiff); wrap the call in "
                   "st::custom_jvp or st::custom_vjp to give it one, as with jax.pure_callback");
}
std::vector<Array> pure_jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params& p) {
  no_derivative(p, "pure");
}
std::vector<Array> pure_vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params& p) {
  no_derivative(p, "pure");
}
std::vector<Array> io_jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params& p) {
  no_derivative(p, "IO");
}
std::vector<Array> io_vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params& p) {
  no_derivative(p, "IO");
}

int64_t batch_size(std::span<const Array> args, std::span<const int> dims) {
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) return args[i].shape()[static_cast<size_t>(dims[i])];
  throw ValueError("internal: a callback batching rule without a batched operand");
}

AbstractValue with_leading(AbstractValue a, int64_t n) {
  a.shape.insert(a.shape.begin(), n);
  return a;
}

// A loop over the batch (JAX's lax.map): one call per example, the unbatched operands passed as
// they are; every result stacked along dimension 0.
batching::Out sequential(const Primitive& prim, std::span<const Array> args, std::span<const int> dims,
                         const Params& p, bool unrolled) {
  const int64_t n = batch_size(args, dims);
  std::vector<Array> unbatched, batched;
  std::vector<AbstractValue> body_in;
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] == not_mapped) {
      unbatched.push_back(args[i]);
      body_in.push_back(detail::aval_of(args[i]));
    }
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) {
      batched.push_back(batching::move_dim(args[i], dims[i], 0));
      AbstractValue a = detail::aval_of(args[i]);
      a.shape.erase(a.shape.begin() + dims[i]);
      body_in.push_back(a);
    }
  const size_t nu = unbatched.size();
  control_flow::Traced body = control_flow::trace(body_in, [&](std::span<const Array> xs) {
    std::vector<Array> merged;
    size_t u = 0, b = nu;
    for (size_t i = 0; i < args.size(); ++i) merged.push_back(dims[i] == not_mapped ? xs[u++] : xs[b++]);
    return lax::bind(prim, merged, p);
  });
  Params sp{{"jaxpr", body.jaxpr},
            {"length", n},
            {"num_consts", static_cast<int64_t>(body.consts.size() + nu)},
            {"num_carry", int64_t{0}},
            {"reverse", false},
            {"unroll", unrolled ? std::max<int64_t>(n, 1) : int64_t{1}}};
  std::vector<Array> operands = control_flow::cat<Array>({body.consts, unbatched, batched});
  std::vector<Array> out = lax::bind(prim::kScan, operands, sp);
  return {out, std::vector<int>(out.size(), 0)};
}

batching::Out pure_batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  const std::string& method = p.get<std::string>("vmap_method");
  if (method == "sequential" || method == "sequential_unrolled")
    return sequential(prim::kPureCallback, args, dims, p, method == "sequential_unrolled");
  if (method != "expand_dims" && method != "broadcast_all")
    throw ValueError(callback_of(p).name() +
                     ": vmap of a pure_callback needs a vmap_method (CallbackOptions::vmap_method: sequential, "
                     "sequential_unrolled, expand_dims or broadcast_all), as jax.pure_callback's");
  // One call on the whole batch: batched operands with the batch first, the others with a
  // leading axis of 1 (expand_dims) or of the batch size (broadcast_all).
  const int64_t n = batch_size(args, dims);
  std::vector<Array> xs;
  for (size_t i = 0; i < args.size(); ++i) {
    if (dims[i] != not_mapped) {
      xs.push_back(batching::move_dim(args[i], dims[i], 0));
    } else if (method == "broadcast_all") {
      xs.push_back(batching::broadcast_batch(args[i], n));
    } else {
      Shape s = args[i].shape();
      s.insert(s.begin(), 1);
      xs.push_back(lax::reshape(args[i], s));
    }
  }
  std::vector<AbstractValue> results;
  for (const AbstractValue& r : callback_of(p).results()) results.push_back(with_leading(r, n));
  Params q = p;
  q.set("callback", callback_of(p).with_results(std::move(results)));
  std::vector<Array> out = lax::bind(prim::kPureCallback, xs, q);
  return {out, std::vector<int>(out.size(), 0)};
}

batching::Out io_batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  if (p.get<bool>("ordered"))
    throw ValueError(callback_of(p).name() + ": cannot vmap an ordered io_callback (its calls would have no order)");
  return sequential(prim::kIoCallback, args, dims, p, false);
}

// One call per example, in order, unrolled (JAX's debug_batching_rule).
batching::Out debug_batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  const int64_t n = batch_size(args, dims);
  for (int64_t k = 0; k < n; ++k) {
    std::vector<Array> xs;
    for (size_t i = 0; i < args.size(); ++i) {
      if (dims[i] == not_mapped) {
        xs.push_back(args[i]);
        continue;
      }
      Shape s = args[i].shape();
      IntList start(s.size(), 0), limit(s.begin(), s.end()), strides(s.size(), 1);
      const size_t d = static_cast<size_t>(dims[i]);
      start[d] = k;
      limit[d] = k + 1;
      s.erase(s.begin() + dims[i]);
      xs.push_back(lax::reshape(lax::slice(args[i], start, limit, strides), s));
    }
    lax::bind(prim::kDebugCallback, xs, p);
  }
  return {{}, {}};
}

}  // namespace

const Primitive prim::kPureCallback{
    .name = "pure_callback",
    .traits = kTakesComplex | kRunsOnHost,
    .shape_rule = rule,
    .eval = eval,
    .jvp = pure_jvp,
    .vjp = pure_vjp,
    .batch = pure_batch,
};

const Primitive prim::kIoCallback{
    .name = "io_callback",
    .traits = kTakesComplex | kRunsOnHost | kEffect,
    .shape_rule = rule,
    .eval = eval,
    .jvp = io_jvp,
    .vjp = io_vjp,
    .batch = io_batch,
};

// No results, so nothing to differentiate: JVP and VJP see it run on the primal values.
const Primitive prim::kDebugCallback{
    .name = "debug_callback",
    .traits = kTakesComplex | kRunsOnHost | kEffect | kNotDifferentiable,
    .shape_rule = no_results,
    .eval = eval,
    .batch = debug_batch,
};

}  // namespace strata
