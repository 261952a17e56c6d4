// --strata-runtime-reads-at-calls: a runtime call reads each tensor through a read-only
// to_buffer of its own, just before it. Here CSE had merged the two calls' reads of %a into one
// pointer before the first call (bufferization would see %a dead after it and could let
// %written take its buffer), and the canonicalizer had folded the third call's read of %r1
// (to_buffer of to_tensor) into the first call's output buffer itself. The first call's
// output buffer (written, its to_tensor after the call) is left alone.
// RUN: strata-opt --strata-runtime-reads-at-calls %s | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK:       %[[OUT1:.*]] = bufferization.to_buffer %{{.*}} : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT:  %[[P1:.*]] = memref.extract_aligned_pointer_as_index %[[OUT1]]
// CHECK-NEXT:  %[[A1:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK-NEXT:  %[[PA1:.*]] = memref.extract_aligned_pointer_as_index %[[A1]]
// CHECK-NEXT:  call @rt(%[[PA1]], %[[P1]])
// CHECK-NEXT:  %[[R1:.*]] = bufferization.to_tensor %[[OUT1]] restrict writable
// CHECK:       linalg.generic
// CHECK:       %[[A2:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK-NEXT:  %[[PA2:.*]] = memref.extract_aligned_pointer_as_index %[[A2]]
// CHECK-NEXT:  call @rt(%[[PA2]], %{{.*}})
// CHECK:       %[[B3:.*]] = bufferization.to_buffer %[[R1]] read_only
// CHECK-NEXT:  %[[PR1:.*]] = memref.extract_aligned_pointer_as_index %[[B3]]
// CHECK-NEXT:  call @rt(%[[PR1]], %{{.*}})
// CHECK-NOT:   bufferization.to_buffer %arg0
#map = affine_map<(d0) -> (d0)>
func.func private @rt(index, index)
func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %shared = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %pa = memref.extract_aligned_pointer_as_index %shared : memref<4xf32> -> index
  %t1 = bufferization.alloc_tensor() : tensor<4xf32>
  %out1 = bufferization.to_buffer %t1 : tensor<4xf32> to memref<4xf32>
  %p1 = memref.extract_aligned_pointer_as_index %out1 : memref<4xf32> -> index
  call @rt(%pa, %p1) : (index, index) -> ()
  %r1 = bufferization.to_tensor %out1 restrict writable : memref<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %written = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%r1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %t2 = bufferization.alloc_tensor() : tensor<4xf32>
  %out2 = bufferization.to_buffer %t2 : tensor<4xf32> to memref<4xf32>
  %p2 = memref.extract_aligned_pointer_as_index %out2 : memref<4xf32> -> index
  call @rt(%pa, %p2) : (index, index) -> ()
  %r2 = bufferization.to_tensor %out2 restrict writable : memref<4xf32> to tensor<4xf32>
  %t3 = bufferization.alloc_tensor() : tensor<4xf32>
  %out3 = bufferization.to_buffer %t3 : tensor<4xf32> to memref<4xf32>
  %p3 = memref.extract_aligned_pointer_as_index %out3 : memref<4xf32> -> index
  call @rt(%p1, %p3) : (index, index) -> ()
  %r3 = bufferization.to_tensor %out3 restrict writable : memref<4xf32> to tensor<4xf32>
  return %written, %r2, %r3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
