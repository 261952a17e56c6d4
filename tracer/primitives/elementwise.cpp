#include "elementwise.h"

namespace strata::elementwise {

std::vector<AbstractValue> rule(std::string_view name, std::span<const AbstractValue> in,
                                Accepts acc, bool result_bool) {
  std::string op(name);
  std::vector<Shape> shapes;
  bool weak = true;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!accepts(acc, in[i].dtype))
      throw DTypeError(op + ": expects " + accepts_text(acc) + ", but got " + in[i].str());
    if (in[i].dtype != in[0].dtype)
      throw DTypeError(op + ": expects operands of one dtype, but got " + in[0].str() + " and " +
                       in[i].str());
    shapes.push_back(in[i].shape);
    weak = weak && in[i].weak;
  }
  shape_rules::Result r = shape_rules::elementwise(shapes);
  if (!r.ok()) throw ShapeError(op + ": " + r.error);
  DType t = result_bool ? DType::bool_ : in[0].dtype;
  return {AbstractValue{r.shape, t, weak && !result_bool}};
}

}  // namespace strata::elementwise
