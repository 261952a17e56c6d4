// The convolutions jax.lax builds on conv_general_dilated: conv, conv_with_general_padding,
// conv_transpose (an lhs-dilated convolution), conv_general_dilated_patches (a convolution
// with an identity kernel) and conv_general_dilated_local (the patches contracted with an
// unshared kernel). All composites, so their derivatives and batching are the primitive's.
#include <algorithm>
#include <numeric>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/conv.h"
#include "strata/creation.h"

namespace strata {
namespace {

// The dimension numbers with the empty default spelled out: (0, 1, 2, ...) for each operand.
ConvDimensionNumbers resolved(const ConvDimensionNumbers& dn, size_t rank) {
  if (!dn.lhs_spec.empty() || !dn.rhs_spec.empty() || !dn.out_spec.empty()) return dn;
  std::vector<int64_t> iota(rank);
  std::iota(iota.begin(), iota.end(), int64_t{0});
  return {iota, iota, iota};
}

void check_specs(const char* op, const ConvDimensionNumbers& dn, size_t rank) {
  for (const auto* s : {&dn.lhs_spec, &dn.rhs_spec, &dn.out_spec}) {
    std::vector<int64_t> sorted = *s;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = sorted.size() == rank;
    for (size_t i = 0; permutation && i < rank; ++i) permutation = sorted[i] == static_cast<int64_t>(i);
    if (!permutation)
      throw ValueError(std::string(op) + ": expects dimension numbers that permute the " + std::to_string(rank) +
                       " dimensions of its operands, but got " + shape_rules::list_string(*s));
  }
}

// The rank lhs and rhs share (2 or more).
size_t operand_rank(const char* op, const AbstractValue& l, const AbstractValue& r) {
  if (l.ndim() != r.ndim() || l.ndim() < 2)
    throw ShapeError(std::string(op) + ": expects lhs and rhs of one rank (2 or more), but got " + l.str() + " and " +
                     r.str());
  return static_cast<size_t>(l.ndim());
}

void check_length(const char* op, const char* what, const std::vector<int64_t>& v, size_t n, const Array& lhs) {
  if (v.size() != n)
    throw ValueError(std::string(op) + ": expects " + what + " of length " + std::to_string(n) + " for " +
                     api::aval(lhs, op).str() + ", but got " + shape_rules::list_string(v));
}

// jnp.moveaxis with several axes: `src[i]` goes to `dst[i]`, the others keep their order.
Array move_axes(const Array& x, const std::vector<int64_t>& src, const std::vector<int64_t>& dst) {
  const int64_t rank = api::aval(x, "moveaxis").ndim();
  std::vector<int> order;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(static_cast<int>(d));
  std::vector<std::pair<int64_t, int64_t>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.push_back({dst[i], src[i]});
  std::sort(moves.begin(), moves.end());
  for (auto [to, from] : moves) order.insert(order.begin() + to, static_cast<int>(from));
  return transpose(x, order);
}

// jax.lax's _conv_transpose_padding: the (low, high) padding of the transposed convolution for
// a kernel of (dilated) size k at stride s, from the forward convolution's padding.
std::pair<int64_t, int64_t> transpose_padding(int64_t k, int64_t s, const std::string& mode,
                                              std::pair<int64_t, int64_t> forward) {
  int64_t before, total;
  if (mode == "SAME") {
    total = k + s - 2;
    before = s > k - 1 ? k - 1 : (total + 1) / 2;
  } else if (mode == "VALID") {
    total = k + s - 2 + std::max<int64_t>(k - s, 0);
    before = k - 1;
  } else {
    before = k - forward.first - 1;
    total = before + k - forward.second - 1;
  }
  return {before, total - before};
}

}  // namespace

Array conv(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides, const Padding& padding,
           SourceLocation loc) {
  return conv_general_dilated(lhs, rhs, window_strides, padding, {}, {}, {}, 1, 1, loc);
}

Array conv_with_general_padding(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                                const Padding& padding, const std::vector<int64_t>& lhs_dilation,
                                const std::vector<int64_t>& rhs_dilation, SourceLocation loc) {
  return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, {}, 1, 1, loc);
}

