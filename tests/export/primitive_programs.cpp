// strata-primitive-programs DIR: writes one program per primitive and case of
// tests/backends/primitive_cases.h (the cases the CPU primitive tests compile), as
// tools/check_stablehlo_export.py reads them: DIR/NAME.K.mlir (the `strata` stage of the
// one-equation jaxpr) and its inputs DIR/NAME.K.in<i>.npy. Up to three cases a primitive, each
// with other input dtypes; cases with inputs .npy cannot hold (bf16, the 8-bit floats, the
// sub-byte integers: ml_dtypes' types, untyped bytes in NumPy's files) or large ones are left out.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "backends/primitive_cases.h"
#include "strata/npy.h"

using namespace primitive_cases;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: strata-primitive-programs DIR\n";
    return 2;
  }
  std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  int written = 0;
  for (const st::Primitive* p : st::all_primitives()) {
    std::string name(p->name);
    auto it = case_table().find(name);
    if (it == case_table().end() || needs_subprograms(name) || is_host_callback(name)) continue;
    std::set<std::string> signatures;
    int k = 0;
    for (const Case& c : it->second()) {
      std::string signature;
      bool usable = c.what.find("large") == std::string::npos;
      for (const Array& x : c.inputs) {
        usable &= x.dtype() != st::bf16 && !st::is_float8(x.dtype()) && !st::is_subbyte_integer(x.dtype()) &&
                  x.size() <= 4096;
        signature += std::string(st::short_name(x.dtype())) + ",";
      }
      if (!usable || signatures.size() >= 3 || !signatures.insert(signature).second) continue;
      st::Jaxpr j = one_equation(*p, c.params, c.inputs);
      st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {}, "strata");
      if (!r.ok() || r.stages.empty()) {
        std::cerr << name << " (" << c.what << "): " << r.error << "\n";
        return 1;
      }
      std::string stem = (dir / (name + "." + std::to_string(k++))).string();
      std::ofstream(stem + ".mlir") << "// " << name << ": " << c.what << "\n" << r.stages.back().text;
      for (size_t i = 0; i < c.inputs.size(); ++i) st::save_npy(stem + ".in" + std::to_string(i) + ".npy", c.inputs[i]);
      ++written;
    }
  }
  std::cout << written << " programs in " << dir.string() << "\n";
  return 0;
}
