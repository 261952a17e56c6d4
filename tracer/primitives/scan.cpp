// tracer/primitives/scan.cpp — `scan[jaxpr length num_carry num_consts reverse unroll]
// consts... init... xs...`: JAX's scan. Step i runs jaxpr(consts, carry, xs[i]) →
// (carry, ys[i]); the outputs are the last carry and the ys stacked along a new leading axis
// (steps in decreasing i when reverse). `remat=True` (st::checkpoint on the body) makes the
// reverse-mode derivative save only each step's carry and recompute the rest.
#include <cstring>

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
  const JaxprImpl& body;
  size_t k, c;  // constants, carries
  int64_t length;
  bool reverse;
};

Parts parts(const Params& p) {
  return {*p.get<JaxprPtr>("jaxpr"), static_cast<size_t>(p.get_int("num_consts")),
          static_cast<size_t>(p.get_int("num_carry")), p.get_int("length"), p.get<bool>("reverse")};
}

bool remat(const Params& p) { return p.has("remat") && p.get<bool>("remat"); }

AbstractValue unstacked(const AbstractValue& a) {
  AbstractValue r = a;
  r.shape.erase(r.shape.begin());
  return r;
}
AbstractValue stacked(const AbstractValue& a, int64_t length) {
  AbstractValue r = a;
  r.shape.insert(r.shape.begin(), length);
  return r;
}

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  Parts s = parts(p);
  if (s.length < 0) throw ValueError("scan: expects a non-negative length, but got " + std::to_string(s.length));
  if (s.k + s.c > in.size())
    throw ValueError("scan: expects at least " + std::to_string(s.k + s.c) + " operands (constants and carry), but got " +
                     std::to_string(in.size()));
  std::vector<AbstractValue> body_in(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(s.k + s.c));
  for (size_t i = s.k + s.c; i < in.size(); ++i) {
    if (in[i].shape.empty() || in[i].shape[0] != s.length)
      throw ShapeError("scan: xs " + std::to_string(i - s.k - s.c) + " is " + in[i].str() +
                       ", but expected a leading axis of the length " + std::to_string(s.length));
    body_in.push_back(unstacked(in[i]));
  }
  expect_types("scan", "jaxpr input", body_in, in_avals(s.body));
  std::vector<AbstractValue> outs = out_avals(s.body);
  if (outs.size() < s.c) throw ValueError("scan: the body returns fewer values than the carry has");
  std::span<const AbstractValue> carry = in.subspan(s.k, s.c);
  expect_types("scan", "body output carry", std::span<const AbstractValue>(outs).subspan(0, s.c), carry);
  std::vector<AbstractValue> r(carry.begin(), carry.end());
  for (size_t i = s.c; i < outs.size(); ++i) r.push_back(stacked(outs[i], s.length));
  return r;
}

std::vector<Array> eval(std::span<const Array> in, const Params& p) {
  Parts s = parts(p);
  std::vector<AbstractValue> out_av = rule(avals_of(in), p);
  std::vector<Array> consts(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(s.k));
  std::vector<Array> carry(in.begin() + static_cast<std::ptrdiff_t>(s.k), in.begin() + static_cast<std::ptrdiff_t>(s.k + s.c));
  std::span<const Array> xs = in.subspan(s.k + s.c);
  std::vector<Array> ys;
  for (size_t i = s.c; i < out_av.size(); ++i) ys.push_back(detail::make_concrete(out_av[i]));
  std::vector<Array> args;
  for (int64_t t = 0; t < s.length; ++t) {
    int64_t i = s.reverse ? s.length - 1 - t : t;
    args = consts;
    args.insert(args.end(), carry.begin(), carry.end());
    for (const Array& x : xs) {
      AbstractValue av = unstacked(detail::aval_of(x));
      Array xi = detail::make_concrete(av);
      std::memcpy(detail::mutable_data(xi), static_cast<const char*>(x.data()) + i * static_cast<int64_t>(av.nbytes()), av.nbytes());
      args.push_back(std::move(xi));
    }
    std::vector<Array> outs = eval_jaxpr(s.body, args);
    carry.assign(outs.begin(), outs.begin() + static_cast<std::ptrdiff_t>(s.c));
    for (size_t j = 0; j < ys.size(); ++j) {
      size_t n = detail::aval_of(outs[s.c + j]).nbytes();
      std::memcpy(static_cast<char*>(detail::mutable_data(ys[j])) + i * static_cast<int64_t>(n), outs[s.c + j].data(), n);
    }
  }
  carry.insert(carry.end(), ys.begin(), ys.end());
  return carry;
}

