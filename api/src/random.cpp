// Counter-based random numbers: JAX's threefry2x32 PRNG and jax.random's samplers, built from
// primitives so that they trace like any other op. Each function follows the JAX 0.10 source
// (jax/_src/random/{threefry2x32,core}.py) step by step, in the same dtypes, so that the bits
// are JAX's; the comments name the JAX function each one mirrors.
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>

#include "op_helpers.h"
#include "random_checks.h"
#include "primitives/threefry2x32.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/creation.h"
#include "strata/grad.h"
#include "strata/indexing.h"
#include "strata/linalg.h"
#include "strata/random.h"
#include "strata/selection.h"
#include "strata/sorting.h"
#include "strata/statistics.h"

namespace strata::random {

using lax::bind1;
using detail::broadcast_pair;
using detail::c;
using detail::check_float;
using detail::check_key;
using detail::check_shape;
using detail::fit;
using detail::param_shape;
using detail::tiny;

namespace {

std::atomic<bool> g_partitionable{true};


Array bitcast(const Array& x, DType t, const SourceLocation& loc) {
  return bind1(prim::kBitcastConvertType, {x}, Params{{"new_dtype", t}}, loc);
}

Array iota(const Shape& shape, const SourceLocation& loc) {
  int64_t n = num_elements(shape);
  Array i = bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList{n}}, {"dimension", int64_t{0}}}, loc);
  return lax::reshape(i, shape, loc);
}

// threefry2x32 of the 0-d halves of `key` on the counter pair (x0, x1), all i32 bit patterns.
std::pair<Array, Array> threefry(const Array& key, const Array& x0, const Array& x1, const SourceLocation& loc) {
  Array k0 = lax::reshape(lax::slice(key, {0}, {1}, {1}, loc), {}, loc);
  Array k1 = lax::reshape(lax::slice(key, {1}, {2}, {1}, loc), {}, loc);
  Array ins[] = {k0, k1, x0, x1};
  std::vector<Array> ys = lax::bind(prim::kThreefry2x32, ins, {}, loc);
  return {ys[0], ys[1]};
}

// JAX's threefry_2x32(key, count) on a 1-d count: hashes the counts (padded to even length)
// as two halves. i32 in, i32 out.
Array hash(const Array& key, const Array& count, const SourceLocation& loc) {
  int64_t n = api::aval(count, "random").shape[0];
  Array counts = n % 2 ? concatenate({count, zeros({1}, DType::i32)}, 0, loc) : count;
  int64_t h = (n + n % 2) / 2;
  auto [y0, y1] = threefry(key, slice(counts, {0}, {h}, {}, loc), slice(counts, {h}, {2 * h}, {}, loc), loc);
  Array bits = concatenate({y0, y1}, 0, loc);
  return n % 2 ? slice(bits, {0}, {n}, {}, loc) : bits;
}

Array hash_iota(const Array& key, int64_t n, const SourceLocation& loc) { return hash(key, iota({n}, loc), loc); }

// _threefry_random_bits_{partitionable,original}: unsigned bits of `width` and `shape`.
Array raw_bits(const Array& key, int width, const Shape& shape, const SourceLocation& loc) {
  DType ut = integer_dtype(width, false);
  int64_t n = num_elements(shape);
  if (g_partitionable.load()) {
    // Counter i of the row-major shape is the 64-bit pair (0, i).
    auto [y0, y1] = threefry(key, lax::zeros({shape, DType::i32, false}, loc), iota(shape, loc), loc);
    Array b0 = bitcast(y0, DType::u32, loc), b1 = bitcast(y1, DType::u32, loc);
    if (width == 64) {
      Array hi = lax::convert_element_type(b0, DType::u64, false, loc), lo = lax::convert_element_type(b1, DType::u64, false, loc);
      return lax::or_(bind1(prim::kShiftLeft, {hi, c(32, DType::u64)}, {}, loc), lo, loc);
    }
    Array x = bind1(prim::kXor, {b0, b1}, {}, loc);
    return width == 32 ? x : lax::convert_element_type(x, ut, false, loc);
  }
  if (width == 32) return lax::reshape(bitcast(hash_iota(key, n, loc), DType::u32, loc), shape, loc);
  if (width == 64) {
    Array b = bitcast(hash_iota(key, 2 * n, loc), DType::u32, loc);
    Array hi = lax::convert_element_type(slice(b, {0}, {n}, {}, loc), DType::u64, false, loc);
    Array lo = lax::convert_element_type(slice(b, {n}, {2 * n}, {}, loc), DType::u64, false, loc);
    return lax::reshape(lax::or_(bind1(prim::kShiftLeft, {hi, c(32, DType::u64)}, {}, loc), lo, loc), shape, loc);
  }
  // 8/16 bits: each 32-bit word gives 32/width values, lowest bits first.
  int per = 32 / width;
  int64_t words = (n + per - 1) / per;
  Array w = bitcast(hash_iota(key, words, loc), DType::u32, loc);
  Array shifts = lax::mul(lax::convert_element_type(iota({1, per}, loc), DType::u32, false, loc), c(width, DType::u32), loc);
  Array wide = lax::broadcast_in_dim(w, {words, per}, {0}, loc);
  Array parts = bind1(prim::kShiftRightLogical, {wide, lax::broadcast_in_dim(shifts, {words, per}, {0, 1}, loc)}, {}, loc);
  Array flat = lax::convert_element_type(lax::reshape(parts, {words * per}, loc), ut, false, loc);
  return lax::reshape(slice(flat, {0}, {n}, {}, loc), shape, loc);
}

