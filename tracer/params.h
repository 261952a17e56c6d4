// tracer/params.h — the static parameters of an equation (axes, shapes, dtypes, sub-programs).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "strata/dtype.h"
#include "strata/errors.h"

namespace strata {

struct JaxprImpl;
class HostCallback;

using IntList = std::vector<int64_t>;
using JaxprPtr = std::shared_ptr<const JaxprImpl>;
// Several sub-programs (cond's `branches`), printed as a parenthesised list of jaxprs.
using JaxprList = std::vector<JaxprPtr>;
// A host function (tracer/host_callback.h), the `callback` of the callback primitives.
using HostCallbackPtr = std::shared_ptr<const HostCallback>;
using ParamValue = std::variant<bool, int64_t, double, std::string, DType, IntList, JaxprPtr, JaxprList, HostCallbackPtr>;

// A parameter a rule asks for that is missing or of another kind. From strata's own code that
// is a bug ("internal: ..."); in a parsed jaxpr it is the text's mistake, and the parser says
// so with the primitive's name and the place.
class ParamError : public Error {
 public:
  ParamError(std::string name, std::string expected, std::string got)
      : Error("internal: parameter '" + name + "' expects " + expected + ", but got " + got),
        name(std::move(name)), expected(std::move(expected)), got(std::move(got)) {}
  std::string name, expected, got;  // got: the value as printed, or "nothing"
};

// Named parameters, kept sorted by name so that equal parameter sets compare and print equal.
class Params {
 public:
  Params() = default;
  Params(std::initializer_list<std::pair<std::string, ParamValue>> items) {
    for (auto& [k, v] : items) set(k, v);
  }

  Params& set(const std::string& name, ParamValue value);
  bool has(const std::string& name) const { return find(name) != nullptr; }
  const ParamValue* find(const std::string& name) const;

  template <class T>
  const T& get(const std::string& name) const {
    const ParamValue* v = find(name);
    if (!v || !std::holds_alternative<T>(*v)) mistyped(name, ParamValue(std::in_place_type<T>), v);
    return std::get<T>(*v);
  }
  int64_t get_int(const std::string& name) const { return get<int64_t>(name); }
  const IntList& get_ints(const std::string& name) const { return get<IntList>(name); }
  DType get_dtype(const std::string& name) const { return get<DType>(name); }

  const std::vector<std::pair<std::string, ParamValue>>& items() const { return items_; }
  bool operator==(const Params& other) const { return items_ == other.items_; }

 private:
  // Throws ParamError: `name` was `got` (null: missing) where a value of `kind`'s kind was due.
  [[noreturn]] static void mistyped(const std::string& name, const ParamValue& kind, const ParamValue* got);
  std::vector<std::pair<std::string, ParamValue>> items_;
};

// "(1, 2)", "float32", "True", "2.5": the text a jaxpr prints for a parameter value.
std::string param_string(const ParamValue& v);

}  // namespace strata
