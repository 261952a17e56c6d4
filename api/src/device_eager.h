// api/src/device_eager.h — eager operations on device arrays (device_eager.cpp).
#pragma once

namespace strata::detail {

// Lets eager mode run primitives on GPU arrays (tracer/trace.h: set_device_eval); called by
// whatever can put an array on a device (gpu(), devices(), device_put, jit). Idempotent.
void install_device_eval();

// Reads STRATA_DEFAULT_DEVICE into the default device once (a ValueError for a bad name);
// called where arrays are made from host values and by jit, so that it holds before any op.
void apply_default_device_environment();

}  // namespace strata::detail
