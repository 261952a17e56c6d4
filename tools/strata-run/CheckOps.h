// The assertions of StableHLO's self-checking tests, as strata-run reads them: the `check`
// dialect's ops (check.expect_eq_const %x, dense<...> : T, ...) and the custom calls
// `stablehlo.custom_call @check.expect_close(%x, %y)` JAX's test generator writes. Both are
// parsed as unregistered ops (a `check` namespace that accepts them; StablehloCompat keeps
// custom_call), and turned here into outputs of the function and comparisons after the run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

namespace mlir {
class DialectRegistry;
class Operation;
}

namespace strata::run {

// How a check compares an actual value with the expected one.
enum class Compare {
  kEqual,       // every element equal (nan matches nan)
  kAlmostEqual, // |actual - expected| <= tolerance, nan matches nan, inf and 0 exactly
  kClose,       // within [min_ulp, max_ulp] units in the last place
  kRelative,    // |actual - expected| <= atol + rtol * |expected| (strata-run --check)
};

struct Check {
  Compare compare = Compare::kEqual;
  double tolerance = 1e-4;
  int64_t min_ulp = 0, max_ulp = 3;
  double rtol = 1e-5, atol = 1e-6;
  mlir::DenseElementsAttr expected;  // the constant, or null when the expected value is an operand
  std::string what;                  // "check.expect_eq_const at file:line:col"
};

// Registers the `check` namespace: its ops parse as unregistered ops with operands and
// attributes (the constant as `value`).
void registerCheckDialect(mlir::DialectRegistry& registry);

// The check `op` is, or nullopt when it is not one; `error` says why a check-like op is not
// understood (an unknown check.* op or custom call).
std::optional<Check> asCheck(mlir::Operation* op, std::string& error);

class CheckDialect;

// Empty when `actual` passes `check` against `expected` (same type); else what differs: how
// many elements, the first of them with both values.
std::string compareValues(const Check& check, mlir::DenseElementsAttr actual, mlir::DenseElementsAttr expected);

}  // namespace strata::run

MLIR_DECLARE_EXPLICIT_TYPE_ID(::strata::run::CheckDialect)
