// The batching interpreter (batching.h).
#include "batching.h"

#include <utility>

#include "array_impl.h"
#include "lax.h"
#include "trace.h"

namespace strata::batching {

Array move_dim(const Array& x, int from, int to) {
  if (from == to) return x;
  IntList perm;
  for (int64_t d = 0; d < x.ndim(); ++d)
    if (d != from) perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  return lax::transpose(x, perm);
}

Array broadcast_batch(const Array& x, int64_t size) {
  Shape shape{size};
  IntList dims;
  for (int64_t d = 0; d < x.ndim(); ++d) {
    shape.push_back(x.shape(d));
    dims.push_back(d + 1);
  }
  return lax::broadcast_in_dim(x, shape, dims);
}

namespace {
thread_local std::string vmap_axis;
// Whether `p` with `params` is a collective over the current vmap's axis: its rule runs even
// when no operand is batched (psum of an unbatched value is n times it; axis_index has none).
bool over_current_axis(const Primitive& p, const Params& params) {
  if (!p.has(kCollective) || vmap_axis.empty()) return false;
  const ParamValue* name = params.find("axis_name");
  const ParamValue* mesh = params.find("mesh");
  return name && std::get<std::string>(*name) == vmap_axis && mesh && std::get<IntList>(*mesh).empty();
}
}  // namespace

std::string_view current_axis() { return vmap_axis; }
ScopedAxis::ScopedAxis(std::string name) : saved_(std::exchange(vmap_axis, std::move(name))) {}
ScopedAxis::~ScopedAxis() { vmap_axis = std::move(saved_); }

Result batch_jaxpr(const JaxprImpl& j, std::span<const Array> args, std::span<const int> dims) {
  if (args.size() != j.invars.size() || dims.size() != args.size())
    throw ValueError("vmap: the program takes " + std::to_string(j.invars.size()) + " arguments, but got " +
                     std::to_string(args.size()));
  std::vector<Array> env(j.vars.size());
  std::vector<int> bdim(j.vars.size(), not_mapped);
  for (size_t i = 0; i < j.constvars.size(); ++i) env[j.constvars[i]] = j.consts[i];
  for (size_t i = 0; i < args.size(); ++i) {
    env[j.invars[i]] = args[i];
    bdim[j.invars[i]] = dims[i];
  }
  std::vector<Array> ins;
  std::vector<int> in_dims;
  for (const Equation& e : j.eqns) {
    ins.clear();
    in_dims.clear();
    bool batched = false;
    for (const Atom& a : e.inputs) {
      ins.push_back(a.is_literal() ? a.literal : env[a.var]);
      in_dims.push_back(a.is_literal() ? not_mapped : bdim[a.var]);
      batched = batched || in_dims.back() != not_mapped;
    }
    std::vector<Array> outs;
    std::vector<int> out_dims;
    if (!batched && !over_current_axis(*e.prim, e.params)) {
      outs = bind(*e.prim, ins, e.params, e.loc);
      out_dims.assign(outs.size(), not_mapped);
    } else {
      if (!e.prim->batch)
        throw ValueError("vmap: `" + std::string(e.prim->name) + "` (at " + e.loc.str() +
                         ") has no batching rule yet; compute it per example, or outside the vmapped function");
      ScopedLocation at(e.loc);
      std::tie(outs, out_dims) = e.prim->batch(ins, in_dims, e.params);
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      env[e.outputs[k]] = std::move(outs[k]);
      bdim[e.outputs[k]] = out_dims[k];
    }
  }
  Result r;
  for (const Atom& a : j.outvars) {
    r.outputs.push_back(a.is_literal() ? a.literal : env[a.var]);
    r.dims.push_back(a.is_literal() ? not_mapped : bdim[a.var]);
  }
  return r;
}

}  // namespace strata::batching
