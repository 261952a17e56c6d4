// tracer/primitives/cond.cpp — `cond[branches=(...)] index operands...`: runs branches[index]
// (index clamped to the branches, as JAX's switch) on the operands. st::cond binds it with an
// i32 index converted from its predicate and branches (false, true), as JAX does.
#include "../array_impl.h"
#include "../autodiff.h"
#include "../batching.h"
#include "../lax.h"
#include "../trace.h"
#include "ad_rules.h"
#include "control_flow.h"

namespace strata {
namespace {

using namespace control_flow;

const JaxprList& branches_of(const Params& p) { return p.get<JaxprList>("branches"); }

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  const JaxprList& branches = branches_of(p);
  if (branches.empty()) throw ValueError("cond: expects at least one branch, but got none");
  if (in.empty() || in[0].dtype != DType::i32 || !in[0].shape.empty())
    throw DTypeError("cond: expects an i32[] index, but got " + (in.empty() ? std::string("none") : in[0].str()));
  std::span<const AbstractValue> ops = in.subspan(1);
  std::vector<AbstractValue> out = out_avals(*branches[0]);
  for (size_t k = 0; k < branches.size(); ++k) {
    expect_types("cond", "branch " + std::to_string(k) + " operand", ops, in_avals(*branches[k]));
    std::vector<AbstractValue> o = out_avals(*branches[k]);
    expect_types("cond", "branch " + std::to_string(k) + " output", o, out);
    for (size_t i = 0; i < o.size(); ++i) out[i].weak = out[i].weak && o[i].weak;
  }
  return out;
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  const JaxprList& branches = branches_of(p);
  int64_t index = in[0].item<int32_t>();
  index = std::clamp<int64_t>(index, 0, static_cast<int64_t>(branches.size()) - 1);
  return eval_jaxpr(*branches[static_cast<size_t>(index)], in.subspan(1));
}

std::vector<Array> bind_cond(const Array& index, const JaxprList& branches, std::span<const Array> operands) {
  std::vector<Array> in{index};
  in.insert(in.end(), operands.begin(), operands.end());
  return lax::bind(prim::kCond, in, Params{{"branches", branches}});
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                       const Params& p) {
  std::span<const Array> ops = x.subspan(1);
  std::vector<bool> nonzero;
  std::vector<Array> tangents;
  for (size_t i = 0; i < ops.size(); ++i) {
    nonzero.push_back(t[i + 1].valid() && differentiable(detail::aval_of(ops[i])));
    if (nonzero.back()) tangents.push_back(t[i + 1]);
  }
  std::vector<Traced> ts;
  for (const JaxprPtr& b : branches_of(p)) ts.push_back(jvp_program(*b, nonzero));
  auto [branches, consts] = join_branches(ts);
  std::vector<Array> operands = cat<Array>({consts, ops, tangents});
  std::vector<Array> outs = bind_cond(x[0], branches, operands);
  std::vector<Array> r;
  size_t k = y.size();
  for (const Array& o : y) r.push_back(differentiable(detail::aval_of(o)) ? outs[k++] : Array());
  return r;
}

// The backward branches recompute their forward part from the operands (the residuals) and
// compute the cotangents of the operands a differentiated input reaches, not the others.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                       const Params& p) {
  std::span<const Array> ops = x.subspan(1);
  std::vector<bool> needed;
  for (size_t i = 0; i < ops.size(); ++i)
    needed.push_back(differentiable(detail::aval_of(ops[i])) && ad::cotangent_needed(i + 1));
  std::vector<Traced> ts;
  for (const JaxprPtr& b : branches_of(p)) ts.push_back(backward_program(*b, needed));
  auto [branches, consts] = join_branches(ts);
  std::vector<Array> cts;
  for (size_t i = 0; i < y.size(); ++i) cts.push_back(ad::instantiate(ct[i], detail::aval_of(y[i])));
  std::vector<Array> operands = cat<Array>({consts, ops, cts});
  std::vector<Array> in_cts = bind_cond(x[0], branches, operands);
  std::vector<Array> r{Array()};
  size_t k = 0;
  for (size_t i = 0; i < ops.size(); ++i) r.push_back(needed[i] ? in_cts[k++] : Array());
  return r;
}

