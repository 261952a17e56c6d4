// Devices as the API offers them: which exist (the CPU, and the devices of each compiler
// target built in) and device_put; the copy itself is the core's (tracer/device.cpp).
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>

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

// "cpu", "cuda:N", "gpu:N", "gpu" (the first GPU); nullopt for anything else.
std::optional<Device> parse_device(const std::string& name) {
  if (name == "cpu") return cpu();
  for (const char* prefix : {"cuda", "gpu"}) {
    std::string p(prefix);
    if (name == p) return Device{DeviceKind::cuda, 0};
    if (name.rfind(p + ":", 0) != 0) continue;
    std::string digits = name.substr(p.size() + 1);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return Device{DeviceKind::cuda, std::stoi(digits)};
  }
  return std::nullopt;
}

// STRATA_DEFAULT_DEVICE, applied once (again after a failure, so the error repeats).
std::mutex g_env_mu;
std::atomic<bool> g_env_applied{false};

void apply_environment() {
  if (g_env_applied.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(g_env_mu);
  if (g_env_applied.load(std::memory_order_relaxed)) return;
  if (const char* env = std::getenv("STRATA_DEFAULT_DEVICE"); env && *env) {
    std::optional<Device> d = parse_device(env);
    if (!d)
      throw ValueError(std::string("STRATA_DEFAULT_DEVICE is '") + env +
                       "'; expected cpu, cuda:N, gpu:N or gpu");
    detail::install_device_eval();
    check_exists(*d, "STRATA_DEFAULT_DEVICE");
    detail::set_default_device_core(*d);
  }
  g_env_applied.store(true, std::memory_order_release);
}

}  // namespace

Device default_device() {
  apply_environment();
  return detail::default_device_core();
}

void set_default_device(Device d) {
  apply_environment();
  detail::install_device_eval();
  check_exists(d, "set_default_device");
  detail::set_default_device_core(d);
}

namespace detail {
void apply_default_device_environment() { apply_environment(); }
}  // namespace detail

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
