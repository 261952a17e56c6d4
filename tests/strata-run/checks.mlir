// strata-run executes StableHLO's assertions: the check dialect's ops and @check.* custom
// calls. One line a test, a closing count, exit status 1 on any failure.
// RUN: not strata-run %s --split-input-file | FileCheck %s
// RUN: not strata-run %s --split-input-file --entry wrong_on_purpose | FileCheck %s --check-prefix=WRONG

// CHECK: PASS checks.mlir:[[@LINE+1]] @total_order (2 checks)
func.func @total_order() {
  // -nan < -inf < -1 < -0 < +0 < 1 < inf < nan
  %x = stablehlo.constant dense<[0xFFC00000, 0xFF800000, -1.0, -0.0, 0.0, 1.0, 0x7F800000, 0x7FC00000]> : tensor<8xf32>
  %y = stablehlo.constant dense<[0xFF800000, -1.0, -0.0, 0.0, 1.0, 0x7F800000, 0x7FC00000, 0x7FC00000]> : tensor<8xf32>
  %lt = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  check.expect_eq_const %lt, dense<[true, true, true, true, true, true, true, false]> : tensor<8xi1>
  %u = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>
  %one = stablehlo.constant dense<1> : tensor<2xi32>
  %gt = stablehlo.compare GT, %u, %one, UNSIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

// CHECK: PASS checks.mlir:[[@LINE+1]] @almost_eq (1 checks)
func.func @almost_eq() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %y = stablehlo.exponential %x : tensor<2xf64>
  check.expect_almost_eq_const %y, dense<[2.7182818, 7.3890561]> : tensor<2xf64>
  func.return
}

// -----

// The form JAX's test generator writes: @main calls @inputs and @expected.
// CHECK: PASS checks.mlir:[[@LINE+2]] @main (2 checks)
module @jit_main {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = ""}) {
    %0 = call @inputs() : () -> tensor<3xf32>
    %1 = call @expected() : () -> tensor<3xf32>
    %2 = stablehlo.negate %0 : tensor<3xf32>
    stablehlo.custom_call @check.expect_close(%2, %1) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    %3 = stablehlo.custom_call @check.eq(%2, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<i1>
    return %2 : tensor<3xf32>
  }
  func.func private @inputs() -> tensor<3xf32> {
    %c = stablehlo.constant dense<[1.0, -2.5, 0.0]> : tensor<3xf32>
    return %c : tensor<3xf32>
  }
  func.func private @expected() -> tensor<3xf32> {
    %c = stablehlo.constant dense<[-1.0, 2.5, -0.0]> : tensor<3xf32>
    return %c : tensor<3xf32>
  }
}

// -----

// WRONG: FAIL checks.mlir:[[@LINE+1]] @wrong_on_purpose: check.expect_eq_const at {{.*}}checks.mlir:[[@LINE+4]]:{{[0-9]+}}: 1 of 2 elements differ; the first, at flat index 1: 4 vs expected 5
func.func @wrong_on_purpose() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %y = stablehlo.add %x, %x : tensor<2xi32>
  check.expect_eq_const %y, dense<[2, 5]> : tensor<2xi32>
  func.return
}
// CHECK: 3 passed, 1 failed
// WRONG: 0 passed, 1 failed
