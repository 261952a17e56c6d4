// Simplification before fusion (the canonicalized and cse stages): a subexpression computed
// twice is computed once, chains of transposes, broadcasts and widening converts collapse,
// identities and dead ops go.
// RUN: strata-opt --emit=cse %s | FileCheck %s

// exp(x) and its sum, written twice: one exponential, one reduction, added to itself.
// CHECK-LABEL: func.func @main
// CHECK:       %[[E:.*]] = strata.exponential %arg0
// CHECK-NOT:   strata.exponential
// CHECK:       %[[S:.*]] = strata.reduce(%[[E]]
// CHECK-NOT:   strata.reduce
// CHECK:       %[[R:.*]] = strata.add %[[S]], %[[S]] : tensor<4xf32>
// transpose(broadcast(b)) is a broadcast into the transposed layout; transposing it back is the
// first broadcast; multiplying by one is nothing; f32 → f64 → f32 is x.
// CHECK-DAG:   %[[BT:.*]] = strata.broadcast_in_dim %arg1, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
// CHECK-DAG:   %[[B:.*]] = strata.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NOT:   strata.transpose
// CHECK-NOT:   strata.multiply
// CHECK-NOT:   strata.convert
// CHECK:       return %[[R]], %[[BT]], %[[B]], %arg0
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %e1 = strata.exponential %x : tensor<4x8xf32>
  %s1 = strata.reduce(%e1 init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %p = strata.add %a, %c : tensor<f32>
    strata.return %p : tensor<f32>
  }
  %e2 = strata.exponential %x : tensor<4x8xf32>
  %s2 = strata.reduce(%e2 init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %p = strata.add %a, %c : tensor<f32>
    strata.return %p : tensor<f32>
  }
  %r = strata.add %s1, %s2 : tensor<4xf32>
  %bb = strata.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %t = strata.transpose %bb, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %t2 = strata.transpose %t, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %one = strata.constant dense<1.0> : tensor<4x8xf32>
  %m = strata.multiply %t2, %one : tensor<4x8xf32>
  %dead = strata.exponential %m : tensor<4x8xf32>
  %w = strata.convert %x : (tensor<4x8xf32>) -> tensor<4x8xf64>
  %n = strata.convert %w : (tensor<4x8xf64>) -> tensor<4x8xf32>
  return %r, %t, %m, %n : tensor<4xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
