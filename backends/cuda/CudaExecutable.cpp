// A program compiled for one GPU (CudaExecutable.h). execute() resolves each step's pointers
// for the call and queues the steps on the device's stream: it returns before they run, and
// reading an output on the host waits for them (Allocator.h: copies synchronize the stream).
#include "backends/cuda/CudaExecutable.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <vector>

#include "backends/cuda/Allocator.h"
#include "backends/cuda/CublasLt.h"
#include "lowering/CpuAbi.h"
#include "backends/cuda/Driver.h"
#include "strata/array.h"

namespace strata::backends::cuda {
namespace {

struct AtomicGraphStats {
  std::atomic<uint64_t> captures{0}, replays{0}, failures{0};
};
AtomicGraphStats g_stats;

// STRATA_CUDA_GRAPHS=0 turns graphs off; set_graphs_enabled overrides it.
std::atomic<bool>& graphs_on() {
  static std::atomic<bool> on{[] {
    const char* e = std::getenv("STRATA_CUDA_GRAPHS");
    return !(e && std::string_view(e) == "0");
  }()};
  return on;
}

// A device buffer owned by the executable (a constant or a global).
struct DeviceBuffer {
  int device = 0;
  void* p = nullptr;
  ~DeviceBuffer() { deallocate(device, p); }
};

absl::StatusOr<std::unique_ptr<DeviceBuffer>> upload(int device, const void* data, size_t bytes) {
  absl::StatusOr<void*> p = allocate(device, bytes);
  if (!p.ok()) return p.status();
  auto b = std::make_unique<DeviceBuffer>();
  b->device = device;
  b->p = *p;
  if (bytes) {
    if (absl::Status s = driver().copy_to_device(device, reinterpret_cast<CUdeviceptr>(*p), data, bytes); !s.ok())
      return s;
    if (absl::Status s = driver().synchronize(device); !s.ok()) return s;
  }
  return b;
}

class CudaExecutable final : public Executable {
 public:
  CudaExecutable(HostProgram host, backends::Program p, std::string ptx, int device)
      : host_(std::move(host)), p_(std::move(p)), device_(device) {
    all_stages_ = p_.stages;
    all_stages_.emplace_back("steps", host_.str());
    for (const Step& s : host_.steps) has_gemm_ = has_gemm_ || s.kind == Step::Kind::gemm;
    ptx_ = std::move(ptx);
  }
  ~CudaExecutable() override {
    // Graphs still running are freed by the driver when they finish; their buffers are reused
    // only by work queued after them on the device stream.
    for (GraphEntry& e : graphs_.entries) (void)driver().destroy_graph_exec(e.exec);
    deallocate(device_, graphs_.arena);
    if (module_) (void)driver().unload_module(device_, module_);
  }

  absl::Status load(const std::string& cubin) {
    if (absl::Status s = driver().use_device(device_); !s.ok()) return s;
    if (!host_.kernels.empty()) {
      absl::StatusOr<CUmodule> m = driver().load_module(device_, cubin.data());
      if (!m.ok()) return m.status();
      module_ = *m;
    }
    for (const std::string& k : host_.kernels) {
      absl::StatusOr<CUfunction> f = driver().get_function(module_, k.c_str());
      if (!f.ok()) return f.status();
      functions_.push_back(*f);
    }
    // Constants on the host are copied to the device; one already there (a GPU array a traced
    // function closed over) is used in place, kept alive by p_.consts.
    for (const Array& c : p_.consts) {
      if (c.device() == device()) {
        const_ptrs_.push_back(const_cast<void*>(c.data()));
        continue;
      }
      if (c.device().kind != DeviceKind::cpu)
        return absl::InvalidArgumentError("a constant of the program lives on " + c.device().str() + ", not " +
                                          device().str());
      auto b = upload(device_, c.data(), c.nbytes());
      if (!b.ok()) return b.status();
      const_ptrs_.push_back((*b)->p);
      owned_.push_back(*std::move(b));
    }
    for (const std::string& g : host_.globals) {
      auto b = upload(device_, g.data(), g.size());
      if (!b.ok()) return b.status();
      global_ptrs_.push_back((*b)->p);
      owned_.push_back(*std::move(b));
    }
    return absl::OkStatus();
  }

