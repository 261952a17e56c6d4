// --strata-to-linalg, step 1 (ConvertStrataToLinalg.cpp): calls of the module's functions
// (custom_vjp_call's `fun`) are inlined and the private functions left unused erased, before
// the ops are lowered; a public function stays. (The patterns are strata_to_linalg.mlir's.)
// RUN: strata-opt --strata-to-linalg %s | FileCheck %s

// CHECK-NOT:   func.func private @square
// CHECK-LABEL: func.func @main
// CHECK-NOT:   call
// CHECK:       linalg.generic
// CHECK:         arith.mulf
// CHECK:       linalg.generic
// CHECK:         arith.addf
// CHECK-NOT:   call
// CHECK-LABEL: func.func @other
// CHECK:         arith.subf
// CHECK-NOT:   func.func private @square
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = strata.add %0, %x : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @square(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = strata.multiply %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = strata.subtract %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
