// tracer/primitives/cumulative.cpp — the shared rules of the cumulative primitives
// (cumulative.h).
#include "cumulative.h"

#include <cmath>
#include <type_traits>

#include "../array_impl.h"
#include "../autodiff.h"
#include "../kernels/complex_math.h"
#include "../kernels/ieee_minmax.h"
#include "../kernels/wrapping.h"
#include "../lax.h"
#include "../trace.h"
#include "batch_rules.h"
#include "common.h"

namespace strata::cumulative {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kSum: return "sum";
    case Kind::kProd: return "prod";
    case Kind::kMax: return "max";
    case Kind::kMin: return "min";
    case Kind::kLogSumExp: return "logsumexp";
  }
  return "";
}

namespace {

const Primitive& primitive_of(Kind k) {
  switch (k) {
    case Kind::kSum: return prim::kCumSum;
    case Kind::kProd: return prim::kCumProd;
    case Kind::kMax: return prim::kCumMax;
    case Kind::kMin: return prim::kCumMin;
    case Kind::kLogSumExp: return prim::kCumLogSumExp;
  }
  return prim::kCumSum;
}

// logaddexp(a, b) = max + log1p(exp(-|a - b|)); equal infinities give themselves (their
// difference is nan), and a nan gives nan.
template <class C> C logaddexp(C a, C b) {
  C m = kernels::ieee_max(a, b);
  C d = a - b;
  if (d != d) return a == b ? a : d;
  return m + std::log1p(std::exp(-std::abs(d)));
}

// The combining step in the compute type C; integers wrap (as compiled code does).
template <class C> C combine(Kind k, C a, C b) {
  if (k == Kind::kSum) return kernels::WrappingAdd{}(a, b);
  if (k == Kind::kProd) return kernels::WrappingMul{}(a, b);
  if constexpr (kernels::is_complex_storage<C>) {  // no logcumsumexp (the rule)
    return k == Kind::kMax ? kernels::complex_extremum<true>(a, b) : kernels::complex_extremum<false>(a, b);
  } else if constexpr (std::is_integral_v<C>) {
    switch (k) {
      case Kind::kMax: return a > b ? a : b;
      case Kind::kMin: return a < b ? a : b;
      default: break;
    }
    return a;
  } else {
    switch (k) {
      case Kind::kMax: return kernels::ieee_max(a, b);
      case Kind::kMin: return kernels::ieee_min(a, b);
      case Kind::kLogSumExp: return logaddexp(a, b);
      case Kind::kSum: case Kind::kProd: break;  // above
    }
    return a;
  }
}

}  // namespace

std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p) {
  std::string name(primitive_of(k).name);
  primitives::expect_arity(name, in, 1);
  const AbstractValue& x = in[0];
  if (x.dtype == DType::bool_ || (k == Kind::kLogSumExp && !is_floating(x.dtype)))
    throw DTypeError(name + ": expects " +
                     (k == Kind::kLogSumExp ? "a floating-point operand" : "a numeric operand") + ", but got " +
                     x.str());
  int64_t axis = p.get_int("axis");
  if (axis < 0 || axis >= static_cast<int64_t>(x.shape.size()))
    throw ValueError(name + ": axis " + std::to_string(axis) + " is out of range for " + x.str());
  (void)p.get<bool>("reverse");
  return {x};
}

// Each element is the previous result (as stored: bf16/f16 round at every step, as the
// compiled loop does) combined with the operand's element; the first is the operand's own
// (complex max/min: combined with their identity).
void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const Shape& s = in[0].shape();
  size_t axis = static_cast<size_t>(p.get_int("axis"));
  bool reverse = p.get<bool>("reverse");
  int64_t outer = 1, inner = 1, n = s[axis];
  for (size_t d = 0; d < axis; ++d) outer *= s[d];
  for (size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  if (n == 0 || outer == 0 || inner == 0) return;
  kernels::dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* x = in[0].as<S>();
    S* y = out[0].as<S>();
    kernels::parallel_for(outer, std::max<int64_t>(1, kernels::kElementwiseGrain / (n * inner)), [&](int64_t lo, int64_t hi) {
      for (int64_t o = lo; o < hi; ++o) {
        const S* xo = x + o * n * inner;
        S* yo = y + o * n * inner;
        for (int64_t step = 0; step < n; ++step) {
          int64_t kk = reverse ? n - 1 - step : step;
          const S* xr = xo + kk * inner;
          S* yr = yo + kk * inner;
          if (step == 0) {
            if constexpr (kernels::is_complex_storage<C>) {
              // Complex max/min start from their identity (-inf + 0i / inf + 0i), which takes
              // part as in JAX's scan: cummax([-inf - 5i]) is -inf + 0i.
              if (k == Kind::kMax || k == Kind::kMin) {
                C init = k == Kind::kMax ? kernels::complex_extremum_identity<true, typename C::value_type>()
                                         : kernels::complex_extremum_identity<false, typename C::value_type>();
                for (int64_t i = 0; i < inner; ++i) yr[i] = static_cast<S>(combine<C>(k, init, static_cast<C>(xr[i])));
                continue;
              }
            }
            for (int64_t i = 0; i < inner; ++i) yr[i] = xr[i];
            continue;
          }
          const S* prev = yo + (reverse ? kk + 1 : kk - 1) * inner;
          for (int64_t i = 0; i < inner; ++i)
            yr[i] = static_cast<S>(combine<C>(k, static_cast<C>(prev[i]), static_cast<C>(xr[i])));
        }
      }
    });
  });
}

