// api/src/device_eager.h — eager operations on device arrays (device_eager.cpp).
#pragma once

namespace strata::detail {

// Lets eager mode run primitives on GPU arrays (tracer/trace.h: set_device_eval); called by
// whatever can put an array on a device (gpu(), devices(), device_put, jit). Idempotent.
void install_device_eval();

}  // namespace strata::detail
