// tracer/primitives/select.cpp — `select`: pred ? on_true : on_false, elementwise (StableHLO's
// select). pred is bool; the branches share one dtype; any operand may be 0-d.
#include "elementwise.h"
#include "../array_impl.h"
#include "ad_rules.h"
#include "common.h"

namespace strata {
namespace {

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params&) {
  primitives::expect_arity("select", in, 3);
  if (in[0].dtype != DType::bool_)
    throw DTypeError("select: expects a bool predicate, but got " + in[0].str());
  if (in[1].dtype != in[2].dtype)
    throw DTypeError("select: expects branches of one dtype, but got " + in[1].str() + " and " +
                     in[2].str());
  Shape shapes[] = {in[0].shape, in[1].shape, in[2].shape};
  Shape out = primitives::check("select", shape_rules::elementwise(shapes));
  return {AbstractValue{out, in[1].dtype, in[1].weak && in[2].weak}};
}

// Both sides loaded for every element, so the choice is a blend, not a branch on the predicate
// (which mispredicts on random masks: a masked array's where took 7x a plain one's).
template <bool kTScalar, bool kFScalar, class T>
void blend(const bool* p, const T* t, const T* f, T* o, int64_t lo, int64_t hi) {
  for (int64_t i = lo; i < hi; ++i) {
    const T a = t[kTScalar ? 0 : i], b = f[kFScalar ? 0 : i];
    o[i] = p[i] ? a : b;
  }
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params&) {
  const bool* p = in[0].as<bool>();
  bool ps = in[0].shape().empty(), ts = in[1].shape().empty(), fs = in[2].shape().empty();
  kernels::dispatch_any(out[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* t = in[1].as<T>();
    const T* f = in[2].as<T>();
    T* o = out[0].as<T>();
    kernels::parallel_for(out[0].size(), kernels::kElementwiseGrain, [&](int64_t lo, int64_t hi) {
      if (ps) {  // one predicate: one side, copied or broadcast
        const T* side = p[0] ? t : f;
        const bool scalar = p[0] ? ts : fs;
        for (int64_t i = lo; i < hi; ++i) o[i] = side[scalar ? 0 : i];
      } else if (ts) {
        fs ? blend<true, true>(p, t, f, o, lo, hi) : blend<true, false>(p, t, f, o, lo, hi);
      } else {
        fs ? blend<false, true>(p, t, f, o, lo, hi) : blend<false, false>(p, t, f, o, lo, hi);
      }
    });
  });
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y, const Params&) {
  if (!t[1].valid() && !t[2].valid()) return {Array()};
  const AbstractValue& out = detail::aval_of(y[0]);
  return {lax::select(x[0], ad::instantiate(t[1], out), ad::instantiate(t[2], out))};
}
// Reads the predicate only.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct, const Params&) {
  Array zero = lax::zeros(detail::aval_of(y[0]));
  return {Array(), ad::unbroadcast(lax::select(x[0], ct[0], zero), x[1]), ad::unbroadcast(lax::select(x[0], zero, ct[0]), x[2])};
}

}  // namespace

const Primitive prim::kSelect{
    .name = "select",
    .arity = 3,
    .traits = kElementwise,
    .shape_rule = rule,
    .eager = kernel,
    .jvp = jvp,
    .vjp = vjp,
    .batch = elementwise::batch_rule<prim::kSelect>,
};

}  // namespace strata
