#include "gather_rules.h"

#include <algorithm>
#include <string>

namespace strata::shape_rules {
namespace {

// "" when `v` is sorted, without repeats, each in [0, bound); else the error.
std::string check_dims(const char* what, const IntList& v, int64_t bound, bool sorted) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0 || v[i] >= bound)
      return std::string("expects ") + what + " in [0, " + std::to_string(bound) + "), but got " + list_string(v);
    for (size_t j = 0; j < i; ++j)
      if (v[j] == v[i]) return std::string("expects distinct ") + what + ", but got " + list_string(v);
    if (sorted && i > 0 && v[i] < v[i - 1]) return std::string("expects sorted ") + what + ", but got " + list_string(v);
  }
  return {};
}

bool contains(const IntList& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The indices' batch dims (all but index_vector_dim) and the index vectors' length, or an error.
Result index_batch(const Shape& indices, int64_t ivd, size_t map_size, const char* map_name) {
  int64_t rank = static_cast<int64_t>(indices.size());
  if (ivd < 0 || ivd > rank)
    return {{}, "expects index_vector_dim in [0, " + std::to_string(rank) + "], but got " + std::to_string(ivd)};
  int64_t n = ivd < rank ? indices[static_cast<size_t>(ivd)] : 1;
  if (static_cast<int64_t>(map_size) != n)
    return {{}, std::string("expects ") + map_name + " of " + std::to_string(n) + " entries (the index vectors' length), but got " +
                    std::to_string(map_size)};
  Shape batch;
  for (int64_t d = 0; d < rank; ++d)
    if (d != ivd) batch.push_back(indices[static_cast<size_t>(d)]);
  return {batch, {}};
}

}  // namespace

Result gather(const Shape& operand, const Shape& indices, const GatherDims& g, const IntList& slice_sizes) {
  int64_t rank = static_cast<int64_t>(operand.size());
  Result b = index_batch(indices, g.index_vector_dim, g.start_index_map.size(), "start_index_map");
  if (!b.ok()) return b;
  std::string e = check_dims("start_index_map", g.start_index_map, rank, false);
  if (e.empty()) e = check_dims("collapsed_slice_dims", g.collapsed_slice_dims, rank, true);
  if (!e.empty()) return {{}, e};
  if (static_cast<int64_t>(slice_sizes.size()) != rank)
    return {{}, "expects " + std::to_string(rank) + " slice_sizes, but got " + list_string(slice_sizes)};
  for (size_t d = 0; d < operand.size(); ++d)
    if (slice_sizes[d] < 0 || slice_sizes[d] > operand[d])
      return {{}, "expects slice_sizes within the operand " + list_string(IntList(operand.begin(), operand.end())) +
                      ", but got " + list_string(slice_sizes)};
  for (int64_t d : g.collapsed_slice_dims)
    if (slice_sizes[static_cast<size_t>(d)] != 1)
      return {{}, "expects slice size 1 in collapsed_slice_dims " + list_string(g.collapsed_slice_dims) + ", but got " +
                      list_string(slice_sizes)};
  size_t window = operand.size() - g.collapsed_slice_dims.size();
  if (g.offset_dims.size() != window)
    return {{}, "expects " + std::to_string(window) + " offset_dims (the non-collapsed operand dims), but got " +
                    list_string(g.offset_dims)};
  int64_t out_rank = static_cast<int64_t>(b.shape.size() + window);
  e = check_dims("offset_dims", g.offset_dims, out_rank, true);
  if (!e.empty()) return {{}, e};
  Shape out;
  size_t bi = 0, wi = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (contains(g.offset_dims, i)) {
      while (contains(g.collapsed_slice_dims, static_cast<int64_t>(wi))) ++wi;
      out.push_back(slice_sizes[wi++]);
    } else {
      out.push_back(b.shape[bi++]);
    }
  }
  return {out, {}};
}

Result scatter(const Shape& operand, const Shape& indices, const Shape& updates, const ScatterDims& s) {
  int64_t rank = static_cast<int64_t>(operand.size());
  Result b = index_batch(indices, s.index_vector_dim, s.scatter_dims_to_operand_dims.size(), "scatter_dims_to_operand_dims");
  if (!b.ok()) return b;
  std::string e = check_dims("scatter_dims_to_operand_dims", s.scatter_dims_to_operand_dims, rank, false);
  if (e.empty()) e = check_dims("inserted_window_dims", s.inserted_window_dims, rank, true);
  if (!e.empty()) return {{}, e};
  size_t window = operand.size() - s.inserted_window_dims.size();
  if (s.update_window_dims.size() != window)
    return {{}, "expects " + std::to_string(window) + " update_window_dims (the operand dims not inserted), but got " +
                    list_string(s.update_window_dims)};
  int64_t urank = static_cast<int64_t>(updates.size());
  auto updates_str = list_string(IntList(updates.begin(), updates.end()));
  if (static_cast<size_t>(urank) != b.shape.size() + window)
    return {{}, "expects updates of rank " + std::to_string(b.shape.size() + window) + " (index batch dims and window dims), but got " +
                    updates_str};
  e = check_dims("update_window_dims", s.update_window_dims, urank, true);
  if (!e.empty()) return {{}, e};
  size_t bi = 0, wi = 0;
  for (int64_t i = 0; i < urank; ++i) {
    int64_t size = updates[static_cast<size_t>(i)];
    if (contains(s.update_window_dims, i)) {
      while (contains(s.inserted_window_dims, static_cast<int64_t>(wi))) ++wi;
      if (size > operand[wi])
        return {{}, "expects update window dims within the operand " + list_string(IntList(operand.begin(), operand.end())) +
                        ", but got updates " + updates_str};
      ++wi;
    } else if (size != b.shape[bi++]) {
      return {{}, "expects update scatter dims equal to the index batch dims " + list_string(IntList(b.shape.begin(), b.shape.end())) +
                      ", but got updates " + updates_str};
    }
  }
  return {operand, {}};
}

}  // namespace strata::shape_rules
