// libFuzzer target: a random well-typed program built through the public API from the fuzzer's
// bytes, run eagerly and under jit; the two must agree. The bytes choose the dtypes (all
// fifteen: complex c64 and c128 too), shapes (0-d, empty and broadcasting ones included), input values (edge values:
// 0, -1, extremes, nan, inf, -0.0) and a chain of up to 16 ops from elementwise arithmetic,
// comparisons and where, bit ops, conversions, reductions, cumulative ops, shape ops, matmul,
// indexing (take, dynamic_slice, x[0]), concatenate, pad modes, argmax, clip, cond,
// fori_loop, sort/argsort/top_k, reduce_window sum/max, flip, einsum, convolution
// (conv_general_dilated: strides, padding, dilations, feature groups), gathers (x[int array])
// and scatters (x.at(...).set/add/mul/min/max), scan (forward, reverse, carry or stacked
// ys), complex parts (conj, real, imag, complex(x, y)), fft/ifft, and vmap of a chain of two
// of the other ops. Results must match bit for bit on integers
// and bools, and on floats up to a few ulps of the transcendental functions (nan where nan,
// inf where inf). A user error (a DTypeError on
// a float op of an integer, say) must be raised alike by both, never a crash. Values are not
// compared after a float sum whose rounding depends on the order of its terms (g_order_dependent).
#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace st = strata;