int mantissa_bits(DType t) { return finfo(t).nmant; }
// The bits of 1.0: the exponent bias in the exponent field, 1 - minexp (2^(nexp-1) - 1 for
// most; 2^(nexp-1) for e4m3fnuz and e5m2fnuz, 11 for e4m3b11fnuz).
double one_bits(DType t) {
  FInfo f = finfo(t);
  return std::ldexp(static_cast<double>(1 - f.minexp), f.nmant);
}
// a * b + c rounded once, as XLA's CPU code computes `floats * (maxval - minval) + minval`
// (LLVM contracts it into an FMA). Narrower floats through f64 (their product is exact there);
// f64 with Dekker's exact product and a two-sum (correctly rounded but for double-rounding
// ties, which need a specific bit pattern).
Array fused_mul_add(const Array& a, const Array& b, const Array& cc, DType t, const SourceLocation& loc) {
  if (t != DType::f64) {
    auto up = [&](const Array& x) { return lax::convert_element_type(x, DType::f64, false, loc); };
    return lax::convert_element_type(lax::add(lax::mul(up(a), up(b), loc), up(cc), loc), t, false, loc);
  }
  auto add = [&](const Array& x, const Array& y, const SourceLocation& l) { return lax::add(x, y, l); };
  auto sub = [&](const Array& x, const Array& y, const SourceLocation& l) { return lax::sub(x, y, l); };
  auto mul = [&](const Array& x, const Array& y, const SourceLocation& l) { return lax::mul(x, y, l); };
  auto split_hi = [&](const Array& x) {
    Array s = mul(c(134217729.0, t), x, loc);  // 2^27 + 1
    return sub(s, sub(s, x, loc), loc);
  };
  Array p = mul(a, b, loc);
  Array ah = split_hi(a), bh = split_hi(b);
  Array al = sub(a, ah, loc), bl = sub(b, bh, loc);
  Array e = add(add(add(sub(mul(ah, bh, loc), p, loc), mul(ah, bl, loc), loc), mul(al, bh, loc), loc), mul(al, bl, loc), loc);
  Array s = add(p, cc, loc);
  Array bb = sub(s, p, loc);
  Array err = add(sub(p, sub(s, bb, loc), loc), sub(cc, bb, loc), loc);
  Array r = add(s, add(err, e, loc), loc);
  // Infinite or nan products: the plain sum (the error terms would be nan).
  return lax::select(lax::eq(sub(p, p, loc), c(0, t), loc), r, s, loc);
}

int uniform_rng_bits(DType t) { return mantissa_bits(t) < 8 ? 8 : bit_width(t); }

// The rest of _uniform from its random bits (uniform_rng_bits(t) wide).
Array uniform_from_bits(Array b, DType t, const Array& minval, const Array& maxval, const SourceLocation& loc) {
  int nbits = bit_width(t), nmant = mantissa_bits(t);
  int rng_bits = uniform_rng_bits(t);
  DType ut = integer_dtype(nbits, false);
  if (rng_bits != nbits) b = lax::convert_element_type(b, ut, false, loc);
  Array fb = bind1(prim::kShiftRightLogical, {b, c(rng_bits - nmant, ut)}, {}, loc);
  fb = lax::or_(fb, c(one_bits(t), ut), loc);
  Array floats = lax::sub(bitcast(fb, t, loc), c(1, t), loc);
  Array span = lax::sub(maxval, minval, loc);
  Array scaled = fused_mul_add(floats, span, minval, t, loc);
  return lax::max(minval, scaled, loc);
}

// _uniform with minval/maxval already of dtype t and broadcast to `shape`.
Array uniform_impl(const Array& key, const Shape& shape, DType t, const Array& minval, const Array& maxval,
                   const SourceLocation& loc) {
  return uniform_from_bits(raw_bits(key, uniform_rng_bits(t), shape, loc), t, minval, maxval, loc);
}

// nextafter(x, +inf) (up) or nextafter(x, -inf), through the bit pattern (x finite or ±inf
// towards the other infinity).
Array next_toward(const Array& x, bool up, const SourceLocation& loc) {
  DType t = api::aval(x, "random").dtype;
  DType it = api::bits_type(t);
  Array bits = bitcast(x, it, loc);
  Array pos = lax::gt(x, c(0, t), loc);
  Array step = lax::select(up ? pos : lax::not_(pos, loc), c(1, it), c(-1, it), loc);
  Array moved = bitcast(lax::add(bits, step, loc), t, loc);
  double denorm = finfo(t).smallest_subnormal;
  Array zero_case = c(up ? denorm : -denorm, t);
  Array r = lax::select(lax::eq(x, c(0, t), loc), lax::broadcast_in_dim(zero_case, api::aval(x, "random").shape, {}, loc), moved, loc);
  return lax::select(lax::ne(x, x, loc), x, r, loc);
}

// ---- Per-lane keys (what vmap of JAX's _gamma_one computes) ----
// The threefry2x32 primitive takes one key; gamma needs one key per element, so this is the
// same cipher from elementwise u32 ops, every lane with its own key (k0, k1: u32[n]).
std::pair<Array, Array> threefry_lanes(const Array& k0, const Array& k1, const Array& x0, const Array& x1,
                                       const SourceLocation& loc) {
  return threefry::elementwise(k0, k1, x0, x1, loc);
}

// Lane keys are i32[n, 2]; the hash of the counter pair (0, i) under each lane's key.
std::pair<Array, Array> lane_hash(const Array& keys, int64_t i, const SourceLocation& loc) {
  int64_t n = api::aval(keys, "random").shape[0];
  auto col = [&](int j) { return bitcast(lax::reshape(lax::slice(keys, {0, j}, {n, j + 1}, {1, 1}, loc), {n}, loc), DType::u32, loc); };
  Array zero = lax::full({{n}, DType::u32, false}, 0, loc);
  return threefry_lanes(col(0), col(1), zero, lax::full({{n}, DType::u32, false}, static_cast<double>(i), loc), loc);
}

// split(key, num) per lane: num arrays of lane keys.
std::vector<Array> lane_split(const Array& keys, int num, const SourceLocation& loc) {
  int64_t n = api::aval(keys, "random").shape[0];
  std::vector<Array> out;
  for (int i = 0; i < num; ++i) {
    auto [y0, y1] = lane_hash(keys, i, loc);
    out.push_back(concatenate({lax::reshape(bitcast(y0, DType::i32, loc), {n, 1}, loc),
                               lax::reshape(bitcast(y1, DType::i32, loc), {n, 1}, loc)}, 1, loc));
  }
  return out;
}

