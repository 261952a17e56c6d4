// Collectives (collectives.h): the one-process transport, `run`, and the named axes in scope.
#include "collectives.h"

#include <cmath>
#include <cstring>
#include <mutex>

#include "kernels/types.h"
#include "strata/errors.h"

namespace strata::collectives {
namespace cr = collective_rules;
namespace {

// The transport of a process that did not call st::distributed::initialize(): the world is
// this one process, so every group has one member.
class SelfTransport final : public Transport {
 public:
  std::string_view name() const override { return "self"; }
  int64_t world_size() const override { return 1; }
  int64_t world_rank() const override { return 0; }
  bool native(DType) const override { return true; }
  void all_reduce(const Group&, const void* in, void* out, int64_t count, DType t, Kind) override {
    std::memmove(out, in, static_cast<size_t>(count) * itemsize(t));
  }
  void reduce_scatter(const Group&, const void* in, void* out, int64_t count, DType t, Kind) override {
    std::memmove(out, in, static_cast<size_t>(count) * itemsize(t));
  }
  void all_gather(const Group&, const void* in, void* out, int64_t bytes) override {
    std::memmove(out, in, static_cast<size_t>(bytes));
  }
  void all_to_all(const Group&, const void* in, void* out, int64_t bytes) override {
    std::memmove(out, in, static_cast<size_t>(bytes));
  }
  void send_recv(const Group&, const void* in, int64_t to, void* out, int64_t from, int64_t bytes) override {
    if (from == 0 && to == 0) std::memmove(out, in, static_cast<size_t>(bytes));
  }
};

std::mutex transport_mutex;
std::shared_ptr<Transport>& current() {
  static std::shared_ptr<Transport> t = std::make_shared<SelfTransport>();
  return t;
}

// out = the reduction of n blocks of `count` elements (member order: every rank gets the same
// bits), for the dtypes a transport does not reduce itself (bf16, f16 in f32, rounded once).
void reduce_blocks(const void* blocks, void* out, int64_t n, int64_t count, DType dtype, Kind reduce) {
  kernels::dispatch_any(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename kernels::ComputeOf<S>::type;
    const S* b = static_cast<const S*>(blocks);
    S* o = static_cast<S*>(out);
    for (int64_t i = 0; i < count; ++i) {
      C acc = static_cast<C>(b[i]);
      for (int64_t k = 1; k < n; ++k) {
        C v = static_cast<C>(b[k * count + i]);
        if (reduce == Kind::kPsum) {
          if constexpr (std::is_same_v<C, bool>) acc = acc || v;
          else acc = static_cast<C>(acc + v);
        } else if constexpr (kernels::is_complex_storage<C>) {
          throw Error("internal: pmax/pmin of complex numbers");  // the shape rule refuses them
        } else if constexpr (std::is_floating_point_v<C>) {
          if (std::isnan(acc) || std::isnan(v)) acc = std::nan("");
          else acc = reduce == Kind::kPmax ? std::max(acc, v) : std::min(acc, v);
        } else {
          acc = reduce == Kind::kPmax ? std::max(acc, v) : std::min(acc, v);
        }
      }
      o[i] = static_cast<S>(acc);
    }
  });
}

}  // namespace

Transport& transport() {
  std::lock_guard<std::mutex> lock(transport_mutex);
  return *current();
}
void set_transport(std::shared_ptr<Transport> t) {
  std::lock_guard<std::mutex> lock(transport_mutex);
  current() = t ? std::move(t) : std::make_shared<SelfTransport>();
}

void run(const Call& c, const void* in, void* out) {
  std::string_view op = cr::kind_name(c.kind);
  if (c.group.mesh.empty())
    throw ValueError(std::string(op) + ": its axis is bound by vmap, so it runs only inside that vmap");
  if (std::string e = cr::check(c.group); !e.empty()) throw ValueError(std::string(op) + ": " + e);
  Transport& t = transport();
  if (cr::world_size(c.group) != t.world_size())
    throw ValueError(std::string(op) + ": the mesh has " + std::to_string(cr::world_size(c.group)) +
                     " processes, but this run has " + std::to_string(t.world_size()) + " (transport '" +
                     std::string(t.name()) + "'; call st::distributed::initialize() under mpirun)");
  const int64_t n = cr::size(c.group);
  const int64_t me = cr::index_of(c.group, t.world_rank());
  const size_t item = itemsize(c.dtype);
  const int64_t bytes = c.in_elements * static_cast<int64_t>(item);
  switch (c.kind) {
    case Kind::kAxisIndex: *static_cast<int32_t*>(out) = static_cast<int32_t>(me); return;
    case Kind::kPsum:
    case Kind::kPmax:
    case Kind::kPmin:
      if (n == 1) {
        std::memmove(out, in, static_cast<size_t>(bytes));
      } else if (t.native(c.dtype)) {
        t.all_reduce(c.group, in, out, c.in_elements, c.dtype, c.kind);
      } else {
        std::vector<char> blocks(static_cast<size_t>(bytes * n));
        t.all_gather(c.group, in, blocks.data(), bytes);
        reduce_blocks(blocks.data(), out, n, c.in_elements, c.dtype, c.kind);
      }
      return;
    case Kind::kAllGather: t.all_gather(c.group, in, out, bytes); return;
    case Kind::kPsumScatter: {
      int64_t count = c.in_elements / n;
      if (t.native(c.dtype)) {
        t.reduce_scatter(c.group, in, out, count, c.dtype, Kind::kPsum);
      } else {
        std::vector<char> blocks(static_cast<size_t>(bytes));
        t.all_to_all(c.group, in, blocks.data(), bytes / n);
        reduce_blocks(blocks.data(), out, n, count, c.dtype, Kind::kPsum);
      }
      return;
    }
    case Kind::kAllToAll: t.all_to_all(c.group, in, out, bytes / n); return;
    case Kind::kPpermute: {
      int64_t to = c.dest.at(static_cast<size_t>(me));
      int64_t from = cr::source_of(c.dest, me);
      if (from < 0) std::memset(out, 0, static_cast<size_t>(bytes));
      t.send_recv(c.group, in, to, out, from, bytes);
      return;
    }
  }
}

// ---- Named axes ----

namespace {
thread_local std::vector<AxisFrame> frames;
}

AxisScope::AxisScope(std::vector<AxisFrame> f) : count_(f.size()) {
  for (AxisFrame& a : f) frames.push_back(std::move(a));
}
AxisScope::~AxisScope() { frames.resize(frames.size() - count_); }

const AxisFrame* find_axis(std::string_view name) {
  for (size_t i = frames.size(); i-- > 0;)
    if (frames[i].name == name) return &frames[i];
  return nullptr;
}

std::string bound_axes() {
  std::string s;
  for (size_t i = frames.size(); i-- > 0;)
    s += (s.empty() ? "'" : ", '") + frames[i].name + "' (" + (frames[i].group.mesh.empty() ? "vmap" : "mesh") +
         ", size " + std::to_string(frames[i].size) + ")";
  return s.empty() ? "none" : s;
}

}  // namespace strata::collectives
