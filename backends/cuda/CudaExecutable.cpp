// A program compiled for one GPU (CudaExecutable.h). execute() resolves each step's pointers
// for the call and queues the steps on the device's stream: it returns before they run, and
// reading an output on the host waits for them (Allocator.h: copies synchronize the stream).
#include "backends/cuda/CudaExecutable.h"

#include <vector>

#include "backends/cuda/Allocator.h"
#include "backends/cuda/CublasLt.h"
#include "lowering/CpuAbi.h"
#include "backends/cuda/Driver.h"
#include "strata/array.h"

namespace strata::backends::cuda {
namespace {

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
    // The scratch arena: taken from the caching allocator and given back once the steps are
    // queued — work on the device's one stream is ordered, so the next user of the block runs
    // after these steps.
    absl::StatusOr<void*> scratch = allocate(device_, static_cast<size_t>(p_.memory.scratch_bytes));
    if (!scratch.ok()) return scratch.status();
    void* workspace = nullptr;  // cuBLASLt's, taken and given back as the arena is
    if (has_gemm_) {
      absl::StatusOr<void*> w = allocate(device_, kGemmWorkspace);
      if (!w.ok()) {
        deallocate(device_, *scratch);
        return w.status();
      }
      workspace = *w;
    }
    auto base = [&](const BufferRef& r) -> char* {
      char* b = nullptr;
      switch (r.base) {
        case BufferRef::Base::constant: b = static_cast<char*>(const_ptrs_[static_cast<size_t>(r.index)]); break;
        case BufferRef::Base::input: b = static_cast<char*>(const_cast<void*>(inputs[r.index])); break;
        case BufferRef::Base::output: {
          int alias = static_cast<size_t>(r.index) < p_.output_aliases.size() ? p_.output_aliases[static_cast<size_t>(r.index)] : -1;
          b = static_cast<char*>(alias >= 0 ? const_cast<void*>(inputs[alias]) : outputs[r.index]);
          break;
        }
        case BufferRef::Base::scratch: b = static_cast<char*>(*scratch); break;
        case BufferRef::Base::global: b = static_cast<char*>(global_ptrs_[static_cast<size_t>(r.index)]); break;
      }
      return b + r.offset;
    };
    absl::Status status;
    std::vector<uint64_t> values;
    std::vector<void*> params;
    for (const Step& s : host_.steps) {
      if (s.kind == Step::Kind::gemm) {
        status = run_gemm(s, base, workspace);
      } else if (s.kind == Step::Kind::copy) {
        status = d.copy_device(device_, reinterpret_cast<CUdeviceptr>(base(s.dst)),
                               reinterpret_cast<CUdeviceptr>(base(s.src)), static_cast<size_t>(s.bytes));
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
                          s.block[0], s.block[1], s.block[2], s.shared_bytes, nullptr, params.data());
      }
      if (!status.ok()) break;
    }
    deallocate(device_, *scratch);
    deallocate(device_, workspace);
    return status;
  }

  template <class Base>
  absl::Status run_gemm(const Step& s, Base& base, void* workspace) const {
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
      static const GemmEpilogue kinds[] = {GemmEpilogue::none, GemmEpilogue::relu, GemmEpilogue::bias,
                                           GemmEpilogue::relu_bias};
      if (a[9].i < 0 || a[9].i > 3) return absl::InternalError("a GEMM step with an unknown epilogue");
      g.epilogue = kinds[a[9].i];
      if (a[10].kind == KernelArg::Kind::pointer) g.bias = base(a[10].buffer);
    }
    g.workspace = workspace;
    g.workspace_bytes = kGemmWorkspace;
    if (g.m == 0 || g.n == 0 || g.batch == 0) return absl::OkStatus();
    if (g.k == 0 && g.epilogue == GemmEpilogue::none) {  // an empty sum: zeros
      int64_t bytes = g.batch * g.m * g.n * (g.type == GemmType::f32 ? 4 : 2);
      return driver().memset_zero(device_, reinterpret_cast<CUdeviceptr>(g.d), static_cast<size_t>(bytes));
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
  CUmodule module_ = nullptr;
  std::vector<CUfunction> functions_;
  std::vector<std::unique_ptr<DeviceBuffer>> owned_;
  std::vector<void*> const_ptrs_, global_ptrs_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const Executable>> make_executable(HostProgram host, std::string cubin,
                                                                  std::string ptx, backends::Program program,
                                                                  int device) {
  auto exe = std::make_shared<CudaExecutable>(std::move(host), std::move(program), std::move(ptx), device);
  if (absl::Status s = exe->load(cubin); !s.ok()) return s;
  return std::shared_ptr<const Executable>(std::move(exe));
}

}  // namespace strata::backends::cuda