std::vector<Array> bind_scan(const Traced& body, size_t k, size_t c, int64_t length, bool reverse, const Params& like,
                             std::span<const Array> operands) {
  Params p{{"jaxpr", body.jaxpr},
           {"length", length},
           {"num_consts", static_cast<int64_t>(body.consts.size() + k)},
           {"num_carry", static_cast<int64_t>(c)},
           {"reverse", reverse},
           {"unroll", like.get_int("unroll")}};
  if (remat(like)) p.set("remat", true);
  std::vector<Array> in = cat<Array>({body.consts, operands});
  return lax::bind(prim::kScan, in, p);
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params& p) {
  Parts s = parts(p);
  size_t nx = x.size() - s.k - s.c;
  std::vector<AbstractValue> body_av = in_avals(s.body);
  // Which inputs of the body get a tangent: constants and xs that have one, every float carry.
  std::vector<bool> nz(body_av.size());
  std::vector<Array> tan(body_av.size());
  for (size_t i = 0; i < body_av.size(); ++i) {
    bool carry = i >= s.k && i < s.k + s.c;
    nz[i] = differentiable(body_av[i]) && (carry || t[i].valid());
    if (nz[i]) tan[i] = ad::instantiate(t[i], detail::aval_of(x[i]));
  }
  auto group = [&](size_t lo, size_t hi, std::vector<AbstractValue>& av, std::vector<Array>* ops) {
    for (size_t i = lo; i < hi; ++i) {
      av.push_back(body_av[i]);
      if (ops) ops->push_back(x[i]);
    }
    for (size_t i = lo; i < hi; ++i)
      if (nz[i]) {
        av.push_back(body_av[i]);
        if (ops) ops->push_back(tan[i]);
      }
  };
  std::vector<AbstractValue> av;
  std::vector<Array> operands;
  size_t kk = av.size();
  group(0, s.k, av, &operands);
  kk = av.size();
  group(s.k, s.k + s.c, av, &operands);
  size_t cc = av.size() - kk;
  group(s.k + s.c, body_av.size(), av, &operands);
  std::vector<AbstractValue> outs_av = out_avals(s.body);
  Traced body = trace(av, [&](std::span<const Array> in) {
    std::vector<Array> primals(body_av.size()), tangents(body_av.size());
    size_t pos = 0;
    auto take = [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) primals[i] = in[pos++];
      for (size_t i = lo; i < hi; ++i)
        if (nz[i]) tangents[i] = in[pos++];
    };
    take(0, s.k);
    take(s.k, s.k + s.c);
    take(s.k + s.c, body_av.size());
    ad::JvpResult r = ad::jvp(s.body, primals, tangents);
    std::vector<Array> outs;
    auto put = [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) outs.push_back(r.outputs[i]);
      for (size_t i = lo; i < hi; ++i)
        if (differentiable(outs_av[i])) outs.push_back(ad::instantiate(r.tangents[i], outs_av[i]));
    };
    put(0, s.c);
    put(s.c, outs_av.size());
    return outs;
  });
  (void)nx;
  std::vector<Array> outs = bind_scan(body, kk, cc, s.length, s.reverse, p, operands);
  // outs: carry, float carry tangents, ys, float ys tangents.
  std::vector<Array> r;
  size_t cf = 0;
  for (size_t i = 0; i < s.c; ++i) cf += differentiable(outs_av[i]);
  size_t ny = outs_av.size() - s.c, k = s.c;
  for (size_t i = 0; i < s.c; ++i) r.push_back(differentiable(outs_av[i]) ? outs[k++] : Array());
  k = s.c + cf + ny;
  for (size_t i = s.c; i < outs_av.size(); ++i) r.push_back(differentiable(outs_av[i]) ? outs[k++] : Array());
  return r;
}