Array bind(Kind k, const Array& x, int64_t axis, bool reverse) {
  return lax::bind1(primitive_of(k), {x}, Params{{"axis", axis}, {"reverse", reverse}});
}

namespace {

// ---- The associative scan (JAX's lax.associative_scan) that the derivatives go through ----

struct Along {
  int64_t axis;
  Array slice(const Array& x, int64_t start, int64_t limit, int64_t stride) const {
    const Shape& s = detail::aval_of(x).shape;
    IntList st(s.size(), 0), lim(s.begin(), s.end()), str(s.size(), 1);
    st[axis] = start;
    lim[axis] = limit;
    str[axis] = stride;
    return lax::slice(x, st, lim, str);
  }
  int64_t size(const Array& x) const { return detail::aval_of(x).shape[axis]; }
  Array concat(const Array& a, const Array& b) const {
    return lax::bind1(prim::kConcatenate, {a, b}, Params{{"dimension", axis}});
  }
  Array interleave(const Array& a, const Array& b) const { return lax::interleave(a, b, axis); }
};

Array combine_arrays(Kind k, const Array& a, const Array& b) {
  switch (k) {
    case Kind::kSum: return lax::add(a, b);
    case Kind::kProd: return lax::mul(a, b);
    case Kind::kMax: return lax::max(a, b);
    case Kind::kMin: return lax::min(a, b);
    case Kind::kLogSumExp: {
      Array m = lax::max(a, b);
      return lax::add(m, lax::log1p(lax::exp(lax::neg(lax::abs(lax::sub(a, b))))));
    }
  }
  return a;
}

Array scan_forward(Kind k, const Along& al, const Array& x) {
  int64_t n = al.size(x);
  if (n < 2) return x;
  int64_t f = n / 2, c = n - f;
  Array odd = scan_forward(k, al, combine_arrays(k, al.slice(x, 0, 2 * f - 1, 2), al.slice(x, 1, 2 * f, 2)));
  Array even = al.slice(x, 0, 1, 1);
  if (c > 1) even = al.concat(even, combine_arrays(k, al.slice(odd, 0, c - 1, 1), al.slice(x, 2, n, 2)));
  return al.interleave(even, odd);
}

// The mirror image: pairs are taken from the end.
Array scan_reverse(Kind k, const Along& al, const Array& x) {
  int64_t n = al.size(x);
  if (n < 2) return x;
  int64_t f = n / 2, s = n % 2;
  Array r = scan_reverse(k, al, combine_arrays(k, al.slice(x, s, n - 1, 2), al.slice(x, s + 1, n, 2)));
  Array last = al.slice(x, n - 1, n, 1);
  Array b = f > 1 ? al.concat(combine_arrays(k, al.slice(x, s + 1, n - 2, 2), al.slice(r, 1, f, 1)), last) : last;
  Array body = al.interleave(r, b);
  if (s == 0) return body;
  return al.concat(combine_arrays(k, al.slice(x, 0, 1, 1), al.slice(r, 0, 1, 1)), body);
}

// The scan as a program of one input shaped like x.
std::shared_ptr<JaxprImpl> scan_program(Kind k, const Array& x, const Params& p) {
  auto trace = begin_trace();
  try {
    Array in = new_input(*trace, detail::aval_of(x));
    Along al{p.get_int("axis")};
    Array out = p.get<bool>("reverse") ? scan_reverse(k, al, in) : scan_forward(k, al, in);
    return end_trace(*trace, std::span<const Array>(&out, 1));
  } catch (...) {
    abandon_trace(*trace);
    throw;
  }
}

}  // namespace

std::vector<Array> jvp(Kind k, std::span<const Array> x, std::span<const Array> t, std::span<const Array>,
                       const Params& p) {
  if (!t[0].valid()) return {Array()};
  if (k == Kind::kSum) return {lax::bind1(prim::kCumSum, {t[0]}, p)};
  std::shared_ptr<JaxprImpl> j = scan_program(k, x[0], p);
  return {ad::jvp(*j, x, t).tangents[0]};
}

std::vector<Array> vjp(Kind k, std::span<const Array> x, std::span<const Array>, std::span<const Array> ct,
                       const Params& p) {
  if (k == Kind::kSum) return {bind(Kind::kSum, ct[0], p.get_int("axis"), !p.get<bool>("reverse"))};
  std::shared_ptr<JaxprImpl> j = scan_program(k, x[0], p);
  ad::VjpResult r = ad::vjp(*j, x, {true}, 1, std::string(primitive_of(k).name).c_str());
  return (*r.backward)(ct);
}

std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& prim, std::span<const Array> args,
                                                      std::span<const int> dims, const Params& p) {
  Params q = p;
  q.set("axis", p.get_int("axis") + 1);
  return {{lax::bind1(prim, {batching::front(args, dims)}, q)}, {0}};
}

}  // namespace strata::cumulative
