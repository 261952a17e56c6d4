#include "shape_rules.h"

#include <algorithm>

namespace strata::shape_rules {
namespace {

Result fail(std::string msg) { return Result{{}, std::move(msg)}; }

// Checks that `axes` are distinct and within [0, rank); `what` names them in the message.
std::string check_axes(const IntList& axes, int64_t rank, const char* what) {
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < 0 || a >= rank)
      return std::string("expects ") + what + " in [0, " + std::to_string(rank) + "), but got " +
             list_string(axes);
    if (seen[static_cast<size_t>(a)])
      return std::string("expects distinct ") + what + ", but got " + list_string(axes);
    seen[static_cast<size_t>(a)] = true;
  }
  return {};
}

}  // namespace

std::string list_string(const IntList& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Result broadcast_shapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return fail("expects shapes that broadcast, but got " + shape_string(a) + " and " +
                  shape_string(b));
    out[i] = da == 1 ? db : da;
  }
  return {out, {}};
}

Result elementwise(std::span<const Shape> operands) {
  const Shape* full = nullptr;
  for (const Shape& s : operands) {
    if (s.empty()) continue;
    if (full && *full != s)
      return fail("expects operands of one shape (or 0-d), but got " + shape_string(*full) +
                  " and " + shape_string(s));
    full = &s;
  }
  return {full ? *full : Shape{}, {}};
}

Result broadcast_in_dim(const Shape& operand, const Shape& result, const IntList& dims) {
  if (dims.size() != operand.size())
    return fail("expects one broadcast dimension per operand dimension (" +
                std::to_string(operand.size()) + "), but got " + list_string(dims));
  for (int64_t d : result)
    if (d < 0) return fail("expects non-negative result dimensions, but got " + shape_string(result));
  if (auto e = check_axes(dims, static_cast<int64_t>(result.size()), "broadcast dimensions");
      !e.empty())
    return fail(e);
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] <= dims[i - 1])
      return fail("expects strictly increasing broadcast dimensions, but got " + list_string(dims));
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t want = result[static_cast<size_t>(dims[i])];
    if (operand[i] != 1 && operand[i] != want)
      return fail("expects operand dimension " + std::to_string(i) + " (size " +
                  std::to_string(operand[i]) + ") to be 1 or " + std::to_string(want) +
                  ", but got operand " + shape_string(operand) + " and result " +
                  shape_string(result));
  }
  return {result, {}};
}

Result reshape(const Shape& operand, const Shape& result) {
  for (int64_t d : result)
    if (d < 0) return fail("expects non-negative dimensions, but got " + shape_string(result));
  if (num_elements(operand) != num_elements(result))
    return fail("expects a shape with " + std::to_string(num_elements(operand)) +
                " elements like " + shape_string(operand) + ", but got " + shape_string(result));
  return {result, {}};
}

Result transpose(const Shape& operand, const IntList& permutation) {
  if (permutation.size() != operand.size())
    return fail("expects a permutation of " + std::to_string(operand.size()) +
                " dimensions, but got " + list_string(permutation));
  if (auto e = check_axes(permutation, static_cast<int64_t>(operand.size()), "permutation entries");
      !e.empty())
    return fail(e);
  Shape out(operand.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = operand[static_cast<size_t>(permutation[i])];
  return {out, {}};
}

Result slice(const Shape& operand, const IntList& start, const IntList& limit,
             const IntList& strides) {
  size_t rank = operand.size();
  if (start.size() != rank || limit.size() != rank || strides.size() != rank)
    return fail("expects start, limit and strides of rank " + std::to_string(rank) +
                ", but got " + list_string(start) + ", " + list_string(limit) + " and " +
                list_string(strides));
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    if (strides[i] <= 0)
      return fail("expects positive strides, but got " + list_string(strides));
    if (start[i] < 0 || start[i] > limit[i] || limit[i] > operand[i])
      return fail("expects 0 <= start <= limit <= " + std::to_string(operand[i]) +
                  " in dimension " + std::to_string(i) + ", but got start " +
                  list_string(start) + " and limit " + list_string(limit) + " for " +
                  shape_string(operand));
    out[i] = (limit[i] - start[i] + strides[i] - 1) / strides[i];
  }
  return {out, {}};
}

Result concatenate(std::span<const Shape> operands, int64_t dimension) {
  if (operands.empty()) return fail("expects at least one operand, but got none");
  const Shape& first = operands[0];
  int64_t rank = static_cast<int64_t>(first.size());
  if (dimension < 0 || dimension >= rank)
    return fail("expects a dimension in [0, " + std::to_string(rank) + "), but got " +
                std::to_string(dimension));
  Shape out = first;
  out[static_cast<size_t>(dimension)] = 0;
  for (const Shape& s : operands) {
    bool same = s.size() == first.size();
    for (size_t i = 0; same && i < s.size(); ++i)
      if (static_cast<int64_t>(i) != dimension && s[i] != first[i]) same = false;
    if (!same)
      return fail("expects operands that agree except in dimension " + std::to_string(dimension) +
                  ", but got " + shape_string(first) + " and " + shape_string(s));
    out[static_cast<size_t>(dimension)] += s[static_cast<size_t>(dimension)];
  }
  return {out, {}};
}

