// Indexing: dynamic_slice, dynamic_update_slice, take, take_along_axis (strata/indexing.h).
#include "strata/indexing.h"

#include <algorithm>

#include "op_helpers.h"
#include "strata/creation.h"

namespace strata {
namespace {

// Each start as the 0-d i32 the primitives take, a negative one counted from the end of its
// dimension (JAX's _dynamic_slice_indices); the primitive then clamps.
std::vector<Array> normalized_starts(std::string_view op, const AbstractValue& x, const std::vector<Array>& starts,
                                     const SourceLocation& loc) {
  if (starts.size() != x.shape.size())
    throw ValueError(std::string(op) + ": expects " + std::to_string(x.shape.size()) + " start indices for " + x.str() +
                     " (one a dimension), but got " + std::to_string(starts.size()));
  std::vector<Array> r;
  for (size_t d = 0; d < starts.size(); ++d) {
    const AbstractValue& s = api::aval(starts[d], op);
    if (!s.shape.empty() || !is_integer(s.dtype))
      throw DTypeError(std::string(op) + ": expects integer scalar start indices, but got " + s.str() +
                       " for dimension " + std::to_string(d));
    Array i = api::convert(starts[d], {DType::i32, false}, loc);
    int64_t dim = x.shape[d];
    if (!i.is_tracer()) {  // a concrete start folds now: no equations for constants
      int64_t v = i.item<int32_t>();
      r.push_back(lax::scalar(static_cast<double>(v < 0 ? v + dim : v), DType::i32));
      continue;
    }
    Array wrapped = lax::add(i, lax::scalar(static_cast<double>(dim), DType::i32), loc);
    r.push_back(lax::select(lax::lt(i, lax::scalar(0, DType::i32), loc), wrapped, i, loc));
  }
  return r;
}

// Integer indices with negative ones counted from the end of a dimension of `size`.
Array wrapped_indices(std::string_view op, const Array& indices, int64_t size, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(indices, op);
  if (!is_integer(av.dtype)) throw DTypeError(std::string(op) + ": expects integer indices, but got " + av.str());
  Array i = api::convert(indices, {av.dtype, false}, loc);
  AbstractValue strong{av.shape, av.dtype, false};
  Array zero = lax::zeros(strong, loc), n = lax::full(strong, static_cast<double>(size), loc);
  return lax::select(lax::lt(i, zero, loc), lax::add(i, n, loc), i, loc);
}

namespace gather_mode {
constexpr int64_t kClip = 0, kFill = 1;  // as the gather primitive's `mode`
}

// take with gather's mode: clip (reading) or fill (a zero for an index outside the axis).
Array take_mode(const Array& x, const Array& indices, int axis, int64_t mode, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, "take");
  int64_t a = api::normalize_axis("take", axis, av);
  Array idx = wrapped_indices("take", indices, av.shape[static_cast<size_t>(a)], loc);
  int64_t q = idx.ndim(), rank = av.ndim();
  IntList offset, sizes(av.shape.begin(), av.shape.end());
  sizes[static_cast<size_t>(a)] = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (d != a) offset.push_back(d < a ? d : d + q - 1);
  return lax::gather(x, idx, shape_rules::GatherDims{offset, {a}, {a}, q}, sizes, mode, loc);
}

// y[..., i1, ..., i2, ...] for several integer arrays (at y's axes `pos`, ascending), as NumPy:
// the arrays broadcast together to B, one gather of the elements they name (each wrapped by its
// axis' size), B in place of the indexed axes when they are adjacent, else first.
Array gather_arrays(const Array& y, const std::vector<std::pair<size_t, const Array*>>& entries,
                    const std::vector<size_t>& pos, bool separated, int64_t mode, const SourceLocation& loc) {
  Shape b;
  DType it = DType::i32;
  for (const auto& [axis, a] : entries) {
    const AbstractValue& av = api::aval(*a, "index");
    shape_rules::Result r = shape_rules::broadcast_shapes(b, av.shape);
    if (!r.ok()) throw ShapeError("index: the integer-array indices of shapes " + shape_string(b) + " and " + av.str() + " cannot be broadcast");
    b = r.shape;
    if (is_integer(av.dtype) && itemsize(av.dtype) == 8) it = DType::i64;
  }
  const int64_t nb = static_cast<int64_t>(b.size());
  std::vector<Array> columns;
  for (size_t e = 0; e < entries.size(); ++e) {
    Array w = wrapped_indices("index", *entries[e].second, y.shape(static_cast<int>(pos[e])), loc);
    w = api::broadcast_to_shape(api::convert(w, {it, false}, loc), b, loc);
    Shape column = b;
    column.push_back(1);
    columns.push_back(lax::reshape(w, column, loc));
  }
  Array starts = concatenate(columns, static_cast<int>(nb), loc);  // [B..., k]
  IntList collapsed, offset, sizes(y.shape().begin(), y.shape().end());
  for (size_t p : pos) collapsed.push_back(static_cast<int64_t>(p)), sizes[p] = 1;
  for (int64_t d = 0, j = 0; d < y.ndim(); ++d) {
    if (std::find(pos.begin(), pos.end(), static_cast<size_t>(d)) != pos.end()) continue;
    bool before = d < static_cast<int64_t>(pos[0]);
    offset.push_back(separated ? nb + j : before ? j : j + nb);
    ++j;
  }
  return lax::gather(y, starts, shape_rules::GatherDims{offset, collapsed, collapsed, nb}, sizes, mode, loc);
}

// x[idx] with the integer-array entry's gather in `mode`: ints and slices first (a static
// slice; negative steps read the slice reversed with a constant take), the dropped axes
// reshaped away, then the array entry's take. As NumPy, the array's dims go first when a slice
// separates it from an integer entry (the advanced indices are not adjacent).
Array index_mode(const Array& x, const std::vector<Index>& idx, int64_t mode, const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, "index");
  size_t rank = av.shape.size();
  if (idx.size() > rank)
    throw ValueError("index: got " + std::to_string(idx.size()) + " indices for " + av.str());
  IntList lo(rank), hi(rank), step(rank);
  std::vector<std::pair<int64_t, int64_t>> reversed;  // (axis, count) read backwards
  std::vector<bool> dropped(rank, false);
  std::vector<std::pair<size_t, const Array*>> array_entries;  // (axis, indices)
  int64_t first_adv = -1, last_adv = -1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = av.shape[d];
    lo[d] = 0, hi[d] = n, step[d] = 1;
    if (d >= idx.size()) continue;
    const auto& v = idx[d].value;
    if (const auto* slice = std::get_if<Slice>(&v)) {
      int64_t k = slice->step;
      if (k == 0) throw ValueError("index: expects a nonzero slice step, but got 0 for axis " + std::to_string(d));
      auto norm = [&](std::optional<int64_t> o, int64_t dflt, int64_t lo_b, int64_t hi_b) {
        if (!o) return dflt;
        int64_t t = *o < 0 ? *o + n : *o;
        return std::clamp(t, lo_b, hi_b);
      };
      int64_t start = k > 0 ? norm(slice->start, 0, 0, n) : norm(slice->start, n - 1, -1, n - 1);
      int64_t stop = k > 0 ? norm(slice->stop, n, 0, n) : norm(slice->stop, -1, -1, n - 1);
      int64_t count = k > 0 ? std::max<int64_t>(0, (stop - start + k - 1) / k) : std::max<int64_t>(0, (start - stop - k - 1) / -k);
      if (count == 0) {
        lo[d] = hi[d] = 0;
      } else if (k > 0) {
        lo[d] = start, hi[d] = start + (count - 1) * k + 1, step[d] = k;
      } else {
        lo[d] = start + (count - 1) * k, hi[d] = start + 1, step[d] = -k;
        if (count > 1) reversed.push_back({static_cast<int64_t>(d), count});
      }
      continue;
    }
    if (first_adv < 0) first_adv = static_cast<int64_t>(d);
    last_adv = static_cast<int64_t>(d);
    if (const auto* i = std::get_if<int64_t>(&v)) {
      int64_t j = *i < 0 ? *i + n : *i;
      if (j < 0 || j >= n)
        throw ValueError("index: index " + std::to_string(*i) + " is out of bounds for axis " + std::to_string(d) +
                         " with size " + std::to_string(n));
      lo[d] = j, hi[d] = j + 1;
      dropped[d] = true;
      continue;
    }
    array_entries.push_back({d, &std::get<Array>(v)});
  }
  // A slice strictly between the first and last advanced entries separates them.
  bool separated = false;
  for (int64_t d = first_adv + 1; first_adv >= 0 && d < last_adv; ++d)
    if (static_cast<size_t>(d) < idx.size() && std::holds_alternative<Slice>(idx[static_cast<size_t>(d)].value)) separated = true;
  Array y = lax::slice(x, lo, hi, step, loc);
  for (auto [axis, count] : reversed) {
    std::vector<int32_t> back;
    for (int64_t c = count - 1; c >= 0; --c) back.push_back(static_cast<int32_t>(c));
    y = take_mode(y, array(back, {count}, DType::i32), static_cast<int>(axis), gather_mode::kClip, loc);
  }
  Shape kept;
  std::vector<size_t> array_pos;  // each array entry's axis in y once the int entries are dropped
  for (size_t d = 0, e = 0; d < rank; ++d) {
    if (e < array_entries.size() && array_entries[e].first == d) array_pos.push_back(kept.size()), ++e;
    if (!dropped[d]) kept.push_back(y.shape(static_cast<int>(d)));
  }
  y = lax::reshape(y, kept, loc);
  if (array_entries.empty()) return y;
  if (array_entries.size() > 1) return gather_arrays(y, array_entries, array_pos, separated, mode, loc);
  const Array* array_entry = array_entries[0].second;
  Array r = take_mode(y, *array_entry, static_cast<int>(array_pos[0]), mode, loc);
  int64_t q = array_entry->ndim();
  const int64_t at = static_cast<int64_t>(array_pos[0]);
  if (!separated || at == 0 || q == 0) return r;
  IntList perm;  // the array's dims first
  for (int64_t k = 0; k < q; ++k) perm.push_back(at + k);
  for (int64_t k = 0; k < r.ndim(); ++k)
    if (k < at || k >= at + q) perm.push_back(k);
  return lax::transpose(r, perm, loc);
}

