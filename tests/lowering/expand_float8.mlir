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

// The 6- and 4-bit floats: their bits are an i6 / i4 (a byte each in memory).
// CHECK-LABEL: func.func @narrower
// CHECK:       arith.bitcast %arg0 : f4E2M1FN to i4
// CHECK:       arith.extui {{.*}} : i4 to i32
// CHECK:       arith.trunci {{.*}} : i32 to i6
// CHECK:       arith.bitcast {{.*}} : i6 to f6E3M2FN
// CHECK-NOT:   arith.extf {{.*}} : f4E2M1FN
// CHECK-NOT:   arith.truncf {{.*}} to f6E3M2FN
func.func @narrower(%x: f4E2M1FN) -> f6E3M2FN {
  %a = arith.extf %x : f4E2M1FN to f32
  %b = arith.truncf %a : f32 to f6E3M2FN
  return %b : f6E3M2FN
}

// e8m0fnu and the fnuz formats likewise (their own specials: see tracer/kernels/float8.h).
// CHECK-LABEL: func.func @scales
// CHECK:       arith.bitcast %arg0 : f8E8M0FNU to i8
// CHECK:       arith.bitcast {{.*}} : i8 to f8E4M3FNUZ
func.func @scales(%x: f8E8M0FNU) -> f8E4M3FNUZ {
  %a = arith.extf %x : f8E8M0FNU to f32
  %b = arith.truncf %a : f32 to f8E4M3FNUZ
  return %b : f8E4M3FNUZ
}
