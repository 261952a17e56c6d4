// tracer/primitives/custom_jvp_call.cpp — `custom_jvp_call[fun, jvp]`: calls `fun`, whose
// forward-mode derivative is the user's: `jvp` maps (primals..., tangents...) to (outputs...,
// output tangents...) (st::custom_jvp, jax.custom_jvp). Both take the values they captured as
// leading operands (num_consts of them; see custom_calls.h). Reverse mode transposes that rule, so it
// must be linear in the tangents, as JAX requires.
#include "../array_impl.h"
#include "../autodiff.h"
#include "../batching.h"
#include "../jaxpr.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "custom_calls.h"

namespace strata {
namespace {

using JaxprPtr = std::shared_ptr<const JaxprImpl>;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  return custom_calls::rule("custom_jvp_call", in, *p.get<JaxprPtr>("fun"));
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) { return eval_jaxpr(*p.get<JaxprPtr>("fun"), in); }

// The user's rule on (consts..., primals..., tangents...), zero tangents instantiated (JAX's
// default): the output tangents. A captured value with a tangent is refused.
std::vector<Array> user_tangents(std::span<const Array> x, std::span<const Array> t, const Params& p) {
  const JaxprImpl& rule = *p.get<JaxprPtr>("jvp");
  const size_t nc = static_cast<size_t>(custom_calls::num_consts(p));
  for (size_t i = 0; i < nc; ++i)
    if (t[i].valid() && is_inexact(x[i].dtype())) custom_calls::refuse_closed_over("custom_jvp");
  std::vector<Array> args(x.begin(), x.end());
  for (size_t i = nc; i < x.size(); ++i) args.push_back(ad::instantiate(t[i], detail::aval_of(x[i])));
  std::vector<Array> r = eval_jaxpr(rule, args);
  return std::vector<Array>(r.begin() + static_cast<std::ptrdiff_t>(r.size() / 2), r.end());
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>, const Params& p) {
  return user_tangents(x, t, p);
}

// The rule transposed in the tangents (the primals fixed): one cotangent per float operand.
// The captured values' tangents are ignored by the map, so it is asked for the arguments' only.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params& p) {
  const size_t nc = static_cast<size_t>(custom_calls::num_consts(p));
  for (size_t i = 0; i < nc; ++i)
    if (is_inexact(x[i].dtype()) && ad::cotangent_needed(i)) custom_calls::refuse_closed_over("custom_jvp");
  return ad::transpose_tangent_map(x, y, ct, [&](std::span<const Array> t) {
    std::vector<Array> args_only(t.begin(), t.end());
    for (size_t i = 0; i < nc; ++i) args_only[i] = Array();
    return user_tangents(x, args_only, p);
  });
}

// Reverse mode in one forward pass (vjp_split), as JAX linearizes the rule: the rule partially
// evaluated with the primals known gives the outputs (its primal part) and the residuals its
// tangent part reads; the backward half transposes that tangent part. fun is not computed.
std::pair<std::vector<Array>, VjpBackward> vjp_split(std::span<const Array> x, const Params& p) {
  const size_t nc = static_cast<size_t>(custom_calls::num_consts(p));
  for (size_t i = 0; i < nc; ++i)
    if (is_inexact(x[i].dtype()) && ad::cotangent_needed(i)) custom_calls::refuse_closed_over("custom_jvp");
  const JaxprImpl& rule = *p.get<JaxprPtr>("jvp");
  const size_t ny = p.get<JaxprPtr>("fun")->outvars.size();
  ad::Partial part = ad::partial_eval(rule, x, ny);
  std::vector<Array> outputs = part.known_outputs;
  std::vector<Array> operands(x.begin(), x.end());
  VjpBackward backward = [nc, operands, outputs, residuals = std::move(part.residuals),
                          unknown = std::shared_ptr<const JaxprImpl>(part.unknown)](std::span<const Array> ct) {
    return ad::transpose_tangent_map(operands, outputs, ct, [&](std::span<const Array> t) {
      std::vector<Array> in = residuals;
      for (size_t i = nc; i < operands.size(); ++i) in.push_back(ad::instantiate(t[i], detail::aval_of(operands[i])));
      return eval_jaxpr(*unknown, in);
    });
  };
  return {std::move(outputs), std::move(backward)};
}

// vmap: fun and the rule batched along dimension 0 (as custom_vjp_call's; captured values stay
// unbatched when they are), so the user's rule still applies to the vmapped function.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  custom_calls::FrontBatch fb = custom_calls::batch_front(args, dims, static_cast<size_t>(custom_calls::num_consts(p)));
  Params q = p;
  for (const char* key : {"fun", "jvp"}) {
    const JaxprImpl& j = *p.get<JaxprPtr>(key);
    q.set(key, custom_calls::batched(j, fb.size, fb.mapped(j)));
  }
  std::vector<Array> out = lax::bind(prim::kCustomJvpCall, fb.operands, q);
  return {out, std::vector<int>(out.size(), 0)};
}

}  // namespace

const Primitive prim::kCustomJvpCall{
    .name = "custom_jvp_call",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
    .vjp_split = vjp_split,
};

}  // namespace strata
