// --strata-math-to-libm-calls: f32 tanh becomes Eigen's rational approximation (inline
// arithmetic); log1p, expm1, erf, cbrt, f64 tanh (every op of lowering/LibmCalls.def) become calls of libm, each declared once, private
// and readnone; other element types are an error.
// RUN: strata-opt --split-input-file --verify-diagnostics --strata-math-to-libm-calls %s | FileCheck %s

// CHECK-DAG:   func.func private @log1pf(f32) -> f32 attributes {llvm.readnone}
// CHECK-DAG:   func.func private @expm1(f64) -> f64 attributes {llvm.readnone}
// CHECK-DAG:   func.func private @tanh(f64) -> f64 attributes {llvm.readnone}
// CHECK-NOT:   func.func private @tanhf
// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%[[A:.*]]: f32, %[[B:.*]]: f64, %[[C:.*]]: f32)
// CHECK:       %[[L1:.*]] = call @log1pf(%[[A]]) : (f32) -> f32
// CHECK:       %[[L2:.*]] = call @log1pf(%[[L1]]) : (f32) -> f32
// CHECK:       %[[E:.*]] = call @expm1(%[[B]]) : (f64) -> f64
// CHECK:       %[[T:.*]] = call @tanh(%[[E]]) : (f64) -> f64
// CHECK-NOT:   math.tanh
// CHECK-NOT:   call
// CHECK:       arith.cmpf ult, %[[C]]
// CHECK:       math.fma
// CHECK-NOT:   math.tanh
// CHECK-NOT:   call
// CHECK:       return %[[L2]], %[[T]], %{{.*}} : f32, f64, f32
func.func @main(%a: f32, %b: f64, %c: f32) -> (f32, f64, f32) {
  %0 = math.log1p %a : f32
  %1 = math.log1p %0 : f32
  %2 = math.expm1 %b : f64
  %3 = math.tanh %2 : f64
  %4 = math.tanh %c : f32
  return %1, %3, %4 : f32, f64, f32
}

// -----

// CHECK-DAG:   func.func private @erff(f32) -> f32 attributes {llvm.readnone}
// CHECK-DAG:   func.func private @erf(f64) -> f64 attributes {llvm.readnone}
// CHECK-DAG:   func.func private @cbrtf(f32) -> f32 attributes {llvm.readnone}
// CHECK-LABEL: func.func @erfs
// CHECK:       call @erff(%{{.*}}) : (f32) -> f32
// CHECK:       call @erf(%{{.*}}) : (f64) -> f64
// CHECK:       call @cbrtf(%{{.*}}) : (f32) -> f32
// CHECK-NOT:   math.erf
// CHECK-NOT:   math.cbrt
func.func @erfs(%a: f32, %b: f64) -> (f32, f64, f32) {
  %0 = math.erf %a : f32
  %1 = math.erf %b : f64
  %2 = math.cbrt %a : f32
  return %0, %1, %2 : f32, f64, f32
}

// -----

func.func @half(%a: f16) -> f16 {
  // expected-error @+1 {{strata-math-to-libm-calls: expects f32 or f64, but got 'f16'}}
  %0 = math.log1p %a : f16
  return %0 : f16
}

// -----

// exp and log keep their special lanes from libmvec: the call gets x only where x is ordinary
// (log: in (0, inf); exp: above ln of the smallest normal), another argument elsewhere, and the
// result is chosen on x's bits afterwards.
// CHECK-LABEL: func.func @guarded
// CHECK:       arith.maxnumf
// CHECK:       %[[LOGARG:.*]] = arith.select
// CHECK:       math.log %[[LOGARG]] : f32
// CHECK:       arith.bitcast %arg0 : f32 to i32
// CHECK:       arith.cmpi ult
// CHECK:       arith.maximumf %arg1
// CHECK:       %[[EXPARG:.*]] = arith.select
// CHECK:       math.exp %[[EXPARG]] : f64
// CHECK:       math.fma
// CHECK:       arith.bitcast %arg1 : f64 to i64
func.func @guarded(%x: f32, %y: f64) -> (f32, f64) {
  %a = math.log %x : f32
  %b = math.exp %y : f64
  return %a, %b : f32, f64
}

// -----

// erfc keeps its lanes beyond underflow to 0 (and nan) from libmvec's scalar calls: the call
// gets x below the threshold (a float compare), min(x, 1) elsewhere, and the result is chosen on
// x's bits, then x's nan.
// CHECK-LABEL: func.func @guarded_erfc
// CHECK:       arith.cmpf olt, %arg0
// CHECK:       arith.minnumf %arg0
// CHECK:       %[[ARG32:.*]] = arith.select
// CHECK:       %[[CALL32:.*]] = call @erfcf(%[[ARG32]]) : (f32) -> f32
// CHECK:       arith.bitcast %arg0 : f32 to i32
// CHECK:       %[[BELOW:.*]] = arith.cmpi slt
// CHECK:       arith.cmpf uno, %arg0, %arg0
// CHECK:       arith.select %[[BELOW]], %[[CALL32]]
// CHECK:       call @erfc(%{{.*}}) : (f64) -> f64
// CHECK:       arith.bitcast %arg1 : f64 to i64
func.func @guarded_erfc(%x: f32, %y: f64) -> (f32, f64) {
  %a = math.erfc %x : f32
  %b = math.erfc %y : f64
  return %a, %b : f32, f64
}
