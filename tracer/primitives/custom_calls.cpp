// tracer/primitives/custom_calls.cpp — see custom_calls.h.
#include "custom_calls.h"

#include "../batching.h"
#include "batch_rules.h"
#include "control_flow.h"
#include "strata/errors.h"

namespace strata::custom_calls {

std::vector<AbstractValue> rule(const char* name, std::span<const AbstractValue> in, const JaxprImpl& fun) {
  if (in.size() != fun.invars.size())
    throw ValueError(std::string(name) + ": expects " + std::to_string(fun.invars.size()) + " operands, but got " +
                     std::to_string(in.size()));
  for (size_t i = 0; i < in.size(); ++i) {
    const AbstractValue& want = fun.vars[fun.invars[i]];
    if (want.shape != in[i].shape || want.dtype != in[i].dtype)
      throw ShapeError(std::string(name) + ": operand " + std::to_string(i) + " expects " + want.str() + ", but got " +
                       in[i].str());
  }
  std::vector<AbstractValue> out;
  for (const Atom& a : fun.outvars) out.push_back(fun.aval(a));
  return out;
}

std::shared_ptr<const JaxprImpl> batched(const JaxprImpl& j, int64_t n, const std::vector<bool>& mapped) {
  std::vector<AbstractValue> avals = control_flow::in_avals(j);
  std::vector<int> dims(avals.size(), 0);
  for (size_t i = 0; i < avals.size(); ++i) {
    if (!mapped.empty() && !mapped[i]) dims[i] = not_mapped;
    else avals[i].shape.insert(avals[i].shape.begin(), n);
  }
  return control_flow::trace_closed(avals, [&](std::span<const Array> in) {
    batching::Result r = batching::batch_jaxpr(j, in, dims);
    std::vector<Array> outs;
    for (size_t i = 0; i < r.outputs.size(); ++i)
      outs.push_back(r.dims[i] == not_mapped ? batching::broadcast_batch(r.outputs[i], n)
                                             : batching::move_dim(r.outputs[i], r.dims[i], 0));
    return outs;
  });
}

std::pair<std::vector<Array>, int64_t> batch_front(std::span<const Array> args, std::span<const int> dims) {
  int64_t n = batching::batch_size(args, dims);
  std::vector<Array> xs;
  for (size_t i = 0; i < args.size(); ++i) xs.push_back(batching::front_or_repeat(args, dims, i, n));
  return {xs, n};
}

FrontBatch batch_front(std::span<const Array> args, std::span<const int> dims, size_t num_consts) {
  FrontBatch r;
  r.size = batching::batch_size(args, dims);
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < num_consts) {
      r.consts_mapped.push_back(dims[i] != not_mapped);
      r.operands.push_back(dims[i] == not_mapped ? args[i] : batching::move_dim(args[i], dims[i], 0));
    } else {
      r.operands.push_back(batching::front_or_repeat(args, dims, i, r.size));
    }
  }
  return r;
}

std::vector<bool> FrontBatch::mapped(const JaxprImpl& program) const {
  std::vector<bool> m = consts_mapped;
  m.resize(program.invars.size(), true);
  return m;
}

int64_t num_consts(const Params& p) { return p.has("num_consts") ? p.get<int64_t>("num_consts") : 0; }

void refuse_closed_over(const char* name) {
  throw Error(std::string(name) + ": cannot differentiate with respect to a value the function (or its rule) "
              "closes over (captures): that is not supported: the custom rule only says how to differentiate with "
              "respect to the function's explicit arguments. Pass the value in as an argument (and give its "
              "derivative in the rule), or use st::closure_convert to turn what the function captures into "
              "arguments.");
}

}  // namespace strata::custom_calls
