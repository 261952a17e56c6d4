// tracer/primitives/while.cpp — `while[body_jaxpr body_nconsts cond_jaxpr cond_nconsts]
// cond_consts... body_consts... init...`: the carry starts at init and becomes
// body(body_consts, carry) while cond(cond_consts, carry) holds (JAX's while_loop).
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

struct Parts {
  const JaxprImpl& cond;
  const JaxprImpl& body;
  size_t cn, bn;
};

Parts parts(const Params& p) {
  return {*p.get<JaxprPtr>("cond_jaxpr"), *p.get<JaxprPtr>("body_jaxpr"),
          static_cast<size_t>(p.get_int("cond_nconsts")), static_cast<size_t>(p.get_int("body_nconsts"))};
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  Parts w = parts(p);
  if (w.cn + w.bn > in.size())
    throw ValueError("while: expects at least " + std::to_string(w.cn + w.bn) + " operands (the constants), but got " +
                     std::to_string(in.size()));
  std::span<const AbstractValue> cc = in.subspan(0, w.cn), bc = in.subspan(w.cn, w.bn), carry = in.subspan(w.cn + w.bn);
  expect_types("while", "cond_jaxpr input", cat<AbstractValue>({cc, carry}), in_avals(w.cond));
  expect_types("while", "body_jaxpr input", cat<AbstractValue>({bc, carry}), in_avals(w.body));
  std::vector<AbstractValue> pred = out_avals(w.cond);
  if (pred.size() != 1 || pred[0].dtype != DType::bool_ || !pred[0].shape.empty())
    throw DTypeError("while: cond_jaxpr must return one bool[], but returns " +
                     (pred.empty() ? std::string("nothing") : pred[0].str()));
  expect_types("while", "body output carry", out_avals(w.body), std::vector<AbstractValue>(carry.begin(), carry.end()));
  return {carry.begin(), carry.end()};
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  Parts w = parts(p);
  std::vector<Array> cc(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(w.cn));
  std::vector<Array> bc(in.begin() + static_cast<std::ptrdiff_t>(w.cn), in.begin() + static_cast<std::ptrdiff_t>(w.cn + w.bn));
  std::vector<Array> carry(in.begin() + static_cast<std::ptrdiff_t>(w.cn + w.bn), in.end());
  while (eval_jaxpr(w.cond, cat<Array>({cc, carry}))[0].item<bool>()) carry = eval_jaxpr(w.body, cat<Array>({bc, carry}));
  return carry;
}

Params make_params(const Traced& cond, size_t cn, const Traced& body, size_t bn) {
  return Params{{"cond_jaxpr", cond.jaxpr}, {"cond_nconsts", static_cast<int64_t>(cn + cond.consts.size())},
                {"body_jaxpr", body.jaxpr}, {"body_nconsts", static_cast<int64_t>(bn + body.consts.size())}};
}