Array lane_uniform(const Array& keys, DType t, double minval, double maxval, const SourceLocation& loc) {
  auto [y0, y1] = lane_hash(keys, 0, loc);
  int width = uniform_rng_bits(t);
  Array b;
  if (width == 64) {
    Array hi = lax::convert_element_type(y0, DType::u64, false, loc), lo = lax::convert_element_type(y1, DType::u64, false, loc);
    b = lax::or_(bind1(prim::kShiftLeft, {hi, c(32, DType::u64)}, {}, loc), lo, loc);
  } else {
    b = bind1(prim::kXor, {y0, y1}, {}, loc);
    if (width != 32) b = lax::convert_element_type(b, integer_dtype(width, false), false, loc);
  }
  return uniform_from_bits(b, t, c(minval, t), c(maxval, t), loc);
}

Array lane_select(const Array& pred, const Array& on_true, const Array& on_false, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(on_true, "random");
  Array p = av.ndim() == 1 ? pred : lax::broadcast_in_dim(pred, av.shape, {0}, loc);
  return lax::select(p, on_true, on_false, loc);
}

// _gamma_one vmapped over lanes (keys i32[n,2], alpha t[n]): JAX's batched while loops run
// until every lane is done, and a lane keeps its state once its own condition is false.
Array gamma_lanes(const Array& keys, const Array& alpha_orig, bool log_space, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(alpha_orig, "random::gamma");
  DType t = av.dtype;
  AbstractValue lane{av.shape, t, false};
  Array zero = c(0, t), one = c(1, t), half = c(0.5, t), third = c(1.0 / 3.0, t), squeeze = c(0.0331, t);
  Array boost_mask = lax::ge(alpha_orig, one, loc);
  Array alpha = lax::select(boost_mask, alpha_orig, lax::add(alpha_orig, one, loc), loc);
  Array d = lax::sub(alpha, third, loc);
  Array cc = lax::div(third, lax::sqrt(d, loc), loc);
  using Carry = std::tuple<Array, Array, Array, Array>;  // keys, X, V, U
  auto lane_cond = [&](const Array& X, const Array& V, const Array& U) {
    Array a = lax::ge(U, lax::sub(one, lax::mul(squeeze, lax::mul(X, X, loc), loc), loc), loc);
    Array b = lax::ge(lax::log(U, loc), lax::add(lax::mul(X, half, loc), lax::mul(d, lax::add(lax::sub(one, V, loc), lax::log(V, loc), loc), loc), loc), loc);
    return lax::and_(a, b, loc);
  };
  auto any = [&](const Array& p) { return lax::ne(lax::reduce_sum(lax::convert_element_type(p, DType::i32, false, loc), {0}, loc), c(0, DType::i32), loc); };
  auto cond_fn = [&](const Carry& s) { return any(lane_cond(std::get<1>(s), std::get<2>(s), std::get<3>(s))); };
  auto body_fn = [&](const Carry& s) {
    const auto& [k, X0, V0, U0] = s;
    Array active = lane_cond(X0, V0, U0);
    std::vector<Array> ks = lane_split(k, 3, loc);
    using Inner = std::tuple<Array, Array, Array>;  // keys, x, v
    auto inner = while_loop([&](const Inner& q) { return any(lax::le(std::get<2>(q), zero, loc)); },
                            [&](const Inner& q) {
                              const auto& [qk, qx, qv] = q;
                              Array act = lax::le(qv, zero, loc);
                              std::vector<Array> s2 = lane_split(qk, 2, loc);
                              double lo = -(1.0 - std::ldexp(1.0, -(mantissa_bits(t) + 1)));
                              Array x = lax::mul(c(M_SQRT2, t), lax::erf_inv(lane_uniform(s2[1], t, lo, 1.0, loc), loc), loc);
                              Array v = fused_mul_add(x, cc, lax::full(lane, 1, loc), t, loc);
                              return Inner{lane_select(act, s2[0], qk, loc), lax::select(act, x, qx, loc), lax::select(act, v, qv, loc)};
                            },
                            Inner{ks[1], lax::full(lane, 0, loc), lax::full(lane, -1, loc)});
    Array x = std::get<1>(inner), v = std::get<2>(inner);
    Array X = lax::mul(x, x, loc), V = lax::mul(lax::mul(v, v, loc), v, loc);
    Array U = lane_uniform(ks[2], t, 0.0, 1.0, loc);
    return Carry{lane_select(active, ks[0], k, loc), lax::select(active, X, X0, loc), lax::select(active, V, V0, loc),
                 lax::select(active, U, U0, loc)};
  };
  std::vector<Array> ks = lane_split(keys, 2, loc);
  Carry out = while_loop(cond_fn, body_fn, Carry{ks[0], lax::full(lane, 0, loc), lax::full(lane, 1, loc), lax::full(lane, 2, loc)});
  Array V = std::get<2>(out);
  if (log_space) {
    Array log_samples = lax::log1p(lax::neg(lane_uniform(ks[1], t, 0.0, 1.0, loc), loc), loc);  // -exponential
    Array log_boost = lax::select(lax::or_(boost_mask, lax::eq(log_samples, zero, loc), loc), lax::full(lane, 0, loc),
                                  lax::mul(log_samples, lax::div(one, alpha_orig, loc), loc), loc);
    return lax::add(lax::add(lax::log(d, loc), lax::log(V, loc), loc), log_boost, loc);
  }
  Array samples = lax::sub(one, lane_uniform(ks[1], t, 0.0, 1.0, loc), loc);
  Array boost = lax::select(boost_mask, lax::full(lane, 1, loc), lax::pow(samples, lax::div(one, alpha_orig, loc), loc), loc);
  return lax::mul(lax::mul(d, V, loc), boost, loc);
}