namespace {

// The fuzzer's bytes as a stream of choices (zeros once exhausted).
struct Bytes {
  const uint8_t* p;
  size_t n;
  uint8_t next() { return n ? (--n, *p++) : 0; }
  int pick(int k) { return next() % k; }
};

const st::DType kTypes[] = {st::bool_, st::i8,  st::i16, st::i32, st::i64, st::u8,  st::u16, st::u32,
                            st::u64,   st::bf16, st::f16, st::f32, st::f64, st::c64, st::c128};
constexpr int kNumTypes = 15;

st::Shape pick_shape(Bytes& b) {
  static const st::Shape kShapes[] = {{}, {1}, {5}, {3, 4}, {1, 4}, {3, 1}, {2, 3, 4}, {0}, {2, 0}, {17}};
  return kShapes[b.pick(10)];
}

st::Array make_input(Bytes& b, st::DType t, const st::Shape& shape) {
  static const double kEdges[] = {0, 1, -1, 2, 7, -3, 0.5, -0.0, 127, 128, 255, 65535, 2147483647.0,
                                  -2147483648.0, 4294967295.0, 1e30, NAN, INFINITY, -INFINITY, 3.25};
  std::vector<double> v;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  for (int64_t i = 0; i < n; ++i) v.push_back(kEdges[b.pick(20)]);
  if (!st::is_complex(t)) return st::array(v, shape, t);
  std::vector<double> im;  // an imaginary part of edge values too
  for (int64_t i = 0; i < n; ++i) im.push_back(kEdges[b.pick(20)]);
  return st::astype(st::complex(st::array(v, shape, st::f64), st::array(im, shape, st::f64)), t);
}

constexpr int kNumOps = 55;
constexpr int kChainOps = 46;  // the ops vmap chains: all but conv, indexing updates, scan, collectives, vmap

// A 1-d convolution of x's elements (as N=1, C=1, W) by a kernel of y's first elements; when
// x is 3-d, x itself as N, C, W with a grouped kernel. Strides, padding and dilations from arg.
st::Array conv(const st::Array& x_in, const st::Array& y, int arg) {
  // Convolutions take floats and integers (jit: the runtime's kernel and the linalg lowering):
  // a bool x becomes f32, but not always (the error too).
  const st::Array x = x_in.dtype() == st::bool_ && arg % 8 != 7 ? st::astype(x_in, st::f32) : x_in;
  const int64_t k = std::min<int64_t>(1 + arg % 3, y.size());
  if (k == 0) return x;
  st::Array kernel = st::astype(st::reshape(y, {y.size()})[st::Slice(0, k)], x.dtype());
  const std::vector<int64_t> strides{1 + (arg / 3) % 2}, lhs_dil{1 + (arg / 6) % 2}, rhs_dil{1 + (arg / 12) % 2};
  // String padding only without lhs dilation (JAX refuses it for transposed convolutions).
  const st::Padding padding = lhs_dil[0] > 1 ? (arg % 5 < 2 ? st::Padding({{1, 0}}) : st::Padding({{0, 0}}))
                              : arg % 5 == 0 ? st::Padding("SAME")
                              : arg % 5 == 1 ? st::Padding({{1, 0}})
                                             : st::Padding("VALID");
  if (x.ndim() == 3) {
    const int64_t c = x.shape()[1], groups = arg % 2 && c > 0 ? c : 1;  // no groups of nothing
    // kernel: out channels = c, in channels per group = c / groups, width k (an iota times y's).
    st::Array w = st::reshape(st::arange(c * (c / groups) * k, x.dtype() == st::bool_ ? st::i32 : x.dtype()), {c, c / groups, k});
    w = st::astype(w, x.dtype()) * st::reshape(kernel, {1, 1, k});
    return st::conv_general_dilated(x, w, strides, padding, lhs_dil, rhs_dil, {}, groups);
  }
  return st::conv_general_dilated(st::reshape(x, {1, 1, x.size()}), st::reshape(kernel, {1, 1, k}), strides, padding,
                                  lhs_dil, rhs_dil);
}

// One op of the chain: applied to the values so far (the last one and one picked earlier).
st::Array apply(int op, const st::Array& x, const st::Array& y, int arg) {
  switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return st::maximum(x, y);
    case 4: return st::minimum(x, y);
    case 5: return arg % 2 ? st::fmod(x, y) : st::remainder(x, y);
    case 6: return -x;
    case 7: return arg % 4 == 3 ? st::lgamma(x) : st::abs(x);
    case 8: return arg % 4 == 3 ? st::digamma(x) : arg % 4 == 2 ? st::nextafter(x, y) : st::sign(x);
    case 9: return st::where(st::less(x, y), x, y);
    case 10: return st::equal(x, y);
    case 11: return st::greater_equal(x, y);
    case 12: return st::astype(x, kTypes[arg % kNumTypes]);
    case 13: return st::sum(x, {}, false);
    case 14: return x.ndim() ? st::max(x, {arg % x.ndim()}) : st::max(x);
    case 15: return st::cumsum(x);
    case 16: return st::reshape(x, {x.size()});
    case 17: return st::transpose(x);
    case 18: return st::exp(x);
    case 19: return st::tanh(x);
    case 20: return st::divide(x, y);
    case 21: return st::shift_left(x, y);
    case 22: return st::shift_right_arithmetic(x, y);
    case 23: return st::population_count(x);
    case 24: return st::logical_and(x, y);
    case 25: return st::logical_not(x);
    case 26: return st::matmul(x, y);
    case 27: return st::power(x, y);
    case 28: return st::clz(x);
    case 29: return st::floor(x);
    // Indexing: y's elements as indices (out of bounds clamp, as JAX).
    case 30: return x.ndim() ? st::take(x, st::astype(y, st::i32), arg % x.ndim()) : x;
    case 31: return x.ndim() ? st::dynamic_slice(x, std::vector<st::Array>(static_cast<size_t>(x.ndim()), st::astype(st::sum(y), st::i32)),
                                                 std::vector<int64_t>(static_cast<size_t>(x.ndim()), 1))
                             : x;
    case 32: return x.ndim() ? st::concatenate({x, x}, arg % x.ndim()) : x;
    case 33: {
      // The last three dimensions at most: gathers raise the rank, and padding 30 dimensions of
      // size 2 grows 4096 elements to 10^9 (the long run's out-of-memory).
      std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
      for (size_t d = widths.size() > 3 ? widths.size() - 3 : 0; d < widths.size(); ++d) widths[d] = {arg % 2, 1};
      return st::pad(x, widths, arg % 3 == 0 ? "constant" : arg % 3 == 1 ? "edge" : "wrap");
    }
    case 34: return x.ndim() ? st::argmax(x, arg % x.ndim()) : st::argmax(x);
    case 35: return st::cummax(x);
    case 36: return st::clip(x, st::minimum(y, y), y);
    // Control flow: both branches traced, one taken by the data.
    case 37: return st::cond(st::greater(st::sum(st::astype(y, st::f32)), st::Array(0.0f)),
                             [](const st::Array& v) { return v + v; }, [](const st::Array& v) { return -v; }, x);
    case 38: return st::fori_loop(0, arg % 4, [](const st::Array& i, const st::Array& v) { return v * v - st::astype(i, v.dtype()); }, x);
    case 39: return st::astype(x.ndim() ? x[0] : x, kTypes[arg % kNumTypes]);
    // Sorting and windows.
    case 40: return st::sort(x, x.ndim() ? std::optional<int>(arg % x.ndim()) : std::nullopt, arg % 2 == 1);
    case 41: return st::argsort(x, x.ndim() ? std::optional<int>(arg % x.ndim()) : std::nullopt, arg % 2 == 1);
    case 42: return x.ndim() && x.shape().back() > 0 ? st::top_k(x, 1 + arg % x.shape().back()).first : x;
    case 43: {
      std::vector<int64_t> window(static_cast<size_t>(x.ndim()), 1), strides(static_cast<size_t>(x.ndim()), 1);
      if (x.ndim()) window.back() = 1 + arg % 3, strides.back() = 1 + (arg / 3) % 2;
      return arg % 2 ? st::reduce_window_max(x, window, strides, "SAME") : st::reduce_window_sum(x, window, strides, "SAME");
    }
    case 44: return st::flip(x);
    case 45: return st::einsum("...,...->...", {x, y});
    case 46: return conv(x, y, arg);
    // Gathers (integer-array indices, clamped) and scatters (.at updates; out-of-range dropped).
    case 47: return x.ndim() ? x[st::astype(y, arg % 2 ? st::i32 : st::i64)] : x;
    case 48: {
      if (!x.ndim()) return x;
      st::At at = arg % 3 == 2 ? x.at(st::Slice(arg % 2, st::none, 2)) : x.at(st::astype(st::reshape(y, {y.size()}), st::i32));
      st::Array v = st::sum(x);  // 0-d: broadcasts to any indexed shape
      switch ((arg / 3) % 5) {
        case 0: return at.set(v);
        case 1: return at.add(v);
        case 2: return at.mul(v);
        case 3: return at.min(v);
        default: return at.max(v);
      }
    }
    // scan over y's leading axis (or a length when y is 0-d): the carry, or the stacked ys.
    case 49: {
      auto step = [](const st::Array& c, const st::Array& s) {
        st::Array next = c * st::astype(st::Array(2), c.dtype()) - st::astype(st::sum(s), c.dtype());
        return std::make_pair(next, st::maximum(c, next));
      };
      st::ScanOptions options;
      options.reverse = arg % 2 == 1;
      if (y.ndim() == 0) {
        options.length = arg % 4;
        auto [c, ys] = st::scan([&](const st::Array& c, const std::tuple<>&) { return step(c, y); }, x, std::tuple<>{}, options);
        return arg % 4 < 2 ? c : ys;
      }
      auto [c, ys] = st::scan(step, x, y, options);
      return (arg / 2) % 2 ? c : ys;
    }
    // Collectives (issue 18): over a vmap axis along x's leading axis, or over a one-process
    // mesh (the compiled runtime call).
    case 50: {
      if (!x.ndim() || st::is_bool(x.dtype())) return x;
      const int kind = arg % 8;
      if (kind == 7) {
        st::Mesh mesh({1}, {"m"});
        return st::shard_map([arg](const st::Array& v) {
          return arg % 16 < 8 ? st::psum(v, "m") : st::all_gather(v, "m", 0, true);
        }, mesh, {{}}, {{}})(x);
      }
      auto per = [kind, arg](const st::Array& v) -> st::Array {
        switch (kind) {
          case 0: return st::psum(v, "i");
          case 1: return st::pmax(v, "i");
          case 2: return st::pmin(v, "i");
          case 3: return st::all_gather(v, "i", v.ndim() ? arg % (v.ndim() + 1) : 0);
          case 4: return st::ppermute(v, "i", {{0, 1}, {1, 0}});
          case 5: return v + st::astype(st::axis_index("i"), v.dtype());
          default: return st::pmean(st::astype(v, st::f32), "i");
        }
      };
      if (kind == 4 && x.shape()[0] < 2) return x;
      return st::vmap(per, {}, 0, "i")(x);
    }
    // Complex numbers: parts, conjugates, construction from two real values, and the FFT.
    case 51: return arg % 3 == 0 ? st::conj(x) : arg % 3 == 1 ? st::real(x) : st::imag(x);
    case 52: {
      const st::DType part = arg % 2 ? st::f64 : st::f32;
      return st::complex(st::astype(x, part), st::astype(y, part));
    }
    case 53: {
      if (!x.ndim() || x.shape().back() == 0) return x;
      const st::Array z = st::is_complex(x.dtype()) ? x : st::astype(x, arg % 4 < 2 ? st::c64 : st::c128);
      return arg % 2 ? st::fft::ifft(z) : st::fft::fft(z, x.shape().back() + arg % 3);
    }
    // vmap of a chain of two ops of the mix along x's leading axis (y shared, or mapped too).
    default: {
      if (!x.ndim()) return x;
      int first = arg % kChainOps, second = (arg / kChainOps + 7 * arg) % kChainOps;
      auto chain = [first, second, arg](const st::Array& r, const st::Array& w) {
        return apply(second, apply(first, r, w, arg), r, arg / 3);
      };
      if (y.ndim() && y.shape()[0] == x.shape()[0] && arg % 2) return st::vmap(chain)(x, y);
      return st::vmap(chain, {0, std::nullopt})(x, y);
    }
  }
}

