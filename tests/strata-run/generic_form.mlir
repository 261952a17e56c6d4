// StableHLO's generic form: "stablehlo.X"(...) ops with #stablehlo attributes are imported as
// strata ops (dialect/StablehloCompat.h: importGenericOps) before compiling.
// RUN: strata-run %s | FileCheck %s

// CHECK: PASS generic_form.mlir:[[@LINE+1]] @main (3 checks)
func.func @main() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[0.5, -1.0], [2.0, 0.0]]> : tensor<2x2xf32>
  %t = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %d = "stablehlo.dot_general"(%t, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %d, dense<[[6.5, -1.0], [9.0, -2.0]]> : tensor<2x2xf32>
  %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  check.expect_eq_const %c, dense<[[true, true], [true, true]]> : tensor<2x2xi1>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = "stablehlo.reduce"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_almost_eq_const %s, dense<[4.0, 6.0]> : tensor<2xf32>
  func.return
}
