// StableHLO's fft run by strata-run (pretty and generic forms), checked against NumPy's values:
// np.fft.fft([0, 1j, 2, 3j]), np.fft.rfft([1, 2, 3, 4, 5]), an inverse round trip and a 2-D
// real transform.
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS fft.mlir:[[@LINE+1]] @fft
func.func @fft() {
  %x = stablehlo.constant dense<[(0.0, 0.0), (0.0, 1.0), (2.0, 0.0), (0.0, 3.0)]> : tensor<4xcomplex<f64>>
  %y = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[(2.0, 4.0), (-4.0, 0.0), (2.0, -4.0), (0.0, 0.0)]> : tensor<4xcomplex<f64>>
  %z = stablehlo.fft %y, type = IFFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %z, dense<[(0.0, 0.0), (0.0, 1.0), (2.0, 0.0), (0.0, 3.0)]> : tensor<4xcomplex<f64>>
  func.return
}

// -----

// CHECK: PASS fft.mlir:[[@LINE+1]] @rfft_generic
func.func @rfft_generic() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %y = "stablehlo.fft"(%x) {fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 5>} : (tensor<5xf32>) -> tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %y, dense<[(15.0, 0.0), (-2.5, 3.440954801), (-2.5, 0.812299240)]> : tensor<3xcomplex<f32>>
  %z = stablehlo.fft %y, type = IRFFT, length = [5] : (tensor<3xcomplex<f32>>) -> tensor<5xf32>
  check.expect_almost_eq_const %z, dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  func.return
}

// -----

// CHECK: PASS fft.mlir:[[@LINE+1]] @rfft2
func.func @rfft2() {
  // np.fft.rfft2([[1, 2, 3, 4], [0, 1, 0, -1]])
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, -1.0]]> : tensor<2x4xf64>
  %y = stablehlo.fft %x, type = RFFT, length = [2, 4] : (tensor<2x4xf64>) -> tensor<2x3xcomplex<f64>>
  check.expect_almost_eq_const %y, dense<[[(10.0, 0.0), (-2.0, 0.0), (-2.0, 0.0)], [(10.0, 0.0), (-2.0, 4.0), (-2.0, 0.0)]]> : tensor<2x3xcomplex<f64>>
  func.return
}