// A float or complex array's values as doubles (complex: real parts, then imaginary parts).
std::vector<double> parts(const st::Array& a) {
  if (!st::is_complex(a.dtype())) return a.to_vector<double>();
  std::vector<double> r = st::real(a).to_vector<double>(), i = st::imag(a).to_vector<double>();
  r.insert(r.end(), i.begin(), i.end());
  return r;
}

// The relative precision of the least precise float value a run went through: an f64 result
// computed from an f32 exp carries the f32 exp's ulps.
double g_eps = 0;
double eps_of(st::DType t) {
  return t == st::f64 || t == st::c128 ? 1e-9 : t == st::f32 || t == st::c64 ? 1e-4 : t == st::bf16 || t == st::f16 ? 2e-2 : 0;
}

// The largest finite magnitude of the float values the eager run went through (set while
// g_record): an ulp of exp(9) = 8103.08 is 5e-4 in any result computed from it, such as
// remainder(exp(9), 3) = 0.08, whose own magnitude bounds nothing.
double g_scale = 1;
bool g_record = false;

// Whether the eager run added floats in a way whose rounding depends on the order (set while
// g_record). Eager and jit add in different orders (Eigen's packet lanes and pairwise blocks;
// the compiled loop's lanes, splits and blocks), so such a sum may differ by its rounding, and
// a later comparison, max, floor, cast or branch may turn that into any other value: the
// last CI run's 17 c64 values with real parts 1, ..., 2^31, -2^31, 4.25 summed to 10.25
// compiled and to 1 eagerly, and x.at[1::2].max(sum) then took the sum or the element. A
// program that went through such a sum is not failed on differing values (errors, dtypes and
// shapes still must agree).
bool g_order_dependent = false;
bool g_excused = false;  // a difference let pass for that reason (STRATA_FUZZ_TRACE counts them)