Array conv_transpose(const Array& lhs, const Array& rhs, const std::vector<int64_t>& strides, const Padding& padding,
                     const std::vector<int64_t>& rhs_dilation, const ConvDimensionNumbers& dimension_numbers,
                     bool transpose_kernel, bool use_consistent_padding, SourceLocation loc) {
  const char* op = "conv_transpose";
  const AbstractValue& l = api::aval(lhs, op);
  const AbstractValue& r = api::aval(rhs, op);
  const size_t rank = operand_rank(op, l, r), nsp = rank - 2;
  ConvDimensionNumbers dn = dimension_numbers;
  if (dn.lhs_spec.empty() && dn.rhs_spec.empty() && dn.out_spec.empty()) {
    static const char* const kLayouts[][3] = {{"NC", "IO", "NC"},
                                              {"NHC", "HIO", "NHC"},
                                              {"NHWC", "HWIO", "NHWC"},
                                              {"NHWDC", "HWDIO", "NHWDC"}};
    if (rank > 5)
      throw ValueError(std::string(op) + ": has no default dimension numbers for operands of rank " +
                       std::to_string(rank) + " (" + l.str() + "); give them");
    const auto& layout = kLayouts[rank - 2];
    dn = ConvDimensionNumbers(layout[0], layout[1], layout[2]);
  }
  check_specs(op, dn, rank);
  check_length(op, "strides", strides, nsp, lhs);
  std::vector<int64_t> rd = rhs_dilation.empty() ? std::vector<int64_t>(nsp, 1) : rhs_dilation;
  check_length(op, "rhs_dilation", rd, nsp, lhs);
  for (size_t i = 0; i < nsp; ++i)
    if (strides[i] < 1 || rd[i] < 1)
      throw ValueError(std::string(op) + ": expects positive strides and rhs_dilation, but got " +
                       shape_rules::list_string(strides) + " and " + shape_rules::list_string(rd));

  Padding pads = padding;
  const bool forward_string = padding.mode == "SAME" || padding.mode == "VALID";
  if (!padding.mode.empty() && !forward_string)
    throw ValueError(std::string(op) + ": expects padding \"SAME\", \"VALID\" or (low, high) pairs, but got \"" +
                     padding.mode + "\"");
  if (padding.mode.empty() && padding.pairs.size() != nsp)
    throw ValueError(std::string(op) + ": expects " + std::to_string(nsp) + " (low, high) padding pairs for " + l.str() +
                     ", but got " + std::to_string(padding.pairs.size()));
  if (forward_string || use_consistent_padding) {
    std::vector<std::pair<int64_t, int64_t>> pairs;
    for (size_t i = 0; i < nsp; ++i) {
      int64_t k = shape_rules::dilated_size(r.shape[static_cast<size_t>(dn.rhs_spec[i + 2])], rd[i]);
      pairs.push_back(transpose_padding(k, strides[i], padding.mode,
                                        forward_string ? std::pair<int64_t, int64_t>{} : padding.pairs[i]));
    }
    pads = Padding(std::move(pairs));
  }
  Array kernel = rhs;
  if (transpose_kernel) {
    std::vector<int> spatial;
    for (size_t i = 2; i < rank; ++i) spatial.push_back(static_cast<int>(dn.rhs_spec[i]));
    kernel = swapaxes(flip(kernel, spatial, loc), static_cast<int>(dn.rhs_spec[0]), static_cast<int>(dn.rhs_spec[1]),
                      loc);
  }
  return conv_general_dilated(lhs, kernel, std::vector<int64_t>(nsp, 1), pads, strides, rd, dn, 1, 1, loc);
}

