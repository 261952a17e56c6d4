// strata.sort (issue 13) parses, verifies and prints back (StableHLO's generic form:
// tests/strata-run/generic_sort.mlir).
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @sort_two
func.func @sort_two(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  // CHECK: %{{.*}}:2 = strata.sort %{{.*}}, %{{.*}} {dimension = 1 : i64, is_stable = true} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  // CHECK: ^bb0(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
  // CHECK: strata.compare LT, %{{.*}}, %{{.*}}, TOTALORDER
  // CHECK: strata.return %{{.*}} : tensor<i1>
  %0:2 = strata.sort %x, %i {dimension = 1 : i64, is_stable = true} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = strata.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %lt : tensor<i1>
  }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xi32>
}

// The dimension defaults to -1 (the last), is_stable to false.
// CHECK-LABEL: func.func @sort_defaults
func.func @sort_defaults(%x: tensor<5xi64>) -> tensor<5xi64> {
  // CHECK: strata.sort %{{.*}} : (tensor<5xi64>) -> tensor<5xi64> {
  %0 = strata.sort %x : (tensor<5xi64>) -> tensor<5xi64> {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %gt = strata.compare GT, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    strata.return %gt : tensor<i1>
  }
  return %0 : tensor<5xi64>
}
