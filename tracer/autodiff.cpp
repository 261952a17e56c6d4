#include "autodiff.h"

#include <unordered_set>

#include "primitives/ad_rules.h"
#include "primitives/control_flow.h"
#include "trace.h"

namespace strata::ad {
namespace {

// Complex values carry derivatives as JAX's do: JVPs are the R-linear derivative maps
// (holomorphic ones multiply by f'(z)), VJPs their transposes under the pairing Re(a·b) — no
// conjugation (mul's is ct·y) except where the map itself conjugates (conj, abs, real, imag).
// So the cotangent of a complex input z of a real loss L is ∂L/∂x − i·∂L/∂y (z = x + iy), JAX's
// grad, and that of a holomorphic f with cotangent 1 is f'(z).
bool differentiable(DType t) { return is_inexact(t); }

[[noreturn]] void missing_rule(const Primitive& p, const char* kind) {
  throw Error(std::string(kind) + ": primitive `" + std::string(p.name) + "` has no " + kind +
              " rule");
}

// The operands of the equation whose VJP rule is running (see cotangent_needed).
thread_local const std::vector<bool>* current_needed = nullptr;

class ScopedNeeded {
 public:
  explicit ScopedNeeded(const std::vector<bool>* needed) : saved_(current_needed) { current_needed = needed; }
  ~ScopedNeeded() { current_needed = saved_; }
  ScopedNeeded(const ScopedNeeded&) = delete;
  ScopedNeeded& operator=(const ScopedNeeded&) = delete;

