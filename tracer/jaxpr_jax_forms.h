// tracer/jaxpr_jax_forms.h — the parameter forms JAX (0.10) prints that strata's printer does
// not, read into strata's params: nested tuples (dot_general's dimension_numbers, pad's
// padding_config), named records (GatherDimensionNumbers(...), ConvDimensionNumbers(...)),
// enum members (GatherScatterMode.CLIP), `np.int64(1)`, and `None` (a parameter left unset).
// The parser (jaxpr_parser.cpp) reads every value into a RawValue first; structural rewrites
// (inlined calls, select_n, split, …) are the parser's, these are the params alone.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "abstract_value.h"
#include "params.h"

namespace strata::jax_forms {

struct RawItem;

// One parameter value as printed, before it becomes a ParamValue.
struct RawValue {
  enum Kind { kNone, kNumber, kWord, kSeq, kCall, kJaxpr } kind = kNone;
  std::string text;  // kNumber: the literal; kWord, kCall: the (dotted) name
  // kSeq: the elements (names empty); kCall: the arguments (keyword arguments named).
  std::vector<RawItem> items;
  std::vector<JaxprPtr> jaxprs;  // kJaxpr: one; a kSeq of jaxprs holds them as kJaxpr items
  std::string str() const;       // as printed (for messages)
};
// An element of a sequence (first empty) or an argument of a call (first: its keyword, if any).
struct RawItem {
  std::string first;
  RawValue second;
};
using RawParams = std::vector<std::pair<std::string, RawValue>>;

// The ParamValue a plain value is (a number, word, dtype, jaxpr, or a flat tuple of integers or
// of jaxprs); nullopt for None; throws ParamError(name, ...) for anything else.
std::optional<ParamValue> plain(const std::string& name, const RawValue& v);

// `raw` as strata's params for primitive `prim`, JAX's forms translated (dot_general, pad,
// gather, scatter*, conv_general_dilated, broadcast_in_dim's elided shape, slice's and
// reshape's None, ...). `in` and `out` are the equation's operand and result types.
// Throws ParamError naming the parameter it cannot read.
Params to_params(std::string_view prim, const RawParams& raw, std::span<const AbstractValue> in,
                 std::span<const AbstractValue> out);

}  // namespace strata::jax_forms
