// strata/distributed.h — more than one process: MPI start-up, meshes of processes, shard_map,
// and arrays split across processes. The collectives themselves are in strata/collectives.h.
//
//   int main() {
//     st::distributed::initialize();                      // under mpirun -np 4
//     st::Mesh mesh({4}, {"data"});                        // one shard per process
//     auto step = st::jit(st::shard_map(
//         [](const Params& p, const st::Array& x, const st::Array& y) {
//           Params g = st::grad(loss)(p, x, y);             // this process's shard of the batch
//           return sgd(p, st::pmean(g, "data"));            // gradients averaged over processes
//         },
//         mesh, {{}, {"data"}, {"data"}}, {{}}));
//   }
//
// The model is JAX's shard_map with one shard per process (CPU; a GPU of each process later):
// the mapped function sees per-shard values and calls collectives over the mesh's axes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "strata/array.h"
#include "strata/device.h"
#include "strata/pytree.h"

namespace strata {

namespace distributed {

struct InitOptions {
  // The process count the program expects (0: any). A run of another size is a ValueError
  // naming both (e.g. a program for 4 processes started without mpirun).
  int num_processes = 0;
  // A collective not complete after this many seconds throws (a rank failed, or ranks issue
  // collectives in different orders); STRATA_COLLECTIVE_TIMEOUT overrides it.
  double collective_timeout_seconds = 300;
};
// Starts the processes' transport (MPI, from the launcher's environment: mpirun/srun) and
// makes the collectives run over it. Idempotent. Without a launcher MPI runs one process.
// A build without MPI has one process and refuses num_processes > 1.
void initialize(const InitOptions& options = {});
bool is_initialized();
// This process's rank and the number of processes (0 and 1 before initialize()).
int process_index();
int process_count();
// Every process's devices, by rank (a collective: every process calls it).
struct ProcessDevices {
  int process = 0;
  std::string host;
  std::vector<Device> devices;
};
std::vector<ProcessDevices> devices();
// Waits until every process reaches it.
void barrier();
// "mpi" or "self" (one process).
std::string transport_name();

}  // namespace distributed

// A grid of processes with named axes: process p sits at the row-major coordinates of p in
// `shape`; its product must be the process count when a shard_map runs over it.
class Mesh {
 public:
  Mesh(std::vector<int64_t> shape, std::vector<std::string> axis_names);
  // All processes along one axis.
  static Mesh of_processes(const std::string& axis_name);

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<std::string>& axis_names() const { return names_; }
  int64_t size() const;
  // The mesh dimension named `axis` (ValueError naming the mesh's axes if none), and its size.
  int dim(const std::string& axis) const;
  int64_t axis_size(const std::string& axis) const { return shape_[static_cast<size_t>(dim(axis))]; }
  // Process p's coordinate along each axis.
  std::vector<int64_t> coords(int64_t process) const;
  std::string str() const;  // "Mesh('data': 4)"

 private:
  std::vector<int64_t> shape_;
  std::vector<std::string> names_;
};

// How an array's dimensions split over a mesh: entry d names the mesh axis dimension d is split
// over (evenly, in order of the axis's coordinate), "" (or a missing trailing entry) keeps it
// whole; mesh axes not named replicate the array. {} is fully replicated.
using PartitionSpec = std::vector<std::string>;

namespace distributed {

// An array split across processes: its global shape, how it splits, and this process's block.
struct GlobalArray {
  Shape global_shape;
  std::shared_ptr<const Mesh> mesh;
  PartitionSpec spec;
  Array local;
};
// This process's block of `full` (every process holds `full`; nothing is sent).
GlobalArray shard(const Array& full, const Mesh& mesh, const PartitionSpec& spec);
// The global array whose block on each process is that process's `local` (all of one shape).
GlobalArray from_local(const Array& local, const Mesh& mesh, const PartitionSpec& spec);
// The whole array on every process (a collective: every process calls it), for inspection
// and checkpoints.
Array gather_to_host(const GlobalArray& x);

}  // namespace distributed

// A GlobalArray is a pytree of one leaf (its block); its mesh, spec and global shape are part of
// the structure, so jit retraces when they change.
namespace tree {
template <>
struct Tree<distributed::GlobalArray> {
  static constexpr bool kStatic = false;
  static void flatten(const distributed::GlobalArray& g, std::vector<Array>& out) { out.push_back(g.local); }
  static distributed::GlobalArray unflatten(const distributed::GlobalArray& proto, const Array*& it) {
    distributed::GlobalArray g = proto;
    g.local = *it++;
    return g;
  }
  static void sign(const distributed::GlobalArray& g, Signature& s) {
    s.word(kTokStruct);
    std::string layout = g.mesh ? g.mesh->str() : std::string();
    for (const std::string& a : g.spec) layout += "|" + a;
    for (int64_t d : g.global_shape) layout += "," + std::to_string(d);
    s.word(layout.size());
    s.bytes(layout.data(), layout.size());
    Tree<Array>::sign(g.local, s);
  }
  static void describe(const distributed::GlobalArray& g, const std::string& path, Description& out) {
    describe_leaf(g.local, path + " (block of a GlobalArray)", out);
  }
};
}  // namespace tree

namespace detail {
// Binds the mesh's axis names for the dynamic extent of the object (after checking the mesh
// fits the process count).
class MeshAxes {
 public:
  explicit MeshAxes(const Mesh& mesh);
  ~MeshAxes();
  MeshAxes(const MeshAxes&) = delete;
  MeshAxes& operator=(const MeshAxes&) = delete;