Array conv_general_dilated_patches(const Array& lhs, const std::vector<int64_t>& filter_shape,
                                   const std::vector<int64_t>& window_strides, const Padding& padding,
                                   const std::vector<int64_t>& lhs_dilation, const std::vector<int64_t>& rhs_dilation,
                                   const ConvDimensionNumbers& dimension_numbers, SourceLocation loc) {
  const char* op = "conv_general_dilated_patches";
  const AbstractValue& l = api::aval(lhs, op);
  if (l.ndim() < 2)
    throw ShapeError(std::string(op) + ": expects lhs of rank 2 or more, but got " + l.str());
  const size_t rank = static_cast<size_t>(l.ndim());
  check_length(op, "filter_shape", filter_shape, rank - 2, lhs);
  for (int64_t k : filter_shape)
    if (k < 1)
      throw ValueError(std::string(op) + ": expects a positive filter_shape, but got " +
                       shape_rules::list_string(filter_shape));
  ConvDimensionNumbers dn = resolved(dimension_numbers, rank);
  check_specs(op, dn, rank);
  const int64_t channels = l.shape[static_cast<size_t>(dn.lhs_spec[1])];
  int64_t window = 1;
  for (int64_t k : filter_shape) window *= k;
  // Output feature c*window + s reads input feature c at window position s: one feature
  // group per input feature, each an identity over the window.
  Array rhs = broadcast_to(eye(window, window, 0, l.dtype), {channels, window, window}, loc);
  Shape kernel_shape{channels * window, 1};
  kernel_shape.insert(kernel_shape.end(), filter_shape.begin(), filter_shape.end());
  rhs = move_axes(reshape(rhs, kernel_shape, loc), {0, 1}, {dn.rhs_spec[0], dn.rhs_spec[1]});
  return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation, dn, channels, 1, loc);
}

Array conv_general_dilated_local(const Array& lhs, const Array& rhs, const std::vector<int64_t>& window_strides,
                                 const Padding& padding, const std::vector<int64_t>& filter_shape,
                                 const std::vector<int64_t>& lhs_dilation, const std::vector<int64_t>& rhs_dilation,
                                 const ConvDimensionNumbers& dimension_numbers, SourceLocation loc) {
  const char* op = "conv_general_dilated_local";
  const AbstractValue& l = api::aval(lhs, op);
  const AbstractValue& r = api::aval(rhs, op);
  const size_t rank = operand_rank(op, l, r), nsp = rank - 2;
  Array patches =
      conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation, rhs_dilation,
                                   dimension_numbers, loc);
  ConvDimensionNumbers dn = resolved(dimension_numbers, rank);
  const AbstractValue& p = api::aval(patches, op);
  // rhs holds one kernel per output position: its spatial dimensions must be the output's and
  // its I dimension the patch size.
  std::string want;
  bool fits = r.shape[static_cast<size_t>(dn.rhs_spec[1])] == p.shape[static_cast<size_t>(dn.out_spec[1])];
  for (size_t i = 0; i < nsp; ++i)
    fits = fits && r.shape[static_cast<size_t>(dn.rhs_spec[i + 2])] == p.shape[static_cast<size_t>(dn.out_spec[i + 2])];
  if (!fits) {
    std::vector<int64_t> sizes{p.shape[static_cast<size_t>(dn.out_spec[1])]};
    for (size_t i = 0; i < nsp; ++i) sizes.push_back(p.shape[static_cast<size_t>(dn.out_spec[i + 2])]);
    throw ShapeError(std::string(op) + ": expects rhs with I and spatial sizes " + shape_rules::list_string(sizes) +
                     " (the patch size and the output's spatial shape) for lhs " + l.str() + ", but got " + r.str());
  }
  // Contract the patch features with I, batched over the spatial dimensions (in the output's
  // order, the rhs's matched to them); the result is (spatial..., N, O).
  std::vector<int> lhs_batch, rhs_batch;
  std::vector<size_t> by_out(nsp);
  std::iota(by_out.begin(), by_out.end(), size_t{0});
  std::sort(by_out.begin(), by_out.end(), [&](size_t a, size_t b) { return dn.out_spec[a + 2] < dn.out_spec[b + 2]; });
  for (size_t i : by_out) {
    lhs_batch.push_back(static_cast<int>(dn.out_spec[i + 2]));
    rhs_batch.push_back(static_cast<int>(dn.rhs_spec[i + 2]));
  }
  Array out = dot_general(patches, rhs,
                          {{static_cast<int>(dn.out_spec[1])}, {static_cast<int>(dn.rhs_spec[1])}, lhs_batch, rhs_batch},
                          loc);
  const int64_t n = static_cast<int64_t>(rank);
  return move_axes(out, {n - 2, n - 1}, {dn.out_spec[0], dn.out_spec[1]});
}

}  // namespace strata
