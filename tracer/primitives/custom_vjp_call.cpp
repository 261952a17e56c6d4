// tracer/primitives/custom_vjp_call.cpp — `custom_vjp_call[fun, fwd, bwd]`: calls `fun`, whose
// reverse-mode derivative is the user's: `fwd` computes (outputs..., residuals...) and `bwd`
// maps (residuals..., output cotangents...) to one cotangent per input (st::custom_vjp).
#include "../array_impl.h"
#include "../jaxpr.h"
#include "../batching.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "control_flow.h"
#include "common.h"

namespace strata {
namespace {

using JaxprPtr = std::shared_ptr<const JaxprImpl>;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  const JaxprImpl& fun = *p.get<JaxprPtr>("fun");
  if (in.size() != fun.invars.size())
    throw ValueError("custom_vjp_call: expects " + std::to_string(fun.invars.size()) + " operands, but got " +
                     std::to_string(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    const AbstractValue& want = fun.vars[fun.invars[i]];
    if (want.shape != in[i].shape || want.dtype != in[i].dtype)
      throw ShapeError("custom_vjp_call: operand " + std::to_string(i) + " expects " + want.str() + ", but got " + in[i].str());
  }
  std::vector<AbstractValue> out;
  for (const Atom& a : fun.outvars) out.push_back(fun.aval(a));
  return out;
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  return eval_jaxpr(*p.get<JaxprPtr>("fun"), in);
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  throw Error("jvp: a function defined with st::custom_vjp has a reverse-mode rule only; forward mode (jvp) "
              "of it is not supported. Use grad/vjp, or define the function without custom_vjp.");
}

// Runs the user's forward (for the residuals) and backward functions, inlined where we are.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params& p) {
  const JaxprImpl& fwd = *p.get<JaxprPtr>("fwd");
  const JaxprImpl& bwd = *p.get<JaxprPtr>("bwd");
  std::vector<Array> fwd_out = eval_jaxpr(fwd, x);
  std::vector<Array> args(fwd_out.begin() + static_cast<std::ptrdiff_t>(y.size()), fwd_out.end());
  for (size_t i = 0; i < ct.size(); ++i) args.push_back(ad::instantiate(ct[i], detail::aval_of(y[i])));
  return eval_jaxpr(bwd, args);
}

// vmap: every operand batched along dimension 0 (an unbatched one repeated), and fun, fwd and
// bwd replaced by their batched programs with every output batched too, so bwd's inputs (fwd's
// residuals and the cotangents) are all batched along 0 as well; the user's rule still applies
// under grad of the vmapped function.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  int64_t n = batching::batch_size(args, dims);
  std::vector<Array> xs;
  for (size_t i = 0; i < args.size(); ++i) xs.push_back(batching::front_or_repeat(args, dims, i, n));
  auto batched = [n](const JaxprImpl& j, std::vector<AbstractValue> avals) {
    for (AbstractValue& av : avals) av.shape.insert(av.shape.begin(), n);
    return control_flow::trace_closed(avals, [&](std::span<const Array> in) {
      batching::Result r = batching::batch_jaxpr(j, in, std::vector<int>(in.size(), 0));
      std::vector<Array> outs;
      for (size_t i = 0; i < r.outputs.size(); ++i)
        outs.push_back(r.dims[i] == not_mapped ? batching::broadcast_batch(r.outputs[i], n)
                                               : batching::move_dim(r.outputs[i], r.dims[i], 0));
      return outs;
    });
  };
  const JaxprImpl &fun = *p.get<JaxprPtr>("fun"), &fwd = *p.get<JaxprPtr>("fwd"), &bwd = *p.get<JaxprPtr>("bwd");
  Params q{{"fun", batched(fun, control_flow::in_avals(fun))}, {"fwd", batched(fwd, control_flow::in_avals(fwd))},
           {"bwd", batched(bwd, control_flow::in_avals(bwd))}};
  std::vector<Array> out = lax::bind(prim::kCustomVjpCall, xs, q);
  return {out, std::vector<int>(out.size(), 0)};
}

}  // namespace

const Primitive prim::kCustomVjpCall{
    .name = "custom_vjp_call",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