// Reverse mode in one forward pass (vjp_split): each branch computes its outputs and the
// residuals its backward part reads (partial evaluation of its vjp program); as the branches
// must agree on their results, every branch returns every branch's residual slots, zeros in
// the others' (as JAX's cond partial evaluation). The backward cond takes them all, each branch
// reading its own.
std::pair<std::vector<Array>, VjpBackward> vjp_split(std::span<const Array> x, const Params& p) {
  std::span<const Array> ops = x.subspan(1);
  const JaxprList& bs = branches_of(p);
  std::vector<bool> needed;
  for (size_t i = 0; i < ops.size(); ++i)
    needed.push_back(differentiable(detail::aval_of(ops[i])) && ad::cotangent_needed(i + 1));
  const size_t nout = out_avals(*bs[0]).size();
  const std::vector<AbstractValue> op_av = avals_of(ops);
  // Per branch: its backward program, the residuals it computes (returned by the forward cond)
  // and, for each residual the backward program reads, where it comes from: -1 (computed, the
  // next of res_av) or the operand it is (passed to the backward cond as it is, not copied).
  std::vector<JaxprPtr> unknown(bs.size());
  std::vector<std::vector<AbstractValue>> res_av(bs.size());
  std::vector<std::vector<int>> res_src(bs.size());
  std::vector<Traced> fwd;
  for (size_t b = 0; b < bs.size(); ++b) {
    JaxprPtr program = ad::vjp_program(*bs[b], needed, nout);
    fwd.push_back(trace(op_av, [&](std::span<const Array> in) {
      ad::Partial part = ad::partial_eval(*program, in, nout);
      unknown[b] = part.unknown;
      std::vector<Array> computed =
          computed_residuals(part.residuals, in, std::vector<bool>(in.size(), true), res_src[b]);
      res_av[b] = avals_of(computed);
      return cat<Array>({part.known_outputs, computed});
    }));
  }
  std::vector<AbstractValue> all_res;
  std::vector<size_t> start;
  for (const auto& r : res_av) {
    start.push_back(all_res.size());
    all_res.insert(all_res.end(), r.begin(), r.end());
  }
  std::vector<Traced> joined;
  for (size_t b = 0; b < bs.size(); ++b)
    joined.push_back(trace(op_av, [&](std::span<const Array> in) {
      std::vector<Array> r = eval_jaxpr(*fwd[b].jaxpr, cat<Array>({fwd[b].consts, in}));
      std::vector<Array> out(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(nout));
      for (size_t o = 0; o < bs.size(); ++o)
        for (size_t i = 0; i < res_av[o].size(); ++i) out.push_back(o == b ? r[nout + i] : lax::zeros(res_av[o][i]));
      return out;
    }));
  auto [branches, consts] = join_branches(joined);
  std::vector<Array> fwd_out = bind_cond(x[0], branches, cat<Array>({consts, ops}));
  std::vector<Array> outputs(fwd_out.begin(), fwd_out.begin() + static_cast<std::ptrdiff_t>(nout));
  std::vector<Array> residuals(fwd_out.begin() + static_cast<std::ptrdiff_t>(nout), fwd_out.end());
  std::vector<AbstractValue> y_av = avals_of(outputs);
  Array index = x[0];
  std::vector<Array> operands(ops.begin(), ops.end());
  VjpBackward backward = [index, residuals, operands, unknown, res_av, res_src, start, all_res, y_av, op_av, needed,
                          n = ops.size()](std::span<const Array> ct) {
    std::vector<Array> cts;
    for (size_t i = 0; i < y_av.size(); ++i) cts.push_back(ad::instantiate(ct[i], y_av[i]));
    // The backward cond's operands: the computed residuals, the forward's operands, cotangents.
    std::vector<AbstractValue> av = cat<AbstractValue>({all_res, op_av, y_av});
    std::vector<Traced> ts;
    for (size_t b = 0; b < unknown.size(); ++b)
      ts.push_back(trace(av, [&](std::span<const Array> in) {
        std::span<const Array> mine = in.subspan(start[b], res_av[b].size()),
                               op = in.subspan(all_res.size(), op_av.size()),
                               c = in.subspan(all_res.size() + op_av.size());
        std::vector<Array> reads;
        size_t k = 0;
        for (int src : res_src[b]) reads.push_back(src < 0 ? mine[k++] : op[static_cast<size_t>(src)]);
        return eval_jaxpr(*unknown[b], cat<Array>({reads, c}));
      }));
    auto [bwd, bconsts] = join_branches(ts);
    std::vector<Array> in_cts = bind_cond(index, bwd, cat<Array>({bconsts, residuals, operands, cts}));
    std::vector<Array> r{Array()};
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) r.push_back(needed[i] ? in_cts[k++] : Array());
    return r;
  };
  return {std::move(outputs), std::move(backward)};
}

