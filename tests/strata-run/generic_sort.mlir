// StableHLO's sort (always generic form) imports as strata.sort and runs: comparators the
// runtime's key sort computes (JAX's canonicalised total order, descending, several keys) and
// one it does not (by magnitude), which is compiled from the region.
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS generic_sort.mlir:[[@LINE+1]] @sort_stable_descending (2 checks)
func.func @sort_stable_descending() {
  %input0 = stablehlo.constant dense<[[1, 2, 3], [3, 2, 1]]> : tensor<2x3xi64>
  %input1 = stablehlo.constant dense<[[3, 2, 1], [1, 2, 3]]> : tensor<2x3xi64>
  %result0, %result1 = "stablehlo.sort"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<i64>):
      %predicate = stablehlo.compare GT, %arg0, %arg1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %predicate : tensor<i1>
  }) {
    dimension = 0 : i64,
    is_stable = true
  } : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
  check.expect_eq_const %result0, dense<[[3, 2, 3], [1, 2, 1]]> : tensor<2x3xi64>
  check.expect_eq_const %result1, dense<[[1, 2, 1], [3, 2, 3]]> : tensor<2x3xi64>
  func.return
}

// -----

// JAX's comparator: -0.0 equals 0.0 (input order kept), nans after +inf.
// CHECK: PASS generic_sort.mlir:[[@LINE+1]] @jax_total_order (1 checks)
func.func @jax_total_order() {
  %x = stablehlo.constant dense<[0x7F800000, 0x7FC00000, 0xFF800000, 2.0, -0.0, 0.0, -1.0]> : tensor<7xf32>
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.compare  EQ, %arg0, %cst,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %cst, %arg0 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare  NE, %arg0, %arg0,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %6 = stablehlo.select %5, %cst_1, %4 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare  EQ, %arg1, %cst,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %cst, %arg1 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare  NE, %arg1, %arg1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %10 = stablehlo.select %9, %cst_1, %8 : tensor<i1>, tensor<f32>
    %11 = stablehlo.compare  LT, %6, %10,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %11 : tensor<i1>
  }) : (tensor<7xf32>) -> tensor<7xf32>
  check.expect_eq_const %r, dense<[0xFF800000, -1.0, -0.0, 0.0, 2.0, 0x7F800000, 0x7FC00000]> : tensor<7xf32>
  func.return
}

// -----

// Two keys, a payload: by the first key, ties by the second.
// CHECK: PASS generic_sort.mlir:[[@LINE+1]] @two_keys (1 checks)
func.func @two_keys() {
  %k0 = stablehlo.constant dense<[1, 0, 1, 0, 1]> : tensor<5xi32>
  %k1 = stablehlo.constant dense<[5, 7, -2, 7, 0]> : tensor<5xi32>
  %v = stablehlo.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi32>
  %r:3 = "stablehlo.sort"(%k0, %k1, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<i32>, %b0: tensor<i32>, %a1: tensor<i32>, %b1: tensor<i32>, %a2: tensor<i32>, %b2: tensor<i32>):
    %lt1 = stablehlo.compare  LT, %a1, %b1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt0 = stablehlo.compare  LT, %a0, %b0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq0 = stablehlo.compare  EQ, %a0, %b0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %and = stablehlo.and %eq0, %lt1 : tensor<i1>
    %or = stablehlo.or %lt0, %and : tensor<i1>
    stablehlo.return %or : tensor<i1>
  }) : (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>)
  check.expect_eq_const %r#2, dense<[1, 3, 2, 4, 0]> : tensor<5xi32>
  func.return
}

// -----

// A comparator the key sort does not compute: descending by magnitude, compiled and called.
// CHECK: PASS generic_sort.mlir:[[@LINE+1]] @by_magnitude (1 checks)
func.func @by_magnitude() {
  %x = stablehlo.constant dense<[[1.0, -3.0, 2.0, -0.5], [0.25, -4.0, 4.0, 1.0]]> : tensor<2x4xf32>
  %r = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %aa = stablehlo.abs %a : tensor<f32>
    %bb = stablehlo.abs %b : tensor<f32>
    %p = stablehlo.compare  GT, %aa, %bb,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_eq_const %r, dense<[[-3.0, 2.0, 1.0, -0.5], [-4.0, 4.0, 1.0, 0.25]]> : tensor<2x4xf32>
  func.return
}

// -----

// A constant in the comparator (canonicalisation moves it out of the region; the compiled
// comparator materialises it again): descending, IEEE order.
// CHECK: PASS generic_sort.mlir:[[@LINE+1]] @with_constant (1 checks)
func.func @with_constant() {
  %x = stablehlo.constant dense<[3.0, -1.0, 7.0, 0.5]> : tensor<4xf32>
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %a1 = stablehlo.add %a, %one : tensor<f32>
    %b1 = stablehlo.add %b, %one : tensor<f32>
    %p = stablehlo.compare  GT, %a1, %b1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %r, dense<[7.0, 3.0, 0.5, -1.0]> : tensor<4xf32>
  func.return
}
