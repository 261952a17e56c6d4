// StableHLO's gather and scatter (always generic form) import as strata.gather (clamping, as
// StableHLO does) and strata.scatter with the update computation as its combiner.
// RUN: not strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS generic_gather_scatter.mlir:[[@LINE+1]] @gather_rows (1 checks)
func.func @gather_rows() {
  %table = stablehlo.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]]> : tensor<3x2xf32>
  %ids = stablehlo.constant dense<[[2], [0], [7]]> : tensor<3x1xi32>
  %r = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  check.expect_eq_const %r, dense<[[20.0, 21.0], [0.0, 1.0], [20.0, 21.0]]> : tensor<3x2xf32>
  func.return
}

// -----

// CHECK: PASS generic_gather_scatter.mlir:[[@LINE+1]] @scatter_add (1 checks)
func.func @scatter_add() {
  %acc = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %ids = stablehlo.constant dense<[[1], [3], [1], [9]]> : tensor<4x1xi32>
  %upd = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %r = "stablehlo.scatter"(%acc, %ids, %upd) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<4xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[1, 42, 3, 24]> : tensor<4xi32>
  func.return
}

// -----

// CHECK: FAIL generic_gather_scatter.mlir:[[@LINE+1]] @scatter_other: error: strata's scatter combines by replace, add, multiply, minimum or maximum
func.func @scatter_other() {
  %acc = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %ids = stablehlo.constant dense<[[1]]> : tensor<1x1xi32>
  %upd = stablehlo.constant dense<[5.0]> : tensor<1xf32>
  %r = "stablehlo.scatter"(%acc, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[1.0, -3.0]> : tensor<2xf32>
  func.return
}
// CHECK: 2 passed, 1 failed
