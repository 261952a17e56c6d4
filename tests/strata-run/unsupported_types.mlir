// Element types strata does not have are refused at import with one message naming the type,
// before any rewrite; the other tests of the file run (tests/strata-opt/unsupported_types.mlir:
// the same from strata-opt, at the op's file:line:col).
// RUN: not strata-run %s --split-input-file 2>&1 | FileCheck %s

// CHECK: FAIL unsupported_types.mlir:[[@LINE+1]] @complex_bf16: error: element type complex<bf16> (in 'tensor<2xcomplex<bf16>>') is not supported: strata's element types are f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E4M3, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN, f16, bf16, f32, f64, i1, i2, i4, i8, i16, i32, i64, ui2, ui4, ui8, ui16, ui32, ui64, complex<f32>, complex<f64>
func.func @complex_bf16() {
  %x = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<bf16>>
  %y = stablehlo.add %x, %x : tensor<2xcomplex<bf16>>
  check.expect_eq_const %y, dense<[(2.0, 4.0), (6.0, 8.0)]> : tensor<2xcomplex<bf16>>
  func.return
}

// -----

// CHECK: PASS unsupported_types.mlir:[[@LINE+1]] @complex_add
func.func @complex_add() {
  %x = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %y = stablehlo.add %x, %x : tensor<2xcomplex<f32>>
  check.expect_eq_const %y, dense<[(2.0, 4.0), (6.0, 8.0)]> : tensor<2xcomplex<f32>>
  func.return
}

// -----

// The 2- and 4-bit integers strata has (tests/strata-run/subbyte_int.mlir), but no other width.
// CHECK: FAIL unsupported_types.mlir:[[@LINE+1]] @odd_width: error: element type i3 (in 'tensor<3xi3>') is not supported
func.func @odd_width() {
  %c = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi3>
  check.expect_eq_const %c, dense<[1, 2, 3]> : tensor<3xi3>
  func.return
}

// -----

// The float formats strata has (the 8-, 6- and 4-bit ones: tests/strata-run/float8.mlir) but not tf32.
// CHECK: FAIL unsupported_types.mlir:[[@LINE+1]] @tf32: error: element type tf32 (in 'tensor<2xtf32>') is not supported
func.func @tf32() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xtf32>
  check.expect_eq_const %y, dense<[1.0, 2.0]> : tensor<2xtf32>
  func.return
}

// -----

// CHECK: PASS unsupported_types.mlir:[[@LINE+1]] @supported
func.func @supported() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xui16>
  %y = stablehlo.add %x, %x : tensor<2xui16>
  check.expect_eq_const %y, dense<[2, 4]> : tensor<2xui16>
  func.return
}
// CHECK: 2 passed, 3 failed
