// --strata-forward-outputs: a result returned through a reshape of a temporary is computed in
// the output buffer itself (viewed with the temporary's shape), not copied at the end.
// RUN: strata-opt --strata-forward-outputs --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%{{.*}}: memref<4x16xf32>, %[[OUT:.*]]: memref<4x16xf32>)
// CHECK:       %[[V:.*]] = memref.expand_shape %{{.*}} output_shape [1, 4, 16] : memref<64xf32> into memref<1x4x16xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<1x4x16xf32>)
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   memref.copy
func.func @main(%in: memref<4x16xf32>, %out: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x4x16xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<1x4x16xf32>)
  %r = memref.collapse_shape %a [[0, 1], [2]] : memref<1x4x16xf32> into memref<4x16xf32>
  memref.copy %r, %out : memref<4x16xf32> to memref<4x16xf32>
  return
}

// -----

// A temporary used after its first copy is forwarded to the last output it is copied to.
// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>, %[[OUT2:.*]]: memref<16xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       memref.copy %[[IN]], %[[OUT2]]
// CHECK:       memref.copy %[[OUT2]], %[[OUT]]
func.func @main(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out2 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A 0-d temporary returned as [1]: the output viewed as 0-d.
// CHECK-LABEL: func.func @main
// CHECK:       %[[V:.*]] = memref.collapse_shape %{{.*}} [] : memref<1xf32> into memref<f32>
// CHECK-NEXT:  memref.copy %{{.*}}, %[[V]] : memref<f32> to memref<f32>
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   memref.copy
func.func @main(%in: memref<f32>, %out: memref<1xf32>) {
  %a = memref.alloc() : memref<f32>
  memref.copy %in, %a : memref<f32> to memref<f32>
  %r = memref.expand_shape %a [] output_shape [1] : memref<f32> into memref<1xf32>
  memref.copy %r, %out : memref<1xf32> to memref<1xf32>
  return
}
