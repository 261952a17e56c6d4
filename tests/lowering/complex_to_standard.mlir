// --strata-complex-to-standard: MLIR's complex-to-standard, but a complex product is XLA's,
// each part one fused multiply-add: re = fma(a, c, -(b·d)), im = fma(b, c, a·d). The rest
// (here a quotient, Smith's algorithm) is MLIR's; building and taking parts stays.
// RUN: strata-opt --strata-complex-to-standard %s | FileCheck %s

// CHECK-LABEL: func.func @product
// CHECK-SAME:  (%[[X:.*]]: complex<f32>, %[[Y:.*]]: complex<f32>)
// CHECK-DAG:   %[[A:.*]] = complex.re %[[X]]
// CHECK-DAG:   %[[B:.*]] = complex.im %[[X]]
// CHECK-DAG:   %[[C:.*]] = complex.re %[[Y]]
// CHECK-DAG:   %[[D:.*]] = complex.im %[[Y]]
// CHECK-DAG:   %[[BD:.*]] = arith.mulf %[[B]], %[[D]] : f32
// CHECK-DAG:   %[[AD:.*]] = arith.mulf %[[A]], %[[D]] : f32
// CHECK-DAG:   %[[NBD:.*]] = arith.negf %[[BD]] : f32
// CHECK-DAG:   %[[RE:.*]] = math.fma %[[A]], %[[C]], %[[NBD]] : f32
// CHECK-DAG:   %[[IM:.*]] = math.fma %[[B]], %[[C]], %[[AD]] : f32
// CHECK:       %[[R:.*]] = complex.create %[[RE]], %[[IM]] : complex<f32>
// CHECK:       return %[[R]]
func.func @product(%x: complex<f32>, %y: complex<f32>) -> complex<f32> {
  %p = complex.mul %x, %y : complex<f32>
  return %p : complex<f32>
}

// A product in f64 and a quotient: no complex arithmetic is left.
// CHECK-LABEL: func.func @quotient_of_products
// CHECK-COUNT-2: math.fma {{.*}} : f64
// CHECK-NOT:   complex.mul
// CHECK-NOT:   complex.div
// CHECK:       return
func.func @quotient_of_products(%x: complex<f64>, %y: complex<f64>) -> complex<f64> {
  %p = complex.mul %x, %y : complex<f64>
  %q = complex.div %p, %y : complex<f64>
  return %q : complex<f64>
}
