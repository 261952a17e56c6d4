// tracer/primitives/conv_params.h — conv_general_dilated's params (JAX's names) to and from
// shape_rules::ConvParams, and the bind that the API and the derivative rules share.
#pragma once

#include "../lax.h"
#include "../params.h"
#include "../shape_rules.h"

namespace strata::conv_prim {

inline shape_rules::ConvParams from_params(const Params& p) {
  return {p.get_ints("window_strides"), p.get_ints("padding_low"), p.get_ints("padding_high"),
          p.get_ints("lhs_dilation"),   p.get_ints("rhs_dilation"), p.get_ints("lhs_spec"),
          p.get_ints("rhs_spec"),       p.get_ints("out_spec"),     p.get_int("feature_group_count"),
          p.get_int("batch_group_count")};
}

inline Params to_params(const shape_rules::ConvParams& c) {
  return Params{{"window_strides", c.window_strides}, {"padding_low", c.padding_low},
                {"padding_high", c.padding_high},     {"lhs_dilation", c.lhs_dilation},
                {"rhs_dilation", c.rhs_dilation},     {"lhs_spec", c.lhs_spec},
                {"rhs_spec", c.rhs_spec},             {"out_spec", c.out_spec},
                {"feature_group_count", c.feature_group_count},
                {"batch_group_count", c.batch_group_count}};
}

inline Array bind(const Array& lhs, const Array& rhs, const shape_rules::ConvParams& c,
                  lax::Loc loc = lax::Loc::current()) {
  return lax::bind1(prim::kConvGeneralDilated, {lhs, rhs}, to_params(c), loc);
}

}  // namespace strata::conv_prim
