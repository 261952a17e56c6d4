// A tiny outside project: includes only the public header, links strata::strata.
#include <iostream>

#include "strata/strata.h"

namespace st = strata;

int main() {
  st::Array x = st::array({1.0f, -2.0f, 3.0f}, {3});
  st::Array y = st::relu(x) * 2.0f;
  std::vector<float> v = y.to_vector<float>();
  if (v != std::vector<float>{2.0f, 0.0f, 6.0f}) {
    std::cerr << "package_app: wrong result " << y << "\n";
    return 1;
  }
  std::cout << "package_app: " << y << "\n";
  return 0;
}