// Reverse mode: a forward scan that also stacks each step's residuals (the values the step's
// backward part reads; with remat only the step's carry) and gives the outputs, then, for the
// cotangents, a scan in the other direction over the residuals and the ys' cotangents, carrying
// the cotangents of the carry and the sum of the constants' cotangents (vjp_split: the forward
// scan is the only one when vjp_program differentiates a scan).
// `primal`: this forward scan is the primal pass (it runs the body's debug callbacks; the
// backward never does).
std::pair<std::vector<Array>, VjpBackward> split(std::span<const Array> x, const Params& p, bool primal) {
  Parts s = parts(p);
  std::vector<AbstractValue> body_av = in_avals(s.body), outs_av = out_avals(s.body);
  size_t ny = outs_av.size() - s.c;
  // Every float carry is differentiated (the step's cotangents flow through it); the consts'
  // and xs' cotangents only where a differentiated input reaches them.
  std::vector<bool> wrt;
  for (size_t i = 0; i < body_av.size(); ++i) {
    bool carry = i >= s.k && i < s.k + s.c;
    wrt.push_back(differentiable(body_av[i]) && (carry || ad::cotangent_needed(i)));
  }
  // The body's debug callbacks run in the primal pass only: the partial evaluation below leaves
  // them on the forward side, and remat's backward recomputes without them.
  JaxprPtr quiet = without_debug_callbacks(s.body);
  const JaxprImpl& fwd_body = primal ? s.body : *quiet;
  JaxprPtr program = ad::vjp_program(remat(p) ? *quiet : fwd_body, wrt, outs_av.size());
  std::span<const Array> consts = x.subspan(0, s.k), xs = x.subspan(s.k + s.c);

  // 1. Forward, with residuals as extra ys — but a residual that is a constant or an x of the
  //    step (a weight matrix, the input itself) is not stacked: the backward scan takes the
  //    constant as its own constant and the xs as they are. res_src: per residual of
  //    `unknown`, -1 (stacked) or the body input it is.
  JaxprPtr unknown;
  std::vector<int> res_src;
  Traced fwd;
  if (remat(p)) {
    fwd = trace(body_av, [&](std::span<const Array> in) {
      std::vector<Array> outs = eval_jaxpr(fwd_body, in);
      for (size_t i = 0; i < s.c; ++i) outs.push_back(in[s.k + i]);
      return outs;
    });
  } else {
    fwd = trace(body_av, [&](std::span<const Array> in) {
      ad::Partial part = ad::partial_eval(*program, in, outs_av.size());
      unknown = part.unknown;
      std::vector<bool> forwardable(in.size());  // constants and xs (a step's carry is its own)
      for (size_t j = 0; j < in.size(); ++j) forwardable[j] = j < s.k || j >= s.k + s.c;
      return cat<Array>({part.known_outputs, computed_residuals(part.residuals, in, forwardable, res_src)});
    });
  }
  std::vector<Array> fwd_out = bind_scan(fwd, s.k, s.c, s.length, s.reverse, p, x);
  std::vector<Array> outputs(fwd_out.begin(), fwd_out.begin() + static_cast<std::ptrdiff_t>(s.c + ny));
  // The backward scan's constants and per-step inputs: stacked residuals, then forwarded xs.
  std::vector<Array> res(fwd_out.begin() + static_cast<std::ptrdiff_t>(s.c + ny), fwd_out.end());
  const size_t n_stacked = res.size();
  std::vector<Array> bconsts;
  if (remat(p)) {
    bconsts.assign(consts.begin(), consts.end());
    res.insert(res.end(), xs.begin(), xs.end());
  } else {
    for (int src : res_src)
      if (src >= 0) (static_cast<size_t>(src) < s.k ? bconsts : res).push_back(x[static_cast<size_t>(src)]);
  }
  std::vector<AbstractValue> y_av = avals_of(outputs);

  // 2. Backward. Carry: (cotangents of the float constants, of the float carries); xs:
  //    (residuals, cotangents of the float ys).
  VjpBackward backward = [p, wrt, program, unknown, res_src, n_stacked, res = std::move(res),
                          bconsts = std::move(bconsts), body_av, outs_av, y_av,
                          ny](std::span<const Array> ct) -> std::vector<Array> {
    Parts s = parts(p);
    std::vector<AbstractValue> av = avals_of(bconsts);
    std::vector<Array> carry0, ys_ct;
    for (size_t i = 0; i < s.k; ++i)
      if (wrt[i]) {
        av.push_back(body_av[i]);
        carry0.push_back(lax::zeros(body_av[i]));
      }
    for (size_t i = 0; i < s.c; ++i)
      if (wrt[s.k + i]) {
        av.push_back(body_av[s.k + i]);
        carry0.push_back(ad::instantiate(ct[i], y_av[i]));
      }
    for (const Array& r : res) av.push_back(unstacked(detail::aval_of(r)));
    for (size_t i = 0; i < ny; ++i)
      if (differentiable(outs_av[s.c + i])) {
        av.push_back(outs_av[s.c + i]);
        ys_ct.push_back(ad::instantiate(ct[s.c + i], y_av[s.c + i]));
      }
    size_t kf = 0, cf = 0;
    for (size_t i = 0; i < s.k; ++i) kf += wrt[i];
    for (size_t i = 0; i < s.c; ++i) cf += wrt[s.k + i];
    size_t nb = bconsts.size();
    Traced bwd = trace(av, [&](std::span<const Array> in) {
      std::span<const Array> acc = in.subspan(nb, kf), carry_ct = in.subspan(nb + kf, cf),
                             r = in.subspan(nb + kf + cf, res.size()), yct = in.subspan(nb + kf + cf + res.size());
      std::vector<Array> cts;
      size_t a = 0, b = 0;
      for (size_t i = 0; i < s.c; ++i) cts.push_back(wrt[s.k + i] ? carry_ct[a++] : lax::zeros(outs_av[i]));
      for (size_t i = 0; i < ny; ++i)
        cts.push_back(differentiable(outs_av[s.c + i]) ? yct[b++] : lax::zeros(outs_av[s.c + i]));
      std::vector<Array> in_cts;
      if (remat(p)) {
        std::vector<Array> all = eval_jaxpr(*program, cat<Array>({in.subspan(0, nb), r, cts}));
        in_cts.assign(all.begin() + static_cast<std::ptrdiff_t>(outs_av.size()), all.end());
      } else {
        std::vector<Array> full;  // the residuals in `unknown`'s order
        size_t st = 0, c = 0, xf = n_stacked;
        for (int src : res_src) full.push_back(src < 0 ? r[st++] : static_cast<size_t>(src) < s.k ? in[c++] : r[xf++]);
        in_cts = eval_jaxpr(*unknown, cat<Array>({full, cts}));
      }
      std::vector<Array> out;
      for (size_t i = 0; i < kf; ++i) out.push_back(lax::add(acc[i], in_cts[i]));
      out.insert(out.end(), in_cts.begin() + static_cast<std::ptrdiff_t>(kf), in_cts.end());
      return out;
    });
    Params q = p;
    q.set("remat", false);
    std::vector<Array> bwd_out =
        bind_scan(bwd, nb, kf + cf, s.length, !s.reverse, q, cat<Array>({bconsts, carry0, res, ys_ct}));
    std::vector<Array> r;
    size_t k = 0;
    for (size_t i = 0; i < body_av.size(); ++i) r.push_back(wrt[i] ? bwd_out[k++] : Array());
    return r;
  };
  return {std::move(outputs), std::move(backward)};
}

