// The non-template half of strata/vmap.h: checking the mapped axes, and running the traced
// example program on the batch through tracer/batching.
#include "strata/vmap.h"

#include "array_impl.h"
#include "batching.h"
#include "collectives.h"
#include "trace.h"

namespace strata::detail {

std::vector<Array> vmap_examples(const std::vector<Array>& leaves, const std::vector<std::optional<int>>& axes,
                                 std::vector<int>& dims) {
  std::vector<Array> examples;
  dims.clear();
  int64_t size = -1;
  std::size_t sized_by = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    check_usable(leaves[i], "vmap");
    const AbstractValue& av = aval_of(leaves[i]);
    if (!axes[i]) {
      dims.push_back(not_mapped);
      examples.push_back(leaves[i]);
      continue;
    }
    int axis = *axes[i] < 0 ? *axes[i] + av.ndim() : *axes[i];
    if (axis < 0 || axis >= av.ndim())
      throw ValueError("vmap: in_axes maps array argument " + std::to_string(i) + " (" + av.str() + ") along axis " +
                       std::to_string(*axes[i]) + ", which it does not have");
    int64_t n = av.shape[static_cast<std::size_t>(axis)];
    if (size >= 0 && n != size)
      throw ValueError("vmap: mapped axes have different sizes: array argument " + std::to_string(sized_by) + " has " +
                       std::to_string(size) + ", array argument " + std::to_string(i) + " (" + av.str() + ") has " +
                       std::to_string(n) + " along axis " + std::to_string(axis));
    if (size < 0) size = n, sized_by = i;
    dims.push_back(axis);
    AbstractValue example = av;
    example.shape.erase(example.shape.begin() + axis);
    examples.push_back(make_concrete(example));
  }
  if (size < 0) throw ValueError("vmap: no argument is mapped (in_axes maps none of the array arguments)");
  return examples;
}

std::vector<Array> vmap_run(const Jaxpr& j, const std::vector<Array>& leaves, const std::vector<int>& dims,
                            int out_axes, const std::string& axis_name) {
  int64_t size = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i)
    if (dims[i] != not_mapped) size = leaves[i].shape(dims[i]);
  batching::ScopedAxis axis(axis_name);
  batching::Result r = batching::batch_jaxpr(*j.impl(), leaves, dims);
  std::vector<Array> outs;
  for (std::size_t k = 0; k < r.outputs.size(); ++k) {
    Array y = r.outputs[k];
    int d = r.dims[k];
    if (d == not_mapped) {  // the same for every example
      y = batching::broadcast_batch(y, size);
      d = 0;
    }
    int to = out_axes < 0 ? out_axes + static_cast<int>(y.ndim()) : out_axes;
    if (to < 0 || to >= y.ndim())
      throw ValueError("vmap: out_axes " + std::to_string(out_axes) + " is out of range for output " + std::to_string(k) +
                       " (" + aval_of(y).str() + ")");
    outs.push_back(batching::move_dim(y, d, to));
  }
  return outs;
}

VmapAxis::VmapAxis(const std::string& name, const std::vector<Array>& leaves, const std::vector<int>& dims) {
  if (name.empty()) return;
  int64_t size = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i)
    if (dims[i] != not_mapped) size = leaves[i].shape(dims[i]);
  scope_ = std::make_shared<collectives::AxisScope>(std::vector<collectives::AxisFrame>{{name, size, {}}});
}
VmapAxis::~VmapAxis() = default;

}  // namespace strata::detail
