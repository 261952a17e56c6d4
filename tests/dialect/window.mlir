// The window ops (issue 13): strata.reduce_window and strata.select_and_scatter parse, verify
// and print back in StableHLO's generic form.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<2x6x6x3xf32>) -> tensor<2x3x3x3xf32> {
  %ninf = strata.constant dense<0xFF800000> : tensor<f32>
  // CHECK: "strata.reduce_window"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  // CHECK: strata.maximum
  // CHECK: }) : (tensor<2x6x6x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  %0 = "strata.reduce_window"(%x, %ninf) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>,
      window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = strata.maximum %a, %b : tensor<f32>
    strata.return %m : tensor<f32>
  }) : (tensor<2x6x6x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  return %0 : tensor<2x3x3x3xf32>
}

// CHECK-LABEL: func.func @dilated_padded_pair
func.func @dilated_padded_pair(%x: tensor<5x4xf32>, %t: tensor<5x4xf32>) -> tensor<3x3xf32> {
  %ninf = strata.constant dense<0xFF800000> : tensor<f32>
  %zero = strata.constant dense<0.0> : tensor<f32>
  // CHECK: base_dilations = array<i64: 2, 1>
  // CHECK-SAME: padding = dense<{{\[\[}}1, 0], [0, 1]]> : tensor<2x2xi64>
  // CHECK-SAME: window_dilations = array<i64: 1, 2>
  %0:2 = "strata.reduce_window"(%x, %t, %ninf, %zero) <{operandSegmentSizes = array<i32: 2, 2>,
      window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 3, 1>, base_dilations = array<i64: 2, 1>,
      window_dilations = array<i64: 1, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>}> ({
  ^bb0(%av: tensor<f32>, %at: tensor<f32>, %bv: tensor<f32>, %bt: tensor<f32>):
    %k = strata.compare GE, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = strata.select %k, %av, %bv : tensor<i1>, tensor<f32>
    %w = strata.select %k, %at, %bt : tensor<i1>, tensor<f32>
    strata.return %v, %w : tensor<f32>, tensor<f32>
  }) : (tensor<5x4xf32>, tensor<5x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %0#1 : tensor<3x3xf32>
}

// CHECK-LABEL: func.func @select_and_scatter
func.func @select_and_scatter(%x: tensor<4x6xf32>, %g: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %zero = strata.constant dense<0.0> : tensor<f32>
  // CHECK: "strata.select_and_scatter"(%{{.*}}, %{{.*}}, %{{.*}}) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  // CHECK: strata.compare GE
  // CHECK: }, {
  // CHECK: strata.add
  // CHECK: }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
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
