// backends/Executable.cpp — the parts of the compiler interface that are not a backend's.
#include "Executable.h"

namespace strata {

std::string CompileOptions::key() const {
  return "O" + std::to_string(opt_level) + (parallel ? "+parallel" : "-parallel") + (fuse ? "+fuse" : "-fuse") +
         (assign_buffers ? "+buffers" : "-buffers");
}

}  // namespace strata
