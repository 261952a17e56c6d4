// --strata-unshare-fills: a fill on tensors with several uses (CSE merged them) is cloned just
// before each use; a fill with one use stays where it is.
// RUN: strata-opt --strata-unshare-fills %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK:       %[[F3:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[M1:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F1]] : tensor<4x4xf32>)
// CHECK-NEXT:  %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:  %[[M2:.*]] = linalg.matmul ins(%arg1, %arg0 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[F2]] : tensor<4x4xf32>)
// CHECK-NEXT:  return %[[M1]], %[[M2]], %[[F3]]
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %single = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %single : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>
}
