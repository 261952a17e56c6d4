// --emit=stablehlo of the ops whose StableHLO attributes or forms differ from strata's
// (tools/check_stablehlo_export.py reads such text with StableHLO's own parser), read back.
// RUN: strata-opt %s --emit=stablehlo | FileCheck %s
// RUN: strata-opt %s --emit=stablehlo | strata-opt --emit=strata | FileCheck %s --check-prefix=BACK

// CHECK: "stablehlo.convolution"({{.*}}) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 2>, padding = dense<{{\[\[}}1, 1], [0, -1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}
// BACK: strata.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = {{\[\[}}1, 1], [0, -1]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]}
func.func @conv(%x: tensor<2x9x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<2x4x12x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 1], pad = [[1, 1], [0, -1]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x9x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x4x12x16xf32>
  return %0 : tensor<2x4x12x16xf32>
}

// CHECK: "stablehlo.gather"({{.*}}) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}
// CHECK: "stablehlo.scatter"({{.*}}) ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = "stablehlo.add"(%[[A]], %[[B]])
// CHECK-NEXT: "stablehlo.return"(%[[S]])
// CHECK-NEXT: }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
// BACK: strata.gather CLIP
// BACK: strata.scatter ADD
func.func @indexing(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<10x4xf32>) {
  %g = strata.gather CLIP, %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
  %s = strata.scatter ADD, %x[%i], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32>
  return %g, %s : tensor<6x4xf32>, tensor<10x4xf32>
}

// cumsum as JAX writes it: a reduce_window over the whole dimension, padded before (after,
// reversed); exp2 as exp(x ln 2); an UNSIGNED compare of i32 on the bits as ui32; next_after
// from CHLO; case's index clamped as strata runs it.
// CHECK: %[[Z:.*]] = "stablehlo.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK: "stablehlo.reduce_window"(%{{.*}}, %[[Z]]) ({
// CHECK: "stablehlo.add"
// CHECK: }) {padding = dense<{{\[\[}}0, 0], [0, 4]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 5>}
// CHECK: "stablehlo.exponential"
// CHECK: "stablehlo.bitcast_convert"(%{{.*}}) : (tensor<i32>) -> tensor<ui32>
// CHECK: "stablehlo.compare"({{.*}}) {compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// CHECK: "chlo.next_after"
// CHECK: %[[C:.*]] = "stablehlo.clamp"
// CHECK: "stablehlo.case"(%[[C]])
// BACK: "strata.reduce_window"
// BACK: strata.exponential
// BACK: strata.compare GT, %{{.*}}, %{{.*}}, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
// BACK: strata.next_after
// BACK: %[[C:.*]] = strata.clamp
// (Read back, an index outside [0, 3) runs the last branch, as StableHLO's case does.)
// BACK: %[[N:.*]] = strata.constant dense<3>
// BACK: %[[IN:.*]] = strata.compare LT, %[[C]], %[[N]], UNSIGNED
// BACK: %[[S:.*]] = strata.select %[[IN]], %[[C]], %{{.*}}
// BACK: "strata.case"(%[[S]])
func.func @others(%x: tensor<2x5xf32>, %a: tensor<i32>, %b: tensor<i32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<i1>, tensor<2x5xf32>, tensor<2x5xf32>) {
  %0 = strata.cumulative %x kind = "sum", dim = 1 reverse : tensor<2x5xf32>
  %1 = strata.exp2 %x : tensor<2x5xf32>
  %2 = strata.compare GT, %a, %b, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %3 = strata.next_after %x, %1 : tensor<2x5xf32>
  %4 = "strata.case"(%a) ({
    strata.return %x : tensor<2x5xf32>
  }, {
    strata.return %1 : tensor<2x5xf32>
  }, {
    strata.return %0 : tensor<2x5xf32>
  }) : (tensor<i32>) -> tensor<2x5xf32>
  return %0, %1, %2, %3, %4 : tensor<2x5xf32>, tensor<2x5xf32>, tensor<i1>, tensor<2x5xf32>, tensor<2x5xf32>
}
