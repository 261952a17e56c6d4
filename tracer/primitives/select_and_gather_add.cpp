// tracer/primitives/select_and_gather_add.cpp — `select_and_gather_add[select_prim,
// window_dimensions, window_strides, padding_low, padding_high, base_dilation, window_dilation]
// tangents operand`: JAX's JVP of reduce_window_max (ge) / _min (le): for each window of
// `operand`, the tangent at the position the window's maximum (minimum) comes from. The rules
// are shared: window.h.
#include "window.h"

namespace strata {

const Primitive prim::kSelectAndGatherAdd{
    .name = "select_and_gather_add",
    .arity = 2,
    .shape_rule = window::gather_rule,
    .eager = window::gather_kernel,
    .jvp = window::gather_jvp,
    .vjp = window::gather_vjp,
    .batch = window::gather_batch,
};

}  // namespace strata
