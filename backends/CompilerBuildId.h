// backends/CompilerBuildId.h — what identifies this build of the compiler.
#pragma once

namespace strata {

// A SHA-256 (64 hex digits) of every compiler source file and of the toolchain that built them:
// it changes with any change to the compiler, so the persistent cache never serves code that
// another build generated.
const char* compiler_build_id();

}  // namespace strata