int precision_bits(st::DType t) {
  return t == st::f64 || t == st::c128 ? 53 : t == st::f32 || t == st::c64 ? 24 : t == st::f16 ? 11 : t == st::bf16 ? 8 : 0;
}
double max_finite(st::DType t) {
  return t == st::f64 || t == st::c128 ? 1.7e308 : t == st::f16 ? 65504.0 : 3.38e38;  // f32, c64, bf16
}

// The exponent of a finite nonzero double's lowest set bit (v is a multiple of 2^low_bit(v)).
int low_bit(double v) {
  int e = 0;
  const auto mantissa = static_cast<uint64_t>(std::ldexp(std::frexp(std::abs(v), &e), 53));
  return e - 53 + std::countr_zero(mantissa);
}

// The finest grid the finite nonzero values lie on (INT_MAX for none) and their total magnitude.
std::pair<int, double> grid_and_total(const st::Array& a) {
  int lo = INT_MAX;
  double total = 0;
  for (double v : parts(a))
    if (std::isfinite(v) && v != 0) lo = std::min(lo, low_bit(v)), total += std::abs(v);
  return {lo, total};
}

// Whether a sum of `x`'s values (or of products of one of `x`'s and one of `y`'s, `y` given) in
// `t` can round. It cannot when every term lies on one grid 2^lo and the terms' total stays
// under 2^(lo + precision) and under t's largest value: then every partial sum of every order
// is exact. Non-finite terms give inf or nan in any order.
bool sum_may_round(st::DType t, const st::Array& x, const st::Array* y = nullptr) {
  const int p = precision_bits(t);
  if (p == 0) return false;  // integers wrap, bools count: any order gives the same bits
  auto [lo, total] = grid_and_total(x);
  if (y) {
    auto [lo_y, total_y] = grid_and_total(*y);
    if (lo == INT_MAX || lo_y == INT_MAX) return false;  // all products zero or non-finite
    lo += lo_y, total *= total_y * 64;  // conv's kernel: y's values times an iota under 64
  }
  if (lo == INT_MAX) return false;
  return !(total < std::ldexp(1.0, lo + p) && total < max_finite(t));
}