// _gamma: one key per element (split(key, n)), Marsaglia–Tsang per lane.
Array gamma_impl(const Array& key, const Array& a, std::optional<Shape> shape, DType dtype, bool log_space,
                 std::string_view op, const SourceLocation& loc) {
  check_key(key, op);
  check_float(dtype, op);
  Shape s = shape ? *shape : api::aval(a, op).shape;
  check_shape(s, op);
  Array alpha = fit(a, s, dtype, op, loc);
  int64_t n = num_elements(s);
  if (n == 0) return zeros(s, dtype);
  Array keys = split(key, static_cast<int>(n), loc);
  // Differentiated implicitly, as JAX: d sample / d a = random_gamma_grad(a, sample), the change
  // of the sample at a fixed CDF value, never through the rejection loops (a custom JVP, which
  // reverse mode transposes without linearising the while_loops).
  auto draw = [log_space, loc](const Array& k, const Array& al) { return gamma_lanes(k, al, log_space, loc); };
  auto sampler = custom_jvp(draw, [draw, log_space, loc](const Array& k, const Array& al, const Array&, const Array& t) {
    Array sample = draw(k, al);
    if (!log_space) return std::make_pair(sample, lax::mul(t, random_gamma_grad(al, sample, loc), loc));
    // d log x = dx / x, with x = exp(log x) moved off 0 (to the least normal) where it underflows.
    Array x = lax::exp(sample, loc);
    x = lax::select(lax::eq(x, lax::zeros(api::aval(x, "random::loggamma"), loc), loc),
                    lax::full(api::aval(x, "random::loggamma"), tiny(x.dtype()), loc), x, loc);
    return std::make_pair(sample, lax::mul(t, lax::div(random_gamma_grad(al, x, loc), x, loc), loc));
  });
  return lax::reshape(sampler(keys, lax::reshape(alpha, {n}, loc)), s, loc);
}

// _shuffle: rounds of sorting x along `axis` by fresh random 32-bit keys.
Array shuffle_along(const Array& key, const Array& x, int axis, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, "random::permutation");
  double size = static_cast<double>(std::max<int64_t>(1, av.size()));
  int rounds = static_cast<int>(std::ceil(3 * std::log(size) / std::log(4294967295.0)));
  Array k = key, y = x;
  for (int r = 0; r < rounds; ++r) {
    Array ks = split(k, 2, loc);
    k = key_at(ks, 0, loc);
    Array sort_keys = raw_bits(key_at(ks, 1, loc), 32, av.shape, loc);
    y = sort({sort_keys, y}, axis, false, 1, loc)[1];
  }
  return y;
}

}  // namespace

void set_threefry_partitionable(bool on) { g_partitionable.store(on); }
bool threefry_partitionable() { return g_partitionable.load(); }

Array key(uint64_t seed) {
  int32_t v[2] = {static_cast<int32_t>(static_cast<uint32_t>(seed >> 32)),
                  static_cast<int32_t>(static_cast<uint32_t>(seed & 0xFFFFFFFFu))};
  return array_from_data(v, 2, DType::i32, {2}, DType::i32);
}

namespace {
void check_key_data(const Array& k, DType want_a, DType want_b, const char* op) {
  const AbstractValue& av = api::aval(k, op);
  if ((av.dtype != want_a && av.dtype != want_b) || av.shape.empty() || av.shape.back() != 2)
    throw ValueError(std::string(op) + ": expects keys (" + std::string(short_name(want_a)) + "[..., 2]), but got " + av.str());
}
}  // namespace

Array key_data(const Array& keys, SourceLocation loc) {
  check_key_data(keys, DType::i32, DType::i32, "random::key_data");
  return bitcast_convert_type(keys, DType::u32, loc);
}

Array wrap_key_data(const Array& data, SourceLocation loc) {
  check_key_data(data, DType::u32, DType::i32, "random::wrap_key_data");
  return data.dtype() == DType::i32 ? data : bitcast_convert_type(data, DType::i32, loc);
}

Array split(const Array& key, int num, SourceLocation loc) {
  check_key(key, "random::split");
  if (num < 1) throw ValueError("random::split: expects num >= 1, but got " + std::to_string(num));
  if (!g_partitionable.load()) return lax::reshape(hash_iota(key, 2 * static_cast<int64_t>(num), loc), {num, 2}, loc);
  // _threefry_split_foldlike: key i is the hash of the counter pair (0, i).
  Shape s{num};
  auto [y0, y1] = threefry(key, lax::zeros({s, DType::i32, false}, loc), iota(s, loc), loc);
  return concatenate({lax::reshape(y0, {num, 1}, loc), lax::reshape(y1, {num, 1}, loc)}, 1, loc);
}

Array key_at(const Array& keys, int i, SourceLocation loc) {
  const AbstractValue& av = api::aval(keys, "random::key_at");
  if (av.dtype != DType::i32 || av.ndim() != 2 || av.shape[1] != 2)
    throw ValueError("random::key_at: expects split keys (i32[n,2]), but got " + av.str());
  if (i < 0 || i >= av.shape[0])
    throw ValueError("random::key_at: index " + std::to_string(i) + " is out of range for " + av.str());
  return lax::reshape(lax::slice(keys, {i, 0}, {i + 1, 2}, {1, 1}, loc), {2}, loc);
}

Array fold_in(const Array& key, const Array& data, SourceLocation loc) {
  check_key(key, "random::fold_in");
  const AbstractValue& av = api::aval(data, "random::fold_in");
  if (!av.shape.empty() || !(is_integer(av.dtype)))
    throw ValueError("random::fold_in: expects 0-d integer data, but got " + av.str());
  // threefry_2x32(key, threefry_seed(data)): the counts [0, data as uint32].
  Array d = bitcast(lax::convert_element_type(data, DType::u32, false, loc), DType::i32, loc);
  return hash(key, concatenate({zeros({1}, DType::i32), lax::reshape(d, {1}, loc)}, 0, loc), loc);
}

Array fold_in(const Array& key, uint32_t data, SourceLocation loc) {
  return fold_in(key, c(data, DType::u32), loc);
}

Array bits(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  check_key(key, "random::bits");
  check_shape(shape, "random::bits");
  if (!is_integer(dtype) || dtype == DType::bool_)
    throw DTypeError("random::bits: expects an integer dtype, but got " + std::string(short_name(dtype)));
  int width = static_cast<int>(8 * itemsize(dtype));
  Array b = raw_bits(key, width, shape, loc);
  // A sub-byte integer keeps the low bits of a byte.
  if (is_subbyte_integer(dtype)) return lax::convert_element_type(b, dtype, false, loc);
  return dtype == integer_dtype(width, false) ? b : bitcast(b, dtype, loc);
}

