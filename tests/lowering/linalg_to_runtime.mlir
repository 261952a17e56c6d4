// --strata-to-linalg for strata.linalg (issue 14): the operands' own buffers (read-only: the
// kernels never write them; bufferization copies only a strided view) and fresh results,
// their pointers passed straight to strata_rt_linalg (so buffer assignment keeps them live up
// to the call), the unused pointer slots 0.
// RUN: strata-opt --strata-to-linalg %s | FileCheck %s

// CHECK-LABEL: func.func @lu
// CHECK: bufferization.to_buffer %arg0 read_only
// CHECK-NOT: copy(
// CHECK-COUNT-3: bufferization.alloc_tensor() :
// lu = kind 2; f64 = 1; batch 2, m = 5, n = 3
// CHECK: call @strata_rt_linalg(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64, i64, index, index, index, index) -> ()
// CHECK-COUNT-3: bufferization.to_tensor %{{.*}} restrict writable
func.func @lu(%a: tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2x5xi32>) {
  %0:3 = strata.linalg "lu"(%a) flags = 0 : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2x5xi32>)
  return %0#0, %0#1, %0#2 : tensor<2x5x3xf64>, tensor<2x3xi32>, tensor<2x5xi32>
}
