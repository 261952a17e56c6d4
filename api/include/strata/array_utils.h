// strata/array_utils.h — jax.numpy's small array utilities: dtype queries (result_type,
// can_cast, isrealobj, isdtype, issubdtype, isscalar), broadcast_shapes, fliplr/flipud/rollaxis, array_equiv, bitwise_count,
// isreal/iscomplex, put, tril/triu_indices_from, and the ones that take a function
// (piecewise, fromfunction, apply_over_axes, mask_indices); scipy.cluster.vq.vq.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/errors.h"
#include "strata/indexing.h"
#include "strata/ops.h"
#include "strata/vectorize.h"

namespace strata {

// jnp.result_type: the dtype the arrays promote to (JAX's lattice, weak C++ scalars included).
DType result_type(const std::vector<Array>& xs);
// jnp.can_cast (NumPy's rules): "no"/"equiv" (the same dtype), "safe" (every value exactly:
// i16 → f32 yes, i32 → f32 no), "same_kind" (safe, or within a kind: f64 → f32, i64 → i8, u8
// → i8, but not i8 → u8 nor f32 → i32), "unsafe" (always).
bool can_cast(DType from, DType to, const std::string& casting = "safe");
// jnp.isrealobj / iscomplexobj: by the dtype alone.
inline bool iscomplexobj(const Array& x) { return is_complex(x.dtype()); }
inline bool isrealobj(const Array& x) { return !is_complex(x.dtype()); }
// jnp.isdtype: whether `t` is of `kind`: "bool", "signed integer", "unsigned integer",
// "integral", "real floating" (the byte floats, bf16, f16, f32, f64), "complex floating" or
// "numeric" (every dtype but bool); ValueError for another kind. With a dtype: equality; with
// a list: any of them.
bool isdtype(DType t, std::string_view kind);
inline bool isdtype(DType t, DType other) { return t == other; }
bool isdtype(DType t, std::initializer_list<std::string_view> kinds);
// NumPy's abstract dtype categories, for jnp.issubdtype.
enum class DTypeCategory { generic, number, integer, signedinteger, unsignedinteger, inexact, floating, complexfloating };
// jnp.issubdtype: whether `t` lies in the category (bool only in generic), or is `other`.
bool issubdtype(DType t, DTypeCategory category);
inline bool issubdtype(DType t, DType other) { return t == other; }
// jnp.isscalar, for arrays: whether x is 0-d.
inline bool isscalar(const Array& x) { return x.ndim() == 0; }
// jnp.isreal / iscomplex: elementwise, whether the imaginary part is (not) zero (all true /
// false for real dtypes).
Array isreal(const Array& x, SourceLocation loc = SourceLocation::current());
Array iscomplex(const Array& x, SourceLocation loc = SourceLocation::current());

// jnp.broadcast_shapes: NumPy's broadcast of the shapes (ShapeError naming them if they do not).
Shape broadcast_shapes(const std::vector<Shape>& shapes);

// jnp.fliplr / flipud: reversed along axis 1 / axis 0.
Array fliplr(const Array& x, SourceLocation loc = SourceLocation::current());
Array flipud(const Array& x, SourceLocation loc = SourceLocation::current());
// jnp.rollaxis: `axis` moved to just before position `start` (NumPy's older moveaxis).
Array rollaxis(const Array& x, int axis, int start = 0, SourceLocation loc = SourceLocation::current());
// jnp.array_equiv: a 0-d bool, true when the shapes broadcast and every element pair is equal
// (false when they do not broadcast).
Array array_equiv(const Array& a, const Array& b, SourceLocation loc = SourceLocation::current());
// jnp.bitwise_count: the set bits of |x| (integers and bools), u8.
Array bitwise_count(const Array& x, SourceLocation loc = SourceLocation::current());
// jnp.put (inplace=False): x with the elements at the flat positions `ind` set to `v` (raveled,
// tiled to ind's size); mode "" (JAX's None: a
// negative position counts from the end once, then all are clipped, as jnp.unravel_index
// clips), "clip" or "wrap".
Array put(const Array& x, const Array& ind, const Array& v, const std::string& mode = "",
          SourceLocation loc = SourceLocation::current());
// jax.scipy.cluster.vq.vq: for each observation [n, d] (or [n]) the index (i32) of the nearest
// code [k, d] (or [k]) in the Euclidean norm, and that distance.
std::pair<Array, Array> vq(const Array& obs, const Array& code_book, SourceLocation loc = SourceLocation::current());
// jnp.tril_indices_from / triu_indices_from: the triangle indices of x's last two dimensions.
std::pair<Array, Array> tril_indices_from(const Array& x, int64_t k = 0);
std::pair<Array, Array> triu_indices_from(const Array& x, int64_t k = 0);

// jnp.fromfunction: f applied to the index grids of `shape` (each of dtype `dtype`): f takes
// one Array per dimension, or the grids as one std::vector<Array>.
template <class F>
auto fromfunction(F f, const Shape& shape, DType dtype = f32) {
  Array grids = indices(shape, dtype);
  std::vector<Array> g;
  for (size_t i = 0; i < shape.size(); ++i) g.push_back(grids[Index(static_cast<int64_t>(i))]);
  if constexpr (std::is_invocable_v<F&, const std::vector<Array>&>) {
    return f(g);
  } else if constexpr (std::is_invocable_v<F&, const Array&>) {
    if (g.size() != 1) throw ValueError("fromfunction: f takes 1 index array, but the shape has " + std::to_string(g.size()) + " dimensions");
    return f(g[0]);
  } else if constexpr (std::is_invocable_v<F&, const Array&, const Array&>) {
    if (g.size() != 2) throw ValueError("fromfunction: f takes 2 index arrays, but the shape has " + std::to_string(g.size()) + " dimensions");
    return f(g[0], g[1]);
  } else {
    static_assert(std::is_invocable_v<F&, const Array&, const Array&, const Array&>,
                  "fromfunction: f must take one Array per dimension (up to 3) or a std::vector<Array>");
    if (g.size() != 3) throw ValueError("fromfunction: f takes 3 index arrays, but the shape has " + std::to_string(g.size()) + " dimensions");
    return f(g[0], g[1], g[2]);
  }
}

// jnp.apply_over_axes: a = f(a, axis) for each axis in turn; a result one rank lower gets the
// axis back (size 1), so the rank never changes.
template <class F>
Array apply_over_axes(F f, const Array& a, const std::vector<int>& axes) {
  Array r = a;
  for (int axis : axes) {
    const int rank = r.ndim();
    Array b = f(r, axis);
    if (b.ndim() == rank) {
      r = b;
    } else if (b.ndim() == rank - 1) {
      r = expand_dims(b, axis < 0 ? axis + rank : axis);
    } else {
      throw ValueError("apply_over_axes: f must keep the rank or lower it by one, but it took rank " +
                       std::to_string(rank) + " to " + std::to_string(b.ndim()));
    }
  }
  return r;
}

namespace detail {
// One piece of piecewise over x: a constant, or f applied to each element (JAX vectorizes
// lax.switch, so each function sees one 0-d element), in x's dtype.
template <class F>
Array piece_values(const F& f, const Array& x) {
  if constexpr (std::is_arithmetic_v<F>) {
    return full_like(x, static_cast<double>(f));
  } else {
    return vectorize([&f, &x](const Array& e) { return astype(Array(f(e)), x.dtype()); })(x);
  }
}
}  // namespace detail

// jnp.piecewise: funcs[i] (a function of one element, or a constant) where condlist[i] holds,
// the last true condition winning (NumPy's order); one more function than conditions is the
// default where none holds (else 0). In x's dtype.
//   st::piecewise(x, {x < 0, x >= 0}, 0.0, [](const st::Array& v) { return v * v; });
template <class... Fs>
Array piecewise(const Array& x, const std::vector<Array>& condlist, const Fs&... funcs) {
  const size_t nc = condlist.size(), nf = sizeof...(Fs);
  if (nf != nc && nf != nc + 1)
    throw ValueError("piecewise: expects one function per condition (" + std::to_string(nc) +
                     "), plus an optional default, but got " + std::to_string(nf));
  std::vector<Array> values{detail::piece_values(funcs, x)...};
  Array r = nf == nc + 1 ? values.back() : zeros_like(x);
  for (size_t i = 0; i < nc; ++i) r = where(broadcast_to(astype(condlist[i], bool_), x.shape()), values[i], r);
  return r;
}

// jnp.mask_indices: the (row, column) indices (i32) where mask_func(ones((n, n)), k) is nonzero,
// e.g. mask_indices(n, [](const Array& m, int64_t k) { return triu(m, k); }). Concrete (as
// nonzero without a size).
template <class F>
std::pair<Array, Array> mask_indices(int64_t n, F mask_func, int64_t k = 0) {
  std::vector<Array> nz = nonzero(Array(mask_func(ones({n, n}, i32), k)));
  return {nz.at(0), nz.at(1)};
}

}  // namespace strata