Array uniform(const Array& key, const Shape& shape, DType dtype, const Array& minval, const Array& maxval,
              SourceLocation loc) {
  check_key(key, "random::uniform");
  check_float(dtype, "random::uniform");
  check_shape(shape, "random::uniform");
  return uniform_impl(key, shape, dtype, fit(minval, shape, dtype, "random::uniform", loc),
                      fit(maxval, shape, dtype, "random::uniform", loc), loc);
}

Array uniform(const Array& key, const Shape& shape, DType dtype, double minval, double maxval, SourceLocation loc) {
  check_float(dtype, "random::uniform");
  return uniform(key, shape, dtype, c(minval, dtype), c(maxval, dtype), loc);
}

Array normal(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  check_key(key, "random::normal");
  if (is_complex(dtype)) {
    // JAX's: real and imaginary parts from the two halves of a split, each of variance 1/2.
    const DType part = real_dtype(dtype);
    Array keys = split(key, 2, loc);
    Array re = normal(key_at(keys, 0, loc), shape, part, loc), im = normal(key_at(keys, 1, loc), shape, part, loc);
    return lax::complex(re, im, loc) / astype(Array(M_SQRT2), dtype, loc);
  }
  check_float(dtype, "random::normal");
  check_shape(shape, "random::normal");
  // u in [nextafter(-1, 0), 1): erf_inv(u) is finite.
  double lo = -(1.0 - std::ldexp(1.0, -(mantissa_bits(dtype) + 1)));
  Array u = uniform_impl(key, shape, dtype, c(lo, dtype), c(1, dtype), loc);
  return lax::mul(c(M_SQRT2, dtype), lax::erf_inv(u, loc), loc);
}

Array randint(const Array& key, const Shape& shape, const Array& minval, const Array& maxval, DType dtype,
              SourceLocation loc) {
  constexpr std::string_view op = "random::randint";
  check_key(key, op);
  check_shape(shape, op);
  if (!is_integer(dtype) || dtype == DType::bool_)
    throw DTypeError("random::randint: expects an integer dtype, but got " + std::string(short_name(dtype)));
  for (const Array& v : {minval, maxval})
    if (!is_integer(api::aval(v, op).dtype) && api::aval(v, op).dtype != DType::bool_ && !is_floating(api::aval(v, op).dtype))
      throw DTypeError("random::randint: expects numeric bounds, but got " + api::aval(v, op).str());
  auto lim = [](DType t, bool hi) -> double {
    int bits = bit_width(t);
    if (is_unsigned_integer(t)) return hi ? std::ldexp(1.0, bits) - 1 : 0;
    return hi ? std::ldexp(1.0, bits - 1) - 1 : -std::ldexp(1.0, bits - 1);
  };
  // Narrow integers are drawn as i32 within their range, then converted (as randint).
  int width = bit_width(dtype);
  DType st = width < 32 ? DType::i32 : dtype;
  auto as_int = [&](const Array& v) {
    const AbstractValue& av = api::aval(v, op);
    DType vt = av.weak ? (width == 64 ? DType::i64 : DType::i32) : av.dtype;
    if (!is_integer(vt) || vt == DType::bool_) vt = width == 64 ? DType::i64 : DType::i32;
    return api::convert(v, {vt, false}, loc);
  };
  Array lo = as_int(minval), hi = as_int(maxval);
  if (width < 32) {
    lo = clip(api::convert(lo, {DType::i32, false}, loc), c(lim(dtype, false), DType::i32), c(lim(dtype, true), DType::i32), loc);
    hi = clip(api::convert(hi, {DType::i32, false}, loc), c(lim(dtype, false), DType::i32), c(lim(dtype, true) + 1, DType::i32), loc);
  }
  // _convert_and_clip_integer: clip into both types' common range, then convert.
  auto convert_clip = [&](const Array& v, DType to) {
    DType from = api::aval(v, op).dtype;
    double mn = std::max(lim(to, false), lim(from, false)), mx = std::min(lim(to, true), lim(from, true));
    return lax::convert_element_type(clip(v, c(mn, from), c(mx, from), loc), to, false, loc);
  };
  DType ht = api::aval(hi, op).dtype;
  Array out_of_range = lax::gt(hi, convert_clip(c(lim(st, true), st), ht), loc);
  lo = convert_clip(lo, st);
  hi = convert_clip(hi, st);
  out_of_range = fit(out_of_range, shape, DType::bool_, op, loc);
  lo = fit(lo, shape, st, op, loc);
  hi = fit(hi, shape, st, op, loc);
  int nbits = static_cast<int>(8 * itemsize(st));
  DType ut = integer_dtype(nbits, false);
  Array ks = split(key, 2, loc);
  Array higher = raw_bits(key_at(ks, 0, loc), nbits, shape, loc), lower = raw_bits(key_at(ks, 1, loc), nbits, shape, loc);
  Array span = lax::convert_element_type(lax::sub(hi, lo, loc), ut, false, loc);
  Array ones = lax::full({shape, ut, false}, 1, loc);
  span = lax::select(lax::le(hi, lo, loc), ones, span, loc);
  span = lax::select(lax::and_(out_of_range, lax::gt(hi, lo, loc), loc), lax::add(span, c(1, ut), loc), span, loc);
  Array multiplier = lax::rem(lax::full({shape, ut, false}, std::ldexp(1.0, nbits / 2), loc), span, loc);
  multiplier = lax::rem(lax::mul(multiplier, multiplier, loc), span, loc);
  Array offset = lax::add(lax::mul(lax::rem(higher, span, loc), multiplier, loc), lax::rem(lower, span, loc), loc);
  offset = lax::rem(offset, span, loc);
  Array r = lax::add(lo, lax::convert_element_type(offset, st, false, loc), loc);
  return st == dtype ? r : lax::convert_element_type(r, dtype, false, loc);
}

