// Helpers of the control-flow primitives (control_flow.h).
#include "control_flow.h"

#include <algorithm>

#include "../array_impl.h"
#include "../autodiff.h"
#include "../batching.h"
#include "../lax.h"
#include "../trace.h"
#include "ad_rules.h"

namespace strata::control_flow {

std::vector<AbstractValue> in_avals(const JaxprImpl& j) {
  std::vector<AbstractValue> r;
  for (int v : j.invars) r.push_back(j.vars[v]);
  return r;
}

std::vector<AbstractValue> out_avals(const JaxprImpl& j) {
  std::vector<AbstractValue> r;
  for (const Atom& a : j.outvars) r.push_back(j.aval(a));
  return r;
}

std::vector<AbstractValue> avals_of(std::span<const Array> xs) {
  std::vector<AbstractValue> r;
  for (const Array& x : xs) r.push_back(detail::aval_of(x));
  return r;
}

Traced open(const JaxprImpl& closed) {
  auto j = std::make_shared<JaxprImpl>(closed);
  std::vector<int> invars = j->constvars;
  invars.insert(invars.end(), j->invars.begin(), j->invars.end());
  j->invars = std::move(invars);
  j->constvars.clear();
  Traced t{nullptr, std::move(j->consts)};
  j->consts.clear();
  t.jaxpr = std::move(j);
  return t;
}

Traced trace(std::span<const AbstractValue> avals, const TraceFn& f) { return open(*trace_closed(avals, f)); }

JaxprPtr trace_closed(std::span<const AbstractValue> avals, const TraceFn& f) {
  auto state = begin_trace();
  std::shared_ptr<JaxprImpl> j;
  try {
    std::vector<Array> ins;
    for (const AbstractValue& av : avals) ins.push_back(new_input(*state, av));
    std::vector<Array> outs = f(ins);
    j = end_trace(*state, outs);
  } catch (...) {
    abandon_trace(*state);
    throw;
  }
  return j;
}

JaxprPtr with_unused_inputs(const JaxprImpl& j, size_t at, std::span<const AbstractValue> extra) {
  if (extra.empty()) return std::make_shared<JaxprImpl>(j);
  auto r = std::make_shared<JaxprImpl>(j);
  std::vector<int> added;
  for (const AbstractValue& av : extra) {
    added.push_back(static_cast<int>(r->vars.size()));
    r->vars.push_back(av);
  }
  r->invars.insert(r->invars.begin() + static_cast<std::ptrdiff_t>(at), added.begin(), added.end());
  return r;
}

// Branches that captured different values all take all of them; a value several branches
// captured (the same array) is passed once. Each branch's inputs for values it did not capture
// are unused.
std::pair<JaxprList, std::vector<Array>> join_branches(const std::vector<Traced>& ts) {
  std::vector<Array> consts;
  std::vector<std::vector<size_t>> slot(ts.size());  // each branch's consts' places in `consts`
  for (size_t b = 0; b < ts.size(); ++b) {
    for (const Array& c : ts[b].consts) {
      size_t at = consts.size();
      for (size_t u = 0; u < consts.size(); ++u) {
        bool taken = std::find(slot[b].begin(), slot[b].end(), u) != slot[b].end();
        if (!taken && consts[u].impl() == c.impl()) {
          at = u;
          break;
        }
      }
      if (at == consts.size()) consts.push_back(c);
      slot[b].push_back(at);
    }
  }
  JaxprList out;
  for (size_t b = 0; b < ts.size(); ++b) {
    const JaxprImpl& src = *ts[b].jaxpr;
    auto j = std::make_shared<JaxprImpl>(src);
    std::vector<int> invars(consts.size(), -1);
    for (size_t k = 0; k < slot[b].size(); ++k) invars[slot[b][k]] = src.invars[k];
    for (size_t u = 0; u < consts.size(); ++u)
      if (invars[u] < 0) {
        invars[u] = static_cast<int>(j->vars.size());
        j->vars.push_back(detail::aval_of(consts[u]));
      }
    invars.insert(invars.end(), src.invars.begin() + static_cast<std::ptrdiff_t>(slot[b].size()), src.invars.end());
    j->invars = std::move(invars);
    out.push_back(j);
  }
  return {out, consts};
}

bool same_type(const AbstractValue& a, const AbstractValue& b) { return a.shape == b.shape && a.dtype == b.dtype; }

void expect_types(const std::string& who, const std::string& what, std::span<const AbstractValue> got,
                  std::span<const AbstractValue> want) {
  if (got.size() != want.size())
    throw ShapeError(who + ": " + what + " has " + std::to_string(got.size()) + " values, but expected " +
                     std::to_string(want.size()));
  for (size_t i = 0; i < got.size(); ++i)
    if (!same_type(got[i], want[i]))
      throw ShapeError(who + ": " + what + " " + std::to_string(i) + " is " + got[i].str() + ", but expected " +
                       want[i].str());
}

bool differentiable(const AbstractValue& a) { return is_inexact(a.dtype); }

Traced jvp_program(const JaxprImpl& j, const std::vector<bool>& nonzero) {
  std::vector<AbstractValue> avals = in_avals(j);
  size_t n = avals.size();
  for (size_t i = 0; i < n; ++i)
    if (nonzero[i]) avals.push_back(j.vars[j.invars[i]]);
  return trace(avals, [&](std::span<const Array> in) {
    std::vector<Array> primals(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n)), tangents(n);
    size_t k = n;
    for (size_t i = 0; i < n; ++i)
      if (nonzero[i]) tangents[i] = in[k++];
    ad::JvpResult r = ad::jvp(j, primals, tangents);
    std::vector<Array> outs = r.outputs;
    for (size_t i = 0; i < r.outputs.size(); ++i) {
      const AbstractValue& av = j.aval(j.outvars[i]);
      if (differentiable(av)) outs.push_back(ad::instantiate(r.tangents[i], av));
    }
    return outs;
  });
}