// x.at(idx) combined with v by scatter primitive `p`: the flat position of each indexed element
// found by indexing an iota of positions + 1 in fill mode (0, so -1 after the shift, for an array
// index outside its axis: the scatter drops it), v broadcast to those positions.
Array at_update(const Primitive& p, const char* op, const Array& x, const std::vector<Index>& idx, const Array& v,
                const SourceLocation& loc) {
  const AbstractValue& av = api::aval(x, op);
  api::aval(v, op);
  // One array entry and whole axes otherwise (table.at(ids).add(rows)): one scatter of whole
  // windows at the wrapped indices, as take's gather (no per-element positions).
  size_t arrays = 0, alls = 0, axis = 0;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (std::holds_alternative<Array>(idx[d].value)) ++arrays, axis = d;
    else if (const auto* sl = std::get_if<Slice>(&idx[d].value); sl && !sl->start && !sl->stop && sl->step == 1) ++alls;
  }
  if (arrays == 1 && arrays + alls == idx.size()) {
    int64_t a = static_cast<int64_t>(axis);
    Array ids = wrapped_indices(op, std::get<Array>(idx[axis].value), av.shape[axis], loc);
    int64_t q = ids.ndim();
    IntList window;
    Shape s;
    for (int64_t d = 0; d < av.ndim(); ++d) {
      if (d == a) s.insert(s.end(), ids.shape().begin(), ids.shape().end());
      else {
        window.push_back(d < a ? d : d + q - 1);
        s.push_back(av.shape[static_cast<size_t>(d)]);
      }
    }
    Array u = api::broadcast_to_shape(api::convert(v, {av.dtype, av.weak}, loc), s, loc);
    return lax::scatter(p, x, ids, u, shape_rules::ScatterDims{window, {a}, {a}, q}, loc);
  }
  DType it = av.size() < (int64_t{1} << 31) - 1 ? DType::i32 : DType::i64;
  Array positions = lax::reshape(arange(av.size() + 1, it), {av.size() + 1}, loc);
  positions = lax::reshape(lax::slice(positions, {1}, {av.size() + 1}, {1}, loc), av.shape, loc);
  Array pos = index_mode(positions, idx, gather_mode::kFill, loc);
  pos = lax::sub(pos, lax::full(AbstractValue{pos.shape(), it, false}, 1.0, loc), loc);
  Shape s = pos.shape();
  Array u = api::broadcast_to_shape(api::convert(v, {av.dtype, av.weak}, loc), s, loc);
  int64_t m = pos.size();
  Array flat = lax::reshape(x, {av.size()}, loc);
  Array r = lax::scatter(p, flat, lax::reshape(pos, {m, 1}, loc), lax::reshape(u, {m}, loc),
                         shape_rules::ScatterDims{{}, {0}, {0}, 1}, loc);
  return lax::reshape(r, av.shape, loc);
}

}  // namespace

