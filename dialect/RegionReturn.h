// dialect/RegionReturn.h — what ends a region's block, for the verifiers of ops with regions.
// An op's verifier runs before its blocks are checked, so a block may still be empty or end in
// an op that is not a terminator: Block::getTerminator() must not be called there (found by
// fuzz_strata_opt: a generic-form strata.case with an empty branch crashed the verifier).
#pragma once

#include <string>

#include "dialect/StrataOps.h"

namespace mlir::strata {

// The strata.return ending `block`, or null.
inline ReturnOp returnOf(Block& block) { return block.empty() ? ReturnOp() : dyn_cast<ReturnOp>(block.back()); }

// What ends `block` instead, for a diagnostic: an op's name, or "an empty block".
inline std::string endOf(Block& block) {
  return block.empty() ? std::string("an empty block") : block.back().getName().getStringRef().str();
}

}  // namespace mlir::strata