Result reduce(const Shape& operand, const IntList& axes) {
  if (auto e = check_axes(axes, static_cast<int64_t>(operand.size()), "reduction axes");
      !e.empty())
    return fail(e);
  Shape out;
  for (size_t i = 0; i < operand.size(); ++i)
    if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) == axes.end())
      out.push_back(operand[i]);
  return {out, {}};
}

Result argmax(const Shape& operand, int64_t axis) {
  Result r = reduce(operand, {axis});
  if (!r.ok()) return r;
  if (operand[static_cast<size_t>(axis)] == 0)
    return fail("expects a non-empty axis " + std::to_string(axis) + ", but got " +
                shape_string(operand));
  return r;
}

Result dot_general(const Shape& lhs, const Shape& rhs, const IntList& lhs_batch,
                   const IntList& rhs_batch, const IntList& lhs_contract,
                   const IntList& rhs_contract) {
  if (lhs_batch.size() != rhs_batch.size())
    return fail("expects as many lhs as rhs batch dimensions, but got " + list_string(lhs_batch) +
                " and " + list_string(rhs_batch));
  if (lhs_contract.size() != rhs_contract.size())
    return fail("expects as many lhs as rhs contracting dimensions, but got " +
                list_string(lhs_contract) + " and " + list_string(rhs_contract));
  IntList lhs_used = lhs_batch, rhs_used = rhs_batch;
  lhs_used.insert(lhs_used.end(), lhs_contract.begin(), lhs_contract.end());
  rhs_used.insert(rhs_used.end(), rhs_contract.begin(), rhs_contract.end());
  if (auto e = check_axes(lhs_used, static_cast<int64_t>(lhs.size()), "lhs batch and contracting dimensions"); !e.empty())
    return fail(e);
  if (auto e = check_axes(rhs_used, static_cast<int64_t>(rhs.size()), "rhs batch and contracting dimensions"); !e.empty())
    return fail(e);
  for (size_t i = 0; i < lhs_batch.size(); ++i)
    if (lhs[static_cast<size_t>(lhs_batch[i])] != rhs[static_cast<size_t>(rhs_batch[i])])
      return fail("expects batch dimensions of equal size, but got " + shape_string(lhs) +
                  " and " + shape_string(rhs) + " with batch dims " + list_string(lhs_batch) +
                  " x " + list_string(rhs_batch));
  for (size_t i = 0; i < lhs_contract.size(); ++i)
    if (lhs[static_cast<size_t>(lhs_contract[i])] != rhs[static_cast<size_t>(rhs_contract[i])])
      return fail("expects contracting dimensions of equal size, but got " + shape_string(lhs) +
                  " and " + shape_string(rhs) + " contracting " + list_string(lhs_contract) +
                  " x " + list_string(rhs_contract));
  Shape out;
  for (int64_t d : lhs_batch) out.push_back(lhs[static_cast<size_t>(d)]);
  for (size_t i = 0; i < lhs.size(); ++i)
    if (std::find(lhs_used.begin(), lhs_used.end(), static_cast<int64_t>(i)) == lhs_used.end())
      out.push_back(lhs[i]);
  for (size_t i = 0; i < rhs.size(); ++i)
    if (std::find(rhs_used.begin(), rhs_used.end(), static_cast<int64_t>(i)) == rhs_used.end())
      out.push_back(rhs[i]);
  return {out, {}};
}

Result iota(const Shape& shape, int64_t dimension) {
  for (int64_t d : shape)
    if (d < 0) return fail("expects non-negative dimensions, but got " + shape_string(shape));
  if (dimension < 0 || dimension >= static_cast<int64_t>(shape.size()))
    return fail("expects an iota dimension in [0, " + std::to_string(shape.size()) +
                "), but got " + std::to_string(dimension));
  return {shape, {}};
}

Result sort(std::span<const Shape> operands, int64_t dimension, int64_t num_keys) {
  if (operands.empty()) return fail("expects at least one operand");
  const Shape& s = operands[0];
  for (size_t i = 1; i < operands.size(); ++i)
    if (operands[i] != s)
      return fail("expects operands of one shape, but operand " + std::to_string(i) + " is " +
                  shape_string(operands[i]) + " and operand 0 is " + shape_string(s));
  if (dimension < 0 || dimension >= static_cast<int64_t>(s.size()))
    return fail("dimension " + std::to_string(dimension) + " is out of range for an operand of shape " +
                shape_string(s));
  if (num_keys >= 0 && (num_keys < 1 || num_keys > static_cast<int64_t>(operands.size())))
    return fail("num_keys " + std::to_string(num_keys) + " must be in [1, " + std::to_string(operands.size()) + "]");
  return {s, {}};
}

