// --strata-expand-strided-copies: memref.copy from or into a strided view becomes linalg.copy
// (loops, no runtime library); copies between contiguous buffers stay (memcpy).
// RUN: strata-opt --strata-expand-strided-copies %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%[[X:.*]]: memref<8x8xf32>, %[[Y:.*]]: memref<4x4xf32>, %[[Z:.*]]: memref<4x4xf32>)
// CHECK:       %[[V:.*]] = memref.subview %[[X]]
// CHECK-NEXT:  linalg.copy ins(%[[V]] : memref<4x4xf32, strided<[8, 1], offset: 18>>) outs(%[[Y]] : memref<4x4xf32>)
// CHECK-NEXT:  linalg.copy ins(%[[Y]] : memref<4x4xf32>) outs(%[[V]] : memref<4x4xf32, strided<[8, 1], offset: 18>>)
// CHECK-NEXT:  memref.copy %[[Y]], %[[Z]] : memref<4x4xf32> to memref<4x4xf32>
// CHECK-NEXT:  return
func.func @main(%x: memref<8x8xf32>, %y: memref<4x4xf32>, %z: memref<4x4xf32>) {
  %v = memref.subview %x[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  memref.copy %v, %y : memref<4x4xf32, strided<[8, 1], offset: 18>> to memref<4x4xf32>
  memref.copy %y, %v : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  memref.copy %y, %z : memref<4x4xf32> to memref<4x4xf32>
  return
}
