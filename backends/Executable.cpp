// backends/Executable.cpp — the parts of the compiler interface that are not a backend's.
#include "Executable.h"

namespace strata {

std::string CompileOptions::key() const {
  std::string k = "O" + std::to_string(opt_level) + (parallel ? "+parallel" : "-parallel") +
                  (fuse ? "+fuse" : "-fuse") + (assign_buffers ? "+buffers" : "-buffers");
  for (size_t i = 0; i < donate.size(); ++i) k += (i ? "," : "+donate:") + std::to_string(donate[i]);
  return k;
}

}  // namespace strata
