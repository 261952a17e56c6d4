// StableHLO's reduce_window and select_and_scatter (always generic form) import as
// strata.reduce_window / strata.select_and_scatter with their regions, compile and run.
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS window.mlir:[[@LINE+1]] @reduce_window (1 checks)
func.func @reduce_window() {
  %input = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.reduce_window"(%input, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    base_dilations = array<i64: 2, 1>,
    padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>,
    window_dilations = array<i64: 3, 1>,
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 4, 1>
  } : (tensor<3x2xi64>, tensor<i64>) -> tensor<1x2xi64>
  check.expect_eq_const %result, dense<[[5, 6]]> : tensor<1x2xi64>
  func.return
}

// -----

// Two inputs: the largest value of each window and the index it came from (a general body).
// CHECK: PASS window.mlir:[[@LINE+1]] @variadic_argmax (2 checks)
func.func @variadic_argmax() {
  %x = stablehlo.constant dense<[3.0, 7.0, 7.0, -1.0, 7.5, 2.0]> : tensor<6xf32>
  %i = stablehlo.iota dim = 0 : tensor<6xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %none = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %ninf, %none) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>, padding = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %keep = stablehlo.compare GE, %av, %bv, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %keep, %av, %bv : tensor<i1>, tensor<f32>
      %j = stablehlo.select %keep, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_eq_const %r#1, dense<[1, 4, 4]> : tensor<3xi32>
  check.expect_eq_const %r#0, dense<[7.0, 7.5, 7.5]> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS window.mlir:[[@LINE+1]] @select_and_scatter (1 checks)
func.func @select_and_scatter() {
  %operand = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
  %source = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
  %init_value = stablehlo.constant dense<0> : tensor<i64>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %init_value) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.compare GE, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  check.expect_eq_const %result, dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi64>
  func.return
}

// -----

// A min-selecting, multiplying select_and_scatter from 1 (a general pair of regions).
// CHECK: PASS window.mlir:[[@LINE+1]] @select_min_multiply (1 checks)
func.func @select_min_multiply() {
  %operand = stablehlo.constant dense<[4.0, 1.0, 3.0, 1.0, 5.0]> : tensor<5xf32>
  %source = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %result = "stablehlo.select_and_scatter"(%operand, %source, %one) <{window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %0 : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.multiply %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
  }) : (tensor<5xf32>, tensor<2xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %result, dense<[1.0, 2.0, 1.0, 3.0, 1.0]> : tensor<5xf32>
  func.return
}


// -----

// f16 values inside a body are rounded to f16 as StableHLO computes them: x·x - 1 for
// x = 1 + 3·2^-10 is 6·2^-10 (0.005859375); unrounded (f32) it would give 0.00586700439.
// CHECK: PASS window.mlir:[[@LINE+1]] @f16_body_intermediates (1 checks)
func.func @f16_body_intermediates() {
  %x = stablehlo.constant dense<[1.0029296875, 1.0029296875]> : tensor<2xf16>
  %init = stablehlo.constant dense<0.0> : tensor<f16>
  %r = "stablehlo.reduce_window"(%x, %init) ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %one = stablehlo.constant dense<1.0> : tensor<f16>
      %sq = stablehlo.multiply %b, %b : tensor<f16>
      %d = stablehlo.subtract %sq, %one : tensor<f16>
      %s = stablehlo.add %a, %d : tensor<f16>
      stablehlo.return %s : tensor<f16>
  }) {window_dimensions = array<i64: 1>} : (tensor<2xf16>, tensor<f16>) -> tensor<2xf16>
  check.expect_eq_const %r, dense<[0.005859375, 0.005859375]> : tensor<2xf16>
  func.return
}

// CHECK: 5 passed, 0 failed
