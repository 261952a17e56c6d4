// tracer/primitives/window.cpp — the shared rules of the window primitives (window.h).
#include "window.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "../array_impl.h"
#include "../kernels/complex_math.h"
#include "../kernels/ieee_minmax.h"
#include "../kernels/reduce.h"
#include "../kernels/wrapping.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

namespace strata::window {

using shape_rules::WindowParams;

WindowParams from_params(const Params& p) {
  WindowParams w{p.get_ints("window_dimensions"), p.get_ints("window_strides"), p.get_ints("padding_low"),
                 p.get_ints("padding_high"),      {},                           {}};
  size_t r = w.window_dimensions.size();
  w.base_dilation = p.has("base_dilation") ? p.get_ints("base_dilation") : shape_rules::ones(r);
  w.window_dilation = p.has("window_dilation") ? p.get_ints("window_dilation") : shape_rules::ones(r);
  return w;
}

Params to_params(const WindowParams& w) {
  return Params{{"window_dimensions", w.window_dimensions}, {"window_strides", w.window_strides},
                {"padding_low", w.padding_low},             {"padding_high", w.padding_high},
                {"base_dilation", w.base_dilation},         {"window_dilation", w.window_dilation}};
}

namespace {

const Primitive& primitive_of(Kind k) {
  switch (k) {
    case Kind::kSum: return prim::kReduceWindowSum;
    case Kind::kMax: return prim::kReduceWindowMax;
    case Kind::kMin: return prim::kReduceWindowMin;
  }
  return prim::kReduceWindowSum;
}

// select_and_*'s params: the selecting comparison and the geometry without dilations (scatter)
// or with them (gather).
Params select_params(bool ge, const WindowParams& w, bool dilations) {
  Params p{{"select_prim", std::string(ge ? "ge" : "le")}, {"window_dimensions", w.window_dimensions},
           {"window_strides", w.window_strides},            {"padding_low", w.padding_low},
           {"padding_high", w.padding_high}};
  if (dilations) {
    p.set("base_dilation", w.base_dilation);
    p.set("window_dilation", w.window_dilation);
  }
  return p;
}
bool select_ge(std::string_view op, const Params& p) {
  const std::string& s = p.get<std::string>("select_prim");
  if (s != "ge" && s != "le") throw ValueError(std::string(op) + ": expects select_prim ge or le, but got " + s);
  return s == "ge";
}
bool unit_dilations(const WindowParams& w) {
  for (size_t d = 0; d < w.base_dilation.size(); ++d)
    if (w.base_dilation[d] != 1 || w.window_dilation[d] != 1) return false;
  return true;
}

// The operand offset each (result index, tap) reads, per dimension (-1: padding or a hole),
// and the strides to combine them: the loops every kernel here shares.
struct Geometry {
  Shape out, win;
  std::vector<std::vector<int64_t>> table;  // [d][o * win[d] + k]: operand index times stride
  int64_t taps = 1;

  Geometry(const Shape& operand, const Shape& out_shape, const WindowParams& w) : out(out_shape) {
    size_t r = operand.size();
    win.assign(w.window_dimensions.begin(), w.window_dimensions.end());
    int64_t stride = 1;
    table.resize(r);
    for (size_t d = r; d-- > 0;) {
      for (int64_t o = 0; o < out[d]; ++o)
        for (int64_t k = 0; k < win[d]; ++k) {
          int64_t s = shape_rules::window_source(o, k, operand[d], w, d);
          table[d].push_back(s < 0 ? -1 : s * stride);
        }
      stride *= operand[d];
      taps *= win[d];
    }
  }
  // Calls f(operand offset or -1) for each tap of result element `flat`, in row-major tap order.
  template <class F> void each_tap(int64_t flat, F&& f) const {
    size_t r = out.size();
    int64_t oi[16];
    for (size_t d = r; d-- > 0;) {
      oi[d] = flat % out[d];
      flat /= out[d];
    }
    for (int64_t t = 0; t < taps; ++t) {
      int64_t rest = t, off = 0;
      for (size_t d = r; d-- > 0;) {
        int64_t k = rest % win[d];
        rest /= win[d];
        int64_t s = table[d][static_cast<size_t>(oi[d] * win[d] + k)];
        if (s < 0 || off < 0) off = -1;
        else off += s;
      }
      f(off);
    }
  }
};

void check_rank(std::string_view op, const Shape& s) {
  if (s.size() > 16) throw ValueError(std::string(op) + ": supports operands of rank up to 16, but got " + shape_string(s));
}

template <class C> C combine(Kind k, C a, C b) {
  if (k == Kind::kSum) return kernels::WrappingAdd{}(a, b);
  if constexpr (kernels::is_complex_storage<C>)
    return k == Kind::kMax ? kernels::complex_extremum<true>(a, b) : kernels::complex_extremum<false>(a, b);
  else if constexpr (std::is_integral_v<C>) return k == Kind::kMax ? (a > b ? a : b) : (a < b ? a : b);
  else return k == Kind::kMax ? kernels::ieee_max(a, b) : kernels::ieee_min(a, b);
}

// The identity of kind k (the init value and what padding reads) in the compute type C of
// storage type S.
template <class C, class S> C identity(Kind k) {
  if (k == Kind::kSum) return C(0);
  if constexpr (kernels::is_complex_storage<C>)
    return k == Kind::kMax ? kernels::complex_extremum_identity<true, typename C::value_type>()
                           : kernels::complex_extremum_identity<false, typename C::value_type>();
  else return k == Kind::kMax ? kernels::lowest<C, S>() : kernels::highest<C, S>();
}

}  // namespace

// ---- reduce_window_sum / _max / _min ----

std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p) {
  std::string name(primitive_of(k).name);
  primitives::expect_arity(name, in, 1);
  const AbstractValue& x = in[0];
  if (x.dtype == DType::bool_) throw DTypeError(name + ": expects a numeric operand, but got " + x.str());
  check_rank(name, x.shape);
  Shape out = primitives::check(name, shape_rules::reduce_window(x.shape, from_params(p)));
  return {AbstractValue{out, x.dtype, x.weak}};
}

