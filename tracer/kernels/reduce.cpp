#include "reduce.h"

#include "../shape_rules.h"

namespace strata::kernels {

std::vector<AbstractValue> reduce_rule(std::string_view op, std::span<const AbstractValue> in,
                                       const Params& p, bool allow_bool) {
  std::string name(op);
  if (in.size() != 1) throw ValueError(name + ": expects one operand");
  if (!allow_bool && in[0].dtype == DType::bool_)
    throw DTypeError(name + ": expects a numeric dtype, but got " + in[0].str());
  shape_rules::Result r = shape_rules::reduce(in[0].shape, p.get_ints("axes"));
  if (!r.ok()) throw ValueError(name + ": " + r.error + " for " + in[0].str());
  return {AbstractValue{r.shape, in[0].dtype, in[0].weak}};
}

std::vector<AbstractValue> bool_reduce_rule(std::string_view op, std::span<const AbstractValue> in,
                                            const Params& p) {
  if (in.size() == 1 && in[0].dtype != DType::bool_)
    throw DTypeError(std::string(op) + ": expects a bool operand, but got " + in[0].str());
  return reduce_rule(op, in, p, true);
}

}  // namespace strata::kernels
