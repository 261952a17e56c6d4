// An element type strata does not have: one error at the first op that uses it, naming the
// type, with the op's file:line:col (tests/strata-run/unsupported_types.mlir: strata-run).
// RUN: not strata-opt %s --emit=strata 2>&1 | FileCheck %s

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  // CHECK: unsupported_types.mlir:[[@LINE+1]]:8: error: element type complex<f16> (in 'tensor<2xcomplex<f16>>') is not supported: strata's element types are f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E4M3, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN, f16, bf16, f32, f64, i1, i2, i4, i8, i16, i32, i64, ui2, ui4, ui8, ui16, ui32, ui64, complex<f32>, complex<f64>
  %c = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f16>>
  %d = stablehlo.add %c, %c : tensor<2xcomplex<f16>>
  func.return %y : tensor<4xf32>
}
// CHECK-NOT: error