Array index(const Array& x, const std::vector<Index>& idx, SourceLocation loc) {
  return index_mode(x, idx, gather_mode::kClip, loc);
}

Array At::set(const Array& v, SourceLocation loc) const { return at_update(prim::kScatter, "at().set", x_, idx_, v, loc); }
Array At::add(const Array& v, SourceLocation loc) const { return at_update(prim::kScatterAdd, "at().add", x_, idx_, v, loc); }
Array At::mul(const Array& v, SourceLocation loc) const { return at_update(prim::kScatterMul, "at().mul", x_, idx_, v, loc); }
Array At::min(const Array& v, SourceLocation loc) const { return at_update(prim::kScatterMin, "at().min", x_, idx_, v, loc); }
Array At::max(const Array& v, SourceLocation loc) const { return at_update(prim::kScatterMax, "at().max", x_, idx_, v, loc); }

Array Array::operator[](const Index& i) const { return index(*this, {i}); }
Array Array::operator[](std::initializer_list<Index> idx) const { return index(*this, std::vector<Index>(idx)); }
At Array::at(const Index& i) const { return At(*this, {i}); }
At Array::at(std::initializer_list<Index> idx) const { return At(*this, std::vector<Index>(idx)); }

Array take(const Array& x, const Array& indices, int axis, SourceLocation loc) {
  return take_mode(x, indices, axis, gather_mode::kClip, loc);
}

