// tracer/array_impl.h — the state behind an Array handle: concrete data or a tracer.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "abstract_value.h"
#include "strata/array.h"

namespace strata::detail {

// A 64-byte-aligned heap block holding one array's elements, row-major. Immutable once the
// kernel that produced it returns.
struct Buffer {
  explicit Buffer(std::size_t nbytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data = nullptr;
  std::size_t nbytes = 0;
};

struct TraceState;

// Exactly one of `buffer` (a concrete array) and `trace` (a tracer) is set.
struct ArrayImpl {
  AbstractValue aval;
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<TraceState> trace;
  int var = -1;  // the tracer's variable in its trace
  // Set (and `buffer` released) when the array was donated to a jit call: why it is gone.
  std::string donated;
};

// A new concrete array with uninitialised data.
Array make_concrete(AbstractValue aval);
inline void* mutable_data(const Array& a) { return a.impl()->buffer->data; }
inline const AbstractValue& aval_of(const Array& a) { return a.impl()->aval; }

}  // namespace strata::detail
