// --strata-expand-float8: the arith.extf / arith.truncf of the 8-bit floats that MLIR builds
// itself (a linalg.batch_matmul body widens its operands) become integer code on the bits,
// the scalar bodies' toCompute / toStorage; other conversions are left alone. The values are
// checked end to end in tests/api/test_float8.cpp and tests/strata-run/float8.mlir.
// RUN: strata-opt --strata-expand-float8 %s | FileCheck %s

// CHECK-LABEL: func.func @widen
// CHECK-NOT:   arith.extf {{.*}} : f8E4M3FN
// CHECK:       arith.bitcast %arg0 : f8E4M3FN to i8
// CHECK:       arith.extui {{.*}} : i8 to i32
// CHECK:       arith.uitofp
// CHECK:       arith.bitcast {{.*}} : i32 to f32
// CHECK:       arith.extf {{.*}} : f32 to f64
// CHECK-NOT:   arith.extf {{.*}} : f8E4M3FN
func.func @widen(%x: f8E4M3FN, %y: f8E5M2) -> (f32, f64) {
  %a = arith.extf %x : f8E4M3FN to f32
  %b = arith.extf %y : f8E5M2 to f64
  return %a, %b : f32, f64
}

// CHECK-LABEL: func.func @round
// CHECK-NOT:   arith.truncf {{.*}} to f8
// CHECK:       arith.bitcast %arg0 : f32 to i32
// CHECK:       arith.maxui
// CHECK:       arith.minui
// CHECK:       arith.trunci {{.*}} : i32 to i8
// CHECK:       arith.bitcast {{.*}} : i8 to f8E4M3FN
// The f64 source: first to f32 rounded to odd (one rounding in all).
// CHECK:       arith.truncf %arg1 : f64 to f32
// CHECK:       arith.bitcast {{.*}} : i8 to f8E5M2
// CHECK-NOT:   arith.truncf {{.*}} to f8
func.func @round(%x: f32, %y: f64) -> (f8E4M3FN, f8E5M2) {
  %a = arith.truncf %x : f32 to f8E4M3FN
  %b = arith.truncf %y : f64 to f8E5M2
  return %a, %b : f8E4M3FN, f8E5M2
}

// CHECK-LABEL: func.func @others
// CHECK:       arith.extf %arg0 : bf16 to f32
// CHECK:       arith.truncf {{.*}} : f32 to f16
func.func @others(%x: bf16) -> f16 {
  %a = arith.extf %x : bf16 to f32
  %b = arith.truncf %a : f32 to f16
  return %b : f16
}
