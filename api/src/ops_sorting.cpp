// Cumulative ops: cumsum, cumprod, cummax, cummin, cumlogsumexp (sorting.h).
#include "op_helpers.h"
#include "strata/sorting.h"

namespace strata {

using lax::bind1;

namespace {

Array cumulative(const Primitive& p, std::string_view op, const Array& x, std::optional<int> axis, bool reverse,
                 const SourceLocation& loc) {
  Array in = x;
  const AbstractValue& av0 = api::aval(x, op);
  bool was_bool = av0.dtype == DType::bool_;
  if (&p == &prim::kCumLogSumExp) in = api::to_inexact(x, op, loc);
  else if (was_bool) in = api::convert(x, {DType::i32, false}, loc);
  else if ((&p == &prim::kCumSum || &p == &prim::kCumProd) && is_integer(av0.dtype) && itemsize(av0.dtype) < 4)
    in = api::convert(x, {is_unsigned_integer(av0.dtype) ? DType::u32 : DType::i32, av0.weak}, loc);  // as jnp
  int a = 0;
  if (!axis) in = reshape(in, {av0.size()}, loc);
  else a = api::normalize_axis(op, *axis, av0);
  Array r = bind1(p, {in}, Params{{"axis", int64_t{a}}, {"reverse", reverse}}, loc);
  if (was_bool && (&p == &prim::kCumMax || &p == &prim::kCumMin))
    r = api::convert(r, {DType::bool_, false}, loc);
  return r;
}

}  // namespace

Array cumsum(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumSum, "cumsum", x, axis, reverse, loc);
}
Array cumprod(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumProd, "cumprod", x, axis, reverse, loc);
}
Array cummax(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumMax, "cummax", x, axis, reverse, loc);
}
Array cummin(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumMin, "cummin", x, axis, reverse, loc);
}
Array cumlogsumexp(const Array& x, std::optional<int> axis, bool reverse, SourceLocation loc) {
  return cumulative(prim::kCumLogSumExp, "cumlogsumexp", x, axis, reverse, loc);
}

}  // namespace strata
