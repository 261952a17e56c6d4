// strata/composites.h — jax.numpy functions built from the other public ops (no primitive of
// their own): outer, tensordot, stack, split, tile, repeat, roll, tril, triu, diag, trace,
// meshgrid, one_hot, pad modes, and where/nonzero with one argument.
#pragma once

#include <string>
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
// jnp.flip: x reversed along `axes` (all of them by default).
Array flip(const Array& x, Axes axes = {}, SourceLocation loc = SourceLocation::current());
// jnp.einsum: "ij,jk->ik"; `...` stands for broadcast dimensions; without `->` the output is
// the labels that appear once, in alphabetical order, after the `...` dimensions. Repeated
// labels in one operand take its diagonal. With 3 or more operands the pair contracted next
// is the one with the smallest result (greedy, as opt_einsum's "greedy").
Array einsum(const std::string& subscripts, const std::vector<Array>& operands,
             SourceLocation loc = SourceLocation::current());
std::vector<Array> where(const Array& cond, SourceLocation loc = SourceLocation::current());

}  // namespace strata
