// The control-flow ops (StableHLO's if, case and while) and the dynamic slices a scan lowers
// through: each parses, verifies and prints back; the generic form round-trips.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @if_and_case
func.func @if_and_case(%p: tensor<i1>, %i: tensor<i32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[R:.*]] = "strata.if"(%{{.*}}) ({
  // CHECK-NEXT:   strata.return %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   %[[N:.*]] = strata.negate %{{.*}} : tensor<4xf32>
  // CHECK-NEXT:   strata.return %[[N]] : tensor<4xf32>
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<4xf32>
  %r = "strata.if"(%p) ({
    strata.return %a : tensor<4xf32>
  }, {
    %n = strata.negate %a : tensor<4xf32>
    strata.return %n : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  // CHECK:      "strata.case"(%{{.*}}) ({
  // CHECK-NEXT:   strata.return %[[R]] : tensor<4xf32>
  // CHECK-NEXT: }, {
  // CHECK-NEXT:   strata.add
  // CHECK:      }, {
  // CHECK:      }) : (tensor<i32>) -> tensor<4xf32>
  %c = "strata.case"(%i) ({
    strata.return %r : tensor<4xf32>
  }, {
    %s = strata.add %r, %r : tensor<4xf32>
    strata.return %s : tensor<4xf32>
  }, {
    %e = strata.exponential %r : tensor<4xf32>
    strata.return %e : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// CHECK-LABEL: func.func @while_and_dynamic_slices
func.func @while_and_dynamic_slices(%init: tensor<4xf32>, %xs: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<8x4xf32>) {
  %zero = strata.constant dense<0> : tensor<i32>
  %one = strata.constant dense<1> : tensor<i32>
  %n = strata.constant dense<8> : tensor<i32>
  // CHECK:      %{{.*}}:3 = strata.while(%[[K:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}, %[[YS:.*]] = %{{.*}}) : tensor<i32>, tensor<4xf32>, tensor<8x4xf32>
  // CHECK:      cond {
  // CHECK-NEXT:   %[[P:.*]] = strata.compare LT, %[[K]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK-NEXT:   strata.return %[[P]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   %[[S:.*]] = strata.dynamic_slice %[[YS]][%[[K]], %{{.*}}], sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
  // CHECK:        strata.dynamic_update_slice %[[YS]][%[[K]], %{{.*}}], %{{.*}} : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  // CHECK:        strata.return %{{.*}}, %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>, tensor<8x4xf32>
  %w:3 = strata.while(%k = %zero, %x = %init, %ys = %xs) : tensor<i32>, tensor<4xf32>, tensor<8x4xf32>
    cond {
      %q = strata.compare LT, %k, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      strata.return %q : tensor<i1>
    } do {
      %s = strata.dynamic_slice %ys[%k, %zero], sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
      %s1 = strata.reshape %s : (tensor<1x4xf32>) -> tensor<4xf32>
      %y = strata.add %x, %s1 : tensor<4xf32>
      %y1 = strata.reshape %y : (tensor<4xf32>) -> tensor<1x4xf32>
      %u = strata.dynamic_update_slice %ys[%k, %zero], %y1 : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
      %j = strata.add %k, %one : tensor<i32>
      strata.return %j, %y, %u : tensor<i32>, tensor<4xf32>, tensor<8x4xf32>
    }
  return %w#1, %w#2 : tensor<4xf32>, tensor<8x4xf32>
}
