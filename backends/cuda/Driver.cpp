// The CUDA driver, loaded with dlopen. cuInit, cuGetErrorName/String and cuDriverGetVersion are
// looked up by name (they are unversioned and needed before the rest); every other entry point
// comes from cuGetProcAddress for this header's CUDA_VERSION (or the driver's, if older), which
// returns the versioned symbol the header maps the name to (cuMemAlloc → cuMemAlloc_v2) — dlsym
// of the plain name could return an old ABI.
#include "backends/cuda/Driver.h"

#include <dlfcn.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace strata::backends::cuda {

namespace {

// cuGetProcAddress as of CUDA 12 (with the symbol status); cuda.h #defines the name to it.
using GetProcAddressFn = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

}  // namespace

Driver::Driver() {
  lib_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char* err = dlerror();
    why_ = absl::StrCat("libcuda.so.1 not found: ", err ? err : "dlopen failed");
    return;
  }
  cuInit = reinterpret_cast<decltype(cuInit)>(dlsym(lib_, "cuInit"));
  cuGetErrorName = reinterpret_cast<decltype(cuGetErrorName)>(dlsym(lib_, "cuGetErrorName"));
  cuGetErrorString = reinterpret_cast<decltype(cuGetErrorString)>(dlsym(lib_, "cuGetErrorString"));
  cuDriverGetVersion = reinterpret_cast<decltype(cuDriverGetVersion)>(dlsym(lib_, "cuDriverGetVersion"));
  auto get_proc = reinterpret_cast<GetProcAddressFn>(dlsym(lib_, "cuGetProcAddress_v2"));
  if (!cuInit || !cuGetErrorName || !cuGetErrorString || !cuDriverGetVersion || !get_proc) {
    why_ = "libcuda.so.1 lacks cuInit, cuGetErrorName, cuGetErrorString, cuDriverGetVersion or "
           "cuGetProcAddress_v2 (a driver older than CUDA 12)";
    return;
  }
  if (absl::Status s = check(cuInit(0), "cuInit"); !s.ok()) {
    why_ = std::string(s.message());
    return;
  }
  // cuGetProcAddress refuses a version above the driver's; the entry points used here have the
  // same ABI from CUDA 12.0 to this header's version, so an older 12.x driver serves too.
  int driver_version = 0;
  if (absl::Status s = check(cuDriverGetVersion(&driver_version), "cuDriverGetVersion"); !s.ok()) {
    why_ = std::string(s.message());
    return;
  }
  const int version = driver_version < CUDA_VERSION ? driver_version : CUDA_VERSION;
  std::string missing;
  auto resolve = [&](const char* name, void** fn) {
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc(name, fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
        found != CU_GET_PROC_ADDRESS_SUCCESS || !*fn) {
      *fn = nullptr;
      absl::StrAppend(&missing, missing.empty() ? "" : ", ", name);
    }
  };
#define STRATA_CU_FN(name) \
  if (!name) resolve(#name, reinterpret_cast<void**>(&name));
#include "backends/cuda/DriverFunctions.def"
#undef STRATA_CU_FN
  if (!missing.empty()) {
    why_ = absl::StrCat("the CUDA driver (version ", driver_version, ") lacks ", missing, " for CUDA ", version);
    return;
  }
  int count = 0;
  if (absl::Status s = check(cuDeviceGetCount(&count), "cuDeviceGetCount"); !s.ok()) {
    why_ = std::string(s.message());
    return;
  }
  if (count == 0) {
    why_ = "the CUDA driver found no GPU";
    return;
  }
  device_count_ = count;
  for (int i = 0; i < count; ++i) devices_.push_back(std::make_unique<PerDevice>());
  available_ = true;
}

Driver& driver() {
  static Driver* d = new Driver();  // thread-safe (magic static); never destroyed
  return *d;
}

absl::Status Driver::check(CUresult r, const char* what) const {
  if (r == CUDA_SUCCESS) return absl::OkStatus();
  const char* name = nullptr;
  const char* text = nullptr;
  if (!cuGetErrorName || cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
  if (!cuGetErrorString || cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
  if (!name && r == CUDA_ERROR_STUB_LIBRARY) {  // the stub cannot describe its own errors
    name = "CUDA_ERROR_STUB_LIBRARY";
    text = "the toolkit's stub libcuda.so was loaded instead of the driver's libcuda.so.1";
  }
  std::string msg = absl::StrCat(what, ": ", name ? name : absl::StrCat("CUresult ", static_cast<int>(r)));
  if (text) absl::StrAppend(&msg, ": ", text);
  // Out of memory is the caller's to handle (the allocator retries); the rest are internal.
  return r == CUDA_ERROR_OUT_OF_MEMORY ? absl::ResourceExhaustedError(msg) : absl::InternalError(msg);
}

absl::Status Driver::use_device(int index) {
  if (!available_) return absl::UnavailableError(absl::StrCat("no CUDA device: ", why_));
  if (index < 0 || index >= device_count_)
    return absl::InvalidArgumentError(
        absl::StrCat("CUDA device ", index, " does not exist (this process has ", device_count_, ")"));
  PerDevice& d = *devices_[index];
  std::call_once(d.once, [&] {
    d.status = check(cuDeviceGet(&d.device, index), "cuDeviceGet");
    if (d.status.ok()) d.status = check(cuDevicePrimaryCtxRetain(&d.context, d.device), "cuDevicePrimaryCtxRetain");
    if (d.status.ok()) d.status = check(cuCtxSetCurrent(d.context), "cuCtxSetCurrent");
    // Non-blocking: strata's work must not serialize with the legacy default stream of others.
    if (d.status.ok()) d.status = check(cuStreamCreate(&d.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  });
  if (!d.status.ok()) return d.status;
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == d.context) return absl::OkStatus();
  return check(cuCtxSetCurrent(d.context), "cuCtxSetCurrent");
}

CUstream Driver::stream(int index) {
  if (!use_device(index).ok()) return nullptr;
  return devices_[index]->stream;
}

absl::StatusOr<DeviceInfo> Driver::device_info(int index) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  CUdevice dev = devices_[index]->device;
  DeviceInfo info;
  char name[256] = {};
  if (absl::Status s = check(cuDeviceGetName(name, sizeof(name) - 1, dev), "cuDeviceGetName"); !s.ok()) return s;
  info.name = name;
  const std::pair<CUdevice_attribute, int*> attrs[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.cc_major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.cc_minor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.sm_count}};
  for (const auto& [attr, out] : attrs)
    if (absl::Status s = check(cuDeviceGetAttribute(out, attr, dev), "cuDeviceGetAttribute"); !s.ok()) return s;
  return info;
}

absl::Status Driver::mem_info(int index, std::size_t* free_bytes, std::size_t* total_bytes) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemGetInfo(free_bytes, total_bytes), "cuMemGetInfo");
}

