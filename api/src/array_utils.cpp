// strata/array_utils.h: jax.numpy's small array utilities.
#include "strata/array_utils.h"

#include <algorithm>

#include "op_helpers.h"
#include "strata/indexing.h"
#include "strata/selection.h"

namespace strata {
namespace {

// NumPy's kinds, in the order a safe cast may climb them.
enum class Kind { kBool, kUnsigned, kSigned, kFloat, kComplex };
Kind kind_of(DType t) {
  if (is_bool(t)) return Kind::kBool;
  if (is_unsigned_integer(t)) return Kind::kUnsigned;
  if (is_integer(t)) return Kind::kSigned;
  if (is_complex(t)) return Kind::kComplex;
  return Kind::kFloat;
}

// Mantissa bits (with the implicit one) of a float type, or of a complex type's parts.
int mantissa_bits(DType t) { return finfo(t).nmant + 1; }

// Every value of float (or complex) `from` in `to`: as many mantissa bits, the range, the
// subnormal grid, and the specials. By the values rather than the field widths, which the
// byte floats' biases and specials make disagree (e4m3fnuz reaches 2^-10, e4m3fn 2^-9; e4m3fn
// reaches 448, e4m3 240; e8m0fnu has no sign).
bool float_values_fit(DType from, DType to) {
  FInfo f = finfo(from), t = finfo(to);
  return t.nmant >= f.nmant && t.max >= f.max && t.min <= f.min && t.smallest_subnormal <= f.smallest_subnormal &&
         (!supports_inf(real_dtype(from)) || supports_inf(real_dtype(to))) &&
         (!supports_nan(real_dtype(from)) || supports_nan(real_dtype(to)));
}

// NumPy's safe casts: every value of `from` exactly representable in `to`.
bool safe(DType from, DType to) {
  if (from == to) return true;
  const Kind kf = kind_of(from), kt = kind_of(to);
  const int bits = bit_width(from);
  switch (kf) {
    case Kind::kBool: return true;
    case Kind::kUnsigned:
      if (kt == Kind::kUnsigned) return bit_width(to) >= bits;
      if (kt == Kind::kSigned) return bit_width(to) > bits;
      if (kt == Kind::kFloat || kt == Kind::kComplex) return from == DType::u64 ? real_dtype(to) == DType::f64 : mantissa_bits(to) > bits;
      return false;
    case Kind::kSigned:
      if (kt == Kind::kSigned) return bit_width(to) >= bits;
      if (kt == Kind::kFloat || kt == Kind::kComplex) return from == DType::i64 ? real_dtype(to) == DType::f64 : mantissa_bits(to) >= bits;
      return false;
    case Kind::kFloat:
    case Kind::kComplex:
      if (kt != Kind::kFloat && kt != Kind::kComplex) return false;
      if (kf == Kind::kComplex && kt == Kind::kFloat) return false;
      return float_values_fit(from, to);
  }
  return false;
}

}  // namespace

bool isdtype(DType t, std::string_view kind) {
  if (kind == "bool") return is_bool(t);
  if (kind == "signed integer") return is_signed_integer(t);
  if (kind == "unsigned integer") return is_unsigned_integer(t);
  if (kind == "integral") return is_integer(t);
  if (kind == "real floating") return is_floating(t);
  if (kind == "complex floating") return is_complex(t);
  if (kind == "numeric") return !is_bool(t);
  throw ValueError("isdtype: expects a kind \"bool\", \"signed integer\", \"unsigned integer\", \"integral\", "
                   "\"real floating\", \"complex floating\" or \"numeric\", or a dtype, but got \"" + std::string(kind) + "\"");
}

bool isdtype(DType t, std::initializer_list<std::string_view> kinds) {
  bool any = false;
  for (std::string_view k : kinds) any = isdtype(t, k) || any;  // every kind checked, so a bad one is refused
  return any;
}

bool issubdtype(DType t, DTypeCategory category) {
  switch (category) {
    case DTypeCategory::generic: return true;
    case DTypeCategory::number: return !is_bool(t);
    case DTypeCategory::integer: return is_integer(t);
    case DTypeCategory::signedinteger: return is_signed_integer(t);
    case DTypeCategory::unsignedinteger: return is_unsigned_integer(t);
    case DTypeCategory::inexact: return is_inexact(t);
    case DTypeCategory::floating: return is_floating(t);
    case DTypeCategory::complexfloating: return is_complex(t);
  }
  return false;
}

DType result_type(const std::vector<Array>& xs) {
  if (xs.empty()) throw ValueError("result_type: expects at least one array");
  TypeSpec t = api::spec(xs[0], "result_type");
  for (size_t i = 1; i < xs.size(); ++i) t = promote_types(t, api::spec(xs[i], "result_type"));
  return t.dtype;
}

bool can_cast(DType from, DType to, const std::string& casting) {
  if (casting == "no" || casting == "equiv") return from == to;
  if (casting == "safe") return safe(from, to);
  if (casting == "same_kind") {
    if (safe(from, to)) return true;
    const Kind kf = kind_of(from), kt = kind_of(to);
    if (kf == kt) return true;
    return kf == Kind::kUnsigned && kt == Kind::kSigned;  // u8 → i8: NumPy's same kind
  }
  if (casting == "unsafe") return true;
  throw ValueError("can_cast: expects casting \"no\", \"equiv\", \"safe\", \"same_kind\" or \"unsafe\", but got \"" +
                   casting + "\"");
}

Array isreal(const Array& x, SourceLocation loc) {
  if (!is_complex(api::aval(x, "isreal").dtype)) return full_like(x, 1.0, DType::bool_);
  return equal(imag(x, loc), zeros_like(imag(x, loc)), loc);
}
Array iscomplex(const Array& x, SourceLocation loc) { return logical_not(isreal(x, loc), loc); }

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& s : shapes) {
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[out.size() - s.size() + i];
      if (s[i] != o && s[i] != 1 && o != 1) {
        std::string all;
        for (const Shape& t : shapes) all += (all.empty() ? "" : ", ") + shape_string(t);
        throw ShapeError("broadcast_shapes: shapes " + all + " cannot be broadcast");
      }
      if (o == 1) o = s[i];
    }
  }
  return out;
}