std::vector<Array> computed_residuals(std::span<const Array> residuals, std::span<const Array> in,
                                      const std::vector<bool>& forwardable, std::vector<int>& src) {
  std::vector<Array> computed;
  src.clear();
  for (const Array& r : residuals) {
    int from = -1;
    for (size_t j = 0; j < in.size(); ++j)
      if (forwardable[j] && r.impl() == in[j].impl()) from = static_cast<int>(j);
    src.push_back(from);
    if (from < 0) computed.push_back(r);
  }
  return computed;
}

JaxprPtr without_debug_callbacks(const JaxprImpl& j) {
  auto r = std::make_shared<JaxprImpl>(j);
  std::erase_if(r->eqns, [](const Equation& e) { return e.prim == &prim::kDebugCallback; });
  for (Equation& e : r->eqns) {
    std::vector<std::pair<std::string, ParamValue>> stripped;
    for (const auto& [name, v] : e.params.items()) {
      if (const auto* sub = std::get_if<JaxprPtr>(&v); sub && *sub && has_effects(**sub)) {
        stripped.emplace_back(name, without_debug_callbacks(**sub));
      } else if (const auto* list = std::get_if<JaxprList>(&v)) {
        JaxprList l;
        for (const JaxprPtr& b : *list) l.push_back(b && has_effects(*b) ? without_debug_callbacks(*b) : b);
        stripped.emplace_back(name, std::move(l));
      }
    }
    for (auto& [name, v] : stripped) e.params.set(name, std::move(v));
  }
  return r;
}

Traced backward_program(const JaxprImpl& j, const std::vector<bool>& needed) {
  std::vector<AbstractValue> avals = in_avals(j), outs = out_avals(j);
  std::vector<bool> wrt;
  for (size_t i = 0; i < avals.size(); ++i) wrt.push_back(differentiable(avals[i]) && (needed.empty() || needed[i]));
  JaxprPtr program = ad::vjp_program(*without_debug_callbacks(j), wrt, outs.size());
  avals.insert(avals.end(), outs.begin(), outs.end());
  return trace(avals, [&](std::span<const Array> in) {
    std::vector<Array> r = eval_jaxpr(*program, in);
    return std::vector<Array>(r.begin() + static_cast<std::ptrdiff_t>(outs.size()), r.end());
  });
}

Traced batch_program(const JaxprImpl& j, const std::vector<bool>& batched, int64_t size) {
  std::vector<AbstractValue> avals = in_avals(j);
  std::vector<int> dims;
  for (size_t i = 0; i < avals.size(); ++i) {
    dims.push_back(batched[i] ? 0 : not_mapped);
    if (batched[i]) avals[i].shape.insert(avals[i].shape.begin(), size);
  }
  return trace(avals, [&](std::span<const Array> in) {
    batching::Result r = batching::batch_jaxpr(j, in, dims);
    std::vector<Array> outs;
    for (size_t i = 0; i < r.outputs.size(); ++i)
      outs.push_back(r.dims[i] == not_mapped ? batching::broadcast_batch(r.outputs[i], size)
                                             : batching::move_dim(r.outputs[i], r.dims[i], 0));
    return outs;
  });
}

}  // namespace strata::control_flow