Array bernoulli(const Array& key, const Array& p, std::optional<Shape> shape, SourceLocation loc) {
  constexpr std::string_view op = "random::bernoulli";
  check_key(key, op);
  const AbstractValue& av = api::aval(p, op);
  DType t = av.weak || !is_floating(av.dtype) ? DType::f32 : av.dtype;
  Shape s = shape ? *shape : av.shape;
  check_shape(s, op);
  Array pp = fit(p, s, t, op, loc);
  return lax::lt(uniform_impl(key, s, t, lax::full({s, t, false}, 0, loc), lax::full({s, t, false}, 1, loc), loc), pp, loc);
}

Array gumbel(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  check_key(key, "random::gumbel");
  check_float(dtype, "random::gumbel");
  check_shape(shape, "random::gumbel");
  Array u = uniform_impl(key, shape, dtype, c(tiny(dtype), dtype), c(1, dtype), loc);
  return lax::neg(lax::log(lax::neg(lax::log(u, loc), loc), loc), loc);
}

Array exponential(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  check_key(key, "random::exponential");
  check_float(dtype, "random::exponential");
  check_shape(shape, "random::exponential");
  Array u = uniform_impl(key, shape, dtype, c(0, dtype), c(1, dtype), loc);
  return lax::neg(lax::log1p(lax::neg(u, loc), loc), loc);
}

Array categorical(const Array& key, const Array& logits, int axis, std::optional<Shape> shape, SourceLocation loc) {
  constexpr std::string_view op = "random::categorical";
  check_key(key, op);
  Array lg = api::to_inexact(logits, op, loc);
  const AbstractValue& av = api::aval(lg, op);
  if (av.ndim() == 0) throw ValueError("random::categorical: expects logits of rank >= 1, but got " + av.str());
  int ax = api::normalize_axis(op, axis, av);
  Shape batch = av.shape;
  batch.erase(batch.begin() + ax);
  Shape s = shape ? *shape : batch;
  check_shape(s, op);
  if (s.size() < batch.size() || !std::equal(batch.begin(), batch.end(), s.end() - static_cast<std::ptrdiff_t>(batch.size())))
    throw ShapeError("random::categorical: shape " + shape_string(s) + " must end with the logits' batch shape " +
                     shape_string(batch));
  size_t prefix = s.size() - batch.size();
  Shape gshape(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(prefix));
  Shape lshape(s.begin() + static_cast<std::ptrdiff_t>(prefix), s.end());
  lshape.insert(lshape.begin() + ax, av.shape[static_cast<size_t>(ax)]);
  gshape.insert(gshape.end(), lshape.begin(), lshape.end());
  DType t = av.dtype;
  Array g = gumbel(key, gshape, t, loc);
  Shape expanded(prefix, 1);
  expanded.insert(expanded.end(), av.shape.begin(), av.shape.end());
  Array lt = api::convert(lg, {t, false}, loc);
  return argmax(add(g, reshape(lt, expanded, loc), loc), static_cast<int>(prefix) + ax, false, loc);
}

Array permutation(const Array& key, int64_t n, SourceLocation loc) {
  check_key(key, "random::permutation");
  if (n < 0) throw ValueError("random::permutation: expects n >= 0, but got " + std::to_string(n));
  return shuffle_along(key, arange(n, DType::i32), 0, loc);
}

Array permutation(const Array& key, const Array& x, int axis, bool independent, SourceLocation loc) {
  constexpr std::string_view op = "random::permutation";
  check_key(key, op);
  const AbstractValue& av = api::aval(x, op);
  if (av.ndim() == 0) throw ValueError("random::permutation: expects an array of rank >= 1 (or an integer n), but got " + av.str());
  int ax = api::normalize_axis(op, axis, av);
  if (independent || av.ndim() == 1) return shuffle_along(key, x, ax, loc);
  Array ind = shuffle_along(key, arange(av.shape[static_cast<size_t>(ax)], DType::i32), 0, loc);
  return take(x, ind, ax, loc);
}

Array shuffle(const Array& key, const Array& x, int axis, SourceLocation loc) { return permutation(key, x, axis, false, loc); }

Array choice(const Array& key, int64_t n, const Shape& shape, bool replace, const std::optional<Array>& p,
             SourceLocation loc) {
  constexpr std::string_view op = "random::choice";
  check_key(key, op);
  check_shape(shape, op);
  int64_t draws = num_elements(shape);
  if (draws == 0) return zeros(shape, DType::i32);
  if (n <= 0) throw ValueError("random::choice: expects a population of at least 1, but got " + std::to_string(n));
  if (!replace && draws > n)
    throw ValueError("random::choice: cannot take " + std::to_string(draws) + " samples without replacement from " +
                     std::to_string(n));
  if (!p) {
    if (replace) return randint(key, shape, Array(0), Array(static_cast<int32_t>(n)), DType::i32, loc);
    return reshape(slice(permutation(key, n, loc), {0}, {draws}, {}, loc), shape, loc);
  }
  Array pa = api::to_inexact(*p, op, loc);
  const AbstractValue& pv = api::aval(pa, op);
  if (pv.shape != Shape{n})
    throw ShapeError("random::choice: p must be a 1-d array of the population's size " + std::to_string(n) + ", but got " + pv.str());
  DType t = pv.dtype;
  pa = api::convert(pa, {t, false}, loc);
  if (replace) {
    Array cum = cumsum(pa, 0, false, loc);
    Array total = lax::reshape(lax::slice(cum, {n - 1}, {n}, {1}, loc), {}, loc);
    Array r = lax::mul(total, lax::sub(c(1, t), uniform(key, shape, t, 0.0, 1.0, loc), loc), loc);
    // searchsorted(cum, r, side="left"): how many cumulative sums lie below r.
    Shape wide = shape;
    wide.push_back(n);
    Shape cs(shape.size(), 1);
    cs.push_back(n);
    Array below = lax::lt(broadcast_to(reshape(cum, cs, loc), wide, loc), broadcast_to(expand_dims(r, -1, loc), wide, loc), loc);
    return sum(astype(below, DType::i32, loc), -1, false, loc);
  }
  Array g = add(gumbel(key, {n}, t, loc), log(pa, loc), loc);
  return reshape(top_k(g, draws, loc).second, shape, loc);
}