 private:
  std::shared_ptr<void> scope_;
};
// A global value's block on this process (differentiable: the cotangent is assembled from every
// process's block, a psum over the mesh), and back: the blocks of a per-shard value joined
// into the global one (its cotangent: this process's block, shared among its replicas).
Array shard_enter(const Mesh& mesh, const Array& global, const PartitionSpec& spec, const std::string& what);
Array shard_exit(const Mesh& mesh, const Array& local, const PartitionSpec& spec, const std::string& what);
// A GlobalArray argument must be split as its in_spec says, over an equal mesh.
void check_global_argument(const Mesh& mesh, const distributed::GlobalArray& a, const PartitionSpec& spec,
                           const std::string& what);
// What the mapped function receives for an argument of type T: its block, an Array for a
// GlobalArray.
template <class T>
using Local = std::conditional_t<std::is_same_v<T, distributed::GlobalArray>, Array, T>;
}  // namespace detail

// shard_map(f, mesh, in_specs, out_specs): f runs on each process on its block of every
// argument (in_specs[i] splits each array leaf of argument i), with the mesh's axis names
// bound for its collectives; the results are joined by out_specs (one per output leaf, or one
// for all) into global values. Arguments are global arrays that every process holds whole
// (replicated data: the unsharded program's inputs); each process computes on its own block
// only. An argument may also be a distributed::GlobalArray split as its in_spec says (each
// process holding only its block, e.g. from distributed::from_local): its block is passed as is.
// Composes with jit, grad and vmap (not forward-mode jvp: its halves are custom_vjp calls,
// which have no JVP rule, as in JAX). As in JAX, an output whose spec
// does not name a mesh axis is taken to be equal on every process along it (as after psum).
template <class F>
auto shard_map(F f, Mesh mesh, std::vector<PartitionSpec> in_specs, std::vector<PartitionSpec> out_specs) {
  return [f = std::move(f), mesh = std::move(mesh), in_specs = std::move(in_specs),
          out_specs = std::move(out_specs)](const auto&... args) mutable {
    if (in_specs.size() != sizeof...(args))
      throw ValueError("shard_map: in_specs has " + std::to_string(in_specs.size()) +
                       " entries, but the function was called with " + std::to_string(sizeof...(args)) + " arguments");
    detail::MeshAxes axes(mesh);
    std::size_t index = 0;
    auto enter = [&](const auto& a) {
      if constexpr (std::is_same_v<std::decay_t<decltype(a)>, distributed::GlobalArray>) {
        // Already split: this process's block is the argument (not differentiated).
        detail::check_global_argument(mesh, a, in_specs[index], "argument " + std::to_string(index));
        ++index;
        return a.local;
      } else {
      std::vector<Array> leaves;
      tree::Tree<std::decay_t<decltype(a)>>::flatten(a, leaves);
      for (std::size_t k = 0; k < leaves.size(); ++k)
        leaves[k] = detail::shard_enter(mesh, leaves[k], in_specs[index],
                                        "argument " + std::to_string(index) + " (leaf " + std::to_string(k) + ")");
      ++index;
      const Array* it = leaves.data();
      return tree::Tree<std::decay_t<decltype(a)>>::unflatten(a, it);
      }
    };
    std::tuple<detail::Local<std::decay_t<decltype(args)>>...> locals{enter(args)...};
    auto out = std::apply(f, locals);
    std::vector<Array> leaves = tree_flatten(out);
    if (out_specs.size() != 1 && out_specs.size() != leaves.size())
      throw ValueError("shard_map: out_specs has " + std::to_string(out_specs.size()) + " entries, but the function returned " +
                       std::to_string(leaves.size()) + " arrays");
    for (std::size_t k = 0; k < leaves.size(); ++k)
      leaves[k] = detail::shard_exit(mesh, leaves[k], out_specs[out_specs.size() == 1 ? 0 : k],
                                     "output " + std::to_string(k));
    return tree_unflatten(tree_strip(out), leaves);
  };
}

}  // namespace strata