std::pair<std::vector<Array>, VjpBackward> vjp_split(std::span<const Array> x, const Params& p) {
  return split(x, p, true);
}

// The one-shot VJP, after a primal pass: the forward scan again (silently), then the backward.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params& p) {
  return split(x, p, false).second(ct);
}

// Every carry is batched (batch first); xs keep their scan axis first and the batch second,
// so each step's slice is batched first, and the stacked ys are batched along axis 1.
std::pair<std::vector<Array>, std::vector<int>> batch(std::span<const Array> args, std::span<const int> dims,
                                                       const Params& p) {
  Parts s = parts(p);
  int64_t size = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) size = args[i].shape(dims[i]);
  std::vector<Array> in;
  std::vector<bool> batched;
  for (size_t i = 0; i < args.size(); ++i) {
    bool carry = i >= s.k && i < s.k + s.c, x = i >= s.k + s.c;
    if (dims[i] != not_mapped) in.push_back(batching::move_dim(args[i], dims[i], x ? 1 : 0));
    else in.push_back(carry ? batching::broadcast_batch(args[i], size) : args[i]);
    batched.push_back(carry || dims[i] != not_mapped);
  }
  Traced body = batch_program(s.body, batched, size);
  std::vector<Array> outs = bind_scan(body, s.k, s.c, s.length, s.reverse, p, in);
  std::vector<int> out_dims(outs.size(), 1);
  for (size_t i = 0; i < s.c; ++i) out_dims[i] = 0;
  return {outs, out_dims};
}

}  // namespace

const Primitive prim::kScan{
    .name = "scan",
    .traits = kTakesComplex,
    .shape_rule = rule,
    .eval = eval,
    .jvp = jvp,
    .vjp = vjp,
    .batch = batch,
    .vjp_split = vjp_split,
};

}  // namespace strata