Array choice(const Array& key, const Array& a, const Shape& shape, bool replace, const std::optional<Array>& p, int axis,
             SourceLocation loc) {
  constexpr std::string_view op = "random::choice";
  const AbstractValue& av = api::aval(a, op);
  if (av.ndim() == 0) throw ValueError("random::choice: expects an array of rank >= 1 (or an integer n), but got " + av.str());
  int ax = api::normalize_axis(op, axis, av);
  int64_t n = av.shape[static_cast<size_t>(ax)];
  Shape out(av.shape.begin(), av.shape.begin() + ax);
  out.insert(out.end(), shape.begin(), shape.end());
  out.insert(out.end(), av.shape.begin() + ax + 1, av.shape.end());
  if (num_elements(shape) == 0) return zeros(out, av.dtype);
  int64_t draws = num_elements(shape);
  if (!replace && !p) {
    if (draws > n)
      throw ValueError("random::choice: cannot take " + std::to_string(draws) + " samples without replacement from " +
                       std::to_string(n));
    Array perm = permutation(key, a, ax, false, loc);
    std::vector<int64_t> lo(av.shape.size(), 0), hi(av.shape.begin(), av.shape.end());
    hi[static_cast<size_t>(ax)] = draws;
    return reshape(slice(perm, lo, hi, {}, loc), out, loc);
  }
  Array ind = choice(key, n, {draws}, replace, p, loc);
  return reshape(take(a, ind, ax, loc), out, loc);
}

Array truncated_normal(const Array& key, const Array& lower, const Array& upper, std::optional<Shape> shape, DType dtype,
                       SourceLocation loc) {
  constexpr std::string_view op = "random::truncated_normal";
  check_key(key, op);
  check_float(dtype, op);
  Shape s = shape ? *shape : param_shape(op, {lower, upper});
  check_shape(s, op);
  Array sqrt2 = c(M_SQRT2, dtype);
  Array lo = fit(lower, s, dtype, op, loc), hi = fit(upper, s, dtype, op, loc);
  Array a = erf(lax::div(lo, sqrt2, loc), loc), b = erf(lax::div(hi, sqrt2, loc), loc);
  Array u = uniform_impl(key, s, dtype, a, b, loc);
  Array out = lax::mul(sqrt2, lax::erf_inv(u, loc), loc);
  // Clamped into the open interval: rounding (or u = a) must not reach a bound.
  return clip(out, next_toward(stop_gradient(lo, loc), true, loc), next_toward(stop_gradient(hi, loc), false, loc), loc);
}

Array poisson(const Array& key, const Array& lam_in, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  const char* op = "random::poisson";
  check_key(key, op);
  if (!is_integer(dtype))
    throw DTypeError(std::string(op) + ": expects an integer dtype, but got " + std::string(short_name(dtype)));
  Shape s = shape ? *shape : api::aval(lam_in, op).shape;
  check_shape(s, op);
  Array lam = fit(lam_in, s, f32, op, loc);
  Array use_knuth = logical_or(isnan(lam, loc), less(lam, 10.0f, loc), loc);
  Array lam_knuth = where(use_knuth, lam, 0.0f, loc), lam_rejection = where(use_knuth, 1e5f, lam, loc);
  Array neg_lam_knuth = negative(lam_knuth, loc);
  const Array max_iters = astype(Array(int64_t{2147483647}), i32, loc);
  // Knuth: count uniforms until their product falls below e^-lam.
  using Knuth = std::tuple<Array, Array, Array, Array>;  // round, count, key, log of the product
  Knuth knuth = while_loop(
      [&](const Knuth& c) {
        return logical_and(any(greater(std::get<3>(c), neg_lam_knuth, loc), {}, false, loc),
                           less(std::get<0>(c), max_iters, loc), loc);
      },
      [&](const Knuth& c) {
        auto [i, k, rng, log_prod] = c;
        std::vector<Array> ks = detail::split_keys(rng, 2, loc);
        k = where(greater(log_prod, neg_lam_knuth, loc), k + astype(Array(1), dtype, loc), k, loc);
        Array u = uniform(ks[1], s, f32, 0.0, 1.0, loc);
        return Knuth{i + astype(Array(1), i32, loc), k, ks[0], log_prod + log(u, loc)};
      },
      Knuth{astype(Array(0), i32, loc), zeros(s, dtype), key, zeros(s, f32)});
  Array from_knuth = std::get<1>(knuth) - astype(Array(1), dtype, loc);
  // PTRS: k from a transformed uniform, accepted by a squeeze or the exact log-pmf test.
  Array log_lam = log(lam_rejection, loc), neg_lam_rejection = negative(lam_rejection, loc);
  Array b = 0.931f + 2.53f * sqrt(lam_rejection, loc);
  Array a = -0.059f + 0.02483f * b;
  Array inv_alpha = 1.1239f + 1.1328f / (b - 3.4f);
  Array v_r = 0.9277f - 3.6224f / (b - 2.0f);
  using Rejection = std::tuple<Array, Array, Array, Array>;  // round, k, accepted, key
  Rejection rejection = while_loop(
      [&](const Rejection& c) {
        return logical_and(any(logical_not(std::get<2>(c), loc), {}, false, loc), less(std::get<0>(c), max_iters, loc), loc);
      },
      [&](const Rejection& c) {
        auto [i, k_out, accepted, rng] = c;
        std::vector<Array> ks = detail::split_keys(rng, 3, loc);
        Array u = uniform(ks[1], s, f32, 0.0, 1.0, loc) - 0.5f;
        Array v = uniform(ks[2], s, f32, 0.0, 1.0, loc);
        Array us = 0.5f - abs(u, loc);
        Array k = floor((2.0f * a / us + b) * u + lam_rejection + 0.43f, loc);
        Array t = neg_lam_rejection + k * log_lam - lgamma(k + 1.0f, loc);
        Array s_ = log(v * inv_alpha / (a / (us * us) + b), loc);
        Array accept1 = logical_and(greater_equal(us, 0.07f, loc), less_equal(v, v_r, loc), loc);
        Array reject = logical_or(less(k, 0.0f, loc), logical_and(less(us, 0.013f, loc), greater(v, us, loc), loc), loc);
        Array accept = logical_or(accept1, logical_and(logical_not(reject, loc), less_equal(s_, t, loc), loc), loc);
        return Rejection{i + astype(Array(1), i32, loc), where(accept, k, k_out, loc), logical_or(accepted, accept, loc),
                         ks[0]};
      },
      Rejection{astype(Array(0), i32, loc), full(s, -1.0, f32), zeros(s, bool_), key});
  Array result = where(use_knuth, from_knuth, astype(std::get<1>(rejection), dtype, loc), loc);
  return where(equal(lam, 0.0f, loc), zeros(s, dtype), result, loc);
}

