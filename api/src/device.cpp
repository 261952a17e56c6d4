// Devices as the API offers them: which exist (the CPU, and the devices of each compiler
// target built in) and device_put; the copy itself is the core's (tracer/device.cpp).
#include "array_impl.h"
#include "backends/Compiler.h"
#include "device_eager.h"
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

Device gpu(int index) {
  detail::install_device_eval();
  Device d{DeviceKind::cuda, index};
  check_exists(d, "st::gpu");
  return d;
}

std::vector<Device> devices() {
  detail::install_device_eval();
  std::vector<Device> out{cpu()};
  for (int i = 0, n = count_of(DeviceKind::cuda); i < n; ++i) out.push_back(Device{DeviceKind::cuda, i});
  return out;
}

Array device_put(const Array& x, Device d) {
  detail::install_device_eval();
  check_exists(d, "device_put");
  if (!x.valid()) throw ValueError("device_put: got a null Array (default-constructed, never assigned)");
  if (x.is_tracer()) return x;
  if (const std::string* why = x.impl()->donated())
    throw ValueError("device_put: " + *why + "; a donated array cannot be used again");
  return detail::copy_to_device(x, d);
}

}  // namespace strata
