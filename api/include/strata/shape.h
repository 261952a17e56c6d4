// strata/shape.h — shapes: row-major extents, outermost first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "strata/dtype.h"

namespace strata {

using Shape = std::vector<int64_t>;

// Number of elements (1 for a scalar, 0 when any extent is 0).
int64_t num_elements(const Shape& shape);
// "[3,4]" for {3, 4} and "[]" for a scalar.
std::string shape_string(const Shape& shape);
// "f32[3,4]", as jaxprs and error messages print an abstract value.
std::string type_string(DType dtype, const Shape& shape);

}  // namespace strata