// Whether op (with arg) adds several floats: its rounding may then depend on the order.
bool may_round_by_order(int op, const st::Array& x, const st::Array& y, int arg, const st::Array& result) {
  switch (op) {
    case 13: case 15: case 48: return sum_may_round(result.dtype(), x);
    case 50: return (arg % 8 == 0 || arg % 8 == 6) && sum_may_round(result.dtype(), x);  // psum, pmean
    case 43: return arg % 2 == 0 && sum_may_round(result.dtype(), x);
    case 26: case 46: return sum_may_round(result.dtype(), x, &y);
    case 31: case 49: return sum_may_round(y.dtype(), y);
    case 37: return sum_may_round(st::f32, st::astype(y, st::f32));
    default: break;
  }
  if (op < kNumOps - 1) return false;
  // vmap of a two-op chain: the inner values are not seen; a chain with a summing op whose
  // operands or result are floats counts as rounding.
  static const int kSums[] = {13, 15, 26, 31, 37, 43};  // the chainable ones of the cases above
  const int first = arg % kChainOps, second = (arg / kChainOps + 7 * arg) % kChainOps;
  const bool sums = std::count(std::begin(kSums), std::end(kSums), first) || std::count(std::begin(kSums), std::end(kSums), second);
  return sums && (precision_bits(x.dtype()) || precision_bits(y.dtype()) || precision_bits(result.dtype()));
}

struct Program {
  std::vector<int> ops, other, args;  // per step: the op, which earlier value is `y`, a small int
  st::Array run(const std::vector<st::Array>& in) const {
    std::vector<st::Array> vals = in;
    size_t rounding_step = SIZE_MAX;  // the first step that added floats in an order-dependent way
    for (size_t s = 0; s < ops.size(); ++s) {
      // The chain stops at a value over 4096 elements: chained gathers grow shapes
      // exponentially (a timeout, not a finding), and one more step stays under ~10^7.
      if (vals.back().size() > 4096) break;
      const st::Array& x = vals.back();
      const st::Array& y = vals[static_cast<size_t>(other[s]) % vals.size()];
      st::Array result = apply(ops[s], x, y, args[s]);
      if (g_record && rounding_step == SIZE_MAX && may_round_by_order(ops[s], x, y, args[s], result)) rounding_step = s;
      vals.push_back(result);
      g_eps = std::max(g_eps, eps_of(vals.back().dtype()));
      if (g_record && (st::is_floating(vals.back().dtype()) || st::is_complex(vals.back().dtype())))
        for (double v : parts(vals.back()))
          if (std::isfinite(v)) g_scale = std::max(g_scale, std::abs(v));
    }
    // A sum, cumsum, matmul, window sum, convolution or psum that is the program's last step
    // differs only by its rounding, which the tolerance covers: it is still compared. The other
    // ops that sum (cond's predicate, an index, a scatter's value, scan's body, vmapped chains)
    // or any step after one may turn the rounding into another value.
    if (g_record && rounding_step != SIZE_MAX) {
      static const int kOnlySums[] = {13, 15, 26, 43, 46, 50};
      const bool last = rounding_step + 1 == vals.size() - in.size();
      g_order_dependent = !(last && std::count(std::begin(kOnlySums), std::end(kOnlySums), ops[rounding_step]));
    }
    return vals.back();
  }
};

std::string g_program;  // the program being run, printed on failure

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_differential: %s\nprogram: %s\n", what.c_str(), g_program.c_str());
  std::abort();
}