Array gamma(const Array& key, const Array& a, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  return gamma_impl(key, a, shape, dtype, false, "random::gamma", loc);
}

Array loggamma(const Array& key, const Array& a, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  return gamma_impl(key, a, shape, dtype, true, "random::loggamma", loc);
}

Array beta(const Array& key, const Array& a, const Array& b, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::beta";
  check_key(key, op);
  check_float(dtype, op);
  Shape s = shape ? *shape : param_shape(op, {a, b});
  check_shape(s, op);
  Array ks = split(key, 2, loc);
  Array la = loggamma(key_at(ks, 0, loc), fit(a, s, dtype, op, loc), s, dtype, loc);
  Array lb = loggamma(key_at(ks, 1, loc), fit(b, s, dtype, op, loc), s, dtype, loc);
  // gamma_a / (gamma_a + gamma_b), scaled by the larger one so that neither underflows.
  Array m = lax::max(la, lb, loc);
  Array ga = lax::exp(lax::sub(la, m, loc), loc), gb = lax::exp(lax::sub(lb, m, loc), loc);
  return lax::div(ga, lax::add(ga, gb, loc), loc);
}

Array dirichlet(const Array& key, const Array& alpha, std::optional<Shape> shape, DType dtype, SourceLocation loc) {
  constexpr std::string_view op = "random::dirichlet";
  check_key(key, op);
  check_float(dtype, op);
  const AbstractValue& av = api::aval(alpha, op);
  if (av.ndim() < 1) throw ValueError("random::dirichlet: expects alpha of rank >= 1, but got " + av.str());
  Shape s = shape ? *shape : Shape(av.shape.begin(), av.shape.end() - 1);
  s.push_back(av.shape.back());
  check_shape(s, op);
  Array lg = loggamma(key, fit(alpha, s, dtype, op, loc), s, dtype, loc);
  return softmax(lg, -1, loc);
}

Array multivariate_normal(const Array& key, const Array& mean, const Array& cov, std::optional<Shape> shape, DType dtype,
                          const std::string& method, SourceLocation loc) {
  constexpr std::string_view op = "random::multivariate_normal";
  check_key(key, op);
  check_float(dtype, op);
  const AbstractValue &mv = api::aval(mean, op), &cv = api::aval(cov, op);
  if (mv.ndim() < 1) throw ValueError("random::multivariate_normal: expects mean of rank >= 1, but got " + mv.str());
  if (cv.ndim() < 2) throw ValueError("random::multivariate_normal: expects cov of rank >= 2, but got " + cv.str());
  int64_t n = mv.shape.back();
  if (cv.shape[cv.shape.size() - 1] != n || cv.shape[cv.shape.size() - 2] != n)
    throw ShapeError("random::multivariate_normal: expects cov of shape [..., " + std::to_string(n) + ", " +
                     std::to_string(n) + "] for mean " + mv.str() + ", but got " + cv.str());
  Shape mean_batch(mv.shape.begin(), mv.shape.end() - 1), cov_batch(cv.shape.begin(), cv.shape.end() - 2);
  std::optional<Shape> batch = broadcast_pair(mean_batch, cov_batch);
  if (!batch)
    throw ShapeError("random::multivariate_normal: mean " + mv.str() + " and cov " + cv.str() + " have batch shapes that do not broadcast");
  Shape s = shape ? *shape : *batch;
  check_shape(s, op);
  std::optional<Shape> fits = broadcast_pair(*batch, s);
  if (!fits || *fits != s)
    throw ShapeError("random::multivariate_normal: the batch shape " + shape_string(*batch) +
                     " of mean and cov does not broadcast to the requested shape " + shape_string(s));
  Array m = api::convert(mean, {dtype, false}, loc), a = api::convert(cov, {dtype, false}, loc);
  Array factor;
  if (method == "cholesky") {
    factor = linalg::cholesky(a, true, loc);
  } else if (method == "svd") {
    linalg::SvdResult r = linalg::svd(a, true, true, loc);
    factor = multiply(r.u, expand_dims(sqrt(r.s, loc), -2, loc), loc);
  } else if (method == "eigh") {
    linalg::EighResult r = linalg::eigh(a, true, loc);
    factor = multiply(r.eigenvectors, expand_dims(sqrt(r.eigenvalues, loc), -2, loc), loc);
  } else {
    throw ValueError("random::multivariate_normal: expects method \"cholesky\", \"svd\" or \"eigh\", but got \"" + method + "\"");
  }
  Shape zs = s;
  zs.push_back(n);
  Array z = normal(key, zs, dtype, loc);
  return add(m, einsum("...ij,...j->...i", {factor, z}, loc), loc);
}

Array orthogonal(const Array& key, int64_t n, const Shape& shape, DType dtype, std::optional<int64_t> m_opt, SourceLocation loc) {
  const int64_t m = m_opt.value_or(n);
  if (n < 0 || m < 0) throw ValueError("orthogonal: expects non-negative sizes, but got " + std::to_string(n) + " × " + std::to_string(m));
  if (!is_floating(dtype)) throw DTypeError("orthogonal: expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  Shape zs = shape;
  zs.push_back(std::max(n, m));
  zs.push_back(std::min(n, m));
  linalg::QrResult qr = linalg::qr(normal(key, zs, dtype, loc), false, loc);
  Array d = diagonal(qr.r, 0, -2, -1, loc);
  Array x = qr.q * expand_dims(sign(d, loc), -2, loc);
  return n < m ? matrix_transpose(x, loc) : x;
}

}  // namespace strata::random