// A batched index computes every branch and selects per example (as JAX turns cond into
// select); otherwise the branches are batched and the cond stays.
std::pair<std::vector<Array>, std::vector<int>> batch(std::span<const Array> args, std::span<const int> dims,
                                                       const Params& p) {
  const JaxprList& branches = branches_of(p);
  int64_t size = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) size = args[i].shape(dims[i]);
  std::span<const Array> ops = args.subspan(1);
  std::span<const int> op_dims = dims.subspan(1);
  if (dims[0] != not_mapped) {
    Array index = batching::move_dim(args[0], dims[0], 0);
    index = lax::max(lax::min(index, lax::scalar(static_cast<double>(branches.size() - 1), DType::i32)),
                     lax::scalar(0, DType::i32));
    std::vector<std::vector<Array>> outs;
    for (const JaxprPtr& b : branches) {
      batching::Result r = batching::batch_jaxpr(*b, ops, op_dims);
      for (size_t i = 0; i < r.outputs.size(); ++i)
        r.outputs[i] = r.dims[i] == not_mapped ? batching::broadcast_batch(r.outputs[i], size)
                                               : batching::move_dim(r.outputs[i], r.dims[i], 0);
      outs.push_back(r.outputs);
    }
    std::vector<Array> result = outs[0];
    for (size_t k = 1; k < branches.size(); ++k) {
      Array pred = lax::eq(index, lax::scalar(static_cast<double>(k), DType::i32));
      for (size_t i = 0; i < result.size(); ++i) {
        Array pb = lax::broadcast_in_dim(pred, result[i].shape(), {0});
        result[i] = lax::select(pb, outs[k][i], result[i]);
      }
    }
    return {result, std::vector<int>(result.size(), 0)};
  }
  std::vector<bool> batched;
  std::vector<Array> operands;
  for (size_t i = 0; i < ops.size(); ++i) {
    batched.push_back(op_dims[i] != not_mapped);
    operands.push_back(batched.back() ? batching::move_dim(ops[i], op_dims[i], 0) : ops[i]);
  }
  std::vector<Traced> ts;
  for (const JaxprPtr& b : branches) ts.push_back(batch_program(*b, batched, size));
  auto [bb, consts] = join_branches(ts);
  std::vector<Array> outs = bind_cond(args[0], bb, cat<Array>({consts, operands}));
  return {outs, std::vector<int>(outs.size(), 0)};
}

}  // namespace

const Primitive prim::kCond{
    .name = "cond",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
    .vjp_split = vjp_split,
};

}  // namespace strata
