// The 8-bit floats f8E4M3FN and f8E5M2 through import, compilation and the checks: rounding
// of f32 values to nearest even (nan past 448 in e4m3fn, which has no inf; inf past 57344 in
// e5m2), arithmetic computed in f32 and rounded once, max reductions (e4m3fn's identity -448),
// a dot accumulated in f32, and a sort.
// RUN: strata-run %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS float8.mlir:[[@LINE+1]] @convert_e4m3fn
func.func @convert_e4m3fn() {
  %x = stablehlo.constant dense<[0.1, 1.0625, 1.1875, 448.0, 463.0, 465.0, -0.0009765625, 0.0009766]> : tensor<8xf32>
  %y = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  %b = stablehlo.bitcast_convert %y : (tensor<8xf8E4M3FN>) -> tensor<8xui8>
  check.expect_eq_const %b, dense<[29, 56, 58, 126, 126, 127, 128, 1]> : tensor<8xui8>
  func.return
}

// -----

// CHECK: PASS float8.mlir:[[@LINE+1]] @convert_e5m2
func.func @convert_e5m2() {
  %x = stablehlo.constant dense<[0.1, 61440.0, 61439.0, -1.0e6, 1.5e-5]> : tensor<5xf32>
  %y = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xf8E5M2>
  %b = stablehlo.bitcast_convert %y : (tensor<5xf8E5M2>) -> tensor<5xui8>
  check.expect_eq_const %b, dense<[46, 124, 123, 252, 1]> : tensor<5xui8>
  func.return
}

// -----

// CHECK: PASS float8.mlir:[[@LINE+1]] @arithmetic
func.func @arithmetic() {
  %a = stablehlo.constant dense<[1.5, -2.0, 3.5, 240.0]> : tensor<4xf8E4M3FN>
  %b = stablehlo.constant dense<[0.75, 0.3125, -1.25, 2.0]> : tensor<4xf8E4M3FN>
  %p = stablehlo.multiply %a, %b : tensor<4xf8E4M3FN>
  %s = stablehlo.add %p, %a : tensor<4xf8E4M3FN>
  %w = stablehlo.convert %s : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  // Each op rounded: 1.125 + 1.5 = 2.625, a tie between 2.5 and 2.75: 2.5 (even mantissa);
  // -0.625 - 2 likewise -2.5; -4.375 → -4.5, + 3.5 = -1; 480 is past 448: nan.
  check.expect_eq_const %w, dense<[2.5, -2.5, -1.0, 0x7FC00000]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS float8.mlir:[[@LINE+1]] @reduce_max_and_dot
func.func @reduce_max_and_dot() {
  %a = stablehlo.constant dense<[[-3.0, -1.5], [-448.0, -448.0]]> : tensor<2x2xf8E4M3FN>
  %init = stablehlo.constant dense<-448.0> : tensor<f8E4M3FN>
  %m = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<2x2xf8E4M3FN>, tensor<f8E4M3FN>) -> tensor<2xf8E4M3FN>
  %mw = stablehlo.convert %m : (tensor<2xf8E4M3FN>) -> tensor<2xf32>
  check.expect_eq_const %mw, dense<[-1.5, -448.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[[1.0, 2.0], [0.5, 0.25]]> : tensor<2x2xf8E5M2>
  %c = stablehlo.constant dense<[[3.0, 1.0], [4.0, 0.75]]> : tensor<2x2xf8E5M2>
  %d = stablehlo.dot_general %b, %c, contracting_dims = [1] x [0] : (tensor<2x2xf8E5M2>, tensor<2x2xf8E5M2>) -> tensor<2x2xf8E5M2>
  %dw = stablehlo.convert %d : (tensor<2x2xf8E5M2>) -> tensor<2x2xf32>
  // Accumulated in f32, rounded once: [[3 + 8, 1 + 1.5], [1.5 + 1, 0.5 + 0.1875]] = 11 → 12,
  // 2.5, 2.5 and 0.6875, a tie between 0.625 and 0.75: 0.75 (even mantissa).
  check.expect_eq_const %dw, dense<[[12.0, 2.5], [2.5, 0.75]]> : tensor<2x2xf32>
  func.return
}

// -----

// CHECK: PASS float8.mlir:[[@LINE+1]] @sort
func.func @sort() {
  %x = stablehlo.constant dense<[3.0, -0.5, 448.0, -448.0, 0.0, 1.25]> : tensor<6xf8E4M3FN>
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%l: tensor<f8E4M3FN>, %r: tensor<f8E4M3FN>):
    %lt = stablehlo.compare LT, %l, %r, FLOAT : (tensor<f8E4M3FN>, tensor<f8E4M3FN>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<6xf8E4M3FN>) -> tensor<6xf8E4M3FN>
  check.expect_eq_const %s, dense<[-448.0, -0.5, 0.0, 1.25, 3.0, 448.0]> : tensor<6xf8E4M3FN>
  func.return
}

// -----

// The rarer formats: the fnuz ones (no -0, one nan at 0x80), e8m0fnu (powers of two, half up)
// and the 6- and 4-bit ones (saturating), values as ml_dtypes rounds them.
// CHECK: PASS float8.mlir:[[@LINE+1]] @convert_rarer
func.func @convert_rarer() {
  %x = stablehlo.constant dense<[-0.0, 300.0, 3.0, 0.3, 100.0]> : tensor<5xf32>
  %a = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xf8E4M3FNUZ>
  %b = stablehlo.bitcast_convert %a : (tensor<5xf8E4M3FNUZ>) -> tensor<5xui8>
  check.expect_eq_const %b, dense<[0, 128, 76, 50, 116]> : tensor<5xui8>
  %e = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xf8E8M0FNU>
  %eb = stablehlo.bitcast_convert %e : (tensor<5xf8E8M0FNU>) -> tensor<5xui8>
  check.expect_eq_const %eb, dense<[255, 135, 129, 125, 134]> : tensor<5xui8>
  %f = stablehlo.convert %x : (tensor<5xf32>) -> tensor<5xf4E2M1FN>
  %fw = stablehlo.convert %f : (tensor<5xf4E2M1FN>) -> tensor<5xf32>
  check.expect_eq_const %fw, dense<[-0.0, 6.0, 3.0, 0.5, 6.0]> : tensor<5xf32>
  func.return
}

// -----

// Arithmetic in f6E3M2FN, rounded after each op and saturating at 28.
// CHECK: PASS float8.mlir:[[@LINE+1]] @arithmetic_f6
func.func @arithmetic_f6() {
  %a = stablehlo.constant dense<[1.5, -2.0, 3.5, 20.0]> : tensor<4xf6E3M2FN>
  %b = stablehlo.constant dense<[0.75, 0.3125, -1.25, 2.0]> : tensor<4xf6E3M2FN>
  %p = stablehlo.multiply %a, %b : tensor<4xf6E3M2FN>
  %w = stablehlo.convert %p : (tensor<4xf6E3M2FN>) -> tensor<4xf32>
  check.expect_eq_const %w, dense<[1.0, -0.625, -4.0, 28.0]> : tensor<4xf32>
  func.return
}