// Tangents of every float carry, and of the body constants that have one.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params& p) {
  Parts w = parts(p);
  size_t n = x.size() - w.cn - w.bn;
  std::span<const Array> cc = x.subspan(0, w.cn), bc = x.subspan(w.cn, w.bn), carry = x.subspan(w.cn + w.bn);
  std::vector<AbstractValue> bc_av = avals_of(bc), carry_av = avals_of(carry);
  std::vector<bool> bc_nz;
  std::vector<Array> bc_t, carry_t;
  std::vector<AbstractValue> bc_t_av, carry_t_av;
  for (size_t i = 0; i < w.bn; ++i) {
    bc_nz.push_back(t[w.cn + i].valid() && differentiable(bc_av[i]));
    if (bc_nz.back()) {
      bc_t.push_back(t[w.cn + i]);
      bc_t_av.push_back(bc_av[i]);
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (differentiable(carry_av[i])) {
      carry_t.push_back(ad::instantiate(t[w.cn + w.bn + i], carry_av[i]));
      carry_t_av.push_back(carry_av[i]);
    }
  Traced body = trace(cat<AbstractValue>({bc_av, bc_t_av, carry_av, carry_t_av}), [&](std::span<const Array> in) {
    std::vector<Array> primals, tangents;
    size_t k = 0, kt = w.bn;
    for (size_t i = 0; i < w.bn; ++i) {
      primals.push_back(in[k++]);
      tangents.push_back(bc_nz[i] ? in[kt++] : Array());
    }
    k = kt;
    kt = k + n;
    for (size_t i = 0; i < n; ++i) {
      primals.push_back(in[k++]);
      tangents.push_back(differentiable(carry_av[i]) ? in[kt++] : Array());
    }
    ad::JvpResult r = ad::jvp(w.body, primals, tangents);
    std::vector<Array> outs = r.outputs;
    for (size_t i = 0; i < n; ++i)
      if (differentiable(carry_av[i])) outs.push_back(ad::instantiate(r.tangents[i], carry_av[i]));
    return outs;
  });
  Traced cond{with_unused_inputs(w.cond, w.cn + n, carry_t_av), {}};
  std::vector<Array> operands = cat<Array>({cc, body.consts, bc, bc_t, carry, carry_t});
  std::vector<Array> outs = lax::bind(prim::kWhile, operands, make_params(cond, w.cn, body, w.bn + bc_t.size()));
  std::vector<Array> r;
  size_t k = n;
  for (size_t i = 0; i < y.size(); ++i) r.push_back(differentiable(carry_av[i]) ? outs[k++] : Array());
  return r;
}

std::vector<Array> vjp(std::span<const Array>, std::span<const Array>, std::span<const Array>, const Params&) {
  throw ValueError(
      "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop "
      "values. Try using lax.scan, or using fori_loop with static start/stop. (strata: st::while_loop has no "
      "reverse-mode derivative; use st::scan, or st::fori_loop with int bounds, or jvp for forward mode.)");
}

// Every carry is batched; a per-example predicate runs the loop while any example's holds,
// and examples whose predicate is false keep their carry (JAX's batched while).
std::pair<std::vector<Array>, std::vector<int>> batch(std::span<const Array> args, std::span<const int> dims,
                                                       const Params& p) {
  Parts w = parts(p);
  int64_t size = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) size = args[i].shape(dims[i]);
  std::vector<Array> in;
  std::vector<bool> batched;
  for (size_t i = 0; i < args.size(); ++i) {
    bool carry = i >= w.cn + w.bn;
    if (dims[i] != not_mapped) in.push_back(batching::move_dim(args[i], dims[i], 0));
    else in.push_back(carry ? batching::broadcast_batch(args[i], size) : args[i]);
    batched.push_back(carry || dims[i] != not_mapped);
  }
  size_t n = args.size() - w.cn - w.bn;
  std::vector<bool> cflags(batched.begin(), batched.begin() + static_cast<std::ptrdiff_t>(w.cn));
  std::vector<bool> bflags(batched.begin() + static_cast<std::ptrdiff_t>(w.cn), batched.end());
  cflags.insert(cflags.end(), n, true);
  Traced bcond = batch_program(w.cond, cflags, size);
  Traced bbody = batch_program(w.body, bflags, size);
  std::span<const Array> cc(in.data(), w.cn), bc(in.data() + w.cn, w.bn), carry(in.data() + w.cn + w.bn, n);
  std::vector<Array> cconsts = cat<Array>({bcond.consts, cc}), bconsts = cat<Array>({bbody.consts, bc});
  auto pred_of = [&](std::span<const Array> consts, std::span<const Array> c) {
    return eval_jaxpr(*bcond.jaxpr, cat<Array>({consts, c}))[0];
  };
  std::vector<AbstractValue> cav = avals_of(cconsts), bav = avals_of(bconsts), carry_av = avals_of(carry);
  Traced cond = trace(cat<AbstractValue>({cav, carry_av}), [&](std::span<const Array> v) {
    Array pred = pred_of(v.subspan(0, cav.size()), v.subspan(cav.size()));
    Array any = lax::reduce_sum(lax::convert_element_type(pred, DType::i32), {0});
    return std::vector<Array>{lax::gt(any, lax::scalar(0, DType::i32))};
  });
  Traced body = trace(cat<AbstractValue>({cav, bav, carry_av}), [&](std::span<const Array> v) {
    std::span<const Array> c = v.subspan(cav.size() + bav.size());
    Array pred = pred_of(v.subspan(0, cav.size()), c);
    std::vector<Array> next = eval_jaxpr(*bbody.jaxpr, cat<Array>({v.subspan(cav.size(), bav.size()), c}));
    for (size_t i = 0; i < next.size(); ++i)
      next[i] = lax::select(lax::broadcast_in_dim(pred, next[i].shape(), {0}), next[i], c[i]);
    return next;
  });
  std::vector<Array> operands = cat<Array>({cond.consts, cconsts, body.consts, cconsts, bconsts, carry});
  std::vector<Array> outs = lax::bind(prim::kWhile, operands, make_params(cond, cav.size(), body, cav.size() + bav.size()));
  return {outs, std::vector<int>(outs.size(), 0)};
}

}  // namespace

const Primitive prim::kWhile{
    .name = "while",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
};

}  // namespace strata