Array fliplr(const Array& x, SourceLocation loc) {
  if (api::aval(x, "fliplr").ndim() < 2)
    throw ValueError("fliplr: expects an array of rank >= 2, but got " + api::aval(x, "fliplr").str());
  return flip(x, 1, loc);
}
Array flipud(const Array& x, SourceLocation loc) {
  if (api::aval(x, "flipud").ndim() < 1)
    throw ValueError("flipud: expects an array of rank >= 1, but got " + api::aval(x, "flipud").str());
  return flip(x, 0, loc);
}

Array rollaxis(const Array& x, int axis, int start, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "rollaxis");
  const int n = av.ndim();
  const int a = api::normalize_axis("rollaxis", axis, av);
  int s = start < 0 ? start + n : start;
  if (s < 0 || s > n)
    throw ValueError("rollaxis: start " + std::to_string(start) + " is out of range for " + av.str());
  if (a < s) --s;  // NumPy: moving forward, the axis lands just before `start`
  return moveaxis(x, a, s, loc);
}

Array array_equiv(const Array& a, const Array& b, SourceLocation loc) {
  Shape sa = a.shape(), sb = b.shape();
  const size_t r = std::max(sa.size(), sb.size());
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < sa.size() ? sa[sa.size() - 1 - i] : 1, db = i < sb.size() ? sb[sb.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) return full({}, 0.0, DType::bool_);
  }
  return all(equal(a, b, loc), {}, false, loc);
}

