#include "elementwise.h"

#include "../batching.h"
#include "../trace.h"

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

std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& p, std::span<const Array> args,
                                                      std::span<const int> batch_dims,
                                                      const Params& params) {
  SourceLoc here{__FILE__, __LINE__, 0};
  auto apply = [&](const Primitive& q, const Array& x, const Params& ps) {
    return strata::bind1(q, std::span<const Array>(&x, 1), ps, here);
  };
  // The batch size and the per-example shape of the result (operands share one or are 0-d).
  int64_t size = -1;
  Shape example;
  for (size_t i = 0; i < args.size(); ++i) {
    Shape s = args[i].shape();
    if (batch_dims[i] != not_mapped) {
      size = s[batch_dims[i]];
      s.erase(s.begin() + batch_dims[i]);
    }
    if (s.size() > example.size()) example = s;
  }
  if (size < 0) {  // nothing batched
    std::vector<Array> out = strata::bind(p, args, params, here);
    return {out, std::vector<int>(out.size(), not_mapped)};
  }
  Shape full{size};
  full.insert(full.end(), example.begin(), example.end());
  std::vector<Array> moved;
  for (size_t i = 0; i < args.size(); ++i) {
    Array x = args[i];
    int d = batch_dims[i];
    if (d == not_mapped) {
      if (x.ndim() > 0) x = batching::broadcast_batch(x, size);  // [S] → [B, S]
    } else {
      x = batching::move_dim(x, d, 0);  // the batch dimension first
      if (x.ndim() == 1 && !example.empty())  // [B] → [B, S]
        x = apply(prim::kBroadcastInDim, x, Params{{"shape", IntList(full)}, {"broadcast_dimensions", IntList{0}}});
    }
    moved.push_back(std::move(x));
  }
  std::vector<Array> out = strata::bind(p, moved, params, here);
  return {out, std::vector<int>(out.size(), 0)};
}

}  // namespace strata::elementwise