Result pad(const Shape& operand, const IntList& low, const IntList& high, const IntList& interior) {
  size_t rank = operand.size();
  if (low.size() != rank || high.size() != rank || interior.size() != rank)
    return fail("expects low, high and interior padding of rank " + std::to_string(rank) +
                ", but got " + list_string(low) + ", " + list_string(high) + " and " + list_string(interior));
  Shape out(rank);
  // Negative low/high padding removes elements from that edge (as lax.pad and StableHLO).
  for (size_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return fail("expects non-negative interior padding, but got low " + list_string(low) + ", high " +
                  list_string(high) + " and interior " + list_string(interior));
    out[i] = low[i] + high[i] + operand[i] + (operand[i] > 0 ? (operand[i] - 1) * interior[i] : 0);
    if (out[i] < 0)
      return fail("expects padding that leaves a dimension of size >= 0, but low " + list_string(low) + ", high " +
                  list_string(high) + " and interior " + list_string(interior) + " give " + std::to_string(out[i]) +
                  " along dimension " + std::to_string(i) + " of " + shape_string(operand));
  }
  return {out, {}};
}

// ---- Convolution and pooling (issue 13) ----

Result rev(const Shape& operand, const IntList& dimensions) {
  if (auto e = check_axes(dimensions, static_cast<int64_t>(operand.size()), "dimensions"); !e.empty()) return fail(e);
  return {operand, {}};
}

Result conv_general_dilated(const Shape& lhs, const Shape& rhs, const ConvParams& p) {
  const int64_t rank = static_cast<int64_t>(lhs.size());
  if (rhs.size() != lhs.size())
    return fail("expects lhs and rhs of one rank, but got " + shape_string(lhs) + " and " + shape_string(rhs));
  if (rank < 2)
    return fail("expects operands of rank 2 or more (batch, feature, spatial...), but got " + shape_string(lhs));
  const size_t nsp = static_cast<size_t>(rank - 2);
  for (const IntList* spec : {&p.lhs_spec, &p.rhs_spec, &p.out_spec}) {
    if (static_cast<int64_t>(spec->size()) != rank)
      return fail("expects dimension numbers of length " + std::to_string(rank) + ", but got " + list_string(*spec));
    if (auto e = check_axes(*spec, rank, "dimension numbers"); !e.empty()) return fail(e);
  }
  auto sized = [&](const IntList& v, const char* what) -> std::string {
    if (v.size() != nsp)
      return std::string("expects ") + what + " of length " + std::to_string(nsp) + ", but got " + list_string(v);
    return {};
  };
  for (auto [v, what] : {std::pair{&p.window_strides, "window strides"}, {&p.padding_low, "low padding"},
                         {&p.padding_high, "high padding"}, {&p.lhs_dilation, "lhs dilation"},
                         {&p.rhs_dilation, "rhs dilation"}})
    if (auto e = sized(*v, what); !e.empty()) return fail(e);
  for (auto [v, what] : {std::pair{&p.window_strides, "window strides"}, {&p.lhs_dilation, "lhs dilation"},
                         {&p.rhs_dilation, "rhs dilation"}})
    for (int64_t x : *v)
      if (x < 1) return fail(std::string("expects positive ") + what + ", but got " + list_string(*v));
  const int64_t G = p.feature_group_count, B = p.batch_group_count;
  if (G < 1 || B < 1)
    return fail("expects positive feature and batch group counts, but got " + std::to_string(G) + " and " +
                std::to_string(B));
  if (G > 1 && B > 1)
    return fail("expects a feature or a batch group count of 1, but got " + std::to_string(G) + " and " +
                std::to_string(B));
  auto at = [](const Shape& s, int64_t d) { return s[static_cast<size_t>(d)]; };
  const int64_t n = at(lhs, p.lhs_spec[0]), c = at(lhs, p.lhs_spec[1]);
  const int64_t o = at(rhs, p.rhs_spec[0]), ci = at(rhs, p.rhs_spec[1]);
  const std::string both = shape_string(lhs) + " and " + shape_string(rhs);
  if (c % G != 0)
    return fail("expects lhs features divisible by the feature group count " + std::to_string(G) + ", but got " + both);
  if (ci * G != c)
    return fail("expects rhs input features times the feature group count " + std::to_string(G) +
                " to equal lhs features, but got " + both);
  if (o % G != 0 || o % B != 0)
    return fail("expects rhs output features divisible by the group count " + std::to_string(G * B) +
                ", but got " + both);
  if (n % B != 0)
    return fail("expects lhs batch divisible by the batch group count " + std::to_string(B) + ", but got " + both);
  Shape out(static_cast<size_t>(rank));
  out[static_cast<size_t>(p.out_spec[0])] = n / B;
  out[static_cast<size_t>(p.out_spec[1])] = o;
  for (size_t i = 0; i < nsp; ++i) {
    int64_t in = dilated_size(at(lhs, p.lhs_spec[i + 2]), p.lhs_dilation[i]) + p.padding_low[i] + p.padding_high[i];
    int64_t k = dilated_size(at(rhs, p.rhs_spec[i + 2]), p.rhs_dilation[i]);
    out[static_cast<size_t>(p.out_spec[i + 2])] = in < k ? 0 : (in - k) / p.window_strides[i] + 1;
  }
  return {out, {}};
}

}  // namespace strata::shape_rules
