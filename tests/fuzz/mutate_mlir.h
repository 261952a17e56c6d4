// tests/fuzz/mutate_mlir.h — the structure-aware half of fuzz_strata_opt: one random change to
// a module's IR (a type, an operand, an op, an attribute), the module printed back as text that
// parses again. What it makes need not verify: the verifier must then say why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mlir {
class DialectRegistry;
}

namespace strata::fuzz {

// `text` parsed (dialects of `registry`), changed once at random (from `seed`) and printed
// back; nullopt when it does not parse or no change applied.
std::optional<std::string> mutate_mlir(const mlir::DialectRegistry& registry, std::string_view text, uint32_t seed);

// Crossover: `text1`'s module with a copy of one op of `text2`'s inserted (its operands rewired
// to values in scope); nullopt when either does not parse or no op fits.
std::optional<std::string> crossover_mlir(const mlir::DialectRegistry& registry, std::string_view text1,
                                          std::string_view text2, uint32_t seed);

}  // namespace strata::fuzz
