// tests/pass_variants.h — the compiler configurations the end-to-end tests run under: all of the
// passes, and each pass that can be switched off switched off (fusion, buffer assignment).
#pragma once

#include <ostream>

namespace strata::testing {

struct PassVariant {
  const char* name;
  bool fuse = true;
  bool assign_buffers = true;
  // `o` (a JitOptions) with this variant's.
  template <class Options>
  Options apply(Options o = {}) const {
    o.fuse = fuse;
    o.assign_buffers = assign_buffers;
    return o;
  }
};

inline const PassVariant kPassVariants[] = {
    {"AllPasses"},
    {"NoFusion", /*fuse=*/false},
    {"NoBufferAssignment", /*fuse=*/true, /*assign_buffers=*/false},
};

// GoogleTest prints a parameter by its name (instead of its bytes).
inline void PrintTo(const PassVariant& v, std::ostream* os) { *os << v.name; }

}  // namespace strata::testing
