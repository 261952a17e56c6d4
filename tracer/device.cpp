// The core's half of devices: the host device, an array's device, and copying an array's data
// to another device through the memory functions its target registered (array_impl.h). Which
// devices exist is the API's business (api/src/device.cpp asks the compiler's targets).
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "array_impl.h"
#include "strata/array.h"
#include "strata/device.h"
#include "strata/errors.h"

namespace strata {

Device cpu() { return Device{DeviceKind::cpu, 0}; }

Device Array::device() const {
  if (!impl_) throw ValueError("Array::device: this Array is null (default-constructed, never assigned)");
  return impl_->buffer ? impl_->buffer->device : cpu();
}

const Array& Array::block_until_ready() const {
  if (!impl_) throw ValueError("Array::block_until_ready: this Array is null (default-constructed, never assigned)");
  if (!impl_->buffer || impl_->buffer->device.kind == DeviceKind::cpu) return *this;
  const detail::DeviceMemory* m = detail::device_memory(impl_->buffer->device.kind);
  if (m && m->synchronize) {
    m->synchronize(impl_->buffer->device.index);
    detail::check_device_memory(*m, "block_until_ready");
  }
  return *this;
}

namespace detail {
namespace {
// kind in the low byte, index above; 0 is the CPU.
std::atomic<uint32_t> g_default_device{0};
}  // namespace

Device default_device_core() {
  uint32_t v = g_default_device.load(std::memory_order_acquire);
  return Device{static_cast<DeviceKind>(v & 0xff), static_cast<int>(v >> 8)};
}

void set_default_device_core(Device d) {
  g_default_device.store(static_cast<uint32_t>(d.kind) | static_cast<uint32_t>(d.index) << 8, std::memory_order_release);
}

Array copy_to_device(const Array& x, Device d) {
  const Buffer& from = *x.impl()->buffer;
  if (from.device == d) return x;
  auto impl = std::make_shared<ArrayImpl>();
  impl->aval = x.impl()->aval;
  impl->buffer = std::make_shared<Buffer>(from.nbytes, d);
  Buffer& to = *impl->buffer;
  if (from.nbytes) {
    if (from.device.kind == DeviceKind::cpu && d.kind == DeviceKind::cpu) {
      std::memcpy(to.data, from.data, from.nbytes);
    } else if (from.device.kind == DeviceKind::cpu) {
      const DeviceMemory& m = *device_memory(d.kind);
      m.from_host(d.index, to.data, from.data, from.nbytes);
      check_device_memory(m, ("copy to " + d.str()).c_str());
    } else if (d.kind == DeviceKind::cpu) {
      const DeviceMemory& m = *device_memory(from.device.kind);
      m.to_host(from.device.index, to.data, from.data, from.nbytes);
      check_device_memory(m, ("copy from " + from.device.str()).c_str());
    } else {  // device to device, through the host
      std::vector<char> host(from.nbytes);
      const DeviceMemory& src = *device_memory(from.device.kind);
      src.to_host(from.device.index, host.data(), from.data, from.nbytes);
      check_device_memory(src, ("copy from " + from.device.str()).c_str());
      const DeviceMemory& dst = *device_memory(d.kind);
      dst.from_host(d.index, to.data, host.data(), from.nbytes);
      check_device_memory(dst, ("copy to " + d.str()).c_str());
    }
  }
  return Array(std::move(impl));
}

}  // namespace detail
}  // namespace strata
