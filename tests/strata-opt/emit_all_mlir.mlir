// --emit=all on MLIR: the stages after `strata`; there is no jaxpr stage.
// RUN: strata-opt --emit=all %s | FileCheck %s

// CHECK-NOT: stage: jaxpr
// CHECK-LABEL: // ===== stage: strata =====
// CHECK: %{{.*}} = strata.add
// CHECK: %{{.*}} = strata.add
// CHECK-LABEL: // ===== stage: canonicalized =====
// CHECK: %[[S:.*]] = strata.add %arg0, %arg0
// CHECK: %[[T:.*]] = strata.add %arg0, %arg0
// CHECK: strata.multiply %[[S]], %[[T]]
// CHECK-LABEL: // ===== stage: cse =====
// CHECK: %[[S:.*]] = strata.add %arg0, %arg0
// CHECK-NOT: strata.add
// CHECK: strata.multiply %[[S]], %[[S]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = strata.constant dense<0.0> : tensor<4xf32>
  %0 = strata.add %x, %x : tensor<4xf32>
  %1 = strata.add %x, %x : tensor<4xf32>
  %2 = strata.add %1, %zero : tensor<4xf32>
  %3 = strata.multiply %0, %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
