// --strata-mark-readonly-inputs: the tensor arguments of public functions are not writable, so
// that bufferization never writes into a caller's buffers; other arguments, private functions
// and declarations are left alone.
// RUN: strata-opt --strata-mark-readonly-inputs %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: index, %{{.*}}: tensor<2x2xi32> {bufferization.writable = false})
func.func @main(%x: tensor<4xf32>, %i: index, %y: tensor<2x2xi32>) -> tensor<4xf32> {
  %0 = call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func private @helper
// CHECK-SAME:  (%{{[a-z0-9]+}}: tensor<4xf32>)
// CHECK-NOT:   bufferization.writable
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func private @external
// CHECK-NOT:   bufferization.writable
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
