// strata/errors.h — every error a user can cause is one of these exceptions.
#pragma once

#include <stdexcept>
#include <string>

namespace strata {

// Base of every user-facing strata error.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Incompatible shapes: the message names the op and both shapes.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// A dtype an op does not accept, or an impossible conversion.
class DTypeError : public Error {
 public:
  using Error::Error;
};

// An axis out of range or repeated, or a bad static parameter (slice bounds, permutation).
class ValueError : public Error {
 public:
  using Error::Error;
};

// A traced value was used where a concrete one is needed (item(), to_vector(), a C++ `if`).
class ConcretizationError : public Error {
 public:
  using Error::Error;
};

// A tracer was used after the trace that created it had ended.
class EscapedTracerError : public Error {
 public:
  using Error::Error;
};

}  // namespace strata
