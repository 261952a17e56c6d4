// Unsigned and narrow integers in StableHLO programs: the semantics that differ from the
// signed ones (division, remainder, comparison, max/min, conversions, sign) after the lowering
// has erased the signedness from the types.
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS unsigned.mlir:[[@LINE+1]] @unsigned_arith (6 checks)
func.func @unsigned_arith() {
  %a = stablehlo.constant dense<[7, 200, 0, 255]> : tensor<4xui8>
  %b = stablehlo.constant dense<[2, 100, 0, 0]> : tensor<4xui8>
  %q = stablehlo.divide %a, %b : tensor<4xui8>
  check.expect_eq_const %q, dense<[3, 2, 255, 255]> : tensor<4xui8>
  %r = stablehlo.remainder %a, %b : tensor<4xui8>
  check.expect_eq_const %r, dense<[1, 0, 0, 255]> : tensor<4xui8>
  %m = stablehlo.maximum %a, %b : tensor<4xui8>
  check.expect_eq_const %m, dense<[7, 200, 0, 255]> : tensor<4xui8>
  %lt = stablehlo.compare LT, %b, %a : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[true, true, false, true]> : tensor<4xi1>
  %s = stablehlo.sign %a : tensor<4xui8>
  check.expect_eq_const %s, dense<[1, 1, 0, 1]> : tensor<4xui8>
  %w = stablehlo.convert %a : (tensor<4xui8>) -> tensor<4xi32>
  check.expect_eq_const %w, dense<[7, 200, 0, 255]> : tensor<4xi32>
  func.return
}

// -----

// CHECK: PASS unsigned.mlir:[[@LINE+1]] @conversions (4 checks)
func.func @conversions() {
  %f = stablehlo.constant dense<[-1.5, 300.7, 0x7FC00000, 2.9]> : tensor<4xf32>
  %u = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xui8>
  check.expect_eq_const %u, dense<[0, 255, 0, 2]> : tensor<4xui8>
  %big = stablehlo.constant dense<[18446744073709551615, 9223372036854775808]> : tensor<2xui64>
  %g = stablehlo.convert %big : (tensor<2xui64>) -> tensor<2xf64>
  check.expect_eq_const %g, dense<[1.8446744073709552e19, 9.2233720368547758e18]> : tensor<2xf64>
  %n = stablehlo.constant dense<[-1, -128]> : tensor<2xi8>
  %z = stablehlo.convert %n : (tensor<2xi8>) -> tensor<2xui32>
  check.expect_eq_const %z, dense<[4294967295, 4294967168]> : tensor<2xui32>
  %h = stablehlo.convert %z : (tensor<2xui32>) -> tensor<2xi16>
  check.expect_eq_const %h, dense<[-1, -128]> : tensor<2xi16>
  func.return
}

// -----

// Unsigned start indices are zero-extended: 200 is past the end (clamped), not -56.
// CHECK: PASS unsigned.mlir:[[@LINE+1]] @unsigned_index (2 checks)
func.func @unsigned_index() {
  %x = stablehlo.iota dim = 0 : tensor<8xi16>
  %i = stablehlo.constant dense<200> : tensor<ui8>
  %s = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<8xi16>, tensor<ui8>) -> tensor<2xi16>
  check.expect_eq_const %s, dense<[6, 7]> : tensor<2xi16>
  %sum = stablehlo.constant dense<0> : tensor<ui16>
  %big = stablehlo.constant dense<[65535, 2, 65534]> : tensor<3xui16>
  %r = stablehlo.reduce(%big init: %sum) applies stablehlo.maximum across dimensions = [0] : (tensor<3xui16>, tensor<ui16>) -> tensor<ui16>
  check.expect_eq_const %r, dense<65535> : tensor<ui16>
  func.return
}

// CHECK: 3 passed, 0 failed
