// strata/device.h — where arrays live and executables run: the host CPU, or a GPU.
//
//   st::Device d = st::cpu();          // the host; every array made without a device lives here
//   st::Array y = st::device_put(x, d);
//   auto f = st::jit(fn, {.device = d});
//
// A Device is a small value (kind and index), part of jit's cache key. Which devices exist is
// decided at run time by the compiler targets built in (see st::devices()).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

enum class DeviceKind : uint8_t { cpu, cuda };

struct Device {
  DeviceKind kind = DeviceKind::cpu;
  int index = 0;

  // "cpu" or "cuda:0".
  std::string str() const {
    return kind == DeviceKind::cpu ? std::string("cpu") : "cuda:" + std::to_string(index);
  }
  friend bool operator==(const Device&, const Device&) = default;
};

// The name of a device kind: "cpu", "cuda".
inline const char* device_kind_name(DeviceKind k) { return k == DeviceKind::cpu ? "cpu" : "cuda"; }

class Array;

// The host CPU (its cores are one device).
Device cpu();
// GPU `index`. Throws ValueError when this process has no such GPU (see devices()).
Device gpu(int index = 0);
// Every device this process can use: the CPU first, then each GPU a built-in target found.
std::vector<Device> devices();
// `x` with its data on `device`: `x` itself when it is there already, else a copy. Throws
// ValueError for a device this process does not have; a tracer is returned unchanged (inside
// a trace, placement is jit's JitOptions::device).
Array device_put(const Array& x, Device device);

// The default device (JAX's jax_default_device): where eager ops whose operands all live on
// the host run, and where jit runs a function called with host arrays only (JitOptions::device
// unset). Arrays made from host values (st::array, zeros, arange, random keys, ...) stay on the
// host and count as being on the default device: an op or a jit call copies them there, so
// mixing them with arrays on that device is not an error. The CPU unless set_default_device or
// the environment variable STRATA_DEFAULT_DEVICE ("cpu", "cuda:N", "gpu:N", "gpu") says
// otherwise; a name this process has no device for is a ValueError when first read.
//   st::set_default_device(st::gpu(0));
//   st::Array y = st::exp(st::arange(8.0));   // runs on the GPU; y lives there
Device default_device();
// Sets the default device for the whole process (ValueError for a device it does not have).
// Compiled functions are keyed on it: jit compiles again for the new device.
void set_default_device(Device device);

}  // namespace strata
