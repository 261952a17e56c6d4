// backends/cuda/Driver.h — the CUDA driver API, loaded at run time: strata never links libcuda,
// so one binary runs on machines without a GPU (device_count() == 0 there, and every helper
// fails with why_unavailable()). cuda.h is included for its types only.
//
// Per device: its primary context (retained on first use, the one the CUDA runtime and other
// libraries share) and one non-blocking stream on which all strata work for that device is
// ordered — so a buffer freed on the host may be reused by later work without waiting.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace strata::backends::cuda {

struct DeviceInfo {
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability (sm_90: 9, 0)
  int sm_count = 0;
};

class Driver {
 public:
  // Loads libcuda.so.1 and runs cuInit once (thread-safe, on first call of driver()).
  bool available() const { return available_; }
  // Why not available (empty when it is).
  const std::string& why_unavailable() const { return why_; }
  int device_count() const { return device_count_; }

  // Makes device `index`'s primary context current on the calling thread (retaining it and
  // creating its stream on first use). Every helper below that takes an index calls it.
  absl::Status use_device(int index);
  // The device's stream (null when the device cannot be used; use_device says why).
  CUstream stream(int index);

  absl::StatusOr<DeviceInfo> device_info(int index);
  // Bytes free and total on the device (cuMemGetInfo).
  absl::Status mem_info(int index, std::size_t* free_bytes, std::size_t* total_bytes);

  absl::StatusOr<CUdeviceptr> mem_alloc(int index, std::size_t bytes);
  absl::Status mem_free(int index, CUdeviceptr p);
  // Copies queued on the device stream; the host buffer must stay alive until synchronize().
  absl::Status copy_to_device(int index, CUdeviceptr dst, const void* src, std::size_t bytes);
  absl::Status copy_to_host(int index, void* dst, CUdeviceptr src, std::size_t bytes);
  // Queued on `stream` (the device stream when null), as launch.
  absl::Status copy_device(int index, CUdeviceptr dst, CUdeviceptr src, std::size_t bytes, CUstream stream = nullptr);
  // Zeroes `bytes` at dst, queued on `stream` (the device stream when null).
  absl::Status memset_zero(int index, CUdeviceptr dst, std::size_t bytes, CUstream stream = nullptr);
  // Waits for the device stream: its first asynchronous error, if any.
  absl::Status synchronize(int index);

  // A module from a cubin (or PTX) image, and its kernels. The module belongs to the device's
  // primary context.
  absl::StatusOr<CUmodule> load_module(int index, const void* image);
  absl::Status unload_module(int index, CUmodule module);
  absl::StatusOr<CUfunction> get_function(CUmodule module, const char* name);
  // Queues a kernel on `stream` (the device stream when null). `params`: one pointer per kernel
  // parameter, to its value.
  absl::Status launch(int index, CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                      unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                      CUstream stream, void** params);

  // CUDA graphs: what `enqueue` queues on the stream it is given is recorded as a graph, not
  // run; graph_launch replays an instantiated graph on the device stream. The stream is a
  // second one of the device that nothing else uses (work other threads queue on the device
  // stream meanwhile is not swept into the graph), one capture at a time per device, in
  // thread-local mode (other threads' CUDA calls are not disturbed). An error of `enqueue`
  // ends the capture and is returned; so is the driver's when it invalidated the capture.
  absl::StatusOr<CUgraph> capture(int index, const std::function<absl::Status(CUstream)>& enqueue);
  absl::StatusOr<CUgraphExec> instantiate(int index, CUgraph graph);
  absl::Status graph_launch(int index, CUgraphExec exec);
  absl::Status destroy_graph(CUgraph graph);
  absl::Status destroy_graph_exec(CUgraphExec exec);

  // "<what>: CUDA_ERROR_X: <description>" for a failed driver call; OK for CUDA_SUCCESS.
  absl::Status check(CUresult r, const char* what) const;

  // The entry points, resolved through cuGetProcAddress for the CUDA version of the headers
  // (so each is the versioned symbol cuda.h maps its name to, e.g. cuMemAlloc_v2).
#define STRATA_CU_FN(name) decltype(&::name) name = nullptr;
#include "backends/cuda/DriverFunctions.def"
#undef STRATA_CU_FN

 private:
  friend Driver& driver();
  Driver();
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  struct PerDevice {
    std::once_flag once;
    absl::Status status;  // of retaining the context and creating the stream
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUstream stream = nullptr;
    std::mutex capture_mu;  // one capture at a time, on capture_stream (made on first use)
    CUstream capture_stream = nullptr;
  };

  void* lib_ = nullptr;
  bool available_ = false;
  std::string why_;
  int device_count_ = 0;
  std::vector<std::unique_ptr<PerDevice>> devices_;
};

// The process's driver, loaded on first call; never destroyed (buffers and executables may be
// released by static destructors after it would be).
Driver& driver();

}  // namespace strata::backends::cuda
