// tracer/collective_rules.h — the collective primitives (psum, pmax, pmin, all_gather,
// psum_scatter, all_to_all, ppermute, axis_index) as one family: their kinds, shape rules, and
// the process groups they run over. Plain C++ shared by the primitives
// (tracer/primitives/collectives.cpp), the dialect's strata.collective verifier, its lowering
// and the runtime (tracer/collectives.h). Messages follow shape_rules.h.
//
// Leading-dimension forms, as the primitives are defined (the API moves other dimensions there):
//   psum/pmax/pmin  x[s]      -> [s]     the elementwise sum/max/min over the group
//   all_gather      x[s]      -> [n, s]  out[k] = x of the group's k-th member
//   psum_scatter    x[n, s]   -> [s]     out = sum over members of their x[my index]
//   all_to_all      x[n, s]   -> [n, s]  out[k] = member k's x[my index]
//   ppermute        x[s]      -> [s]     out = x of the member that sends to me (perm), else 0
//   axis_index      ()        -> i32[]   my index in the group
// n is the group's size (the axis size).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shape_rules.h"

namespace strata::collective_rules {

enum class Kind : int64_t {
  kPsum = 0, kPmax = 1, kPmin = 2, kAllGather = 3, kPsumScatter = 4, kAllToAll = 5, kPpermute = 6, kAxisIndex = 7
};
std::string_view kind_name(Kind k);  // the primitive's name (and strata.collective's kind)
std::optional<Kind> kind_from_name(std::string_view name);
size_t num_operands(Kind k);  // 0 for axis_index, else 1

// The result shape for an operand of shape `in` (ignored for axis_index) over `axis_size` members.
shape_rules::Result shape(Kind k, const Shape& in, int64_t axis_size);

// A process group: the processes of a mesh (shape `mesh`, laid over the world's ranks in
// row-major order) that differ only along mesh dimensions `dims` (in that order, which orders
// the members). Empty `mesh`: the axis is vmap's, not a mesh's (no processes involved).
struct Group {
  std::vector<int64_t> mesh;
  std::vector<int64_t> dims;
  bool operator==(const Group&) const = default;
};
// "expects ..." when the group is malformed (a dim out of range or repeated, a size < 1).
std::string check(const Group& g);
int64_t size(const Group& g);                      // the number of members
int64_t world_size(const Group& g);                // the mesh's process count
int64_t index_of(const Group& g, int64_t rank);    // rank's index among its group's members
int64_t member(const Group& g, int64_t rank, int64_t k);  // the world rank of rank's k-th member
int64_t color_of(const Group& g, int64_t rank);    // equal for ranks of one group
// One int64 for the compiled code's runtime call: up to 4 mesh dimensions of at most 4095.
std::optional<int64_t> pack(const Group& g);
Group unpack(int64_t key);

// ppermute's `perm` param as a table: for each member k, the member it sends to (or -1).
// Error "expects ..." when a source or destination repeats or is out of [0, n).
std::string check_perm(const std::vector<int64_t>& pairs, int64_t n);
std::vector<int64_t> destinations(const std::vector<int64_t>& pairs, int64_t n);
int64_t source_of(const std::vector<int64_t>& dest, int64_t k);  // who sends to k, or -1

}  // namespace strata::collective_rules
