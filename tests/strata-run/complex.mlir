// Complex numbers through StableHLO: built from parts and taken apart, arithmetic, the modulus,
// sqrt of a negative number (exactly i), a complex dot and a reduction; the checks are
// StableHLO's check dialect, values compared part by part.
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS complex.mlir:[[@LINE+1]] @parts
func.func @parts() {
  %re = stablehlo.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %im = stablehlo.constant dense<[4.0, 0.5, -1.0]> : tensor<3xf32>
  %z = stablehlo.complex %re, %im : tensor<3xcomplex<f32>>
  %w = stablehlo.multiply %z, %z : tensor<3xcomplex<f32>>
  %r = stablehlo.real %w : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %i = stablehlo.imag %w : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %a = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  check.expect_eq_const %w, dense<[(-15.0, 8.0), (3.75, -2.0), (8.0, -6.0)]> : tensor<3xcomplex<f32>>
  check.expect_eq_const %r, dense<[-15.0, 3.75, 8.0]> : tensor<3xf32>
  check.expect_eq_const %i, dense<[8.0, -2.0, -6.0]> : tensor<3xf32>
  check.expect_almost_eq_const %a, dense<[4.12310553, 2.06155276, 3.16227770]> : tensor<3xf32>
  func.return
}

// -----

// CHECK: PASS complex.mlir:[[@LINE+1]] @sqrt_of_negative
func.func @sqrt_of_negative() {
  %z = stablehlo.constant dense<[(-1.0, 0.0), (-4.0, 0.0), (0.0, 2.0)]> : tensor<3xcomplex<f64>>
  %s = stablehlo.sqrt %z : tensor<3xcomplex<f64>>
  check.expect_eq_const %s, dense<[(0.0, 1.0), (0.0, 2.0), (1.0, 1.0)]> : tensor<3xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS complex.mlir:[[@LINE+1]] @dot_and_sum
func.func @dot_and_sum() {
  %a = stablehlo.constant dense<[[(1.0, 1.0), (2.0, 0.0)], [(0.0, -1.0), (1.0, 2.0)]]> : tensor<2x2xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 0.0), (0.0, 1.0)]> : tensor<2xcomplex<f32>>
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %s = stablehlo.reduce(%d init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  check.expect_eq_const %d, dense<[(1.0, 3.0), (-2.0, 0.0)]> : tensor<2xcomplex<f32>>
  check.expect_eq_const %s, dense<(-1.0, 3.0)> : tensor<complex<f32>>
  func.return
}
// CHECK: 3 passed, 0 failed
