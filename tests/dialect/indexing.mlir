// strata.gather and strata.scatter (StableHLO's dimension numbers as flat attributes; the
// scatter's body as its combiner): each parses, verifies and prints back; the generic form
// round-trips.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s

// CHECK-LABEL: func.func @rows
// CHECK: strata.gather CLIP, %{{.*}}[%{{.*}}], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
// CHECK: strata.gather FILL, %{{.*}}[%{{.*}}], offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0, slice_sizes = [1, 1] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<3xf32>
// CHECK: strata.scatter ADD, %{{.*}}[%{{.*}}], %{{.*}}, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32>
// CHECK: strata.scatter REPLACE, %{{.*}}[%{{.*}}], %{{.*}}, update_window_dims = [0, 1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 0 : (tensor<10x4xi1>, tensor<i32>, tensor<3x4xi1>) -> tensor<10x4xi1>
func.func @rows(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %j: tensor<2x3xi64>, %b: tensor<10x4xi1>, %k: tensor<i32>, %bu: tensor<3x4xi1>) {
  %r = strata.gather CLIP, %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
  %e = strata.gather FILL, %x[%j], offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0, slice_sizes = [1, 1] : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<3xf32>
  %s = strata.scatter ADD, %x[%i], %r, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32>
  %t = strata.scatter REPLACE, %b[%k], %bu, update_window_dims = [0, 1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 0 : (tensor<10x4xi1>, tensor<i32>, tensor<3x4xi1>) -> tensor<10x4xi1>
  return
}
