// --emit with --verify-diagnostics: verifier errors are checked like mlir-opt's.
// RUN: strata-opt %s --emit=all --verify-diagnostics --split-input-file

func.func @main(%a: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'strata.reshape' op expects a shape with 6 elements like [2,3], but got [7]}}
  %0 = strata.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
