// libFuzzer target: the jaxpr parser on arbitrary bytes. It must never crash, hang or throw
// (parse_jaxpr reports every error as a JaxprParseError); a jaxpr it accepts must print and
// parse back to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "jaxpr.h"
#include "jaxpr_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  strata::ParsedJaxpr p = strata::parse_jaxpr(text, "fuzz");
  if (!p.jaxpr) {
    if (p.error.message.empty() || p.error.line < 1 || p.error.column < 1) std::abort();  // an error says where
    return 0;
  }
  std::string printed = p.jaxpr->str();
  strata::ParsedJaxpr again = strata::parse_jaxpr(printed, "fuzz-again");
  if (!again.jaxpr || again.jaxpr->str() != printed) std::abort();  // print ∘ parse is the identity
  return 0;
}