Array bitwise_count(const Array& x, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "bitwise_count");
  if (!is_integer(av.dtype) && !is_bool(av.dtype))
    throw DTypeError("bitwise_count: expects integers or bools, but got " + av.str());
  Array v = is_bool(av.dtype) ? astype(x, DType::u8, loc) : x;
  if (is_signed_integer(av.dtype)) v = abs(v, loc);
  return astype(population_count(v, loc), DType::u8, loc);
}

Array put(const Array& x, const Array& ind, const Array& v, const std::string& mode, SourceLocation loc) {
  if (!mode.empty() && mode != "clip" && mode != "wrap")
    throw ValueError("put: expects mode \"\" (JAX's None), \"clip\" or \"wrap\", but got \"" + mode + "\"");
  const AbstractValue& av = api::aval(x, "put");
  if (!is_integer(api::aval(ind, "put").dtype))
    throw DTypeError("put: expects integer positions, but got " + api::aval(ind, "put").str());
  Array i = ravel(ind, loc), vals = ravel(v, loc);
  const int64_t size = av.size(), n = i.shape()[0], nv = vals.shape()[0];
  if (size == 0 || n == 0 || nv == 0) return x;
  if (nv < n) vals = tile(vals, {(n + nv - 1) / nv}, loc);
  vals = index(vals, {Slice(0, n)}, loc);
  Array last = astype(Array(size - 1), i.dtype(), loc);
  Array n_all = astype(Array(size), i.dtype(), loc);
  // JAX's None: a negative position counts from the end once, then every one is clipped (as
  // jnp.unravel_index clips), so nothing is dropped.
  if (mode.empty()) i = where(i < 0, i + n_all, i, loc);
  if (mode.empty() || mode == "clip") i = clip(i, zeros_like(last), last, loc);
  if (mode == "wrap") i = remainder(i, n_all, loc);
  Array flat = ravel(x, loc).at(i).set(astype(vals, av.dtype, loc), loc);
  return reshape(flat, av.shape, loc);
}

std::pair<Array, Array> vq(const Array& obs_in, const Array& code_book_in, SourceLocation loc) {
  auto [obs, cb] = api::promote_inexact_dtypes("vq", obs_in, code_book_in, loc);
  const AbstractValue& ov = api::aval(obs, "vq");
  const AbstractValue& cv = api::aval(cb, "vq");
  if (ov.ndim() != cv.ndim())
    throw ValueError("vq: expects observations and code book of one rank, but got " + ov.str() + " and " + cv.str());
  if (ov.ndim() == 1) {
    obs = expand_dims(obs, -1, loc);
    cb = expand_dims(cb, -1, loc);
  } else if (ov.ndim() != 2) {
    throw ValueError("vq: expects 1-d or 2-d observations, but got " + ov.str());
  }
  if (obs.shape()[1] != cb.shape()[1])
    throw ShapeError("vq: expects codes of the observations' dimension, but got " + ov.str() + " and " + cv.str());
  Array diff = expand_dims(obs, 1, loc) - expand_dims(cb, 0, loc);  // [n, k, d]
  Array dist = sqrt(sum(real(diff * conj(diff)), {-1}, false, loc), loc);
  Array code = argmin(dist, -1, false, loc);
  return {code, squeeze(take_along_axis(dist, expand_dims(code, -1, loc), 1, loc), {-1}, loc)};
}

std::pair<Array, Array> tril_indices_from(const Array& x, int64_t k) {
  const AbstractValue& av = api::aval(x, "tril_indices_from");
  if (av.ndim() < 2) throw ValueError("tril_indices_from: expects an array of rank >= 2, but got " + av.str());
  return tril_indices(av.shape[av.shape.size() - 2], k, av.shape.back());
}
std::pair<Array, Array> triu_indices_from(const Array& x, int64_t k) {
  const AbstractValue& av = api::aval(x, "triu_indices_from");
  if (av.ndim() < 2) throw ValueError("triu_indices_from: expects an array of rank >= 2, but got " + av.str());
  return triu_indices(av.shape[av.shape.size() - 2], k, av.shape.back());
}

}  // namespace strata
