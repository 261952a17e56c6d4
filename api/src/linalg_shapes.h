// api/src/linalg_shapes.h — the operand check the jax.scipy.linalg composites share.
#pragma once

#include <string>

#include "op_helpers.h"

namespace strata::linalg {

// The abstract value of a batch of square matrices [..., n, n]; ShapeError naming `op` otherwise.
inline const AbstractValue& square_matrices(const Array& a, const char* op) {
  const AbstractValue& av = api::aval(a, op);
  if (av.shape.size() < 2 || av.shape[av.shape.size() - 1] != av.shape[av.shape.size() - 2])
    throw ShapeError(std::string(op) + ": expects square matrices [..., n, n], but got " + av.str());
  return av;
}

}  // namespace strata::linalg
