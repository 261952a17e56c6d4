// tracer/primitives/common.h — helpers shared by the primitives' rules and kernels.
#pragma once

#include <span>
#include <string>

#include "../kernels/copy.h"
#include "../kernels/parallel.h"
#include "../kernels/types.h"
#include "../primitive.h"
#include "../shape_rules.h"

namespace strata::primitives {

// The shape of a shared shape rule's result, or a ShapeError prefixed with the op's name.
inline Shape check(std::string_view op, const shape_rules::Result& r) {
  if (!r.ok()) throw ShapeError(std::string(op) + ": " + r.error);
  return r.shape;
}

inline void expect_arity(std::string_view op, std::span<const AbstractValue> in, size_t n) {
  if (in.size() != n)
    throw ValueError(std::string(op) + ": expects " + std::to_string(n) + " operands, but got " +
                     std::to_string(in.size()));
}

}  // namespace strata::primitives