// Each result is the identity combined with every tap in row-major order (padding and holes
// read the identity), in the compute type; bf16/f16 round once at the end, as compiled code.
void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  Geometry g(in[0].shape(), out[0].shape(), from_params(p));
  int64_t n = out[0].size();
  if (n == 0) return;
  kernels::dispatch_any(in[0].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* x = in[0].as<S>();
    S* y = out[0].as<S>();
    kernels::parallel_for(n, std::max<int64_t>(1, kernels::kElementwiseGrain / std::max<int64_t>(1, g.taps)),
                          [&](int64_t lo, int64_t hi) {
                            for (int64_t i = lo; i < hi; ++i) {
                              C acc = identity<C, S>(k);
                              g.each_tap(i, [&](int64_t off) {
                                C v = off < 0 ? identity<C, S>(k) : static_cast<C>(x[off]);
                                acc = combine<C>(k, acc, v);
                              });
                              y[i] = static_cast<S>(acc);
                            }
                          });
  });
}

Array reduce(Kind k, const Array& x, const WindowParams& w, lax::Loc loc) {
  return lax::bind1(primitive_of(k), {x}, to_params(w), loc);
}

std::vector<Array> jvp(Kind k, std::span<const Array> x, std::span<const Array> t, std::span<const Array>,
                       const Params& p) {
  if (!t[0].valid()) return {Array()};
  WindowParams w = from_params(p);
  if (k == Kind::kSum) return {reduce(Kind::kSum, t[0], w)};
  return {select_and_gather_add(t[0], x[0], k == Kind::kMax, w)};
}

