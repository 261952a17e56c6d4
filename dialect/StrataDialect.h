// dialect/StrataDialect.h — the `strata` dialect (MLIR). Include only from compiler-side
// files: every MLIR header costs seconds of compile time.
#pragma once

#include <memory>

#include "mlir/IR/Dialect.h"

#include "StrataDialect.h.inc"
