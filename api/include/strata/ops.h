// strata/ops.h — operations on arrays, NumPy-style, with broadcasting and type promotion.
//
// Every op takes a trailing defaulted `loc`: the place in the user's code that called it,
// recorded in traced programs for diagnostics. Callers never pass it.
#pragma once

#include <optional>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "strata/array.h"

namespace strata {

using SourceLocation = std::source_location;

// An operand of an overloaded operator (`x + 2.0f`): converts from an Array or a C++ scalar
// and remembers where the user wrote the expression.
struct Operand {
  template <class T>
    requires std::is_convertible_v<T, Array>
  Operand(T&& v, SourceLocation l = SourceLocation::current())  // NOLINT: implicit on purpose
      : value(std::forward<T>(v)), loc(l) {}
  Array value;
  SourceLocation loc;
};

// Axes of a reduction: all of them (the default), one (`1`, `-1`) or several (`{0, 2}`).
struct Axes {
  Axes() = default;
  Axes(int axis) : list(std::vector<int>{axis}) {}  // NOLINT
  Axes(std::initializer_list<int> axes) : list(std::vector<int>(axes)) {}
  Axes(std::vector<int> axes) : list(std::move(axes)) {}  // NOLINT
  std::optional<std::vector<int>> list;  // nullopt: all axes
};

// ---- Elementwise arithmetic (NumPy broadcasting, JAX promotion) ----
Array add(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array subtract(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array multiply(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// True division: integer operands are promoted to a float type first.
Array divide(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// Floor modulo, as jnp.remainder and Python's %: the result has the sign of the divisor
// (-7 % 3 is 2); x % 0 is x for integers (XLA's rem, no trap) and nan for floats. `a % b` is this.
Array remainder(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// Floor division, as jnp.floor_divide and Python's //: the quotient rounded towards -inf
// (-7 // 2 is -4); integers stay integers, floats stay floats (7.5 // 2 == 3.0).
Array floor_divide(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The truncating remainder, as C's fmod and jnp.fmod / jax.lax.rem: the sign of the dividend.
Array fmod(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array negative(const Array& a, SourceLocation loc = SourceLocation::current());
// Elementwise larger/smaller; nan if either operand is nan.
Array maximum(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array minimum(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array power(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The angle of the point (x, y) in (-pi, pi], as C's atan2 (jax.lax.atan2, jnp.arctan2):
// integer operands are promoted to a float type first.
Array atan2(const Array& y, const Array& x, SourceLocation loc = SourceLocation::current());
// The representable value after x towards y, in their float type (jnp.nextafter, C's
// nextafter): y where x == y; integer operands are promoted to a float type first.
Array nextafter(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
// The regularized incomplete gamma functions of jax.lax (scipy's gammainc and gammaincc): the
// lower P(a, x) = γ(a, x)/Γ(a) and the upper Q(a, x) = 1 - P(a, x); nan for x < 0, a < 0 or
// a = x = 0. Integer operands are promoted to a float type first. Differentiable in both (in a
// through igamma_grad_a).
Array igamma(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
Array igammac(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
// ∂P(a, x)/∂a (jax.lax.igamma_grad_a), and the derivative in a of a Gamma(a, 1) sample x at
// fixed P(a, x) (jax.lax.random_gamma_grad, random::gamma's gradient); neither differentiable.
Array igamma_grad_a(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
Array random_gamma_grad(const Array& a, const Array& x, SourceLocation loc = SourceLocation::current());
// The Hurwitz zeta function ζ(x, q) = Σ_{k>=0} (q+k)^-x (jax.lax.zeta; ζ(x, 1) is Riemann's): nan
// for x < 1, +inf at x = 1. Differentiable in q; its derivative in x is not implemented (nan).
Array zeta(const Array& x, const Array& q, SourceLocation loc = SourceLocation::current());
// The regularized incomplete beta function I_x(a, b) (jax.lax.betainc, scipy's betainc): nan
// for a < 0, b < 0 or x outside [0, 1]. Operands promoted to one float type and broadcast.
// Differentiable in x; its derivatives in a and b are not implemented (nan, as JAX raises).
Array betainc(const Array& a, const Array& b, const Array& x, SourceLocation loc = SourceLocation::current());
// ψ⁽ⁿ⁾(x), the n-th derivative of digamma (jax.lax.polygamma), for whole n >= 0 (nan otherwise).
Array polygamma(const Array& n, const Array& x, SourceLocation loc = SourceLocation::current());
// x^n for a static integer n by repeated squaring (jax.lax.integer_pow): floats and integers;
// a negative n gives 1 / x^|n| and is an error on integers.
Array integer_pow(const Array& x, int64_t n, SourceLocation loc = SourceLocation::current());
// x rounded to the nearest value of a float format with that many exponent and mantissa bits,
// kept in x's type (jax.lax.reduce_precision; e.g. 5, 10 is f16's format): out of its range
// ±inf, below its smallest normal ±0; floats only. Its derivative is itself, as in JAX.
Array reduce_precision(const Array& x, int64_t exponent_bits, int64_t mantissa_bits,
                       SourceLocation loc = SourceLocation::current());
// The arrays, unchanged, with no computation moved across them by the compiler
// (jax.lax.optimization_barrier): jit does not merge a recomputation behind the barrier with
// the same value computed before it (CSE), nor fuse the computations on its two sides.
// Derivatives and vmap pass through it (behind barriers of their own).
std::vector<Array> optimization_barrier(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
Array optimization_barrier(const Array& x, SourceLocation loc = SourceLocation::current());
// jax.lax.rng_bit_generator's algorithms, by StableHLO's numbers. kDefault is kPhilox, as
// XLA's CPU and GPU compilers take it.
enum class RngAlgorithm { kDefault = 0, kThreeFry = 1, kPhilox = 2 };
// Uniformly random bits of `shape` and an unsigned dtype (u8, u16, u32, u64) from a
// counter-based generator's state `key` — u32[4] (JAX's form), u64[2], or u64[3] for Philox —
// and the advanced state: (new key, bits), jax.lax.rng_bit_generator. The bits are XLA's, so
// equal JAX's on CPU and GPU for the same key, shape, dtype and algorithm. Not differentiable.
// Under vmap, as in JAX, only the first key of a batch draws (bits of shape [batch, *shape]) and
// advances; the other keys come back unchanged. Most code wants strata::random instead.
std::pair<Array, Array> rng_bit_generator(const Array& key, const Shape& shape, DType dtype = u32,
                                          RngAlgorithm algorithm = RngAlgorithm::kDefault,
                                          SourceLocation loc = SourceLocation::current());

Array operator+(const Operand& a, const Operand& b);
Array operator-(const Operand& a, const Operand& b);
Array operator*(const Operand& a, const Operand& b);
Array operator/(const Operand& a, const Operand& b);
Array operator%(const Operand& a, const Operand& b);
Array operator-(const Operand& a);

// ---- Elementwise math (integer operands are promoted to a float type) ----
// exp, log, log1p, expm1, tanh, logistic, sin, cos, sqrt, rsqrt, ...: one declaration each,
// from the list with their one-line docs in strata/float_unary.def.
#define STRATA_FLOAT_UNARY(ident, name, fn) \
  Array fn(const Array& x, SourceLocation loc = SourceLocation::current());
#include "strata/float_unary.def"
#undef STRATA_FLOAT_UNARY
// |x|; of a complex x, its modulus, a real array (c64 -> f32).
Array abs(const Array& x, SourceLocation loc = SourceLocation::current());
// -1, 0 or 1; of a complex x, x / |x| (0 at 0).
Array sign(const Array& x, SourceLocation loc = SourceLocation::current());

// ---- Complex numbers (c64: f32 parts, c128: f64 parts) ----
// re + i·im from two real arrays (promoted to one float dtype, then f32 -> c64, f64 -> c128;
// integer parts become f32 first), as jax.lax.complex.
Array complex(const Array& re, const Array& im, SourceLocation loc = SourceLocation::current());
// The real and imaginary parts (c64 -> f32); of a real array, the array and zeros (jnp.real,
// jnp.imag).
Array real(const Array& x, SourceLocation loc = SourceLocation::current());
Array imag(const Array& x, SourceLocation loc = SourceLocation::current());
// The complex conjugate; a real array as it is (jnp.conj).
Array conj(const Array& x, SourceLocation loc = SourceLocation::current());
// The argument atan2(imag, real), in radians (jnp.angle; 0 or pi for real x).
Array angle(const Array& x, SourceLocation loc = SourceLocation::current());
Array floor(const Array& x, SourceLocation loc = SourceLocation::current());
Array ceil(const Array& x, SourceLocation loc = SourceLocation::current());
// How round() rounds halfway cases (jax.lax.RoundingMethod).
enum class RoundingMethod { away_from_zero = 0, to_nearest_even = 1 };
// The nearest integer value, halfway cases to even (as jnp.round: round(2.5) == 2).
Array round(const Array& x, SourceLocation loc = SourceLocation::current());
// As jax.lax.round: halfway cases by `method` (away_from_zero: round(2.5) == 3, as std::round).
Array round(const Array& x, RoundingMethod method, SourceLocation loc = SourceLocation::current());
// True (bool) where x is neither ±inf nor nan; always true for integers and bools.
Array is_finite(const Array& x, SourceLocation loc = SourceLocation::current());

// Composites (jnp's definitions): base-2 and base-10 logarithms.
Array log2(const Array& x, SourceLocation loc = SourceLocation::current());
Array log10(const Array& x, SourceLocation loc = SourceLocation::current());
// sqrt(a^2 + b^2) without overflow or underflow (scaled by the larger magnitude); inf if either is inf.
Array hypot(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// log(exp(a) + exp(b)), stable for large operands; inf/-inf operands as jnp handles them.
Array logaddexp(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The normalized sinc sin(pi x)/(pi x): 1 at 0, where its derivative is 0 (as jnp's).
Array sinc(const Array& x, SourceLocation loc = SourceLocation::current());

// ---- Comparisons (bool results) and logic ----
Array equal(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array not_equal(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array less(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array less_equal(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array greater(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array greater_equal(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array operator==(const Operand& a, const Operand& b);
Array operator!=(const Operand& a, const Operand& b);
Array operator<(const Operand& a, const Operand& b);
Array operator<=(const Operand& a, const Operand& b);
Array operator>(const Operand& a, const Operand& b);
Array operator>=(const Operand& a, const Operand& b);

// Logical and/or/not of bools; bitwise on integers.
Array logical_and(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array logical_or(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array logical_not(const Array& a, SourceLocation loc = SourceLocation::current());
Array operator&(const Operand& a, const Operand& b);
Array operator|(const Operand& a, const Operand& b);
Array operator~(const Operand& a);
// Exclusive or: logical on bools, bitwise on integers (as NumPy's ^).
Array operator^(const Operand& a, const Operand& b);
// Integer shifts, as jax.lax: zeros shifted in on the left; copies of the sign bit on the right.
// A shift by the bit width or more, or negative, gives 0 (or -1 for a negative x shifted right).
Array shift_left(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
Array shift_right_arithmetic(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
// Zeros shifted in on the left whatever the sign (the bits as unsigned); 0 past the bit width.
Array shift_right_logical(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
// The number of set bits (population_count) or of leading zero bits (clz; the bit width for 0)
// of each element of an integer array, as jax.lax.
Array population_count(const Array& x, SourceLocation loc = SourceLocation::current());
Array clz(const Array& x, SourceLocation loc = SourceLocation::current());

// cond ? x : y elementwise, broadcasting all three.
Array where(const Array& cond, const Array& x, const Array& y,
            SourceLocation loc = SourceLocation::current());
Array astype(const Array& x, DType dtype, SourceLocation loc = SourceLocation::current());
// x's bits read as `dtype` (jax.lax.bitcast_convert_type): of the same width, the same shape
// (f32 ↔ i32); to a narrower dtype a last dimension of the ratio of the widths is added
// (f32[3] → u8[3, 4], in memory order: little-endian) and from one removed (u8[3, 4] → f32[3]).
// bool and complex only to themselves. Not differentiable (bits, not values).
Array bitcast_convert_type(const Array& x, DType dtype, SourceLocation loc = SourceLocation::current());

// ---- Shapes ----
Array broadcast_to(const Array& x, const Shape& shape, SourceLocation loc = SourceLocation::current());
// One dimension of `shape` may be -1: it is inferred from the size.
Array reshape(const Array& x, const Shape& shape, SourceLocation loc = SourceLocation::current());
// Reverses the axes when `axes` is empty.
Array transpose(const Array& x, const std::vector<int>& axes = {},
                SourceLocation loc = SourceLocation::current());
Array expand_dims(const Array& x, int axis, SourceLocation loc = SourceLocation::current());
// Removes the given size-1 axes, or all of them.
Array squeeze(const Array& x, Axes axes = {}, SourceLocation loc = SourceLocation::current());
// x[start:stop:step] per axis; `stop` and `strides` default to the end and to 1. Negative
// starts and stops count from the end, as in NumPy.
Array slice(const Array& x, const std::vector<int64_t>& start, const std::vector<int64_t>& stop,
            const std::vector<int64_t>& strides = {}, SourceLocation loc = SourceLocation::current());
Array concatenate(const std::vector<Array>& xs, int axis = 0,
                  SourceLocation loc = SourceLocation::current());

// ---- Reductions ----
// max/min of complex numbers: lexicographic (real part, then imaginary), from (∓inf, 0) as JAX;
// a nan part gives nan + nan·i.
Array sum(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array mean(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array max(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array min(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array prod(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
// Index (i32) of the first largest element along `axis`, or over the flattened array.
Array argmax(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false,
             SourceLocation loc = SourceLocation::current());

// ---- Linear algebra ----
// NumPy's matmul: 1-d operands are promoted to matrices; leading dimensions broadcast.
Array matmul(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// StableHLO's dot_general: contracting and batch dimensions given explicitly.
struct DotDimensions {
  std::vector<int> lhs_contract, rhs_contract;
  std::vector<int> lhs_batch = {}, rhs_batch = {};
};
Array dot_general(const Array& a, const Array& b, const DotDimensions& dims,
                  SourceLocation loc = SourceLocation::current());

// ---- Neural-network composites (built from the primitives above) ----
// max(x, 0), with derivative 0 at 0 (as jax.nn.relu's custom JVP); nan stays nan.
Array relu(const Array& x, SourceLocation loc = SourceLocation::current());
Array sigmoid(const Array& x, SourceLocation loc = SourceLocation::current());
// GELU as jax.nn.gelu: by default (approximate) the tanh form
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); exact: 0.5 x erfc(-x / sqrt(2)).
Array gelu(const Array& x, bool approximate = true, SourceLocation loc = SourceLocation::current());
Array softmax(const Array& x, Axes axes = -1, SourceLocation loc = SourceLocation::current());
Array logsumexp(const Array& x, Axes axes = {}, bool keepdims = false,
                SourceLocation loc = SourceLocation::current());
// jax.nn.log_softmax: x - max - log(sum(exp(x - max))) over `axes` (the max is a constant for
// differentiation, as JAX's stop_gradient).
Array log_softmax(const Array& x, Axes axes = -1, SourceLocation loc = SourceLocation::current());
// log(1 + exp(x)), stably (logaddexp(x, 0)).
Array softplus(const Array& x, SourceLocation loc = SourceLocation::current());
// x · sigmoid(x); swish is the same function.
Array silu(const Array& x, SourceLocation loc = SourceLocation::current());
Array swish(const Array& x, SourceLocation loc = SourceLocation::current());
// x for x > 0, alpha (exp(x) - 1) otherwise.
Array elu(const Array& x, double alpha = 1.0, SourceLocation loc = SourceLocation::current());
// x for x >= 0, negative_slope · x otherwise.
Array leaky_relu(const Array& x, double negative_slope = 1e-2, SourceLocation loc = SourceLocation::current());
// max(x, 0) + alpha (exp(min(x, 0) / alpha) - 1).
Array celu(const Array& x, double alpha = 1.0, SourceLocation loc = SourceLocation::current());
// Gated linear unit: x's halves a, b along `axis` (even size) give a · sigmoid(b).
Array glu(const Array& x, int axis = -1, SourceLocation loc = SourceLocation::current());
// More of jax.nn's activations (nn_activations.cpp), each as JAX computes it:
// min(max(x, 0), 6) with derivative 0 at 0 and 6 (as jax.nn.relu6's custom JVP); relu6(x + 3) / 6;
// x · hard_sigmoid(x) (hard_swish is the same); -1 below -1, 1 above 1, x between (derivative 1
// at ±1, as JAX's where); -softplus(-x); scale · elu(x, alpha) with SELU's constants;
// x · tanh(softplus(x)); x / (|x| + 1); (x + sqrt(x² + b)) / 2; 0 / (x+1)²/4 / x on
// (-inf, -1] / (-1, 1) / [1, inf); 0.5 · clip(x + 1, 0, 2); log(1 - exp(-x)) for x >= 0 (by
// log(-expm1(-x)) below log 2, log1p(-exp(-x)) above, derivative 1 / expm1(x)).
Array relu6(const Array& x, SourceLocation loc = SourceLocation::current());
Array hard_sigmoid(const Array& x, SourceLocation loc = SourceLocation::current());
Array hard_silu(const Array& x, SourceLocation loc = SourceLocation::current());
Array hard_swish(const Array& x, SourceLocation loc = SourceLocation::current());
Array hard_tanh(const Array& x, SourceLocation loc = SourceLocation::current());
Array log_sigmoid(const Array& x, SourceLocation loc = SourceLocation::current());
Array selu(const Array& x, SourceLocation loc = SourceLocation::current());
Array mish(const Array& x, SourceLocation loc = SourceLocation::current());
Array soft_sign(const Array& x, SourceLocation loc = SourceLocation::current());
Array squareplus(const Array& x, double b = 4.0, SourceLocation loc = SourceLocation::current());
Array sparse_plus(const Array& x, SourceLocation loc = SourceLocation::current());
Array sparse_sigmoid(const Array& x, SourceLocation loc = SourceLocation::current());
Array log1mexp(const Array& x, SourceLocation loc = SourceLocation::current());
// jax.nn.logmeanexp: logsumexp(x) - log(n) over `axes` (all when empty), n the count reduced.
Array logmeanexp(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
// jax.nn.standardize: (x - mean) · rsqrt(variance + epsilon) over `axes` (the last by
// default); mean and variance are computed unless given (they broadcast against x with the
// reduced axes kept). algorithm "fast" (JAX's default): mean(x²) - mean², clipped at 0;
// "stable": mean((x - mean)²).
Array standardize(const Array& x, Axes axes = -1, const std::optional<Array>& mean = std::nullopt,
                  const std::optional<Array>& variance = std::nullopt, double epsilon = 1e-5,
                  const std::string& algorithm = "fast", SourceLocation loc = SourceLocation::current());
// Variance (and its square root) over `axes` (all when empty), dividing by N - ddof, as
// jnp.var / jnp.std (integers promote to a float type).
Array var(const Array& x, Axes axes = {}, int ddof = 0, bool keepdims = false,
          SourceLocation loc = SourceLocation::current());
Array std(const Array& x, Axes axes = {}, int ddof = 0, bool keepdims = false,
          SourceLocation loc = SourceLocation::current());
// Layer normalisation over `axes` (the last by default): (x - mean) / sqrt(var + eps), then
// times scale and plus bias when given (they broadcast against x, e.g. of the normalised
// axes' shape); var is the two-pass mean((x - mean)^2).
Array layer_norm(const Array& x, const std::optional<Array>& scale = std::nullopt,
                 const std::optional<Array>& bias = std::nullopt, Axes axes = -1, double eps = 1e-5,
                 SourceLocation loc = SourceLocation::current());
// RMS normalisation: x / sqrt(mean(x^2) + eps) over `axes`, times scale when given.
Array rms_norm(const Array& x, const std::optional<Array>& scale = std::nullopt, Axes axes = -1,
               double eps = 1e-6, SourceLocation loc = SourceLocation::current());
// Dropout with an explicit key (random::key): each element kept with probability 1 - rate
// and scaled by 1 / (1 - rate), else 0 (bernoulli draws of x's shape, as flax's Dropout);
// x unchanged when deterministic or rate == 0; zeros when rate == 1.
Array dropout(const Array& key, double rate, const Array& x, bool deterministic = false,
              SourceLocation loc = SourceLocation::current());
// Scaled dot-product attention as jax.nn.dot_product_attention (its XLA path): q [B, T, N, H],
// k and v [B, S, K, H] with N a multiple of K (grouped heads); logits q·k / sqrt(H) (or
// `scale`) in at least f32, plus `bias`, masked where `mask` (bool) is false or, when
// is_causal, above the diagonal (query t sees keys s <= t), softmax over S in f32; bias and
// mask broadcast to [B, N, T, S]. The result is [B, T, N, H].
Array dot_product_attention(const Array& q, const Array& k, const Array& v,
                            const std::optional<Array>& bias = std::nullopt,
                            const std::optional<Array>& mask = std::nullopt, bool is_causal = false,
                            std::optional<double> scale = std::nullopt,
                            SourceLocation loc = SourceLocation::current());

}  // namespace strata