// JAX's _reduce_window_sum_transpose_rule: the cotangent with stride - 1 zeros between its
// elements, padded as the lhs gradient of a convolution, summed over the same window (a window
// of ones is its own flip) with the base dilation as stride. max/min: JAX's transpose of
// select_and_gather_add, select_and_scatter_add, which needs unit dilations.
std::vector<Array> vjp(Kind k, std::span<const Array> x, std::span<const Array>, std::span<const Array> ct,
                       const Params& p) {
  WindowParams w = from_params(p);
  const Shape& in = x[0].shape();
  if (k != Kind::kSum) {
    if (!unit_dilations(w))
      throw ValueError(std::string(primitive_of(k).name) +
                       ": the gradient with base or window dilation is not implemented (as in JAX: select_and_scatter_add "
                       "has no dilations)");
    return {select_and_scatter_add(ct[0], x[0], k == Kind::kMax, w)};
  }
  const Shape& out = ct[0].shape();
  size_t r = in.size();
  // Windows that tile the input (stride = size, no dilation, no low padding), as pooling's:
  // each cotangent element spread over its window is a broadcast and a reshape, which fuse
  // into one loop (JAX's pad + reduce_window below computes the same, through a 4x larger
  // padded cotangent for 2x2 windows).
  bool tiles = true;
  for (size_t d = 0; d < r; ++d)
    tiles = tiles && w.window_strides[d] == w.window_dimensions[d] && w.base_dilation[d] == 1 &&
            w.window_dilation[d] == 1 && w.padding_low[d] == 0;
  if (tiles) {
    Shape spread, tiled;
    IntList dims;
    for (size_t d = 0; d < r; ++d) {
      dims.push_back(static_cast<int64_t>(spread.size()));
      spread.push_back(out[d]);
      spread.push_back(w.window_dimensions[d]);
      tiled.push_back(out[d] * w.window_dimensions[d]);
    }
    Array g = lax::reshape(lax::broadcast_in_dim(ct[0], spread, dims), tiled);
    // The last windows may hang over the end (high padding) or leave a remainder uncovered.
    IntList start(r, 0), limit(tiled.begin(), tiled.end()), step(r, 1), zero(r, 0), rest(r, 0);
    for (size_t d = 0; d < r; ++d) {
      limit[d] = std::min(tiled[d], in[d]);
      rest[d] = in[d] - limit[d];
    }
    g = lax::slice(g, start, limit, step);
    return {lax::pad(g, lax::scalar(0, ct[0].dtype()), zero, rest, zero)};
  }
  IntList lo(r), hi(r), interior(r);
  for (size_t d = 0; d < r; ++d) {
    int64_t ld = shape_rules::dilated_size(in[d], w.base_dilation[d]);
    int64_t rd = shape_rules::dilated_size(w.window_dimensions[d], w.window_dilation[d]);
    int64_t od = shape_rules::dilated_size(out[d], w.window_strides[d]);
    lo[d] = rd - w.padding_low[d] - 1;
    hi[d] = ld + rd - 1 - od - lo[d];
    interior[d] = w.window_strides[d] - 1;
  }
  // lax.pad takes negative padding (cropping); strata's pad does not: pad, then slice.
  IntList plo(r), phi(r);
  for (size_t d = 0; d < r; ++d) {
    plo[d] = std::max<int64_t>(lo[d], 0);
    phi[d] = std::max<int64_t>(hi[d], 0);
  }
  Array padded = lax::pad(ct[0], lax::scalar(0, ct[0].dtype()), plo, phi, interior);
  const Shape& ps = padded.shape();
  IntList start(r), limit(r), step(r, 1);
  for (size_t d = 0; d < r; ++d) {
    start[d] = std::max<int64_t>(-lo[d], 0);
    limit[d] = std::max<int64_t>(ps[d] - std::max<int64_t>(-hi[d], 0), start[d]);
  }
  padded = lax::slice(padded, start, limit, step);
  WindowParams t{w.window_dimensions, w.base_dilation, shape_rules::zeros(r), shape_rules::zeros(r),
                 shape_rules::ones(r), w.window_dilation};
  return {reduce(Kind::kSum, padded, t)};
}

namespace {
// The geometry with a leading window of 1 for a batch dimension put first.
WindowParams batched(const WindowParams& w) {
  auto front = [](IntList v, int64_t first) {
    v.insert(v.begin(), first);
    return v;
  };
  return {front(w.window_dimensions, 1), front(w.window_strides, 1), front(w.padding_low, 0),
          front(w.padding_high, 0),      front(w.base_dilation, 1),  front(w.window_dilation, 1)};
}
// Both operands with the batch dimension first (an unbatched one broadcast).
std::pair<Array, Array> both_front(std::span<const Array> args, std::span<const int> dims) {
  int64_t size = 0;
  for (size_t i = 0; i < 2; ++i)
    if (dims[i] != not_mapped) size = args[i].shape()[static_cast<size_t>(dims[i])];
  auto get = [&](size_t i) {
    return dims[i] == not_mapped ? batching::broadcast_batch(args[i], size) : batching::front(args, dims, i);
  };
  return {get(0), get(1)};
}
}  // namespace

std::pair<std::vector<Array>, std::vector<int>> batch(Kind k, std::span<const Array> args, std::span<const int> dims,
                                                      const Params& p) {
  return {{reduce(k, batching::front(args, dims), batched(from_params(p)))}, {0}};
}

// ---- select_and_scatter_add: source operand → operand's shape ----

std::vector<AbstractValue> scatter_rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("select_and_scatter_add", in, 2);
  const AbstractValue &src = in[0], &x = in[1];
  select_ge("select_and_scatter_add", p);
  if (src.dtype != x.dtype || x.dtype == DType::bool_)
    throw DTypeError("select_and_scatter_add: expects numeric source and operand of one dtype, but got " + src.str() +
                     " and " + x.str());
  check_rank("select_and_scatter_add", x.shape);
  Shape want = primitives::check("select_and_scatter_add", shape_rules::reduce_window(x.shape, from_params(p)));
  if (want != src.shape)
    throw ShapeError("select_and_scatter_add: expects a source of shape " + shape_string(want) +
                     " (one element per window of the operand " + x.str() + "), but got " + src.str());
  return {AbstractValue{x.shape, x.dtype, src.weak && x.weak}};
}

