// tracer/primitives/select_and_scatter_add.cpp — `select_and_scatter_add[select_prim,
// window_dimensions, window_strides, padding_low, padding_high] source operand`: JAX's gradient
// of reduce_window_max (ge) / _min (le): each source element added at the position of its
// window of `operand` that the comparison selects. The rules are shared: window.h.
#include "window.h"

namespace strata {

const Primitive prim::kSelectAndScatterAdd{
    .name = "select_and_scatter_add",
    .arity = 2,
    .shape_rule = window::scatter_rule,
    .eager = window::scatter_kernel,
    .jvp = window::scatter_jvp,
    .vjp = window::scatter_vjp,
    .batch = window::scatter_batch,
};

}  // namespace strata
