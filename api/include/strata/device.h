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

}  // namespace strata
