// A region whose block is empty or does not end in strata.return gets a diagnostic, never a
// crash: an op's verifier runs before its blocks are checked (dialect/RegionReturn.h). Found by
// fuzz_strata_opt (strata.case with an empty branch). Ops with SingleBlock regions get the
// trait's diagnostic for an empty block first.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @case_empty_branch(%i: tensor<i32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.case' op expects branch 1 to end in strata.return, but got an empty block}}
  %c = "strata.case"(%i) ({
    strata.return %a : tensor<4xf32>
  }, {
  ^bb0:
  }) : (tensor<i32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

func.func @if_no_return(%p: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.if' op expects the true branch to end in strata.return, but got strata.negate}}
  %r = "strata.if"(%p) ({
    %n = strata.negate %a : tensor<4xf32>
  }, {
    strata.return %a : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_empty_body(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.reduce' op expects a non-empty block}}
  %r = "strata.reduce"(%x, %z) <{dimensions = array<i64: 1>, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_no_return(%x: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.reduce' op expects the body to end in strata.return, but got strata.maximum}}
  %r = "strata.reduce"(%x, %z) <{dimensions = array<i64: 1>, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
    %m = strata.maximum %acc, %e : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @reduce_window_empty_body(%x: tensor<4xf32>, %i: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'strata.reduce_window' op expects a non-empty block}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @sort_empty_comparator(%x: tensor<5xi64>) -> tensor<5xi64> {
  // expected-error @+1 {{'strata.sort' op expects a non-empty block}}
  %0 = "strata.sort"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
  }) : (tensor<5xi64>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

func.func @fusion_empty_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.fusion' op expects a non-empty block}}
  %0 = "strata.fusion"(%x) ({
  ^bb0(%a: tensor<4xf32>):
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
