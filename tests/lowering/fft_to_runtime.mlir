// --strata-to-linalg for strata.fft: the operand's own buffer (read-only) and a fresh result,
// their pointers passed straight to strata_rt_fft with the type, precision, batch and lengths.
// RUN: strata-opt --strata-to-linalg %s | FileCheck %s

// CHECK-LABEL: func.func @rfft
// CHECK: bufferization.to_buffer %arg0 read_only
// CHECK: bufferization.alloc_tensor() : tensor<3x4x4xcomplex<f64>>
// RFFT = 2, f64, batch 3, two lengths 4 and 6 (the third 1).
// CHECK: call @strata_rt_fft(%c2_i64, %c1_i64, %c3_i64, %c2_i64_0, %c4_i64, %c6_i64, %c1_i64_1, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, index, index) -> ()
// CHECK: bufferization.to_tensor %{{.*}} restrict writable
func.func @rfft(%a: tensor<3x4x6xf64>) -> tensor<3x4x4xcomplex<f64>> {
  %0 = strata.fft %a, type = RFFT, length = [4, 6] : (tensor<3x4x6xf64>) -> tensor<3x4x4xcomplex<f64>>
  return %0 : tensor<3x4x4xcomplex<f64>>
}
