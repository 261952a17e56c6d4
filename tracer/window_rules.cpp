#include "window_rules.h"

namespace strata::shape_rules {

Result reduce_window(const Shape& operand, const WindowParams& w) {
  const size_t rank = operand.size();
  auto sized = [&](const IntList& v, const char* what) -> std::string {
    if (v.size() != rank)
      return std::string("expects ") + what + " of length " + std::to_string(rank) + " (the operand's rank), but got " +
             list_string(v);
    return {};
  };
  for (auto [list, what] : {std::pair{&w.window_dimensions, "window_dimensions"}, {&w.window_strides, "window_strides"},
                            {&w.padding_low, "padding_low"}, {&w.padding_high, "padding_high"},
                            {&w.base_dilation, "base_dilation"}, {&w.window_dilation, "window_dilation"}})
    if (std::string e = sized(*list, what); !e.empty()) return Result{{}, e};
  Shape out(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (w.window_dimensions[d] < 1 || w.window_strides[d] < 1 || w.base_dilation[d] < 1 || w.window_dilation[d] < 1)
      return Result{{}, "expects positive window_dimensions, window_strides, base_dilation and window_dilation, but got " +
                            list_string(w.window_dimensions) + ", " + list_string(w.window_strides) + ", " +
                            list_string(w.base_dilation) + " and " + list_string(w.window_dilation)};
    if (w.padding_low[d] < 0 || w.padding_high[d] < 0)
      return Result{{}, "expects non-negative padding, but got low " + list_string(w.padding_low) + " and high " +
                            list_string(w.padding_high)};
    int64_t padded = dilated_size(operand[d], w.base_dilation[d]) + w.padding_low[d] + w.padding_high[d];
    int64_t extent = dilated_size(w.window_dimensions[d], w.window_dilation[d]);
    out[d] = padded < extent ? 0 : (padded - extent) / w.window_strides[d] + 1;
  }
  return {out, {}};
}

}  // namespace strata::shape_rules
