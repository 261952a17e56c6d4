// compiler::compile_mlir on text that is a view into a larger buffer: MLIR's lexer relies on a
// '\0' after its buffer (an identifier ending the text runs on into whatever follows), so the
// text is parsed from a terminated copy (found by fuzz_strata_opt, under ASan: a heap read
// past the input `strata.sqrtr1`).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "backends/Compiler.h"

namespace {

TEST(CompileMlirText, AViewEndsWhereItEnds) {
  const strata::JitOptions options;
  // The view stops right after the op name; the buffer goes on with characters an identifier
  // may hold, which the lexer must not take into the name.
  const std::string buffer = "strata.sqrtr1xyz";
  strata::CompileResult r = strata::compiler::compile_mlir(std::string_view(buffer).substr(0, 13), "view.mlir", "", options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.find("sqrtr1x"), std::string::npos) << r.error;
  // A whole program in a view that ends before a suffix which would break it.
  const std::string program =
      "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = strata.sqrt %x : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}GARBAGE";
  strata::CompileResult ok = strata::compiler::compile_mlir(std::string_view(program).substr(0, program.size() - 7),
                                                            "view.mlir", "", options);
  EXPECT_TRUE(ok.ok()) << ok.error;
}

}  // namespace
