// tracer/primitives/custom_vjp_call.cpp — `custom_vjp_call[fun, fwd, bwd]`: calls `fun`, whose
// reverse-mode derivative is the user's: `fwd` computes (outputs..., residuals...) and `bwd`
// maps (residuals..., output cotangents...) to one cotangent per input (st::custom_vjp). All
// three take the values they captured as leading operands (num_consts; see custom_calls.h).
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
  return custom_calls::rule("custom_vjp_call", in, *p.get<JaxprPtr>("fun"));
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  return eval_jaxpr(*p.get<JaxprPtr>("fun"), in);
}

std::vector<Array> jvp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  throw Error("jvp: a function defined with st::custom_vjp has a reverse-mode rule only; forward mode (jvp) "
              "of it is not supported. Use grad/vjp, or define the function without custom_vjp.");
}

// Runs the user's forward function, inlined where we are: its first outputs are fun's, the rest
// the residuals; the backward half runs bwd on them. Under grad this replaces fun (vjp_split),
// so only fwd runs, as in JAX. Operands: (consts..., args...); fwd takes them all, bwd
// (consts..., residuals..., cts...).
std::pair<std::vector<Array>, VjpBackward> vjp_split(std::span<const Array> x, const Params& p) {
  const JaxprImpl& fwd = *p.get<JaxprPtr>("fwd");
  const size_t nc = static_cast<size_t>(custom_calls::num_consts(p));
  const size_t ny = p.get<JaxprPtr>("fun")->outvars.size();
  for (size_t i = 0; i < nc; ++i)
    if (is_inexact(x[i].dtype()) && ad::cotangent_needed(i)) custom_calls::refuse_closed_over("custom_vjp");
  std::vector<Array> fwd_out = eval_jaxpr(fwd, x);
  std::vector<Array> outputs(fwd_out.begin(), fwd_out.begin() + static_cast<std::ptrdiff_t>(ny));
  std::vector<Array> args(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(nc));
  args.insert(args.end(), fwd_out.begin() + static_cast<std::ptrdiff_t>(ny), fwd_out.end());
  std::vector<AbstractValue> y_av;
  for (const Array& o : outputs) y_av.push_back(detail::aval_of(o));
  VjpBackward backward = [p, nc, args = std::move(args), y_av](std::span<const Array> ct) {
    std::vector<Array> in = args;
    for (size_t i = 0; i < ct.size(); ++i) in.push_back(ad::instantiate(ct[i], y_av[i]));
    std::vector<Array> r(nc);
    std::vector<Array> g = eval_jaxpr(*p.get<JaxprPtr>("bwd"), in);
    r.insert(r.end(), g.begin(), g.end());
    return r;
  };
  return {std::move(outputs), std::move(backward)};
}

// The one-shot VJP (after a primal call of fun): fwd for the residuals, then bwd.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return vjp_split(x, p).second(ct);
}

// vmap: every operand but the captured values batched along dimension 0 (an unbatched one
// repeated), and fun, fwd and bwd replaced by their batched programs with every output batched too, so bwd's inputs (fwd's
// residuals and the cotangents) are all batched along 0 as well; the user's rule still applies
// under grad of the vmapped function.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  custom_calls::FrontBatch fb = custom_calls::batch_front(args, dims, static_cast<size_t>(custom_calls::num_consts(p)));
  Params q = p;
  for (const char* key : {"fun", "fwd", "bwd"}) {
    const JaxprImpl& j = *p.get<JaxprPtr>(key);
    q.set(key, custom_calls::batched(j, fb.size, fb.mapped(j)));
  }
  std::vector<Array> out = lax::bind(prim::kCustomVjpCall, fb.operands, q);
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
    .vjp_split = vjp_split,
};

}  // namespace strata
