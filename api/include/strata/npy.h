// strata/npy.h — arrays to and from NumPy's .npy files (format version 1.0–3.0 read, 1.0
// written), so inputs and outputs travel between strata, NumPy and JAX.
#pragma once

#include <string>

#include "strata/array.h"

namespace strata {

// The array stored in the .npy file at `path`: little- or big-endian, C or Fortran order, of
// the dtypes bool ('|b1'), int32, int64, float16, float32, float64, or bfloat16 (NumPy writes
// ml_dtypes' bfloat16 as the 2-byte void '<V2'). Throws ValueError naming the file and what
// is wrong (no such file, not a .npy file, a dtype strata has not, truncated data).
Array load_npy(const std::string& path);

// Writes `x` to `path` as a version 1.0 .npy file, C order, little-endian (bf16 as '<V2', which
// np.load reads back as raw 2-byte values). Throws ValueError when the file cannot be written
// and ConcretizationError for a tracer. `x` is not modified.
void save_npy(const std::string& path, const Array& x);

}  // namespace strata
