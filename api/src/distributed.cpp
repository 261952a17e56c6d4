// st::distributed, Mesh and shard_map's halves (strata/distributed.h). The transport is
// tracer/collectives.h's; MPI's (distributed/MpiTransport.h) when the build has MPI.
#include "strata/distributed.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

#include "strata/collectives.h"
#include "strata/grad.h"
#include "collectives.h"
#include "op_helpers.h"
#ifdef STRATA_HAVE_MPI
#include "MpiTransport.h"
#endif

namespace strata {

namespace cr = collective_rules;

namespace distributed {
namespace {
std::mutex init_mutex;
bool initialized = false;

cr::Group world_group() { return cr::Group{{collectives::transport().world_size()}, {0}}; }

// The whole world's `count` int64 words from each process, by rank.
std::vector<int64_t> gather_words(const std::vector<int64_t>& mine) {
  std::vector<int64_t> all(mine.size() * static_cast<size_t>(process_count()));
  collectives::run({.kind = cr::Kind::kAllGather, .dtype = DType::i64, .group = world_group(),
                    .in_elements = static_cast<int64_t>(mine.size())},
                   mine.data(), all.data());
  return all;
}
}  // namespace

void initialize(const InitOptions& options) {
  std::lock_guard<std::mutex> lock(init_mutex);
  if (!initialized) {
#ifdef STRATA_HAVE_MPI
    double timeout = options.collective_timeout_seconds;
    if (const char* env = std::getenv("STRATA_COLLECTIVE_TIMEOUT")) timeout = std::atof(env);
    collectives::set_transport(mpi::start({.timeout_seconds = timeout}));
#endif
    initialized = true;
  }
  int n = process_count();
  if (options.num_processes > 0 && options.num_processes != n)
    throw ValueError("distributed::initialize: the program expects " + std::to_string(options.num_processes) +
                     " processes, but this run has " + std::to_string(n) +
#ifdef STRATA_HAVE_MPI
                     " (start it with: mpirun -np " + std::to_string(options.num_processes) + " PROGRAM)"
#else
                     " (this build of strata has no MPI: install libopenmpi-dev and rebuild)"
#endif
    );
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(init_mutex);
  return initialized;
}
int process_index() { return static_cast<int>(collectives::transport().world_rank()); }
int process_count() { return static_cast<int>(collectives::transport().world_size()); }
std::string transport_name() { return std::string(collectives::transport().name()); }

void barrier() {
  int32_t one = 1, sum = 0;
  collectives::run({.kind = cr::Kind::kPsum, .dtype = DType::i32, .group = world_group(), .in_elements = 1}, &one, &sum);
}

std::vector<ProcessDevices> devices() {
  // Per process: its host name (64 bytes) and its devices (kind, index; up to 64).
  constexpr size_t kHostWords = 8, kMaxDevices = 64;
  std::vector<int64_t> mine(kHostWords + 1 + 2 * kMaxDevices, 0);
  std::string host;
#ifdef STRATA_HAVE_MPI
  if (transport_name() == "mpi") host = mpi::processor_name();
#endif
  if (host.empty()) {
    char buf[256] = {};
    gethostname(buf, sizeof buf - 1);
    host = buf;
  }
  std::memcpy(mine.data(), host.data(), std::min(host.size(), kHostWords * 8 - 1));
  std::vector<Device> local = strata::devices();
  mine[kHostWords] = static_cast<int64_t>(std::min(local.size(), kMaxDevices));
  for (size_t i = 0; i < local.size() && i < kMaxDevices; ++i) {
    mine[kHostWords + 1 + 2 * i] = static_cast<int64_t>(local[i].kind);
    mine[kHostWords + 2 + 2 * i] = local[i].index;
  }
  std::vector<int64_t> all = gather_words(mine);
  std::vector<ProcessDevices> out;
  for (int p = 0; p < process_count(); ++p) {
    const int64_t* w = all.data() + static_cast<size_t>(p) * mine.size();
    ProcessDevices d{.process = p, .host = std::string(reinterpret_cast<const char*>(w))};
    for (int64_t i = 0; i < w[kHostWords]; ++i)
      d.devices.push_back(Device{static_cast<DeviceKind>(w[kHostWords + 1 + 2 * i]), static_cast<int>(w[kHostWords + 2 + 2 * i])});
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace distributed

// ---- Mesh ----

Mesh::Mesh(std::vector<int64_t> shape, std::vector<std::string> axis_names)
    : shape_(std::move(shape)), names_(std::move(axis_names)) {
  if (shape_.size() != names_.size())
    throw ValueError("Mesh: " + std::to_string(shape_.size()) + " sizes but " + std::to_string(names_.size()) +
                     " axis names");
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (shape_[i] < 1) throw ValueError("Mesh: axis '" + names_[i] + "' has size " + std::to_string(shape_[i]));
    if (names_[i].empty()) throw ValueError("Mesh: axis " + std::to_string(i) + " has an empty name");
    for (size_t j = 0; j < i; ++j)
      if (names_[i] == names_[j]) throw ValueError("Mesh: axis name '" + names_[i] + "' appears twice");
  }
}
Mesh Mesh::of_processes(const std::string& axis_name) { return Mesh({distributed::process_count()}, {axis_name}); }
int64_t Mesh::size() const {
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}
int Mesh::dim(const std::string& axis) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == axis) return static_cast<int>(i);
  throw ValueError("Mesh: no axis named '" + axis + "' in " + str());
}
std::vector<int64_t> Mesh::coords(int64_t process) const {
  std::vector<int64_t> c(shape_.size());
  for (size_t d = shape_.size(); d-- > 0;) {
    c[d] = process % shape_[d];
    process /= shape_[d];
  }
  return c;
}
std::string Mesh::str() const {
  std::string s = "Mesh(";
  for (size_t i = 0; i < shape_.size(); ++i) s += (i ? ", '" : "'") + names_[i] + "': " + std::to_string(shape_[i]);
  return s + ")";
}

// ---- shard_map's halves ----

namespace detail {
namespace {

// The block of each dimension, after checking `spec` against the array and the mesh.
Shape block_shape(const Mesh& mesh, const Shape& global, const PartitionSpec& spec, const std::string& what) {
  if (spec.size() > global.size())
    throw ValueError("shard_map: the spec of " + what + " names " + std::to_string(spec.size()) +
                     " dimensions, but it has rank " + std::to_string(global.size()));
  Shape block = global;
  for (size_t d = 0; d < spec.size(); ++d) {
    if (spec[d].empty()) continue;
    for (size_t e = 0; e < d; ++e)
      if (spec[e] == spec[d])
        throw ValueError("shard_map: the spec of " + what + " splits two dimensions over mesh axis '" + spec[d] + "'");
    int64_t n = mesh.axis_size(spec[d]);
    if (global[d] % n != 0)
      throw ShapeError("shard_map: dimension " + std::to_string(d) + " of " + what + " (size " + std::to_string(global[d]) +
                       ") does not split evenly over mesh axis '" + spec[d] + "' of size " + std::to_string(n));
    block[d] = global[d] / n;
  }
  return block;
}

// This process's offsets into the global array (0-d i32 each): axis_index times the block.
std::vector<Array> starts(const Shape& block, const PartitionSpec& spec) {
  std::vector<Array> s;
  for (size_t d = 0; d < block.size(); ++d)
    s.push_back(d < spec.size() && !spec[d].empty()
                    ? lax::mul(axis_index(spec[d]), lax::scalar(static_cast<double>(block[d]), DType::i32))
                    : lax::scalar(0, DType::i32));
  return s;
}

bool splits(const PartitionSpec& spec) {
  for (const std::string& a : spec)
    if (!a.empty()) return true;
  return false;
}

}  // namespace

MeshAxes::MeshAxes(const Mesh& mesh) {
  int64_t n = distributed::process_count();
  if (mesh.size() != n)
    throw ValueError("shard_map: " + mesh.str() + " has " + std::to_string(mesh.size()) + " shards, but this run has " +
                     std::to_string(n) + " processes (one shard per process; st::distributed::initialize() under mpirun -np " +
                     std::to_string(mesh.size()) + ")");
  std::vector<collectives::AxisFrame> frames;
  for (size_t d = 0; d < mesh.shape().size(); ++d)
    frames.push_back({mesh.axis_names()[d], mesh.shape()[d], cr::Group{mesh.shape(), {static_cast<int64_t>(d)}}});
  scope_ = std::make_shared<collectives::AxisScope>(std::move(frames));
}
MeshAxes::~MeshAxes() = default;

Array shard_enter(const Mesh& mesh, const Array& global, const PartitionSpec& spec, const std::string& what) {
  const AbstractValue gav = api::aval(global, "shard_map");
  const Shape block = block_shape(mesh, gav.shape, spec, what);
  auto slice = [block, spec](const Array& x) {
    return splits(spec) ? lax::dynamic_slice(x, starts(block, spec), IntList(block.begin(), block.end())) : x;
  };
  if (!is_inexact(gav.dtype)) return slice(global);  // no cotangent to assemble
  auto f = custom_vjp(
      [slice](const Array& x) { return slice(x); },
      [slice](const Array& x) { return std::make_pair(slice(x), lax::scalar(0, DType::f32)); },
      [gav, block, spec, names = mesh.axis_names()](const Array&, const Array& ct) {
        // Every process's block, put in place and summed: the cotangent of the whole.
        Array g = splits(spec) ? lax::dynamic_update_slice(lax::zeros(gav), ct, starts(block, spec)) : ct;
        for (const std::string& a : names) g = psum(g, a);
        return g;
      });
  return f(global);
}

Array shard_exit(const Mesh& mesh, const Array& local, const PartitionSpec& spec, const std::string& what) {
  const AbstractValue lav = api::aval(local, "shard_map");
  if (spec.size() > lav.shape.size())
    throw ValueError("shard_map: the spec of " + what + " names " + std::to_string(spec.size()) +
                     " dimensions, but it has rank " + std::to_string(lav.shape.size()));
  auto join = [spec](const Array& x) {
    Array y = x;
    for (size_t d = 0; d < spec.size(); ++d)
      if (!spec[d].empty()) y = all_gather(y, spec[d], static_cast<int>(d), /*tiled=*/true);
    return y;
  };
  Shape global = lav.shape;
  int64_t replicas = mesh.size();
  for (size_t d = 0; d < spec.size(); ++d)
    if (!spec[d].empty()) {
      global[d] *= mesh.axis_size(spec[d]);
      replicas /= mesh.axis_size(spec[d]);
    }
  (void)block_shape(mesh, global, spec, what);  // checks the spec's axes
  if (!is_inexact(lav.dtype)) return join(local);
  auto f = custom_vjp(
      [join](const Array& x) { return join(x); },
      [join](const Array& x) { return std::make_pair(join(x), lax::scalar(0, DType::f32)); },
      [lav, spec, replicas](const Array&, const Array& ct) {
        // This process's block of the cotangent, shared among the processes holding it.
        Array g = splits(spec) ? lax::dynamic_slice(ct, starts(lav.shape, spec), IntList(lav.shape.begin(), lav.shape.end()))
                               : ct;
        return replicas == 1 ? g : lax::div(g, lax::scalar(static_cast<double>(replicas), g.dtype()));
      });
  return f(local);
}

void check_global_argument(const Mesh& mesh, const distributed::GlobalArray& a, const PartitionSpec& spec,
                           const std::string& what) {
  auto trimmed = [](PartitionSpec s) {
    while (!s.empty() && s.back().empty()) s.pop_back();
    return s;
  };
  if (!a.mesh || a.mesh->shape() != mesh.shape() || a.mesh->axis_names() != mesh.axis_names())
    throw ValueError("shard_map: " + what + " is a GlobalArray over " + (a.mesh ? a.mesh->str() : std::string("no mesh")) +
                     ", but the shard_map runs over " + mesh.str());
  if (trimmed(a.spec) != trimmed(spec))
    throw ValueError("shard_map: " + what + " is a GlobalArray split otherwise than its in_spec says");
}

}  // namespace detail

// ---- Global arrays ----

namespace distributed {

GlobalArray shard(const Array& full, const Mesh& mesh, const PartitionSpec& spec) {
  detail::MeshAxes axes(mesh);
  return {api::aval(full, "distributed::shard").shape, std::make_shared<Mesh>(mesh), spec,
          detail::shard_enter(mesh, full, spec, "the array")};
}

GlobalArray from_local(const Array& local, const Mesh& mesh, const PartitionSpec& spec) {
  Shape global = api::aval(local, "distributed::from_local").shape;
  if (spec.size() > global.size())
    throw ValueError("distributed::from_local: the spec names " + std::to_string(spec.size()) +
                     " dimensions, but the local array has rank " + std::to_string(global.size()));
  for (size_t d = 0; d < spec.size(); ++d)
    if (!spec[d].empty()) global[d] *= mesh.axis_size(spec[d]);
  return {global, std::make_shared<Mesh>(mesh), spec, local};
}

Array gather_to_host(const GlobalArray& x) {
  if (!x.mesh) throw ValueError("distributed::gather_to_host: the array has no mesh");
  detail::MeshAxes axes(*x.mesh);
  return detail::shard_exit(*x.mesh, x.local, x.spec, "the array");
}

}  // namespace distributed
}  // namespace strata
