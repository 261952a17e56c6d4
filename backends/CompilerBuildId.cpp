// The compiler's build id (compiler_build_id.inc, generated at build time by
// cmake/compiler_build_id.cmake from every compiler source file).
#include "backends/CompilerBuildId.h"

#include "compiler_build_id.inc"  // generated: STRATA_COMPILER_BUILD_ID

namespace strata {

const char* compiler_build_id() { return STRATA_COMPILER_BUILD_ID; }

}  // namespace strata
