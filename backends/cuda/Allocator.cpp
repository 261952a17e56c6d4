// The caching device allocator (see Allocator.h) and the core's DeviceMemory for CUDA.
#include "backends/cuda/Allocator.h"

#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "array_impl.h"
#include "backends/cuda/Driver.h"

namespace strata::backends::cuda {

namespace {

constexpr std::size_t kSmallRound = 512;
constexpr std::size_t kLargeRound = std::size_t{2} << 20;
constexpr std::size_t kSmallMax = std::size_t{1} << 20;

std::size_t round_size(std::size_t bytes) {
  if (bytes == 0) return kSmallRound;  // every buffer gets a distinct, non-null address
  if (bytes < kSmallMax) return (bytes + kSmallRound - 1) / kSmallRound * kSmallRound;
  return (bytes + kLargeRound - 1) / kLargeRound * kLargeRound;
}

struct DevicePool {
  std::mutex mu;
  std::multimap<std::size_t, CUdeviceptr> free_blocks;  // by size: lower_bound is the best fit
  std::unordered_map<CUdeviceptr, std::size_t> live;    // handed-out block → its size
  MemoryStats stats;
  absl::Status env_error;  // a malformed STRATA_GPU_MEMORY_LIMIT, reported by every allocate
};

// The limit from the environment, or the reason it is unusable.
absl::StatusOr<std::size_t> env_limit() {
  const char* text = std::getenv("STRATA_GPU_MEMORY_LIMIT");
  if (!text || !*text) return std::size_t{0};
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (errno || *end || text[0] == '-')
    return absl::InvalidArgumentError(
        absl::StrCat("STRATA_GPU_MEMORY_LIMIT='", text, "' is not a number of bytes"));
  return static_cast<std::size_t>(v);
}

// One pool per device the driver reports, made on first use and never destroyed (buffers may be
// freed by static destructors).
DevicePool* pool(int index) {
  static std::vector<std::unique_ptr<DevicePool>>* pools = [] {
    auto* v = new std::vector<std::unique_ptr<DevicePool>>();
    absl::StatusOr<std::size_t> limit = env_limit();
    for (int i = 0; i < driver().device_count(); ++i) {
      auto p = std::make_unique<DevicePool>();
      if (limit.ok()) p->stats.limit = *limit;
      else p->env_error = limit.status();
      v->push_back(std::move(p));
    }
    return v;
  }();
  if (index < 0 || index >= static_cast<int>(pools->size())) return nullptr;
  return (*pools)[index].get();
}

// Frees every cached block; the caller holds p.mu. The stream is synchronized first: a cached
// block may still be read by work queued before it was freed on the host.
absl::Status release_locked(int index, DevicePool& p) {
  if (p.free_blocks.empty()) return absl::OkStatus();
  Driver& d = driver();
  absl::Status status = d.synchronize(index);
  for (auto& [size, ptr] : p.free_blocks) {
    absl::Status s = d.mem_free(index, ptr);
    if (status.ok()) status = s;
    p.stats.cached -= size;
  }
  p.free_blocks.clear();
  return status;
}

void hand_out(DevicePool& p, CUdeviceptr ptr, std::size_t size) {
  p.live.emplace(ptr, size);
  p.stats.in_use += size;
  if (p.stats.in_use > p.stats.peak_in_use) p.stats.peak_in_use = p.stats.in_use;
}

}  // namespace

absl::StatusOr<void*> allocate(int index, std::size_t bytes) {
  Driver& d = driver();
  if (absl::Status s = d.use_device(index); !s.ok()) return s;
  DevicePool& p = *pool(index);
  if (!p.env_error.ok()) return p.env_error;
  const std::size_t size = round_size(bytes);
  std::lock_guard<std::mutex> lock(p.mu);

  // Best fit among cached blocks, unless it would waste more than half of it.
  auto it = p.free_blocks.lower_bound(size);
  if (it != p.free_blocks.end() && it->first <= 2 * size) {
    auto [block_size, ptr] = *it;
    p.free_blocks.erase(it);
    p.stats.cached -= block_size;
    hand_out(p, ptr, block_size);
    return reinterpret_cast<void*>(ptr);
  }

  const std::size_t cached_before = p.stats.cached;
  auto over_limit = [&] { return p.stats.limit && p.stats.in_use + p.stats.cached + size > p.stats.limit; };
  if (over_limit()) {
    if (absl::Status s = release_locked(index, p); !s.ok()) return s;
    if (over_limit())
      return absl::ResourceExhaustedError(absl::StrCat(
          "cuda:", index, ": cannot allocate ", bytes, " bytes: strata's limit on this device is ", p.stats.limit,
          " bytes (STRATA_GPU_MEMORY_LIMIT or set_memory_limit) and ", p.stats.in_use, " are in use"));
  }
  absl::StatusOr<CUdeviceptr> ptr = d.mem_alloc(index, size);
  if (!ptr.ok() && absl::IsResourceExhausted(ptr.status()) && p.stats.cached) {
    if (absl::Status s = release_locked(index, p); !s.ok()) return s;
    ptr = d.mem_alloc(index, size);
  }
  if (!ptr.ok()) {
    if (!absl::IsResourceExhausted(ptr.status())) return ptr.status();
    std::size_t free_bytes = 0, total_bytes = 0;
    std::string device_state = "(cuMemGetInfo failed)";
    if (d.mem_info(index, &free_bytes, &total_bytes).ok())
      device_state = absl::StrCat(free_bytes, " bytes free of ", total_bytes);
    return absl::ResourceExhaustedError(absl::StrCat(
        "cuda:", index, ": out of memory allocating ", bytes, " bytes: the device has ", device_state,
        "; strata holds ", p.stats.in_use, " bytes in use and had ", cached_before,
        " bytes cached (released before retrying)"));
  }
  hand_out(p, *ptr, size);
  return reinterpret_cast<void*>(*ptr);
}

void deallocate(int index, void* ptr) {
  if (!ptr) return;
  DevicePool* p = pool(index);
  if (!p) return;
  std::lock_guard<std::mutex> lock(p->mu);
  auto it = p->live.find(reinterpret_cast<CUdeviceptr>(ptr));
  if (it == p->live.end()) return;  // not ours: never hand it out again
  std::size_t size = it->second;
  p->live.erase(it);
  p->stats.in_use -= size;
  p->stats.cached += size;
  p->free_blocks.emplace(size, reinterpret_cast<CUdeviceptr>(ptr));
}

absl::Status release_cached(int index) {
  if (absl::Status s = driver().use_device(index); !s.ok()) return s;
  DevicePool& p = *pool(index);
  std::lock_guard<std::mutex> lock(p.mu);
  return release_locked(index, p);
}

MemoryStats memory_stats(int index) {
  DevicePool* p = pool(index);
  if (!p) return {};
  std::lock_guard<std::mutex> lock(p->mu);
  return p->stats;
}

void set_memory_limit(int index, std::size_t bytes) {
  DevicePool* p = pool(index);
  if (!p) return;
  std::lock_guard<std::mutex> lock(p->mu);
  p->stats.limit = bytes;
  p->env_error = absl::OkStatus();  // an explicit limit replaces a malformed environment one
}

namespace {

// The core's DeviceMemory callbacks: plain functions that never throw; a failure is kept for
// last_error() (per thread, cleared by each call).
thread_local std::string t_error;
thread_local bool t_failed = false;

bool record(const absl::Status& s) {
  t_failed = !s.ok();
  if (t_failed) t_error = std::string(s.message());
  return !t_failed;
}

void* core_allocate(int index, std::size_t nbytes) {
  absl::StatusOr<void*> p = allocate(index, nbytes);
  return record(p.status()) ? *p : nullptr;
}

void core_deallocate(int index, void* p, std::size_t) { deallocate(index, p); }

void core_to_host(int index, void* host, const void* device, std::size_t nbytes) {
  absl::Status s;
  if (nbytes) {
    s = driver().copy_to_host(index, host, reinterpret_cast<CUdeviceptr>(device), nbytes);
    if (s.ok()) s = driver().synchronize(index);  // waits for the work that produced the data too
  }
  record(s);
}

void core_from_host(int index, void* device, const void* host, std::size_t nbytes) {
  absl::Status s;
  if (nbytes) {
    s = driver().copy_to_device(index, reinterpret_cast<CUdeviceptr>(device), host, nbytes);
    if (s.ok()) s = driver().synchronize(index);  // the caller may free `host` once we return
  }
  record(s);
}

void core_synchronize(int index) { record(driver().synchronize(index)); }

const char* core_last_error() { return t_failed ? t_error.c_str() : nullptr; }

}  // namespace

void register_cuda_memory() {
  detail::DeviceMemory m;
  m.allocate = core_allocate;
  m.deallocate = core_deallocate;
  m.to_host = core_to_host;
  m.from_host = core_from_host;
  m.last_error = core_last_error;
  m.synchronize = core_synchronize;
  detail::set_device_memory(DeviceKind::cuda, m);
}

}  // namespace strata::backends::cuda