  absl::Status execute(const void* const* inputs, void* const* outputs, Stream* stream) const override {
    if (stream && stream->device() != device())
      return absl::InvalidArgumentError("a " + device().str() + " executable was given a stream of " +
                                        stream->device().str());
    Driver& d = driver();
    if (absl::Status s = d.use_device(device_); !s.ok()) return s;
    if (host_.steps.size() >= 2 && graphs_enabled()) {
      absl::StatusOr<bool> replayed = run_as_graph(inputs, outputs);
      if (!replayed.ok() || *replayed) return replayed.status();
    }
    // The arena (the scratch buffers, then cuBLASLt's workspace): taken from the caching
    // allocator and given back once the steps are queued — work on the device's one stream is
    // ordered, so the next user of the block runs after these steps.
    absl::StatusOr<void*> arena = allocate(device_, arena_bytes());
    if (!arena.ok()) return arena.status();
    absl::Status status = enqueue(inputs, outputs, *arena, workspace_of(*arena), nullptr);
    deallocate(device_, *arena);
    return status;
  }

  // The arena's size: the scratch buffers (rounded to 256 bytes), then the GEMM workspace when
  // a step calls cuBLASLt.
  size_t scratch_span() const { return (static_cast<size_t>(p_.memory.scratch_bytes) + 255) & ~size_t{255}; }
  size_t arena_bytes() const { return scratch_span() + (has_gemm_ ? kGemmWorkspace : 0); }
  void* workspace_of(void* arena) const { return has_gemm_ ? static_cast<char*>(arena) + scratch_span() : nullptr; }

  // Queues every step on `stream` (the device stream when null) over the call's buffers.
  absl::Status enqueue(const void* const* inputs, void* const* outputs, void* scratch, void* workspace,
                       CUstream stream) const {
    Driver& d = driver();
    auto base = [&](const BufferRef& r) -> char* {
      char* b = nullptr;
      switch (r.base) {
        case BufferRef::Base::constant: b = static_cast<char*>(const_ptrs_[static_cast<size_t>(r.index)]); break;
        case BufferRef::Base::input: b = static_cast<char*>(const_cast<void*>(inputs[r.index])); break;
        case BufferRef::Base::output: {
          int alias = output_alias(r.index);
          b = static_cast<char*>(alias >= 0 ? const_cast<void*>(inputs[alias]) : outputs[r.index]);
          break;
        }
        case BufferRef::Base::scratch: b = static_cast<char*>(scratch); break;
        case BufferRef::Base::global: b = static_cast<char*>(global_ptrs_[static_cast<size_t>(r.index)]); break;
      }
      return b + r.offset;
    };
    absl::Status status;
    std::vector<uint64_t> values;
    std::vector<void*> params;
    for (const Step& s : host_.steps) {
      if (s.kind == Step::Kind::gemm) {
        status = run_gemm(s, base, workspace, stream);
      } else if (s.kind == Step::Kind::copy) {
        status = d.copy_device(device_, reinterpret_cast<CUdeviceptr>(base(s.dst)),
                               reinterpret_cast<CUdeviceptr>(base(s.src)), static_cast<size_t>(s.bytes), stream);
      } else {
        values.assign(s.args.size(), 0);
        params.resize(s.args.size());
        for (size_t i = 0; i < s.args.size(); ++i) {
          const KernelArg& a = s.args[i];
          void* slot = &values[i];
          switch (a.kind) {
            case KernelArg::Kind::pointer: *static_cast<char**>(slot) = base(a.buffer); break;
            case KernelArg::Kind::i32: *static_cast<int32_t*>(slot) = static_cast<int32_t>(a.i); break;
            case KernelArg::Kind::i64: *static_cast<int64_t*>(slot) = a.i; break;
            case KernelArg::Kind::f32: *static_cast<float*>(slot) = static_cast<float>(a.f); break;
            case KernelArg::Kind::f64: *static_cast<double*>(slot) = a.f; break;
          }
          params[i] = slot;
        }
        status = d.launch(device_, functions_[static_cast<size_t>(s.kernel)], s.grid[0], s.grid[1], s.grid[2],
                          s.block[0], s.block[1], s.block[2], s.shared_bytes, stream, params.data());
      }
      if (!status.ok()) break;
    }
    return status;
  }

