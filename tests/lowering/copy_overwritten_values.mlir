// --strata-copy-overwritten-values: a value that an op overwrites in place (a loop's carry, a
// linalg output, an insert's destination) while an op after it still reads it is copied first,
// with the copy's memory space stated, so that bufferization's search for its buffer type ends
// there; values read only before the writer, fresh tensors, and writers nested in another
// block are left as they are.
// RUN: strata-opt --strata-copy-overwritten-values %s | FileCheck %s
// RUN: strata-opt --strata-copy-overwritten-values --one-shot-bufferize="bufferize-function-boundaries" %s | FileCheck %s --check-prefix=BUF

#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @read_after_a_loop
// CHECK:       %[[A:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %arg0)
// CHECK:       %[[C:.*]] = bufferization.alloc_tensor() copy(%[[A]]) {memory_space = 0 : i64}
// CHECK:       %[[B:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[C]])
// CHECK:       tensor.extract %[[A]]
// BUF-LABEL:   func.func @read_after_a_loop
// BUF-COUNT-1: memref.copy
// BUF-NOT:     memref.copy
// BUF:         return
func.func @read_after_a_loop(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %x) -> tensor<4xf32> {
    %v = tensor.extract %t[%k] : tensor<4xf32>
    %w = arith.addf %v, %one : f32
    %u = tensor.insert %w into %t[%k] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %b = scf.for %k = %c0 to %c4 step %c1 iter_args(%t = %a) -> tensor<4xf32> {
    %u = tensor.insert %one into %t[%k] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %r = tensor.extract %a[%i] : tensor<4xf32>
  return %b, %r : tensor<4xf32>, f32
}

// Read before the write: the loop may update the value in place.
// CHECK-LABEL: func.func @read_before
// CHECK-NOT:   bufferization.alloc_tensor
// CHECK:       return
func.func @read_before(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %r = tensor.extract %a[%i] : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %b = tensor.insert %one into %a[%i] : tensor<4xf32>
  return %b, %r : tensor<4xf32>, f32
}

// A linalg output and an insert destination read afterwards are copied too.
// CHECK-LABEL: func.func @outputs_and_destinations
// CHECK:       %[[A:.*]] = linalg.generic
// CHECK:       %[[C:.*]] = bufferization.alloc_tensor() copy(%[[A]]) {memory_space = 0 : i64}
// CHECK:       linalg.generic {{.*}} outs(%[[C]] : tensor<4xf32>)
// CHECK:       %[[D:.*]] = bufferization.alloc_tensor() copy(%[[A]]) {memory_space = 0 : i64}
// CHECK:       tensor.insert %{{.*}} into %[[D]]
func.func @outputs_and_destinations(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %b = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : tensor<4xf32>) {
  ^bb0(%out: f32):
    %n = arith.mulf %out, %out : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %c = tensor.insert %one into %a[%i] : tensor<4xf32>
  %r = tensor.extract %a[%i] : tensor<4xf32>
  return %b, %c, %r : tensor<4xf32>, tensor<4xf32>, f32
}

// A writer in a branch is left to the analysis.
// CHECK-LABEL: func.func @nested_writer
// CHECK-NOT:   bufferization.alloc_tensor
// CHECK:       return
func.func @nested_writer(%x: tensor<4xf32>, %c: i1, %i: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %b = scf.if %c -> tensor<4xf32> {
    %one = arith.constant 1.0 : f32
    %u = tensor.insert %one into %a[%i] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %r = tensor.extract %a[%i] : tensor<4xf32>
  return %b, %r : tensor<4xf32>, f32
}