absl::StatusOr<CUdeviceptr> Driver::mem_alloc(int index, std::size_t bytes) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  CUdeviceptr p = 0;
  if (absl::Status s = check(cuMemAlloc(&p, bytes), "cuMemAlloc"); !s.ok()) return s;
  return p;
}

absl::Status Driver::mem_free(int index, CUdeviceptr p) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemFree(p), "cuMemFree");
}

absl::Status Driver::copy_to_device(int index, CUdeviceptr dst, const void* src, std::size_t bytes) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemcpyHtoDAsync(dst, src, bytes, devices_[index]->stream), "cuMemcpyHtoDAsync");
}

absl::Status Driver::copy_to_host(int index, void* dst, CUdeviceptr src, std::size_t bytes) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemcpyDtoHAsync(dst, src, bytes, devices_[index]->stream), "cuMemcpyDtoHAsync");
}

absl::Status Driver::copy_device(int index, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream stream) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemcpyDtoDAsync(dst, src, bytes, stream ? stream : devices_[index]->stream), "cuMemcpyDtoDAsync");
}

absl::Status Driver::memset_zero(int index, CUdeviceptr dst, std::size_t bytes, CUstream stream) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuMemsetD8Async(dst, 0, bytes, stream ? stream : devices_[index]->stream), "cuMemsetD8Async");
}

absl::Status Driver::synchronize(int index) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuStreamSynchronize(devices_[index]->stream), "cuStreamSynchronize");
}

absl::StatusOr<CUmodule> Driver::load_module(int index, const void* image) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  CUmodule m = nullptr;
  if (absl::Status s = check(cuModuleLoadData(&m, image), "cuModuleLoadData"); !s.ok()) return s;
  return m;
}

absl::Status Driver::unload_module(int index, CUmodule module) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuModuleUnload(module), "cuModuleUnload");
}

absl::StatusOr<CUfunction> Driver::get_function(CUmodule module, const char* name) {
  if (!available_) return absl::UnavailableError(absl::StrCat("no CUDA device: ", why_));
  CUfunction f = nullptr;
  if (absl::Status s = check(cuModuleGetFunction(&f, module, name), "cuModuleGetFunction"); !s.ok())
    return absl::Status(s.code(), absl::StrCat(s.message(), " (kernel '", name, "')"));
  return f;
}

absl::Status Driver::launch(int index, CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                            unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                            CUstream stream, void** params) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuLaunchKernel(f, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
                              stream ? stream : devices_[index]->stream, params, nullptr),
               "cuLaunchKernel");
}

absl::StatusOr<CUgraph> Driver::capture(int index, const std::function<absl::Status(CUstream)>& enqueue) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  PerDevice& d = *devices_[index];
  std::lock_guard<std::mutex> lock(d.capture_mu);
  if (!d.capture_stream)
    if (absl::Status s = check(cuStreamCreate(&d.capture_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"); !s.ok())
      return s;
  if (absl::Status s = check(cuStreamBeginCapture(d.capture_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                             "cuStreamBeginCapture");
      !s.ok())
    return s;
  absl::Status queued = enqueue(d.capture_stream);
  CUgraph g = nullptr;
  absl::Status ended = check(cuStreamEndCapture(d.capture_stream, &g), "cuStreamEndCapture");
  if (queued.ok() && ended.ok()) return g;
  if (g) (void)cuGraphDestroy(g);
  return queued.ok() ? ended : queued;
}

absl::StatusOr<CUgraphExec> Driver::instantiate(int index, CUgraph graph) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  CUgraphExec exec = nullptr;
  if (absl::Status s = check(cuGraphInstantiateWithFlags(&exec, graph, 0), "cuGraphInstantiateWithFlags"); !s.ok())
    return s;
  return exec;
}

absl::Status Driver::graph_launch(int index, CUgraphExec exec) {
  if (absl::Status s = use_device(index); !s.ok()) return s;
  return check(cuGraphLaunch(exec, devices_[index]->stream), "cuGraphLaunch");
}

absl::Status Driver::destroy_graph(CUgraph graph) {
  if (!available_) return absl::UnavailableError(absl::StrCat("no CUDA device: ", why_));
  return check(cuGraphDestroy(graph), "cuGraphDestroy");
}

absl::Status Driver::destroy_graph_exec(CUgraphExec exec) {
  if (!available_) return absl::UnavailableError(absl::StrCat("no CUDA device: ", why_));
  return check(cuGraphExecDestroy(exec), "cuGraphExecDestroy");
}

}  // namespace strata::backends::cuda
