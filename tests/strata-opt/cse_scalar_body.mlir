// A constant inside a reduce body equal to one outside stays in the body through cse (the body
// is isolated from above), and the program lowers. Found by fuzz_strata_opt: cse replaced it
// by the outer constant, and --strata-to-linalg then crashed on the captured value.
// RUN: strata-opt --emit=cse %s | FileCheck %s
// RUN: strata-opt --emit=asm %s > /dev/null

// CHECK-LABEL: func.func @main
// CHECK: strata.reduce
// CHECK: ^bb0
// CHECK-NEXT: %[[C:.*]] = strata.constant dense<0.000000e+00> : tensor<f32>
// CHECK: strata.maximum %{{.*}}, %[[C]]
func.func @main(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %r = strata.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
    %c = strata.constant dense<0.0> : tensor<f32>
    %m = strata.maximum %acc, %e : tensor<f32>
    %n = strata.maximum %m, %c : tensor<f32>
    strata.return %n : tensor<f32>
  }
  return %r : tensor<4xf32>
}
