// backends/cuda/Ptxas.h — PTX to a cubin with the toolkit's ptxas, so that loading an
// executable never waits on the driver's PTX JIT (≈100 ms a module) and a cache hit loads the
// cubin directly.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace strata::backends::cuda {

// The cubin of `ptx` for `chip` ("sm_90"), by `<toolkit>/bin/ptxas -O3`. ptxas's own message
// on failure.
absl::StatusOr<std::string> ptx_to_cubin(std::string_view ptx, const std::string& chip, const std::string& toolkit);

}  // namespace strata::backends::cuda
