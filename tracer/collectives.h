// tracer/collectives.h — collective communication between processes, and the named axes that
// collectives run over.
//
// A Transport moves the bytes (the MPI one in distributed/ once st::distributed::initialize()
// ran; until then a one-process transport); `run` is what the collective primitives' eager
// kernels and the CPU runtime's strata_rt_collective both call, so compiled and eager
// collectives are one implementation. Every rank must issue the same collectives in the same
// order (a program's order: a jitted program is the same on every rank).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collective_rules.h"
#include "strata/dtype.h"

namespace strata::collectives {

using collective_rules::Group;
using collective_rules::Kind;

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string_view name() const = 0;
  virtual int64_t world_size() const = 0;
  virtual int64_t world_rank() const = 0;
  // Each runs over the calling rank's group `g` (members in collective_rules order), and
  // returns when `out` is complete; throws strata::Error on failure or timeout.
  // reduce: kPsum, kPmax or kPmin; dtype: a type the transport reduces natively (`native`).
  virtual bool native(DType dtype) const = 0;
  virtual void all_reduce(const Group& g, const void* in, void* out, int64_t count, DType dtype, Kind reduce) = 0;
  // out[k] = in of member k, `count` elements of dtype each: psum_scatter's block of member k.
  virtual void reduce_scatter(const Group& g, const void* in, void* out, int64_t count, DType dtype, Kind reduce) = 0;
  virtual void all_gather(const Group& g, const void* in, void* out, int64_t bytes) = 0;
  virtual void all_to_all(const Group& g, const void* in, void* out, int64_t bytes_per_member) = 0;
  // Sends `in` to member `to` and receives `out` from member `from` (-1: none).
  virtual void send_recv(const Group& g, const void* in, int64_t to, void* out, int64_t from, int64_t bytes) = 0;
};

// The process's transport (the one-process transport until one is installed).
Transport& transport();
void set_transport(std::shared_ptr<Transport> t);

// One collective, as its primitive's params describe it.
struct Call {
  Kind kind;
  DType dtype;
  Group group;
  int64_t in_elements = 0;   // the operand's element count
  std::vector<int64_t> dest;  // ppermute: the member each member sends to, or -1
};
// Runs it: `in` holds in_elements of dtype, `out` the result (shape rule's size). Throws
// strata::Error (the primitive named) when the group does not fit the world or the transport fails.
void run(const Call& c, const void* in, void* out);

// ---- Named axes ----

// An axis name in scope: bound by vmap(..., axis_name) (group.mesh empty: collectives over it
// are batched away) or by shard_map over a mesh (collectives over it run on the transport).
struct AxisFrame {
  std::string name;
  int64_t size = 0;
  Group group;
};
// Binds axis names for the dynamic extent of the scope (innermost first when names repeat).
class AxisScope {
 public:
  explicit AxisScope(std::vector<AxisFrame> frames);
  ~AxisScope();
  AxisScope(const AxisScope&) = delete;
  AxisScope& operator=(const AxisScope&) = delete;

 private:
  size_t count_;
};
const AxisFrame* find_axis(std::string_view name);
// "'i' (vmap, size 4), 'data' (mesh, size 2)", or "none", for error messages.
std::string bound_axes();

}  // namespace strata::collectives
