// The 2- and 4-bit integers (i2, i4, ui2, ui4) through import, compilation and the checks:
// arithmetic wrapping at the type's width, the operations that see the width (shifts,
// popcnt, clz), conversions that saturate from floats and wrap from integers, a reduction, a
// dot and a sort with the signed order of the low bits.
// RUN: strata-run %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS subbyte_int.mlir:[[@LINE+1]] @arithmetic_i4
func.func @arithmetic_i4() {
  %x = stablehlo.constant dense<[-8, -1, 0, 1, 7]> : tensor<5xi4>
  %seven = stablehlo.constant dense<7> : tensor<5xi4>
  %three = stablehlo.constant dense<3> : tensor<5xi4>
  %add = stablehlo.add %x, %seven : tensor<5xi4>
  %mul = stablehlo.multiply %x, %three : tensor<5xi4>
  %neg = stablehlo.negate %x : tensor<5xi4>
  %abs = stablehlo.abs %x : tensor<5xi4>
  check.expect_eq_const %add, dense<[-1, 6, 7, -8, -2]> : tensor<5xi4>
  check.expect_eq_const %mul, dense<[-8, -3, 0, 3, 5]> : tensor<5xi4>
  check.expect_eq_const %neg, dense<[-8, 1, 0, -1, -7]> : tensor<5xi4>
  check.expect_eq_const %abs, dense<[-8, 1, 0, 1, 7]> : tensor<5xi4>
  func.return
}

// -----

// CHECK: PASS subbyte_int.mlir:[[@LINE+1]] @bits_i4
func.func @bits_i4() {
  %x = stablehlo.constant dense<[-8, -1, 0, 1, 7]> : tensor<5xi4>
  %one = stablehlo.constant dense<1> : tensor<5xi4>
  %srl = stablehlo.shift_right_logical %x, %one : tensor<5xi4>
  %sra = stablehlo.shift_right_arithmetic %x, %one : tensor<5xi4>
  %pop = stablehlo.popcnt %x : tensor<5xi4>
  %clz = stablehlo.count_leading_zeros %x : tensor<5xi4>
  check.expect_eq_const %srl, dense<[4, 7, 0, 0, 3]> : tensor<5xi4>
  check.expect_eq_const %sra, dense<[-4, -1, 0, 0, 3]> : tensor<5xi4>
  check.expect_eq_const %pop, dense<[1, 4, 0, 1, 3]> : tensor<5xi4>
  check.expect_eq_const %clz, dense<[0, 0, 4, 3, 1]> : tensor<5xi4>
  func.return
}

// -----

// CHECK: PASS subbyte_int.mlir:[[@LINE+1]] @bits_ui4
func.func @bits_ui4() {
  %x = stablehlo.constant dense<[0, 8, 15]> : tensor<3xui4>
  %one = stablehlo.constant dense<1> : tensor<3xui4>
  %four = stablehlo.constant dense<4> : tensor<3xui4>
  %sra = stablehlo.shift_right_arithmetic %x, %one : tensor<3xui4>
  %shl = stablehlo.shift_left %x, %four : tensor<3xui4>
  %add = stablehlo.add %x, %one : tensor<3xui4>
  check.expect_eq_const %sra, dense<[0, 12, 15]> : tensor<3xui4>
  check.expect_eq_const %shl, dense<[0, 0, 0]> : tensor<3xui4>
  check.expect_eq_const %add, dense<[1, 9, 0]> : tensor<3xui4>
  func.return
}

// -----

// CHECK: PASS subbyte_int.mlir:[[@LINE+1]] @convert
func.func @convert() {
  %f = stablehlo.constant dense<[1.7, -9.5, 100.0, 0x7FC00000]> : tensor<4xf32>
  %i = stablehlo.constant dense<[100, -100, 17, -1]> : tensor<4xi32>
  %fi = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi4>
  %ii = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xi4>
  %iu = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xui2>
  %back = stablehlo.convert %ii : (tensor<4xi4>) -> tensor<4xf32>
  check.expect_eq_const %fi, dense<[1, -8, 7, 0]> : tensor<4xi4>
  check.expect_eq_const %ii, dense<[4, -4, 1, -1]> : tensor<4xi4>
  check.expect_eq_const %iu, dense<[0, 0, 1, 3]> : tensor<4xui2>
  check.expect_eq_const %back, dense<[4.0, -4.0, 1.0, -1.0]> : tensor<4xf32>
  func.return
}

// -----

// CHECK: PASS subbyte_int.mlir:[[@LINE+1]] @reduce_dot_sort
func.func @reduce_dot_sort() {
  %x = stablehlo.constant dense<[[-8, -1, 0], [1, 7, 3]]> : tensor<2x3xi4>
  %zero = stablehlo.constant dense<0> : tensor<i4>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi4>, tensor<i4>) -> tensor<2xi4>
  check.expect_eq_const %sum, dense<[7, -5]> : tensor<2xi4>
  %w = stablehlo.constant dense<[[2], [3], [-4]]> : tensor<3x1xi4>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xi4>, tensor<3x1xi4>) -> tensor<2x1xi4>
  check.expect_eq_const %d, dense<[[-3], [-5]]> : tensor<2x1xi4>
  %v = stablehlo.reshape %x : (tensor<2x3xi4>) -> tensor<6xi4>
  %s = "stablehlo.sort"(%v) ({
  ^bb0(%a: tensor<i4>, %b: tensor<i4>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i4>, tensor<i4>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<6xi4>) -> tensor<6xi4>
  check.expect_eq_const %s, dense<[-8, -1, 0, 1, 3, 7]> : tensor<6xi4>
  func.return
}
// CHECK: 5 passed, 0 failed
