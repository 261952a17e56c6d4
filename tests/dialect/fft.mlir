// strata.fft parses, verifies and prints back; StableHLO's stablehlo.fft reads as it.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @types
// CHECK: strata.fft %{{.*}}, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK: strata.fft %{{.*}}, type = IFFT, length = [3, 8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK: strata.fft %{{.*}}, type = RFFT, length = [4, 6] : (tensor<3x4x6xf64>) -> tensor<3x4x4xcomplex<f64>>
// CHECK: strata.fft %{{.*}}, type = IRFFT, length = [3, 4, 10] : (tensor<3x4x6xcomplex<f32>>) -> tensor<3x4x10xf32>
// CHECK: strata.fft %{{.*}}, type = RFFT, length = [7] : (tensor<7xf32>) -> tensor<4xcomplex<f32>>
func.func @types(%a: tensor<3x8xcomplex<f32>>, %b: tensor<3x4x6xf64>, %c: tensor<3x4x6xcomplex<f32>>, %d: tensor<7xf32>) {
  %0 = strata.fft %a, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %1 = strata.fft %a, type = IFFT, length = [3, 8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
  %2 = strata.fft %b, type = RFFT, length = [4, 6] : (tensor<3x4x6xf64>) -> tensor<3x4x4xcomplex<f64>>
  %3 = stablehlo.fft %c, type = IRFFT, length = [3, 4, 10] : (tensor<3x4x6xcomplex<f32>>) -> tensor<3x4x10xf32>
  %4 = strata.fft %d, type = RFFT, length = [7] : (tensor<7xf32>) -> tensor<4xcomplex<f32>>
  return
}
