// strata/composites.h — jax.numpy functions built from the other public ops (no primitive of
// their own): outer, tensordot, stack, split, tile, repeat, roll, tril, triu, diag, trace,
// meshgrid, one_hot, pad modes, where/nonzero with one argument, moveaxis and relatives; diff,
// cross, kron, inner, vdot, polyval, convolve, correlate, unravel_index and the triangle indices.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata {

// The outer product of the flattened a and b: [a.size, b.size].
Array outer(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// Contracts the last `axes` dimensions of a with the first `axes` of b (np.tensordot(a, b, n)).
Array tensordot(const Array& a, const Array& b, int axes = 2, SourceLocation loc = SourceLocation::current());
// Contracts a's dimensions `a_axes` with b's `b_axes` pairwise; the result holds a's free
// dimensions, then b's.
Array tensordot(const Array& a, const Array& b, const std::vector<int>& a_axes, const std::vector<int>& b_axes,
                SourceLocation loc = SourceLocation::current());
// Joins arrays of one shape along a new dimension `axis`.
Array stack(const std::vector<Array>& xs, int axis = 0, SourceLocation loc = SourceLocation::current());
// np.split: `sections` equal parts (ValueError unless the axis divides evenly) …
std::vector<Array> split(const Array& x, int64_t sections, int axis = 0, SourceLocation loc = SourceLocation::current());
// … or the parts between the given indices along `axis`.
std::vector<Array> split(const Array& x, const std::vector<int64_t>& indices, int axis = 0,
                         SourceLocation loc = SourceLocation::current());
// np.tile: x repeated reps[i] times along each dimension (reps aligned to the trailing ones).
Array tile(const Array& x, const std::vector<int64_t>& reps, SourceLocation loc = SourceLocation::current());
// np.repeat: each element repeated `repeats` times along `axis`, or of the flattened array.
Array repeat(const Array& x, int64_t repeats, std::optional<int> axis = std::nullopt,
             SourceLocation loc = SourceLocation::current());
// np.roll: elements shifted by `shift` along `axis` (wrapping), or of the flattened array.
Array roll(const Array& x, int64_t shift, std::optional<int> axis = std::nullopt,
           SourceLocation loc = SourceLocation::current());
// The lower (upper) triangle of the last two dimensions: elements with j - i <= k (>= k);
// the rest 0.
Array tril(const Array& x, int64_t k = 0, SourceLocation loc = SourceLocation::current());
Array triu(const Array& x, int64_t k = 0, SourceLocation loc = SourceLocation::current());
// np.diag: the k-th diagonal of a matrix, or the square matrix with v on its k-th diagonal.
Array diag(const Array& x, int64_t k = 0, SourceLocation loc = SourceLocation::current());
// The sum of the k-th diagonal of a matrix.
Array trace(const Array& x, int64_t k = 0, SourceLocation loc = SourceLocation::current());
// np.meshgrid of 1-d arrays: "xy" (Cartesian, the default) or "ij" (matrix) indexing.
std::vector<Array> meshgrid(const std::vector<Array>& xs, const std::string& indexing = "xy",
                            SourceLocation loc = SourceLocation::current());
// jax.nn.one_hot: [..., num_classes] of `dtype`, 1 where the class equals x (none when x is
// out of range).
Array one_hot(const Array& x, int64_t num_classes, DType dtype = f32, SourceLocation loc = SourceLocation::current());
// np.pad with a mode: "constant" (`value`), "edge", "wrap", "reflect" (mirrored about the
// edge element), "symmetric" (mirrored including it); widths (before, after) per dimension.
Array pad(const Array& x, const std::vector<std::pair<int64_t, int64_t>>& widths, const std::string& mode = "constant",
          double value = 0, SourceLocation loc = SourceLocation::current());
// np.nonzero / where(cond) with one argument: the indices (i32) of the non-zero elements, one
// array per dimension. The result's size depends on the values, so x must be concrete: under
// jit, grad or vmap it throws ConcretizationError (as JAX does without size=).
std::vector<Array> nonzero(const Array& x, SourceLocation loc = SourceLocation::current());
// With a static `size` (JAX's size=, fill_value=): the first `size` non-zero positions in
// row-major order, padded with fill_value — traceable, so it works under jit and vmap.
std::vector<Array> nonzero(const Array& x, int64_t size, int64_t fill_value = 0,
                           SourceLocation loc = SourceLocation::current());
// jnp.argwhere: the non-zero positions as rows [count, ndim] (i32); jnp.flatnonzero: of the
// flattened array. Without size, x must be concrete (as nonzero).
Array argwhere(const Array& x, std::optional<int64_t> size = std::nullopt, int64_t fill_value = 0,
               SourceLocation loc = SourceLocation::current());
Array flatnonzero(const Array& x, std::optional<int64_t> size = std::nullopt, int64_t fill_value = 0,
                  SourceLocation loc = SourceLocation::current());
// jnp.flip: x reversed along `axes` (all of them by default).
Array flip(const Array& x, Axes axes = {}, SourceLocation loc = SourceLocation::current());
// jnp.einsum: "ij,jk->ik"; `...` stands for broadcast dimensions; without `->` the output is
// the labels that appear once, in alphabetical order, after the `...` dimensions. Repeated
// labels in one operand take its diagonal. With 3 or more operands the pair contracted next
// is the one with the smallest result (greedy, as opt_einsum's "greedy").
Array einsum(const std::string& subscripts, const std::vector<Array>& operands,
             SourceLocation loc = SourceLocation::current());
std::vector<Array> where(const Array& cond, SourceLocation loc = SourceLocation::current());

// jnp.moveaxis: dimension `source` moved to position `destination`, the others in order.
Array moveaxis(const Array& x, int source, int destination, SourceLocation loc = SourceLocation::current());
// jnp.swapaxes: dimensions a and b exchanged.
Array swapaxes(const Array& x, int a, int b, SourceLocation loc = SourceLocation::current());
// jnp.ravel: the elements in row-major order, 1-d.
Array ravel(const Array& x, SourceLocation loc = SourceLocation::current());
// jnp.rot90: rotated by 90° k times in the plane of `axes` (from the first towards the second).
Array rot90(const Array& x, int k = 1, std::pair<int, int> axes = {0, 1}, SourceLocation loc = SourceLocation::current());

// ---- Differences, products, polynomials, 1-d convolutions (ops_numeric.cpp) ----
// jnp.diff: the n-th discrete difference along `axis`, out[i] = x[i + 1] - x[i] (bools: !=);
// prepend / append are joined to x along the axis first (0-d ones broadcast).
Array diff(const Array& x, int n = 1, int axis = -1, const std::optional<Array>& prepend = std::nullopt,
           const std::optional<Array>& append = std::nullopt, SourceLocation loc = SourceLocation::current());
// jnp.cross: the cross product of 3-vectors (or 2-vectors, taken with a zero z) along the last
// axes of a and b, broadcast over the others; two 2-vectors give the z component alone.
Array cross(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// jnp.kron: the Kronecker product (the lower-rank operand gets leading 1 dimensions).
Array kron(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// jnp.inner: the sum over the last axes of a and b (a product when either is 0-d).
Array inner(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// jnp.vdot: the dot product of the flattened arrays, a conjugated.
Array vdot(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// jnp.polyval: p[0]·x^(n-1) + ... + p[n-1] by Horner's rule (p 1-d, highest power first).
Array polyval(const Array& p, const Array& x, SourceLocation loc = SourceLocation::current());
// jnp.convolve / jnp.correlate of two non-empty 1-d arrays, "full", "same" or "valid" (NumPy's
// modes; convolve's default "full", correlate's "valid"): conv_general_dilated, complex too
// (correlate conjugates v, as NumPy's).
Array convolve(const Array& a, const Array& v, const std::string& mode = "full",
               SourceLocation loc = SourceLocation::current());
Array correlate(const Array& a, const Array& v, const std::string& mode = "valid",
                SourceLocation loc = SourceLocation::current());
// jnp.unravel_index: the multi-index (one i32 array per dimension of `shape`) of each flat
// index; out-of-range indices are clipped, negative ones count from the end (as JAX's).
std::vector<Array> unravel_index(const Array& indices, const Shape& shape, SourceLocation loc = SourceLocation::current());
// jnp.ravel_multi_index with mode "clip" or "wrap": the flat index (i32) of each multi-index.
Array ravel_multi_index(const std::vector<Array>& multi_index, const Shape& dims, const std::string& mode = "clip",
                        SourceLocation loc = SourceLocation::current());
// jnp.triu_indices / tril_indices: the (row, column) indices (i32) of the upper (lower) triangle
// of an n × m matrix (m defaults to n) from diagonal k, in row-major order.
std::pair<Array, Array> triu_indices(int64_t n, int64_t k = 0, std::optional<int64_t> m = std::nullopt);
std::pair<Array, Array> tril_indices(int64_t n, int64_t k = 0, std::optional<int64_t> m = std::nullopt);

// ---- More of jax.numpy's elementwise and small functions (ops_math_composites.cpp) ----
// x·x; 1/x (integers become floats); degrees ↔ radians.
Array square(const Array& x, SourceLocation loc = SourceLocation::current());
Array reciprocal(const Array& x, SourceLocation loc = SourceLocation::current());
Array deg2rad(const Array& x, SourceLocation loc = SourceLocation::current());
Array rad2deg(const Array& x, SourceLocation loc = SourceLocation::current());
// |a| with the sign of b (of -0.0 too); whether the sign bit is set (bool; -0.0 and negative
// NaNs too); the Heaviside step, x2 at 0.
Array copysign(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array signbit(const Array& x, SourceLocation loc = SourceLocation::current());
Array heaviside(const Array& x1, const Array& x2, SourceLocation loc = SourceLocation::current());
// The larger (smaller) of a and b, ignoring a NaN in one of them (NaN only when both are).
Array fmax(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array fmin(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array logical_xor(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// Rounding towards zero (integers as they are); to the nearest integer, halves to even.
Array trunc(const Array& x, SourceLocation loc = SourceLocation::current());
Array rint(const Array& x, SourceLocation loc = SourceLocation::current());
// NaN → nan, +inf → posinf (default the dtype's largest finite value), -inf → neginf (its
// lowest); complex numbers part by part; integers as they are.
Array nan_to_num(const Array& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt, SourceLocation loc = SourceLocation::current());
// x^y computed in f64 (c128 for complex), as jnp.float_power.
Array float_power(const Array& x, const Array& y, SourceLocation loc = SourceLocation::current());
// x · 2^e (e integer; x kept where it is 0 or infinite); frexp: x = mantissa · 2^exponent with
// |mantissa| in [0.5, 1) (exponent i32; 0 and non-finite x give x and 0).
Array ldexp(const Array& x, const Array& e, SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> frexp(const Array& x, SourceLocation loc = SourceLocation::current());
// (fractional part, integral part), both with x's sign; (floor_divide, remainder).
std::pair<Array, Array> modf(const Array& x, SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> divmod(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// Greatest common divisor and least common multiple of integers (non-negative results), by
// Euclid's algorithm in a while_loop.
Array gcd(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
Array lcm(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// log2(2^a + 2^b), without overflow.
Array logaddexp2(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// The number of non-zero elements (i32) over `axes`; max - min over `axes`.
Array count_nonzero(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
Array ptp(const Array& x, Axes axes = {}, bool keepdims = false, SourceLocation loc = SourceLocation::current());
// The weighted mean over `axis` (all when none): Σ x·w / Σ w; weights of x's shape, or 1-d of
// the axis' length; without weights, mean.
Array average(const Array& x, std::optional<int> axis = std::nullopt, const std::optional<Array>& weights = std::nullopt,
              SourceLocation loc = SourceLocation::current());
// jnp.cov: the covariance matrix of the variables (rows of a 2-d x when rowvar, else columns;
// a 1-d x is one variable), normalised by N - 1 (N with bias; N - ddof when ddof is given).
// jnp.corrcoef: the correlation coefficients cov / sqrt(diag ⊗ diag), real ones clipped to [-1, 1].
Array cov(const Array& x, bool rowvar = true, bool bias = false, std::optional<int> ddof = std::nullopt,
          SourceLocation loc = SourceLocation::current());
Array corrcoef(const Array& x, bool rowvar = true, SourceLocation loc = SourceLocation::current());
// jnp.select: for each element, the choice of the first true condition, else `default_value`
// (all broadcast together).
Array select(const std::vector<Array>& conditions, const std::vector<Array>& choices, const Array& default_value,
             SourceLocation loc = SourceLocation::current());
// jnp.unwrap: phases along `axis` with jumps larger than max(discont, period / 2) replaced by
// their complement modulo `period` (2π by default).
Array unwrap(const Array& p, std::optional<double> discont = std::nullopt, int axis = -1, double period = 6.283185307179586,
             SourceLocation loc = SourceLocation::current());
// jnp.cumulative_sum: cumsum along `axis` (required when x is not 1-d), with a leading 0 when
// include_initial.
Array cumulative_sum(const Array& x, std::optional<int> axis = std::nullopt, bool include_initial = false,
                     SourceLocation loc = SourceLocation::current());
// jnp.cumulative_prod: cumprod along `axis` (required when x is not 1-d), with a leading 1 when
// include_initial.
Array cumulative_prod(const Array& x, std::optional<int> axis = std::nullopt, bool include_initial = false,
                      SourceLocation loc = SourceLocation::current());
// At least 1, 2, 3 dimensions (NumPy's placement of the new ones).
Array atleast_1d(const Array& x, SourceLocation loc = SourceLocation::current());
Array atleast_2d(const Array& x, SourceLocation loc = SourceLocation::current());
Array atleast_3d(const Array& x, SourceLocation loc = SourceLocation::current());
// Joining: along axis 1 (axis 0 for 1-d arrays), axis 0 of at-least-2-d arrays, axis 2 of
// at-least-3-d ones; 1-d arrays as columns.
Array hstack(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
Array vstack(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
Array dstack(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
Array column_stack(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
// jnp.append: values joined after x along `axis` (both flattened when none).
Array append(const Array& x, const Array& values, std::optional<int> axis = std::nullopt,
             SourceLocation loc = SourceLocation::current());
// jnp.diagonal: the offset diagonal of the (axis1, axis2) planes, as the last axis.
Array diagonal(const Array& x, int64_t offset = 0, int axis1 = 0, int axis2 = 1,
               SourceLocation loc = SourceLocation::current());
// The transpose of each matrix (the last two axes swapped); Σ conj(a)·b along `axis`.
Array matrix_transpose(const Array& x, SourceLocation loc = SourceLocation::current());
Array vecdot(const Array& a, const Array& b, int axis = -1, SourceLocation loc = SourceLocation::current());
// jnp.vander: columns x^(n-1), ..., x, 1 of a 1-d x (n defaults to its length; increasing
// reverses them).
Array vander(const Array& x, std::optional<int64_t> n = std::nullopt, bool increasing = false,
             SourceLocation loc = SourceLocation::current());
// Polynomials as coefficient arrays, highest power first (as polyval): the m-th derivative,
// the m-th antiderivative (each integration's constant k), and the least-squares fit of degree
// deg to (x, y) (through linalg::lstsq on the Vandermonde matrix).
Array polyder(const Array& p, int m = 1, SourceLocation loc = SourceLocation::current());
Array polyint(const Array& p, int m = 1, double k = 0.0, SourceLocation loc = SourceLocation::current());
Array polyfit(const Array& x, const Array& y, int deg, SourceLocation loc = SourceLocation::current());
// Polynomial arithmetic (ops_polynomials.cpp), as jax.numpy: the sum and difference (aligned at
// the lowest power, along axis 0), the product (a full convolution of 1-d coefficient arrays;
// floats), the quotient and remainder of long division (the remainder keeps u's length, as
// JAX's), the coefficients of the monic polynomial with the given roots (or a square matrix's
// eigenvalues), and the roots (the companion matrix's eigenvalues, complex, in no set order).
// roots strips leading zero coefficients, so its input must be concrete; with strip_zeros
// false it traces, and the roots the leading zeros stand for are NaN.
Array polyadd(const Array& a1, const Array& a2, SourceLocation loc = SourceLocation::current());
Array polysub(const Array& a1, const Array& a2, SourceLocation loc = SourceLocation::current());
Array polymul(const Array& a1, const Array& a2, SourceLocation loc = SourceLocation::current());
std::pair<Array, Array> polydiv(const Array& u, const Array& v, SourceLocation loc = SourceLocation::current());
Array poly(const Array& roots, SourceLocation loc = SourceLocation::current());
Array roots(const Array& p, bool strip_zeros = true, SourceLocation loc = SourceLocation::current());
// True (0-d bool) when a and b have one shape and equal elements (NaNs equal with equal_nan).
Array array_equal(const Array& a, const Array& b, bool equal_nan = false, SourceLocation loc = SourceLocation::current());
// The arrays broadcast to their common shape.
std::vector<Array> broadcast_arrays(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());

// ---- Calculus on samples (ops_calculus.cpp) ----
// jnp.trapezoid: the integral of y along `axis` by the trapezoidal rule, at sample points x
// (1-d of the axis' length, or of y's shape) or spaced dx apart.
Array trapezoid(const Array& y, const std::optional<Array>& x = std::nullopt, double dx = 1.0, int axis = -1,
                SourceLocation loc = SourceLocation::current());
// jnp.gradient: the derivative of sampled f along each of `axes` (all by default), by central
// differences inside and one-sided ones at the edges (each axis needs 2 samples or more).
// `spacing`: none (1), one for every axis, or one per axis — a 0-d step or the 1-d coordinates
// of the samples (non-uniform spacing: second-order differences as NumPy's).
std::vector<Array> gradient(const Array& f, const std::vector<Array>& spacing = {}, Axes axes = {},
                            SourceLocation loc = SourceLocation::current());
// jnp.ediff1d: the differences of the flattened x, with to_begin / to_end joined at the ends.
Array ediff1d(const Array& x, const std::optional<Array>& to_end = std::nullopt,
              const std::optional<Array>& to_begin = std::nullopt, SourceLocation loc = SourceLocation::current());

// ---- Splitting, arranging, selecting, bits (ops_arrangement.cpp), as jax.numpy ----
// np.array_split: `sections` parts along `axis`, the first size % sections one longer; hsplit
// (axis 1, or 0 for 1-d), vsplit (axis 0), dsplit (axis 2) into equal parts; unstack: the
// slices along `axis`; permute_dims: transpose.
std::vector<Array> array_split(const Array& x, int64_t sections, int axis = 0, SourceLocation loc = SourceLocation::current());
std::vector<Array> hsplit(const Array& x, int64_t sections, SourceLocation loc = SourceLocation::current());
std::vector<Array> vsplit(const Array& x, int64_t sections, SourceLocation loc = SourceLocation::current());
std::vector<Array> dsplit(const Array& x, int64_t sections, SourceLocation loc = SourceLocation::current());
std::vector<Array> unstack(const Array& x, int axis = 0, SourceLocation loc = SourceLocation::current());
Array permute_dims(const Array& x, const std::vector<int>& axes, SourceLocation loc = SourceLocation::current());
// The square matrix with the flattened v on diagonal k; the diagonal's indices (ndim copies of
// 0..n-1, i32) of an n^ndim array, or of a given square one; a with its main diagonal set to
// val (a scalar, or values repeated to the diagonal's length; beyond 2-d all sizes equal).
Array diagflat(const Array& v, int64_t k = 0, SourceLocation loc = SourceLocation::current());
std::vector<Array> diag_indices(int64_t n, int ndim = 2);
std::vector<Array> diag_indices_from(const Array& x);
Array fill_diagonal(const Array& a, const Array& val, SourceLocation loc = SourceLocation::current());
// A 1-d x without its leading ("f"), trailing ("b") or both ("fb") zeros; x must be concrete.
Array trim_zeros(const Array& x, const std::string& trim = "fb", SourceLocation loc = SourceLocation::current());
// Matrix-vector and vector-matrix products over stacks (jnp.matvec, jnp.vecmat: v conjugated).
Array matvec(const Array& a, const Array& v, SourceLocation loc = SourceLocation::current());
Array vecmat(const Array& v, const Array& a, SourceLocation loc = SourceLocation::current());
// jnp.choose: choices[a[i]][i] with everything broadcast together; mode "raise" (a concrete a,
// ValueError when out of range), "wrap" or "clip".
Array choose(const Array& a, const std::vector<Array>& choices, const std::string& mode = "raise",
             SourceLocation loc = SourceLocation::current());
// jnp.compress: the slices along `axis` (of the flattened a without one) where the 1-d
// condition holds; jnp.extract: the elements of a where condition holds. Without `size` the
// condition must be concrete; with it, the first `size` selected, then fill_value.
Array compress(const Array& condition, const Array& a, std::optional<int> axis = std::nullopt,
               std::optional<int64_t> size = std::nullopt, const Array& fill_value = Array(0),
               SourceLocation loc = SourceLocation::current());
Array extract(const Array& condition, const Array& a, std::optional<int64_t> size = std::nullopt,
              const Array& fill_value = Array(0), SourceLocation loc = SourceLocation::current());
// jnp.put_along_axis(inplace=False): x with values written at `indices` along `axis` (of x's
// rank; flattened x without an axis); values broadcast to the indices; negative indices count
// from the end, indices out of range are dropped.
Array put_along_axis(const Array& x, const Array& indices, const Array& values, std::optional<int> axis,
                     SourceLocation loc = SourceLocation::current());
// Bits of non-zero elements packed 8 to a u8 along `axis` (flattened without one), "big" or
// "little" bit order, zero-padded; unpackbits: u8 values to their bits (count: cut or pad).
Array packbits(const Array& x, std::optional<int> axis = std::nullopt, const std::string& bitorder = "big",
               SourceLocation loc = SourceLocation::current());
Array unpackbits(const Array& x, std::optional<int> axis = std::nullopt, std::optional<int64_t> count = std::nullopt,
                 const std::string& bitorder = "big", SourceLocation loc = SourceLocation::current());
// The distance from x to the next representable float away from zero (jnp.spacing).
Array spacing(const Array& x, SourceLocation loc = SourceLocation::current());

// jnp.delete with static positions (named delete_: `delete` is a C++ keyword): x without the
// slices at `indices` along `axis` (flattened x without one; negative positions count from the
// end; repeats delete once; out of range is a ValueError).
Array delete_(const Array& x, const std::vector<int64_t>& indices, std::optional<int> axis = std::nullopt,
              SourceLocation loc = SourceLocation::current());
// jnp.insert with static positions: `values` inserted before position `index` (or before each
// of `indices`, in order for equal ones) along `axis` (flattened x without one), converted to
// x's dtype. With one index, values' leading axis becomes the inserted run (NumPy's scalar-obj
// rule); with several, values broadcast against [indices.size()] along the axis.
Array insert(const Array& x, int64_t index, const Array& values, std::optional<int> axis = std::nullopt,
             SourceLocation loc = SourceLocation::current());
Array insert(const Array& x, const std::vector<int64_t>& indices, const Array& values, std::optional<int> axis = std::nullopt,
             SourceLocation loc = SourceLocation::current());
// jnp.indices: the grid of each dimension's index, [len(dimensions), *dimensions]; jnp.ix_:
// 1-d arrays reshaped to broadcast against each other as an open mesh.
Array indices(const Shape& dimensions, DType dtype = i32);
std::vector<Array> ix_(const std::vector<Array>& xs, SourceLocation loc = SourceLocation::current());
// jnp.block with two levels: a matrix assembled from blocks, each row of blocks joined along the
// last axis, the rows along the second to last (blocks of lower rank get leading 1s). (JAX's
// one-level block([a, b]) is concatenate along the last axis.)
Array block(const std::vector<std::vector<Array>>& rows, SourceLocation loc = SourceLocation::current());

}  // namespace strata