// Floats: equal, both nan, or within `eps` of the largest magnitude in the array or in the
// values it was computed from (g_scale): a chain of transcendental functions differs by a few
// ulps between Eigen and the compiled code (libmvec), and a later subtraction or remainder can
// cancel the leading digits of one element, or of all.
void compare(const st::Array& jit, const st::Array& eager) {
  if (jit.dtype() != eager.dtype() || jit.shape() != eager.shape())
    fail("jit gave " + st::type_string(jit.dtype(), jit.shape()) + ", eager " + st::type_string(eager.dtype(), eager.shape()));
  // Integers computed from floats (a conversion after lgamma, say) carry the floats' ulps,
  // magnified: 2.2e12 from an f32 is exact only to 2^18. They are compared as the floats are.
  const bool inexact = st::is_floating(eager.dtype()) || st::is_complex(eager.dtype());
  if (!inexact && (g_eps == 0 || eager.dtype() == st::bool_)) {
    bool same = std::equal(static_cast<const char*>(jit.data()), static_cast<const char*>(jit.data()) + jit.nbytes(),
                           static_cast<const char*>(eager.data()));
    if (!same && g_order_dependent) g_excused = true;
    else if (!same) fail("values differ:\n  jit   " + jit.to_string() + "\n  eager " + eager.to_string());
    return;
  }
  std::vector<double> a = parts(jit), b = parts(eager);
  double eps = std::max(g_eps, eps_of(eager.dtype()));
  double scale = g_scale;
  for (double v : b)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  // A complex element with a non-finite part is "infinite or nan" without a canonical form:
  // C's Annex G products and quotients (eager's std::complex) and MLIR's formulas (jit) make
  // different inf/nan pairs of one such value. Both non-finite is agreement.
  const size_t half = a.size() / 2;
  auto complex_nonfinite = [&](const std::vector<double>& v, size_t i) {
    size_t re = i < half ? i : i - half;
    return !std::isfinite(v[re]) || !std::isfinite(v[re + half]);
  };
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (a[i] == b[i]) continue;
    if (st::is_complex(eager.dtype()) && complex_nonfinite(a, i) && complex_nonfinite(b, i)) continue;
    if (std::isfinite(a[i]) && std::isfinite(b[i]) && std::abs(a[i] - b[i]) <= eps * scale) continue;
    if (g_order_dependent) {
      g_excused = true;
      return;
    }
    fail("element " + std::to_string(i) + " differs:\n  jit   " + jit.to_string() + "\n  eager " + eager.to_string());
  }
}

}  // namespace

// An allocation that cannot succeed returns null under ASan too, so that it becomes the
// strata::Error a user gets ("cannot allocate N bytes"), as in the sanitized test suite
// (tools/sanitize.sh); without it ASan aborts on the size (found by the long run: a chain of
// gathers whose result would take 10^17 bytes). A hook only ASan calls.
// Allocations over 1 GiB fail the same way (max_allocation_size_mb): a program that needs more
// is a resource limit rather than a finding, and libFuzzer's RSS limit would otherwise end the
// run on it; such a program is not compared (below).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=1024"; }

namespace {
bool is_allocation_failure(const std::string& error) { return error.find("cannot allocate") != std::string::npos; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes b{data, size};
  int num_inputs = 1 + b.pick(3);
  std::vector<st::Array> inputs;
  for (int i = 0; i < num_inputs; ++i) {
    st::DType t = kTypes[b.pick(kNumTypes)];
    inputs.push_back(make_input(b, t, pick_shape(b)));
  }
  Program prog;
  int steps = 1 + b.pick(16);
  for (int s = 0; s < steps; ++s) {
    prog.ops.push_back(b.pick(kNumOps));
    prog.other.push_back(b.next());
    prog.args.push_back(b.next());
  }
  g_program.clear();
  for (const st::Array& in : inputs) g_program += st::type_string(in.dtype(), in.shape()) + " " + in.to_string() + "; ";
  for (size_t s = 0; s < prog.ops.size(); ++s)
    g_program += "op" + std::to_string(prog.ops[s]) + "(last, v" + std::to_string(prog.other[s] % (inputs.size() + s)) +
                 ", " + std::to_string(prog.args[s]) + ") ";
  st::Array eager;
  std::string eager_error;
  g_eps = 0;
  g_scale = 1;
  g_order_dependent = g_excused = false;
  g_record = true;
  try {
    eager = prog.run(inputs);
  } catch (const st::Error& e) {
    eager_error = e.what();
  }
  g_record = false;
  try {
    auto f = st::jit([&prog](const std::vector<st::Array>& in) { return prog.run(in); });
    st::Array got = f(inputs);
    if (is_allocation_failure(eager_error)) return 0;  // fused code may never hold the big value
    if (!eager_error.empty()) fail("jit ran but eager raised: " + eager_error);
    compare(got, eager);
  } catch (const st::Error& e) {
    if (eager_error.empty() && !is_allocation_failure(e.what())) fail(std::string("eager ran but jit raised: ") + e.what());
  }
  // STRATA_FUZZ_TRACE=1: each program and how it ended (for judging the op mix and the corpus).
  if (std::getenv("STRATA_FUZZ_TRACE"))
    std::fprintf(stderr, "%s -> %s%s\n", g_program.c_str(), eager_error.empty() ? "ok" : eager_error.substr(0, 120).c_str(),
                 g_excused ? " (differed after a sum that rounds by its order: not failed)"
                 : g_order_dependent ? " (went through a sum that rounds by its order)" : "");
  return 0;
}
