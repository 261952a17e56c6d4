// stablehlo.optimization_barrier (jax.lax.optimization_barrier; JAX's jax.checkpoint puts one in
// the backward pass): its operands, unchanged, any number of them.
// RUN: strata-run %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS optimization_barrier.mlir:[[@LINE+1]] @barrier
func.func @barrier() {
  %x = stablehlo.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %n = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %b:2 = stablehlo.optimization_barrier %x, %n : tensor<3xf32>, tensor<2xi32>
  %s = stablehlo.add %b#0, %x : tensor<3xf32>
  check.expect_eq_const %s, dense<[1.0, -2.0, 4.0]> : tensor<3xf32>
  check.expect_eq_const %b#1, dense<[7, 8]> : tensor<2xi32>
  func.return
}
