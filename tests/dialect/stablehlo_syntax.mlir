// StableHLO's spellings of strata's ops (dialect/StablehloCompat.h): `stablehlo.X` parses as
// `strata.X`, with StableHLO's pretty syntax where it differs from strata's own.
// RUN: strata-opt %s --split-input-file | FileCheck %s


// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf64>) {
  // CHECK: strata.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: strata.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare  LT, %0, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.compare GT, %{{.*}}, %{{.*}}, UNSIGNED
  %2 = stablehlo.compare  GT, %i, %i,  UNSIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: strata.population_count %{{.*}} : tensor<4xi32>
  %3 = stablehlo.popcnt %i : tensor<4xi32>
  // CHECK: strata.clz %{{.*}} : tensor<4xi32>
  %4 = stablehlo.count_leading_zeros %i : tensor<4xi32>
  // CHECK: strata.round AWAY_FROM_ZERO, %{{.*}} : tensor<4xf32>
  %5 = stablehlo.round_nearest_afz %a : tensor<4xf32>
  // CHECK: strata.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xf64>
  %6 = stablehlo.convert %5 : (tensor<4xf32>) -> tensor<4xf64>
  // CHECK: strata.convert %{{.*}} : tensor<4xf64>{{$}}
  %7 = stablehlo.convert %6 : tensor<4xf64>
  func.return %0, %1, %2, %3, %4, %5, %7 : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf64>
}

// -----

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3xf32>, %k: tensor<2x3xi32>) -> (tensor<2xf32>, tensor<3xf32>, tensor<3xi32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // The compact form: one op of (accumulator, element) per input.
  // CHECK: strata.reduce(%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32> {
  // CHECK-NEXT: ^bb0(%[[ACC:.*]]: tensor<f32>, %[[X:.*]]: tensor<f32>):
  // CHECK-NEXT: strata.add %[[ACC]], %[[X]] : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // One (input init: value) group an input; the reducer's pairs are (accumulator, element).
  // CHECK: strata.reduce(%{{.*}}, %{{.*}} init: %{{.*}}, %{{.*}}) across dimensions = [0]
  // CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<f32>, %[[A1:.*]]: tensor<i32>, %[[X0:.*]]: tensor<f32>, %[[X1:.*]]: tensor<i32>):
  // CHECK-NEXT: strata.maximum %[[A0]], %[[X0]] : tensor<f32>
  // CHECK-NEXT: strata.minimum %[[A1]], %[[X1]] : tensor<i32>
  %1:2 = stablehlo.reduce(%x init: %ninf), (%k init: %c) across dimensions = [0] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
     reducer(%a0: tensor<f32>, %x0: tensor<f32>) (%a1: tensor<i32>, %x1: tensor<i32>)  {
      %m = stablehlo.maximum %a0, %x0 : tensor<f32>
      %n = stablehlo.minimum %a1, %x1 : tensor<i32>
      stablehlo.return %m, %n : tensor<f32>, tensor<i32>
    }
  func.return %0, %1#0, %1#1 : tensor<2xf32>, tensor<3xf32>, tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @movement
func.func @movement(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %i: tensor<i32>, %u: tensor<1x8xf32>) -> (tensor<4x16xf32>, tensor<1x8xf32>, tensor<4x8xf32>) {
  // CHECK: strata.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: strata.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}], sizes = [1, 8]
  %1 = stablehlo.dynamic_slice %a, %i, %c, sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
  // CHECK: strata.dynamic_update_slice %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} :
  %2 = stablehlo.dynamic_update_slice %a, %u, %i, %c : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  func.return %0, %1, %2 : tensor<4x16xf32>, tensor<1x8xf32>, tensor<4x8xf32>
}

// -----

// CHLO's special functions (JAX writes them as chlo.NAME): unary, and binary with one type per
// operand.
// CHECK-LABEL: func.func @chlo_special
func.func @chlo_special(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: strata.lgamma %{{.*}} : tensor<4xf32>
  %0 = chlo.lgamma %a : tensor<4xf32> -> tensor<4xf32>
  // CHECK: strata.bessel_i1e %{{.*}} : tensor<4xf32>
  %1 = chlo.bessel_i1e %a : tensor<4xf32> -> tensor<4xf32>
  // CHECK: strata.zeta %{{.*}}, %{{.*}} : tensor<4xf32>
  %2 = chlo.zeta %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: strata.polygamma %{{.*}}, %{{.*}} : tensor<4xf32>
  %3 = chlo.polygamma %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: strata.next_after %{{.*}}, %{{.*}} : tensor<4xf32>
  %4 = chlo.next_after %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
