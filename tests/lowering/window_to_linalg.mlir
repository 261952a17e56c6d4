// --strata-to-linalg for the window ops (issue 13).
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// NHWC max pooling: one linalg.generic over (n, oh, ow, window..., c), the window's loops
// reductions and the channel loop innermost (contiguous reads); no padding, so no copy.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d3, d1 * 2 + d4, d2 * 2 + d5, d6 + d7)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d7)>
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}, #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction", "parallel"]}
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<2x6x6x3xf32>) -> tensor<2x3x3x3xf32> {
  %ninf = strata.constant dense<0xFF800000> : tensor<f32>
  %0 = "strata.reduce_window"(%x, %ninf) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>,
      window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = strata.maximum %a, %b : tensor<f32>
    strata.return %m : tensor<f32>
  }) : (tensor<2x6x6x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}

// -----

// Padding and base dilation: the input is written with strides into a tensor filled with the
// init value; bf16 accumulates in f32 and rounds once.
// CHECK-LABEL: func.func @padded_dilated_bf16
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1] [4] [2] : tensor<4xbf16> into tensor<9xbf16>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<9xbf16>, tensor<3xi8>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xbf16>)
func.func @padded_dilated_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %zero = strata.constant dense<0.0> : tensor<bf16>
  %0 = "strata.reduce_window"(%x, %zero) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 3>,
      window_strides = array<i64: 2>, base_dilations = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = strata.add %a, %b : tensor<bf16>
    strata.return %s : tensor<bf16>
  }) : (tensor<4xbf16>, tensor<bf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// select_and_scatter: a loop over source elements, an inner loop over the window's taps
// carrying the selection, the scatter region applied in place.
// CHECK-LABEL: func.func @select_and_scatter
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.if
// CHECK: arith.cmpf oge
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: tensor.insert
func.func @select_and_scatter(%x: tensor<4x6xf32>, %g: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %0 = "strata.select_and_scatter"(%x, %g, %zero) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = strata.add %a, %b : tensor<f32>
    strata.return %s : tensor<f32>
  }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
