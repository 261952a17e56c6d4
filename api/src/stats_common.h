// api/src/stats_common.h — what the st::stats files share: JAX's promote_args_inexact for any
// number of arguments, the shape they broadcast to, and constants of a promoted dtype.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "op_helpers.h"
#include "strata/stats.h"

namespace strata::stats::detail {

// The arguments of `op` in one real float type (JAX's lattice; integers and bools become
// floats; weak only when all are weak), shapes as they are; complex values and shapes that do
// not broadcast are refused, naming the function.
std::vector<Array> promote(const char* op, std::initializer_list<Array> args, const Src& src);
// The same without the broadcast check (JAX's promote_dtypes_inexact: the multivariate
// functions' x, mean and cov have shapes of their own).
std::vector<Array> promote_dtypes(const char* op, std::initializer_list<Array> args, const Src& src);

// The arguments' common (NumPy-broadcast) shape; ShapeError naming op and shapes otherwise.
Shape common_shape(const char* op, const std::vector<Array>& args);

// `r` broadcast to the arguments' common shape (a formula may not use every argument, as
// JAX's where(ok, value, const) still broadcasts them all).
Array full(const char* op, const Array& r, const std::vector<Array>& args, const Src& src);

// v as a weak constant of x's dtype.
inline Array c(double v, const Array& x, const Src& src) { return api::weak_scalar_like(v, x, "stats", src); }

}  // namespace strata::stats::detail