 private:
  const std::vector<bool>* saved_;
};

}  // namespace

bool cotangent_needed(size_t operand) {
  return current_needed == nullptr || operand >= current_needed->size() || (*current_needed)[operand];
}

JvpResult jvp(const JaxprImpl& j, std::span<const Array> primals, std::span<const Array> tangents) {
  std::vector<Array> env(j.vars.size()), tan(j.vars.size());
  for (size_t i = 0; i < j.constvars.size(); ++i) env[j.constvars[i]] = j.consts[i];
  for (size_t i = 0; i < j.invars.size(); ++i) {
    env[j.invars[i]] = primals[i];
    if (tangents[i].valid() && differentiable(j.vars[j.invars[i]].dtype)) tan[j.invars[i]] = tangents[i];
  }
  auto read = [&](const Atom& a) { return a.is_literal() ? a.literal : env[a.var]; };
  auto read_t = [&](const Atom& a) { return a.is_literal() ? Array() : tan[a.var]; };
  std::vector<Array> ins, tins;
  for (const Equation& e : j.eqns) {
    ScopedLocation at(e.loc);
    ins.clear();
    tins.clear();
    bool any = false;
    for (const Atom& a : e.inputs) {
      ins.push_back(read(a));
      tins.push_back(read_t(a));
      any = any || tins.back().valid();
    }
    std::vector<Array> outs = strata::bind(*e.prim, ins, e.params, e.loc);
    if (any && !e.prim->has(kNotDifferentiable)) {
      if (!e.prim->jvp) missing_rule(*e.prim, "jvp");
      std::vector<Array> touts = e.prim->jvp(ins, tins, outs, e.params);
      for (size_t i = 0; i < outs.size(); ++i)
        if (i < touts.size() && touts[i].valid() && differentiable(outs[i].dtype()))
          tan[e.outputs[i]] = touts[i];
    }
    for (size_t i = 0; i < outs.size(); ++i) env[e.outputs[i]] = std::move(outs[i]);
  }
  JvpResult r;
  for (const Atom& a : j.outvars) {
    r.outputs.push_back(read(a));
    r.tangents.push_back(read_t(a));
  }
  return r;
}

std::shared_ptr<JaxprImpl> vjp_program(const JaxprImpl& j, const std::vector<bool>& wrt, size_t num_ct) {
  auto trace = begin_trace();
  try {
    std::vector<Array> env(j.vars.size()), ct(j.vars.size());
    for (size_t i = 0; i < j.constvars.size(); ++i) env[j.constvars[i]] = j.consts[i];
    for (int v : j.invars) env[v] = new_input(*trace, j.vars[v]);
    std::vector<Array> out_cts;
    for (size_t i = 0; i < num_ct; ++i) out_cts.push_back(new_input(*trace, j.aval(j.outvars[i])));
    auto read = [&](const Atom& a) { return a.is_literal() ? a.literal : env[a.var]; };

    // Forward: the primal equations, as they were; `depends` marks the values a
    // differentiated input reaches (only their equations are transposed).
    std::vector<bool> depends(j.vars.size(), false);
    for (size_t i = 0; i < j.invars.size(); ++i) depends[j.invars[i]] = wrt[i];
    // The backward halves of equations whose forward pass kept what they need (vjp_split).
    std::vector<VjpBackward> split(j.eqns.size());
    auto needed_of = [&](const Equation& e) {
      std::vector<bool> needed;
      for (const Atom& a : e.inputs)
        needed.push_back(!a.is_literal() && depends[a.var] && differentiable(j.vars[a.var].dtype));
      return needed;
    };
    for (size_t k = 0; k < j.eqns.size(); ++k) {
      const Equation& e = j.eqns[k];
      std::vector<Array> ins;
      bool reached = false;
      for (const Atom& a : e.inputs) {
        ins.push_back(read(a));
        reached = reached || (!a.is_literal() && depends[a.var]);
      }
      std::vector<Array> outs;
      if (reached && e.prim->vjp_split && !e.prim->has(kNotDifferentiable)) {
        ScopedLocation at(e.loc);
        std::vector<bool> needed = needed_of(e);
        ScopedNeeded scope(&needed);
        std::tie(outs, split[k]) = e.prim->vjp_split(ins, e.params);
      } else {
        outs = strata::bind(*e.prim, ins, e.params, e.loc);
      }
      for (int v : e.outputs) depends[v] = reached;
      for (size_t i = 0; i < outs.size(); ++i) env[e.outputs[i]] = std::move(outs[i]);
    }
    // Seed: each output's cotangent (an output may appear twice; cotangents add).
    for (size_t i = 0; i < num_ct; ++i) {
      const Atom& a = j.outvars[i];
      if (!a.is_literal() && differentiable(j.vars[a.var].dtype)) ct[a.var] = add_cotangent(ct[a.var], out_cts[i]);
    }
    // Backward: each equation's VJP rule, in reverse.
    for (size_t k = j.eqns.size(); k-- > 0;) {
      const Equation& e = j.eqns[k];
      std::vector<Array> cts;
      bool any = false;
      for (int v : e.outputs) {
        cts.push_back(ct[v]);
        any = any || ct[v].valid();
      }
      if (!any || e.prim->has(kNotDifferentiable)) continue;
      bool reached = false;
      for (const Atom& a : e.inputs) reached = reached || (!a.is_literal() && depends[a.var]);
      if (!reached) continue;  // no differentiated input behind it: its cotangents are unused
      if (!e.prim->vjp && !split[k]) missing_rule(*e.prim, "vjp");
      ScopedLocation at(e.loc);
      std::vector<Array> ins, outs;
      std::vector<bool> needed = needed_of(e);
      for (const Atom& a : e.inputs) ins.push_back(read(a));
      for (int v : e.outputs) outs.push_back(env[v]);
      std::vector<Array> in_cts;
      {
        ScopedNeeded scope(&needed);
        in_cts = split[k] ? split[k](cts) : e.prim->vjp(ins, outs, cts, e.params);
      }
      for (size_t i = 0; i < e.inputs.size() && i < in_cts.size(); ++i) {
        const Atom& a = e.inputs[i];
        if (a.is_literal() || !in_cts[i].valid() || !differentiable(j.vars[a.var].dtype)) continue;
        ct[a.var] = add_cotangent(ct[a.var], in_cts[i]);
      }
    }
    std::vector<Array> results;
    for (const Atom& a : j.outvars) results.push_back(read(a));
    for (size_t i = 0; i < j.invars.size(); ++i) {
      if (!wrt[i]) continue;
      int v = j.invars[i];
      results.push_back(ct[v].valid() ? ct[v] : lax::zeros(j.vars[v]));
    }
    return end_trace(*trace, results);
  } catch (...) {
    abandon_trace(*trace);
    throw;
  }
}

Partial partial_eval(const JaxprImpl& j, std::span<const Array> known, size_t num_known_outputs) {
  // 1. Which equations any output needs (backwards liveness).
  std::vector<bool> needed_var(j.vars.size(), false), needed_eqn(j.eqns.size(), false);
  for (const Atom& a : j.outvars)
    if (!a.is_literal()) needed_var[a.var] = true;
  for (size_t k = j.eqns.size(); k-- > 0;) {
    const Equation& e = j.eqns[k];
    bool need = has_effects(e);
    for (int v : e.outputs) need = need || needed_var[v];
    if (!need) continue;
    needed_eqn[k] = true;
    for (const Atom& a : e.inputs)
      if (!a.is_literal()) needed_var[a.var] = true;
  }
  // 2. Evaluate known equations now; collect the unknown ones.
  std::vector<Array> env(j.vars.size());
  std::vector<bool> is_known(j.vars.size(), false);
  for (size_t i = 0; i < j.constvars.size(); ++i) {
    env[j.constvars[i]] = j.consts[i];
    is_known[j.constvars[i]] = true;
  }
  for (size_t i = 0; i < known.size(); ++i) {
    env[j.invars[i]] = known[i];
    is_known[j.invars[i]] = true;
  }
  auto program = std::make_shared<JaxprImpl>();
  program->vars = j.vars;
  std::vector<bool> residual(j.vars.size(), false);
  auto use_in_unknown = [&](const Atom& a) {
    if (!a.is_literal() && is_known[a.var] && !residual[a.var]) {
      residual[a.var] = true;
      program->invars.push_back(a.var);
    }
  };
  std::vector<Array> ins;
  std::vector<const Equation*> unknown_eqns;
  for (size_t k = 0; k < j.eqns.size(); ++k) {
    if (!needed_eqn[k]) continue;
    const Equation& e = j.eqns[k];
    bool all_known = true;
    for (const Atom& a : e.inputs) all_known = all_known && (a.is_literal() || is_known[a.var]);
    if (all_known) {
      ins.clear();
      for (const Atom& a : e.inputs) ins.push_back(a.is_literal() ? a.literal : env[a.var]);
      std::vector<Array> outs = strata::bind(*e.prim, ins, e.params, e.loc);
      for (size_t i = 0; i < outs.size(); ++i) {
        env[e.outputs[i]] = std::move(outs[i]);
        is_known[e.outputs[i]] = true;
      }
    } else {
      for (const Atom& a : e.inputs) use_in_unknown(a);
      unknown_eqns.push_back(&e);
    }
  }
  for (size_t i = num_known_outputs; i < j.outvars.size(); ++i) use_in_unknown(j.outvars[i]);

  Partial r;
  for (int v : program->invars) r.residuals.push_back(env[v]);
  for (size_t i = known.size(); i < j.invars.size(); ++i) program->invars.push_back(j.invars[i]);
  for (const Equation* e : unknown_eqns) program->eqns.push_back(*e);
  for (size_t i = num_known_outputs; i < j.outvars.size(); ++i) program->outvars.push_back(j.outvars[i]);
  for (size_t i = 0; i < num_known_outputs; ++i) {
    const Atom& a = j.outvars[i];
    if (!a.is_literal() && !is_known[a.var])
      throw Error("internal: partial_eval: a known output depends on unknown inputs");
    r.known_outputs.push_back(a.is_literal() ? a.literal : env[a.var]);
  }
  r.unknown = std::move(program);
  return r;
}

std::vector<Array> Backward::operator()(std::span<const Array> cotangents) const {
  std::vector<Array> args = residuals;
  size_t base = residuals.size();
  for (size_t i = 0; i < cotangents.size(); ++i) {
    const AbstractValue& want = program->vars[program->invars[base + i]];
    args.push_back(cotangents[i].valid() ? cotangents[i] : lax::zeros(want));
  }
  return eval_jaxpr(*program, args);
}

VjpResult vjp(const JaxprImpl& j, std::span<const Array> primals, const std::vector<bool>& wrt,
              size_t num_ct, const char* who) {
  for (size_t i = 0; i < j.invars.size(); ++i) {
    const AbstractValue& av = j.vars[j.invars[i]];
    if (wrt[i] && !differentiable(av.dtype))
      throw DTypeError(std::string(who) + ": input " + std::to_string(i) + " has dtype " +
                       std::string(short_name(av.dtype)) + " (" + av.str() +
                       "); only floating-point and complex inputs can be differentiated");
  }
  std::shared_ptr<JaxprImpl> program = vjp_program(j, wrt, num_ct);
  Partial p = partial_eval(*program, primals, j.outvars.size());
  VjpResult r;
  r.outputs = std::move(p.known_outputs);
  r.backward = std::make_shared<Backward>(Backward{std::move(p.residuals), std::move(p.unknown)});
  return r;
}

std::vector<Array> linear_transpose(const LinearFn& f, std::span<const AbstractValue> avals,
                                    std::span<const Array> cotangents) {
  JaxprPtr lin = control_flow::trace_closed(avals, f);
  if (lin->outvars.size() != cotangents.size())
    throw Error("internal: linear_transpose: " + std::to_string(cotangents.size()) + " cotangents for " +
                std::to_string(lin->outvars.size()) + " outputs");
  std::vector<Array> zeros;
  for (const AbstractValue& av : avals) zeros.push_back(lax::zeros(av));
  VjpResult v = vjp(*lin, zeros, std::vector<bool>(avals.size(), true), cotangents.size(), "linear_transpose");
  return (*v.backward)(cotangents);
}

void dead_code_elimination(JaxprImpl& j) {
  std::vector<bool> live(j.vars.size(), false);
  for (const Atom& a : j.outvars)
    if (!a.is_literal()) live[a.var] = true;
  std::vector<Equation> kept;
  for (size_t k = j.eqns.size(); k-- > 0;) {
    Equation& e = j.eqns[k];
    bool need = has_effects(e);
    for (int v : e.outputs) need = need || live[v];
    if (!need) continue;
    for (const Atom& a : e.inputs)
      if (!a.is_literal()) live[a.var] = true;
    kept.push_back(std::move(e));
  }
  j.eqns.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
}

}  // namespace strata::ad