// The first selected tap of each window (padding is never selected; a later tap replaces the
// current one when select(current, tap) is false), its source element added there.
void scatter_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  bool ge = select_ge("select_and_scatter_add", p);
  Geometry g(in[1].shape(), in[0].shape(), from_params(p));
  kernels::dispatch(in[1].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* src = in[0].as<S>();
    const S* x = in[1].as<S>();
    S* y = out[0].as<S>();
    for (int64_t i = 0; i < out[0].size(); ++i) y[i] = static_cast<S>(C(0));
    for (int64_t i = 0; i < in[0].size(); ++i) {
      int64_t sel = -1;
      C cur{};
      g.each_tap(i, [&](int64_t off) {
        if (off < 0) return;
        C v = static_cast<C>(x[off]);
        if (sel < 0 || !(ge ? cur >= v : cur <= v)) {
          sel = off;
          cur = v;
        }
      });
      if (sel < 0) continue;
      y[sel] = static_cast<S>(kernels::WrappingAdd{}(static_cast<C>(y[sel]), static_cast<C>(src[i])));
    }
  });
}

std::vector<Array> scatter_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>,
                               const Params& p) {
  if (!t[0].valid()) return {Array()};
  return {lax::bind1(prim::kSelectAndScatterAdd, {t[0], x[1]}, p)};
}
std::vector<Array> scatter_vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct,
                               const Params& p) {
  WindowParams w = from_params(p);
  return {select_and_gather_add(ct[0], x[1], select_ge("select_and_scatter_add", p), w), Array()};
}
batching::Out scatter_batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  auto [src, x] = both_front(args, dims);
  return {{select_and_scatter_add(src, x, select_ge("select_and_scatter_add", p), batched(from_params(p)))}, {0}};
}

// ---- select_and_gather_add: tangents operand → the window result's shape ----

std::vector<AbstractValue> gather_rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("select_and_gather_add", in, 2);
  const AbstractValue &t = in[0], &x = in[1];
  select_ge("select_and_gather_add", p);
  if (t.dtype != x.dtype || t.shape != x.shape || x.dtype == DType::bool_)
    throw ShapeError("select_and_gather_add: expects numeric tangents and operand of one shape and dtype, but got " +
                     t.str() + " and " + x.str());
  check_rank("select_and_gather_add", x.shape);
  Shape out = primitives::check("select_and_gather_add", shape_rules::reduce_window(x.shape, from_params(p)));
  return {AbstractValue{out, x.dtype, t.weak && x.weak}};
}

// reduce_window over (operand, tangent) pairs from (identity, 0), keeping the accumulated pair
// when select(acc, element) holds: JAX's reducer, so padding reads (identity, 0).
void gather_kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  bool ge = select_ge("select_and_gather_add", p);
  Geometry g(in[1].shape(), out[0].shape(), from_params(p));
  kernels::dispatch(in[1].dtype(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* t = in[0].as<S>();
    const S* x = in[1].as<S>();
    S* y = out[0].as<S>();
    const C init = identity<C, S>(ge ? Kind::kMax : Kind::kMin);
    kernels::parallel_for(out[0].size(), std::max<int64_t>(1, kernels::kElementwiseGrain / std::max<int64_t>(1, g.taps)),
                          [&](int64_t lo, int64_t hi) {
                            for (int64_t i = lo; i < hi; ++i) {
                              C av = init, at = C(0);
                              g.each_tap(i, [&](int64_t off) {
                                C v = off < 0 ? init : static_cast<C>(x[off]);
                                C tv = off < 0 ? C(0) : static_cast<C>(t[off]);
                                if (!(ge ? av >= v : av <= v)) {
                                  av = v;
                                  at = tv;
                                }
                              });
                              y[i] = static_cast<S>(at);
                            }
                          });
  });
}

std::vector<Array> gather_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array>,
                              const Params& p) {
  if (!t[0].valid()) return {Array()};
  return {lax::bind1(prim::kSelectAndGatherAdd, {t[0], x[1]}, p)};
}
std::vector<Array> gather_vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct,
                              const Params& p) {
  WindowParams w = from_params(p);
  if (!unit_dilations(w))
    throw ValueError("select_and_gather_add: the transpose with base or window dilation is not implemented (as in JAX)");
  return {select_and_scatter_add(ct[0], x[1], select_ge("select_and_gather_add", p), w), Array()};
}
batching::Out gather_batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  auto [t, x] = both_front(args, dims);
  return {{select_and_gather_add(t, x, select_ge("select_and_gather_add", p), batched(from_params(p)))}, {0}};
}

Array select_and_scatter_add(const Array& source, const Array& operand, bool ge, const WindowParams& w, lax::Loc loc) {
  return lax::bind1(prim::kSelectAndScatterAdd, {source, operand}, select_params(ge, w, false), loc);
}
Array select_and_gather_add(const Array& tangents, const Array& operand, bool ge, const WindowParams& w, lax::Loc loc) {
  return lax::bind1(prim::kSelectAndGatherAdd, {tangents, operand}, select_params(ge, w, true), loc);
}

}  // namespace strata::window

