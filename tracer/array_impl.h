// tracer/array_impl.h — the state behind an Array handle: concrete data or a tracer.
#pragma once

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>

#include "abstract_value.h"
#include "strata/array.h"
#include "strata/device.h"

namespace strata::detail {

// One array's elements, row-major, in the memory of `device`. Immutable once the kernel that
// produced it returns. Host buffers are 64-byte-aligned heap blocks; a device's own memory is
// allocated and freed by the target that registered it (set_device_memory).
struct Buffer {
  explicit Buffer(std::size_t nbytes, Device device = {});
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data = nullptr;
  std::size_t nbytes = 0;
  Device device;
};

// How a device kind's memory is allocated, freed and copied to and from the host: registered
// by the compiler target of that kind (the CPU's is built in). Functions, not a class, so the
// tracer's core needs nothing of the backends.
struct DeviceMemory {
  void* (*allocate)(int index, std::size_t nbytes) = nullptr;  // null on failure
  void (*deallocate)(int index, void* p, std::size_t nbytes) = nullptr;
  void (*to_host)(int index, void* host, const void* device, std::size_t nbytes) = nullptr;
  void (*from_host)(int index, void* device, const void* host, std::size_t nbytes) = nullptr;
  // Why this thread's last allocate, to_host or from_host failed, or null when it succeeded
  // (optional): the callbacks cannot throw, so the core asks and throws with the target's reason.
  const char* (*last_error)() = nullptr;
  // Waits until the work queued on device `index` is done (Array::block_until_ready).
  void (*synchronize)(int index) = nullptr;
};
// Throws Error with `memory`'s last_error(), if it has one (after a to_host or from_host).
void check_device_memory(const DeviceMemory& memory, const char* what);
void set_device_memory(DeviceKind kind, const DeviceMemory& memory);
// The registered memory of `kind`, or null (no target of that kind in this build).
const DeviceMemory* device_memory(DeviceKind kind);

struct TraceState;

// Exactly one of `buffer` (a concrete array) and `trace` (a tracer) is set.
struct ArrayImpl {
  AbstractValue aval;
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<TraceState> trace;
  int var = -1;  // the tracer's variable in its trace

  ArrayImpl() = default;
  ArrayImpl(const ArrayImpl&) = delete;
  ArrayImpl& operator=(const ArrayImpl&) = delete;
  ~ArrayImpl() { delete donated_.load(std::memory_order_acquire); }

  // Why the array is gone, once it was donated to a jit call (its buffer now holds that call's
  // output); null while it is usable. Set once, atomically, so that a thread reading a copy of
  // the handle while another donates it sees either the array or the refusal — never a buffer
  // pointer torn in half (the buffer itself is never reset).
  const std::string* donated() const { return donated_.load(std::memory_order_acquire); }
  // Marks the array donated; false when it already was (by another call).
  bool mark_donated(std::string why) {
    auto* note = new std::string(std::move(why));
    const std::string* none = nullptr;
    if (donated_.compare_exchange_strong(none, note, std::memory_order_acq_rel)) return true;
    delete note;
    return false;
  }

 private:
  std::atomic<const std::string*> donated_{nullptr};
};

// `x` (concrete) with its data on `device`: x itself when it is there, else a copy.
Array copy_to_device(const Array& x, Device device);

// The default device (strata/device.h: default_device) as the core reads it: where eager ops
// whose operands all live on the host run. The API validates it and sets it; the CPU until then.
Device default_device_core();
void set_default_device_core(Device d);

// numpy's str of an array ("[1. 2. 3.]", "3.0"): what debug::print shows (operator<< is repr).
std::string array_str(const Array& a);

// A new concrete array with uninitialised data.
Array make_concrete(AbstractValue aval);
inline void* mutable_data(const Array& a) { return a.impl()->buffer->data; }
inline const AbstractValue& aval_of(const Array& a) { return a.impl()->aval; }
// Where a concrete array counts as living: its device, or the default device for a host array
// (host values are copied to wherever they are used).
inline Device effective_device(const Array& a) {
  Device d = a.impl()->buffer ? a.impl()->buffer->device : Device{};
  return d.kind == DeviceKind::cpu ? default_device_core() : d;
}

}  // namespace strata::detail
