// The scalar bodies of reduce, sort, reduce_window and select_and_scatter are functions of
// their arguments (IsolatedFromAbove): using an outer value is a verifier error. Found by
// fuzz_strata_opt: such a body crashed the lowering (WindowToLinalg, StrataToLinalg), which
// maps only the body's arguments.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @reduce(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = strata.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
    // expected-error @+1 {{using value defined outside the region}}
    %m = strata.maximum %acc, %z : tensor<f32>
    strata.return %m : tensor<f32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_window(%x: tensor<2x6x6x3xf32>) -> tensor<2x3x3x3xf32> {
  %0 = strata.constant dense<0xFF800000> : tensor<f32>
  // expected-note @+1 {{required by region isolation constraints}}
  %1 = "strata.reduce_window"(%x, %0) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = strata.maximum %a, %b : tensor<f32>
    // expected-error @+1 {{using value defined outside the region}}
    strata.return %0 : tensor<f32>
  }) : (tensor<2x6x6x3xf32>, tensor<f32>) -> tensor<2x3x3x3xf32>
  return %1 : tensor<2x3x3x3xf32>
}

// -----

func.func @sort(%x: tensor<5xi64>, %p: tensor<i1>) -> tensor<5xi64> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = strata.sort %x : (tensor<5xi64>) -> tensor<5xi64> {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    // expected-error @+1 {{using value defined outside the region}}
    strata.return %p : tensor<i1>
  }
  return %0 : tensor<5xi64>
}

// -----

func.func @select_and_scatter(%x: tensor<4xf32>, %s: tensor<2xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = "strata.select_and_scatter"(%x, %s, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{using value defined outside the region}}
    %sum = strata.add %a, %i : tensor<f32>
    strata.return %sum : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