  int output_alias(int output) const {
    return static_cast<size_t>(output) < p_.output_aliases.size() ? p_.output_aliases[static_cast<size_t>(output)] : -1;
  }

  // The call as one graph launch (true), or not (false: run it as plain launches). Buffers seen
  // for the first time are remembered; the second time they are recorded as a graph. A program
  // whose capture fails (a step the driver cannot record) stays with plain launches.
  absl::StatusOr<bool> run_as_graph(const void* const* inputs, void* const* outputs) const {
    Driver& d = driver();
    std::vector<const void*> key(inputs, inputs + p_.inputs.size());
    for (int o = 0; o < static_cast<int>(p_.outputs.size()); ++o)  // a donated output is its input
      key.push_back(output_alias(o) >= 0 ? nullptr : outputs[o]);
    std::lock_guard<std::mutex> lock(graphs_.mu);
    Graphs& g = graphs_;
    if (g.failed) return false;
    ++g.clock;
    for (GraphEntry& e : g.entries)
      if (e.key == key) {
        e.used = g.clock;
        if (absl::Status s = d.graph_launch(device_, e.exec); !s.ok()) return s;
        g_stats.replays.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    auto seen = std::find(g.seen.begin(), g.seen.end(), key);
    if (seen == g.seen.end()) {
      g.seen.push_back(std::move(key));
      if (g.seen.size() > kSeen) g.seen.erase(g.seen.begin());
      return false;
    }
    g.seen.erase(seen);
    // The graphs' arena (scratch and workspace) is the executable's, taken before capturing
    // (the allocator may not reach the driver during a capture) and shared by its graphs.
    if (!g.arena) {
      absl::StatusOr<void*> p = allocate(device_, arena_bytes());
      if (!p.ok()) return false;
      g.arena = *p;
    }
    absl::StatusOr<CUgraph> graph = d.capture(
        device_, [&](CUstream s) { return enqueue(inputs, outputs, g.arena, workspace_of(g.arena), s); });
    if (!graph.ok()) return give_up(g);
    absl::StatusOr<CUgraphExec> exec = d.instantiate(device_, *graph);
    (void)d.destroy_graph(*graph);
    if (!exec.ok()) return give_up(g);
    g_stats.captures.fetch_add(1, std::memory_order_relaxed);
    if (g.entries.size() == kGraphs) {  // the least recently used goes (freed after its launches)
      auto lru = std::min_element(g.entries.begin(), g.entries.end(),
                                  [](const GraphEntry& a, const GraphEntry& b) { return a.used < b.used; });
      (void)d.destroy_graph_exec(lru->exec);
      g.entries.erase(lru);
    }
    g.entries.push_back({std::move(key), *exec, g.clock});
    if (absl::Status s = d.graph_launch(device_, *exec); !s.ok()) return s;
    g_stats.replays.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

  struct GraphEntry {
    std::vector<const void*> key;
    CUgraphExec exec = nullptr;
    uint64_t used = 0;
  };
  struct Graphs {
    std::mutex mu;
    std::vector<GraphEntry> entries;
    std::vector<std::vector<const void*>> seen;
    void* arena = nullptr;  // the graphs' scratch buffers and GEMM workspace (arena_bytes)
    uint64_t clock = 0;
    bool failed = false;
  };
  // A capture or instantiation the driver refused (counted in graph_stats): plain launches.
  static bool give_up(Graphs& g) {
    g.failed = true;
    g_stats.failures.fetch_add(1, std::memory_order_relaxed);
    return false;
  }

  template <class Base>
  absl::Status run_gemm(const Step& s, Base& base, void* workspace, CUstream stream) const {
    const std::vector<KernelArg>& a = s.args;
    GemmArgs g;
    g.device = device_;
    g.type = static_cast<GemmType>(a[0].i);
    int64_t flags = a[1].i;
    g.batch = a[2].i;
    g.m = a[3].i;
    g.n = a[4].i;
    g.k = a[5].i;
    g.trans_a = (flags & ::strata::cpu_abi::kLhsContractFirst) != 0;
    g.trans_b = (flags & ::strata::cpu_abi::kRhsFreeFirst) != 0;
    g.stride_a = g.m * g.k;
    g.stride_b = g.k * g.n;
    g.stride_d = g.m * g.n;
    g.a = base(a[6].buffer);
    g.b = base(a[7].buffer);
    g.d = base(a[8].buffer);
    if (a.size() == 11) {
      const int64_t kind = a[9].i;  // HostProgram.h: gemm_epilogue_known
      if (!gemm_epilogue_known(kind)) return absl::InternalError("a GEMM step with an unknown epilogue");
      const bool bias = kind & 2;
      g.epilogue = kind & 1 ? (bias ? GemmEpilogue::relu_bias : GemmEpilogue::relu)
                 : kind & 4 ? (bias ? GemmEpilogue::gelu_bias : GemmEpilogue::gelu)
                            : (bias ? GemmEpilogue::bias : GemmEpilogue::none);
      if (a[10].kind == KernelArg::Kind::pointer) g.bias = base(a[10].buffer);
    }
    g.workspace = workspace;
    g.workspace_bytes = kGemmWorkspace;
    g.stream = stream;
    if (g.m == 0 || g.n == 0 || g.batch == 0) return absl::OkStatus();
    if (g.k == 0 && g.epilogue == GemmEpilogue::none) {  // an empty sum: zeros
      int64_t bytes = g.batch * g.m * g.n * (g.type == GemmType::f32 ? 4 : 2);
      return driver().memset_zero(device_, reinterpret_cast<CUdeviceptr>(g.d), static_cast<size_t>(bytes), stream);
    }
    return gemm(g);
  }

  const std::vector<AbstractValue>& input_types() const override { return p_.inputs; }
  const std::vector<AbstractValue>& output_types() const override { return p_.outputs; }
  std::string assembly() const override { return ptx_; }
  const std::vector<std::pair<std::string, std::string>>& stage_texts() const override { return all_stages_; }
  const std::vector<StageTime>& compile_times() const override { return p_.times; }
  MemoryAnalysis memory_analysis() const override { return p_.memory; }
  CostAnalysis cost_analysis() const override { return p_.cost; }
  Device device() const override { return Device{DeviceKind::cuda, device_}; }
  const std::vector<int>& output_aliases() const override { return p_.output_aliases; }
  bool from_disk_cache() const override { return p_.from_disk_cache; }

 private:
  HostProgram host_;
  backends::Program p_;
  int device_;
  std::string ptx_;
  std::vector<std::pair<std::string, std::string>> all_stages_;
  static constexpr size_t kGemmWorkspace = 32 << 20;
  bool has_gemm_ = false;
  static constexpr size_t kGraphs = 4;  // graphs kept per executable (buffer sets)
  static constexpr size_t kSeen = 8;    // buffer sets remembered from one call
  mutable Graphs graphs_;
  CUmodule module_ = nullptr;
  std::vector<CUfunction> functions_;
  std::vector<std::unique_ptr<DeviceBuffer>> owned_;
  std::vector<void*> const_ptrs_, global_ptrs_;
};

}  // namespace

void set_graphs_enabled(bool on) { graphs_on().store(on); }
bool graphs_enabled() { return graphs_on().load(std::memory_order_relaxed); }
GraphStats graph_stats() {
  return {g_stats.captures.load(), g_stats.replays.load(), g_stats.failures.load()};
}

absl::StatusOr<std::shared_ptr<const Executable>> make_executable(HostProgram host, std::string cubin,
                                                                  std::string ptx, backends::Program program,
                                                                  int device) {
  auto exe = std::make_shared<CudaExecutable>(std::move(host), std::move(program), std::move(ptx), device);
  if (absl::Status s = exe->load(cubin); !s.ok()) return s;
  return std::shared_ptr<const Executable>(std::move(exe));
}

}  // namespace strata::backends::cuda
