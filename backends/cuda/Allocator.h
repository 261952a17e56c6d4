// backends/cuda/Allocator.h — strata's device memory: a caching allocator per GPU, and its
// registration with the core (detail::DeviceMemory for DeviceKind::cuda).
//
// cuMemAlloc/cuMemFree cost tens of microseconds and cuMemFree synchronizes the device, so freed
// blocks are kept and reused. Sizes are rounded (to 512 B below 1 MiB, to 2 MiB above) and a
// request takes the smallest cached block of at least its rounded size (at most twice that).
// All strata work on a device is ordered on its one stream (Driver::stream), so a block freed
// on the host while work that reads it is still queued can be handed to later work at once.
//
// A cap on the bytes held from the driver (in use + cached): STRATA_GPU_MEMORY_LIMIT (bytes) or
// set_memory_limit(). When the cap or cuMemAlloc refuses, the cache is released and the
// allocation retried once; then it fails with the bytes asked, free on the device and cached.
//
// Under CUDA graph capture (Driver::capture, thread-local mode) only allocations the cache
// can serve succeed: cuMemAlloc and the release's stream synchronize are refused by the driver
// and invalidate the capture. Allocate a graph's buffers before capturing it.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"

namespace strata::backends::cuda {

struct MemoryStats {
  std::size_t in_use = 0;    // bytes of blocks handed out (rounded sizes)
  std::size_t cached = 0;    // bytes of freed blocks kept for reuse
  std::size_t peak_in_use = 0;
  std::size_t limit = 0;     // 0: none
};

// A block of at least `bytes` (any size, 0 included) on device `index`, 256-byte aligned.
absl::StatusOr<void*> allocate(int index, std::size_t bytes);
// Returns a block from allocate() to the cache; null is ignored.
void deallocate(int index, void* p);
// Gives every cached block of the device back to the driver (after its stream is idle).
absl::Status release_cached(int index);
MemoryStats memory_stats(int index);
// The cap on the bytes strata holds on device `index` (0: none). Blocks already held are kept.
void set_memory_limit(int index, std::size_t bytes);

// Registers the allocator and the stream-ordered copies as the core's memory for
// DeviceKind::cuda. Copies synchronize the device stream, so reading an array on the host
// waits for the work that produces it.
void register_cuda_memory();

}  // namespace strata::backends::cuda
