// strata/jaxpr.h — a traced program, printed as JAX prints jaxprs.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "strata/array.h"

namespace strata {

struct JaxprImpl;

// A closed jaxpr: the equations a traced function performed, with the constants it captured.
// Immutable; copying shares it.
class Jaxpr {
 public:
  explicit Jaxpr(std::shared_ptr<const JaxprImpl> impl) : impl_(std::move(impl)) {}

  // "{ lambda ; a:f32[4,8] b:f32[8,16]. let c:f32[4,16] = dot_general[...] a b in (c,) }"
  std::string to_string() const;
  int num_inputs() const;
  int num_outputs() const;
  int num_equations() const;
  // The names of the primitives of the equations, in order.
  std::vector<std::string> primitive_names() const;

  const std::shared_ptr<const JaxprImpl>& impl() const { return impl_; }

 private:
  std::shared_ptr<const JaxprImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Jaxpr& j);

// Evaluates the program on `args` (flattened leaves): eagerly on concrete arrays, or, inside
// another trace, by recording its equations there.
std::vector<Array> eval_jaxpr(const Jaxpr& jaxpr, const std::vector<Array>& args);

}  // namespace strata
