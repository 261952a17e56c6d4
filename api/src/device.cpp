// Devices: which exist (the CPU, and the devices of each compiler target built in), and moving
// an array's data between them.
#include <cstring>

#include "array_impl.h"
#include "backends/Compiler.h"
#include "strata/array.h"
#include "strata/device.h"
#include "strata/errors.h"

namespace strata {
namespace {

// A target of a kind registers that kind's memory with the core when the registry makes it.
int count_of(DeviceKind kind) { return kind == DeviceKind::cpu ? 1 : compiler::device_count(kind); }

std::string device_list() {
  std::string s;
  for (const Device& d : devices()) s += (s.empty() ? "" : ", ") + d.str();
  return s;
}

void check_exists(Device d, const char* what) {
  if (d.index < 0 || d.index >= count_of(d.kind))
    throw ValueError(std::string(what) + ": no device " + d.str() + " in this process (devices: " + device_list() +
                     ")");
}

}  // namespace

Device cpu() { return Device{DeviceKind::cpu, 0}; }

Device gpu(int index) {
  Device d{DeviceKind::cuda, index};
  check_exists(d, "st::gpu");
  return d;
}

std::vector<Device> devices() {
  std::vector<Device> out{cpu()};
  for (int i = 0, n = count_of(DeviceKind::cuda); i < n; ++i) out.push_back(Device{DeviceKind::cuda, i});
  return out;
}

Device Array::device() const {
  if (!impl_) throw ValueError("Array::device: this Array is null (default-constructed, never assigned)");
  return impl_->buffer ? impl_->buffer->device : cpu();
}

Array device_put(const Array& x, Device d) {
  check_exists(d, "device_put");
  if (!x.valid()) throw ValueError("device_put: got a null Array (default-constructed, never assigned)");
  if (x.is_tracer()) return x;
  if (const std::string* why = x.impl()->donated())
    throw ValueError("device_put: " + *why + "; a donated array cannot be used again");
  const detail::Buffer& from = *x.impl()->buffer;
  if (from.device == d) return x;
  auto impl = std::make_shared<detail::ArrayImpl>();
  impl->aval = x.impl()->aval;
  impl->buffer = std::make_shared<detail::Buffer>(from.nbytes, d);
  detail::Buffer& to = *impl->buffer;
  if (from.nbytes) {
    if (from.device.kind == DeviceKind::cpu && d.kind == DeviceKind::cpu) {
      std::memcpy(to.data, from.data, from.nbytes);
    } else if (from.device.kind == DeviceKind::cpu) {
      detail::device_memory(d.kind)->from_host(d.index, to.data, from.data, from.nbytes);
    } else if (d.kind == DeviceKind::cpu) {
      detail::device_memory(from.device.kind)->to_host(from.device.index, to.data, from.data, from.nbytes);
    } else {  // device to device, through the host
      std::vector<char> host(from.nbytes);
      detail::device_memory(from.device.kind)->to_host(from.device.index, host.data(), from.data, from.nbytes);
      detail::device_memory(d.kind)->from_host(d.index, to.data, host.data(), from.nbytes);
    }
  }
  return Array(std::move(impl));
}

}  // namespace strata
