// tracer/primitives/batch_rules.h — helpers of the structural primitives' batching rules
// (Primitive::batch). A rule returns the outputs of the primitive applied to operands that
// carry a batch dimension, and each output's batch dimension; every rule here puts it first.
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "../batching.h"
#include "../lax.h"
#include "../primitive.h"

namespace strata::batching {

using Out = std::pair<std::vector<Array>, std::vector<int>>;

// The one operand, batch dimension first.
inline Array front(std::span<const Array> args, std::span<const int> dims, size_t i = 0) {
  return move_dim(args[i], dims[i], 0);
}

// The batch size: any batched operand's size along its batch dimension (0 if none is).
inline int64_t batch_size(std::span<const Array> args, std::span<const int> dims) {
  for (size_t i = 0; i < args.size(); ++i)
    if (dims[i] != not_mapped) return args[i].shape(dims[i]);
  return 0;
}
// Operand i with the batch dimension first; an unbatched one repeated `n` times.
inline Array front_or_repeat(std::span<const Array> args, std::span<const int> dims, size_t i, int64_t n) {
  return dims[i] == not_mapped ? broadcast_batch(args[i], n) : front(args, dims, i);
}
// `list` with each entry shifted past a new leading dimension, and `first` put in front (when
// given): axes and dimension numbers of the operand, seen with its batch dimension first.
inline IntList shifted(const IntList& list, std::optional<int64_t> first = std::nullopt) {
  IntList out;
  if (first) out.push_back(*first);
  for (int64_t v : list) out.push_back(v + 1);
  return out;
}

// The rule of a one-operand primitive whose `axes` param names operand dimensions (the
// reductions, argmax): the batch dimension goes first and every axis shifts by one.
template <const Primitive& P>
Out axes_rule(std::span<const Array> args, std::span<const int> dims, const Params& params) {
  Params p = params;
  p.set("axes", shifted(params.get_ints("axes")));
  std::vector<Array> out = lax::bind(P, std::span<const Array>({front(args, dims)}), p);
  return {out, std::vector<int>(out.size(), 0)};
}

}  // namespace strata::batching