Array take_along_axis(const Array& x, const Array& indices, int axis, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "take_along_axis");
  const AbstractValue& iv = api::aval(indices, "take_along_axis");
  int64_t a = api::normalize_axis("take_along_axis", axis, av);
  bool ok = iv.shape.size() == av.shape.size();
  for (size_t d = 0; ok && d < av.shape.size(); ++d) ok = static_cast<int64_t>(d) == a || iv.shape[d] == av.shape[d];
  if (!ok)
    throw ShapeError("take_along_axis: expects indices of the operand's rank and sizes off the axis, but got " + iv.str() +
                     " for " + av.str() + " along axis " + std::to_string(a));
  Array idx = wrapped_indices("take_along_axis", indices, av.shape[static_cast<size_t>(a)], loc);
  // One full index vector per result element: the element's own position off the axis, the
  // index along it.
  Shape col = iv.shape;
  col.push_back(1);
  std::vector<Array> parts;
  IntList all, ones(av.shape.size(), 1);
  for (int64_t d = 0; d < av.ndim(); ++d) {
    all.push_back(d);
    if (d == a) parts.push_back(lax::reshape(idx, col, loc));
    else
      parts.push_back(lax::bind1(prim::kIota, {}, Params{{"dtype", iv.dtype}, {"shape", IntList(col)}, {"dimension", d}}, loc));
  }
  Array vectors = parts.size() == 1 ? parts[0] : lax::bind(prim::kConcatenate, parts, Params{{"dimension", av.ndim()}}, loc)[0];
  return lax::gather(x, vectors, shape_rules::GatherDims{{}, all, all, av.ndim()}, ones, 0, loc);
}

Array dynamic_slice(const Array& x, const std::vector<Array>& starts, const std::vector<int64_t>& sizes,
                    SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_slice");
  return lax::dynamic_slice(x, normalized_starts("dynamic_slice", av, starts, loc), IntList(sizes.begin(), sizes.end()), loc);
}

Array dynamic_update_slice(const Array& x, const Array& update, const std::vector<Array>& starts, SourceLocation loc) {
  const AbstractValue& av = api::aval(x, "dynamic_update_slice");
  api::aval(update, "dynamic_update_slice");
  Array u = api::convert(update, {av.dtype, av.weak}, loc);
  return lax::dynamic_update_slice(x, u, normalized_starts("dynamic_update_slice", av, starts, loc), loc);
}

}  // namespace strata
