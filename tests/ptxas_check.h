// tests/ptxas_check.h — the CUDA toolkit's ptxas as a judge of generated PTX, for the tests of
// the cuda target on machines without a GPU.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace strata::testing {

// ptxas's complaints about `ptx` for sm_90: "" when it accepts it (or when there is no
// toolkit at /usr/local/cuda to ask).
inline std::string ptxas_errors(const std::string& ptx) {
  const std::string ptxas = "/usr/local/cuda/bin/ptxas";
  if (access(ptxas.c_str(), X_OK) != 0) return "";
  char path[] = "/tmp/strata-ptx-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return "cannot create a temporary file";
  ::close(fd);
  { std::ofstream(path) << ptx; }
  std::string out = std::string(path) + ".cubin", log = std::string(path) + ".log";
  int rc = std::system((ptxas + " -arch=sm_90 " + path + " -o " + out + " > " + log + " 2>&1").c_str());
  std::string text;
  if (rc != 0) {
    std::ifstream l(log);
    text.assign(std::istreambuf_iterator<char>(l), {});
    if (text.empty()) text = "ptxas failed";
  }
  std::remove(path);
  std::remove(out.c_str());
  std::remove(log.c_str());
  return text;
}

}  // namespace strata::testing
