// tracer/primitives/window.h — the window primitives of jax.lax (issue 13):
// reduce_window_sum/max/min[window_dimensions, window_strides, padding_low, padding_high,
// base_dilation, window_dilation] (JAX's padding pairs as two lists, as conv_general_dilated's),
// select_and_scatter_add[select_prim, window_dimensions, window_strides, padding_low,
// padding_high] source operand, and select_and_gather_add[select_prim, ..., base_dilation,
// window_dilation] tangents operand: their shape rules, eager kernels, derivative and batching
// rules, shared here; one file per primitive defines it (reduce_window_sum.cpp, ...).
#pragma once

#include "../lax.h"
#include "../primitive.h"
#include "../window_rules.h"

namespace strata::window {

enum class Kind { kSum, kMax, kMin };

shape_rules::WindowParams from_params(const Params& p);
Params to_params(const shape_rules::WindowParams& w);

// Binds reduce_window_KIND (as lax.reduce_window with lax.add/max/min and the identity).
Array reduce(Kind k, const Array& x, const shape_rules::WindowParams& w, lax::Loc loc = lax::Loc::current());
// JAX's _select_and_scatter_add: each element of `source` added at the position its window of
// `operand` selects (the first largest for ge, smallest for le; padding never selected).
// Dilations must be 1.
Array select_and_scatter_add(const Array& source, const Array& operand, bool ge, const shape_rules::WindowParams& w,
                             lax::Loc loc = lax::Loc::current());
// JAX's _select_and_gather_add: for each window of `operand`, the element of `tangents` at the
// position reduce_window_max (ge) or _min (le) picks.
Array select_and_gather_add(const Array& tangents, const Array& operand, bool ge, const shape_rules::WindowParams& w,
                            lax::Loc loc = lax::Loc::current());

// The rules of reduce_window_KIND.
std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p);
void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p);
std::vector<Array> jvp(Kind k, std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                       const Params& p);
std::vector<Array> vjp(Kind k, std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                       const Params& p);
std::pair<std::vector<Array>, std::vector<int>> batch(Kind k, std::span<const Array> args, std::span<const int> dims,
                                                      const Params& p);

// The rules of select_and_scatter_add (source, operand) and select_and_gather_add (tangents,
// operand).
std::vector<AbstractValue> scatter_rule(std::span<const AbstractValue> in, const Params& p);
void scatter_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p);
std::vector<Array> scatter_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                               const Params& p);
std::vector<Array> scatter_vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                               const Params& p);
std::pair<std::vector<Array>, std::vector<int>> scatter_batch(std::span<const Array> args, std::span<const int> dims,
                                                              const Params& p);
std::vector<AbstractValue> gather_rule(std::span<const AbstractValue> in, const Params& p);
void gather_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p);
std::vector<Array> gather_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                              const Params& p);
std::vector<Array> gather_vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                              const Params& p);
std::pair<std::vector<Array>, std::vector<int>> gather_batch(std::span<const Array> args, std::span<const int> dims,
                                                             const Params& p);

// Defines the primitive prim::NAME of kind KIND.
#define STRATA_REDUCE_WINDOW_PRIMITIVE(NAME, STR, KIND)                                                   \
  const Primitive prim::NAME{                                                                            \
      .name = STR,                                                                                       \
      .arity = 1,                                                                                        \
      .traits = kTakesComplex,                                                                           \
      .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return window::rule(KIND, in, p); }, \
      .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,                         \
                  const Params& p) { window::kernel(KIND, in, out, p); },                                \
      .jvp = [](std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,             \
                const Params& p) { return window::jvp(KIND, x, t, y, p); },                              \
      .vjp = [](std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,            \
                const Params& p) { return window::vjp(KIND, x, y, ct, p); },                             \
      .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) {                   \
        return window::batch(KIND, a, d, p);                                                             \
      },                                                                                                 \
  };

}  // namespace strata::window
