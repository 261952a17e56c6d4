// The non-template half of strata/grad.h: entry points into tracer/autodiff.
#include "autodiff.h"
#include "lax.h"
#include "op_helpers.h"
#include "primitives/ad_rules.h"
#include "primitives/control_flow.h"
#include "strata/grad.h"

namespace strata {

Array stop_gradient(const Array& x, SourceLocation loc) {
  return lax::bind1(prim::kStopGradient, {x}, {}, loc);
}

namespace detail {

struct Backward {
  ad::Backward impl;
  std::vector<AbstractValue> cotangent_types;  // what each output cotangent must be
};

VjpOutcome vjp_jaxpr(const Jaxpr& j, const std::vector<Array>& primals, const std::vector<bool>& wrt,
                     std::size_t num_ct, const char* who) {
  ad::VjpResult r = ad::vjp(*j.impl(), primals, wrt, num_ct, who);
  auto b = std::make_shared<Backward>();
  b->impl = std::move(*r.backward);
  for (std::size_t i = 0; i < num_ct; ++i) b->cotangent_types.push_back(j.impl()->aval(j.impl()->outvars[i]));
  return VjpOutcome{std::move(r.outputs), std::move(b)};
}

std::vector<Array> run_backward(const Backward& b, const std::vector<Array>& cotangents, const char* who) {
  if (cotangents.size() != b.cotangent_types.size())
    throw ValueError(std::string(who) + ": expects " + std::to_string(b.cotangent_types.size()) +
                     " cotangent arrays (one per output leaf), but got " + std::to_string(cotangents.size()));
  for (std::size_t i = 0; i < cotangents.size(); ++i) {
    if (!cotangents[i].valid()) continue;
    const AbstractValue& want = b.cotangent_types[i];
    const AbstractValue& got = api::aval(cotangents[i], who);
    if (got.shape != want.shape || got.dtype != want.dtype)
      throw ShapeError(std::string(who) + ": cotangent " + std::to_string(i) + " expects " + want.str() +
                       " (the output's type), but got " + got.str());
  }
  return b.impl(cotangents);
}

std::vector<std::string> residual_types(const Backward& b) {
  std::vector<std::string> r;
  for (const Array& a : b.impl.residuals) r.push_back(api::aval(a, "residual").str());
  return r;
}

std::pair<std::vector<Array>, std::vector<Array>> jvp_jaxpr(const Jaxpr& j, const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents) {
  if (primals.size() != tangents.size())
    throw ValueError("jvp: expects one tangent per primal leaf (" + std::to_string(primals.size()) + "), but got " +
                     std::to_string(tangents.size()));
  for (std::size_t i = 0; i < primals.size(); ++i) {
    const AbstractValue& p = api::aval(primals[i], "jvp");
    const AbstractValue& t = api::aval(tangents[i], "jvp");
    if (p.shape != t.shape || (is_inexact(p.dtype) && p.dtype != t.dtype))
      throw ShapeError("jvp: tangent " + std::to_string(i) + " expects " + p.str() + " (the primal's type), but got " + t.str());
  }
  ad::JvpResult r = ad::jvp(*j.impl(), primals, tangents);
  for (std::size_t i = 0; i < r.tangents.size(); ++i)
    if (!r.tangents[i].valid()) r.tangents[i] = lax::zeros(api::aval(r.outputs[i], "jvp"));
  return {std::move(r.outputs), std::move(r.tangents)};
}

void check_differentiable(const Array& leaf, int argument, std::size_t leaf_index, const char* who, bool holomorphic) {
  const AbstractValue& av = api::aval(leaf, who);
  std::string arg = "argument " + std::to_string(argument) +
                    (leaf_index ? " (leaf " + std::to_string(leaf_index) + ")" : std::string());
  if (holomorphic && !is_complex(av.dtype))
    throw DTypeError(std::string(who) + " with holomorphic: " + arg + " is " + av.str() +
                     ", but holomorphic differentiation needs complex inputs (cast with st::astype(x, st::c64) or c128)");
  if (is_inexact(av.dtype)) return;
  throw DTypeError(std::string(who) + ": " + arg + " has dtype " + std::string(short_name(av.dtype)) + " (" + av.str() +
                   "); only floating-point and complex arguments can be differentiated (pass integers as static "
                   "arguments, or choose other argnums)");
}

void check_scalar_loss(const Jaxpr& j, const char* who, bool holomorphic) {
  if (j.num_outputs() < 1) throw ValueError(std::string(who) + ": the function returns no Array");
  const AbstractValue& av = j.impl()->aval(j.impl()->outvars[0]);
  if (!av.shape.empty() || !is_inexact(av.dtype))
    throw ValueError(std::string(who) + ": the function must return a 0-d floating-point loss, but got " + av.str() +
                     "; use vjp for non-scalar outputs (or has_aux to return extra values)");
  // JAX's rule: a complex output is differentiated only as a holomorphic function; otherwise
  // its real and imaginary parts are two real functions (take st::real / st::imag, or use vjp).
  if (is_complex(av.dtype) && !holomorphic)
    throw ValueError(std::string(who) + ": the function returns a complex value (" + av.str() +
                     "); grad needs a real loss — pass st::holomorphic for a holomorphic function, take its "
                     "st::real or st::abs, or use vjp with a complex cotangent");
  if (!is_complex(av.dtype) && holomorphic)
    throw ValueError(std::string(who) + " with holomorphic: the function returns " + av.str() +
                     ", but a holomorphic function returns a complex value");
}

struct Linearized {
  std::vector<Array> residuals;
  std::shared_ptr<JaxprImpl> program;  // (residuals..., tangents of the float primals...) -> output tangents
  std::vector<AbstractValue> primal_types, output_types;
};

std::pair<std::vector<Array>, std::shared_ptr<const Linearized>> linearize_jaxpr(const Jaxpr& j,
                                                                                  const std::vector<Array>& primals) {
  const JaxprImpl& f = *j.impl();
  auto l = std::make_shared<Linearized>();
  std::vector<AbstractValue> avals;
  for (const Array& p : primals) {
    l->primal_types.push_back(api::aval(p, "linearize"));
    avals.push_back(l->primal_types.back());
  }
  for (const AbstractValue& av : l->primal_types)
    if (is_inexact(av.dtype)) avals.push_back(av);
  for (const Atom& a : f.outvars) l->output_types.push_back(f.aval(a));
  // The JVP as a program of (primals..., float tangents...) -> (outputs..., output tangents...).
  JaxprPtr jvp = control_flow::trace_closed(avals, [&](std::span<const Array> ins) {
    std::vector<Array> ps(ins.begin(), ins.begin() + static_cast<std::ptrdiff_t>(primals.size())), ts(primals.size());
    for (size_t i = 0, k = primals.size(); i < primals.size(); ++i)
      if (is_inexact(l->primal_types[i].dtype)) ts[i] = ins[k++];
    ad::JvpResult r = ad::jvp(f, ps, ts);
    std::vector<Array> outs = r.outputs;
    for (size_t i = 0; i < r.tangents.size(); ++i) outs.push_back(ad::instantiate(r.tangents[i], l->output_types[i]));
    return outs;
  });
  ad::Partial part = ad::partial_eval(*jvp, primals, f.outvars.size());
  l->residuals = std::move(part.residuals);
  l->program = std::move(part.unknown);
  return {std::move(part.known_outputs), l};
}

std::vector<Array> run_linearized(const Linearized& l, const std::vector<Array>& tangents) {
  if (tangents.size() != l.primal_types.size())
    throw ValueError("linearize: expects one tangent per primal leaf (" + std::to_string(l.primal_types.size()) +
                     "), but got " + std::to_string(tangents.size()));
  std::vector<Array> args = l.residuals;
  for (size_t i = 0; i < tangents.size(); ++i) {
    const AbstractValue& want = l.primal_types[i];
    if (!is_inexact(want.dtype)) continue;
    if (!tangents[i].valid()) {
      args.push_back(lax::zeros(want));
      continue;
    }
    const AbstractValue& got = api::aval(tangents[i], "linearize");
    if (got.shape != want.shape || got.dtype != want.dtype)
      throw ShapeError("linearize: tangent " + std::to_string(i) + " expects " + want.str() + " (the primal's type), but got " +
                       got.str());
    args.push_back(tangents[i]);
  }
  return eval_jaxpr(*l.program, args);
}

std::vector<Array> transpose_jaxpr(const Jaxpr& j, const std::vector<Array>& cotangents) {
  const JaxprImpl& f = *j.impl();
  if (cotangents.size() != f.outvars.size())
    throw ValueError("linear_transpose: expects " + std::to_string(f.outvars.size()) +
                     " cotangent arrays (one per output leaf), but got " + std::to_string(cotangents.size()));
  std::vector<AbstractValue> avals;
  for (int v : f.invars) {
    if (!is_inexact(f.vars[v].dtype))
      throw DTypeError("linear_transpose: input type " + f.vars[v].str() + " is not float or complex");
    avals.push_back(f.vars[v]);
  }
  for (size_t i = 0; i < cotangents.size(); ++i) {
    if (!cotangents[i].valid()) continue;
    const AbstractValue &want = f.aval(f.outvars[i]), &got = api::aval(cotangents[i], "linear_transpose");
    if (got.shape != want.shape || got.dtype != want.dtype)
      throw ShapeError("linear_transpose: cotangent " + std::to_string(i) + " expects " + want.str() +
                       " (the output's type), but got " + got.str());
  }
  std::vector<Array> g = ad::linear_transpose([&](std::span<const Array> in) { return eval_jaxpr(f, in); }, avals, cotangents);
  for (size_t i = 0; i < g.size(); ++i)
    if (!g[i].valid()) g[i] = lax::zeros(avals[i]);
  return g;
}

namespace {
// The programs of a custom call opened: what any of them captured becomes leading inputs of all
// of them (the call's leading operands), so tracers of an enclosing jit or vmap pass through.
std::pair<JaxprList, std::vector<Array>> hoist_captured(std::initializer_list<Jaxpr> programs) {
  std::vector<control_flow::Traced> ts;
  for (const Jaxpr& j : programs) ts.push_back(control_flow::open(*j.impl()));
  return control_flow::join_branches(ts);
}
}  // namespace

std::vector<Array> custom_jvp_call(const Jaxpr& fun, const Jaxpr& jvp, const std::vector<Array>& args) {
  const JaxprImpl &f = *fun.impl(), &r = *jvp.impl();
  const size_t n = f.outvars.size();
  if (r.outvars.size() != 2 * n)
    throw ValueError("custom_jvp: the jvp rule must return (outputs, tangents) with " + std::to_string(n) +
                     " array(s) each, like the function, but returns " + std::to_string(r.outvars.size()) + " in all");
  for (size_t i = 0; i < n; ++i) {
    const AbstractValue& want = f.aval(f.outvars[i]);
    for (size_t k : {i, n + i}) {
      const AbstractValue& got = r.aval(r.outvars[k]);
      if (got.shape != want.shape || (is_inexact(want.dtype) && got.dtype != want.dtype))
        throw ShapeError(std::string("custom_jvp: the jvp rule's ") + (k < n ? "output " : "tangent ") + std::to_string(i) +
                         " is " + got.str() + ", but the function's output " + std::to_string(i) + " is " + want.str());
    }
  }
  auto [programs, consts] = hoist_captured({fun, jvp});
  Params p{{"fun", programs[0]}, {"jvp", programs[1]}, {"num_consts", static_cast<int64_t>(consts.size())}};
  return strata::bind(prim::kCustomJvpCall, control_flow::cat<Array>({consts, args}), p, SourceLoc{"custom_jvp", 0, 0});
}

std::vector<Array> custom_vjp_call(const Jaxpr& fun, const Jaxpr& fwd, const Jaxpr& bwd, const std::vector<Array>& args) {
  const JaxprImpl& b = *bwd.impl();
  if (b.outvars.size() != args.size())
    throw ValueError("custom_vjp: bwd must return one cotangent per argument leaf (" + std::to_string(args.size()) +
                     "), but returns " + std::to_string(b.outvars.size()));
  for (std::size_t i = 0; i < args.size(); ++i) {
    const AbstractValue& want = api::aval(args[i], "custom_vjp");
    const AbstractValue& got = b.aval(b.outvars[i]);
    if (want.shape != got.shape || (is_inexact(want.dtype) && got.dtype != want.dtype))
      throw ShapeError("custom_vjp: bwd's cotangent " + std::to_string(i) + " expects " + want.str() + ", but got " + got.str());
  }
  if (fwd.num_outputs() < fun.num_outputs())
    throw ValueError("custom_vjp: fwd must return (outputs, residuals)");
  auto [programs, consts] = hoist_captured({fun, fwd, bwd});
  Params p{{"fun", programs[0]},
           {"fwd", programs[1]},
           {"bwd", programs[2]},
           {"num_consts", static_cast<int64_t>(consts.size())}};
  return strata::bind(prim::kCustomVjpCall, control_flow::cat<Array>({consts, args}), p, SourceLoc{"custom_vjp", 0, 0});
}

Array ones_like_scalar(const Array& loss) { return lax::full(api::aval(loss, "grad"), 1.0); }

}  // namespace detail
}  // namespace strata
