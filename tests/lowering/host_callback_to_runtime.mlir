// --strata-to-linalg for strata.host_callback: the operands' own buffers (read-only) and a
// fresh buffer per result, their pointers stored in a table on the stack (inside an alloca
// scope) that strata_rt_host_callback reads with the callback's id and the descriptor (counts,
// then each buffer's dtype, rank and dimensions).
// RUN: strata-opt --strata-to-linalg %s | FileCheck %s

// CHECK-LABEL: func.func @two_in_one_out
// CHECK:     bufferization.to_buffer %arg0 read_only
// CHECK:     bufferization.to_buffer %arg1 read_only
// CHECK:     bufferization.alloc_tensor() : tensor<2x3xf32>
// CHECK:     arith.constant dense<[2, 1, 5, 2, 2, 3, 1, 0, 5, 2, 2, 3]> : tensor<12xi64>
// CHECK:     memref.alloca_scope {
// CHECK:       %[[T:.*]] = memref.alloca() : memref<3xindex>
// CHECK:       memref.store %{{.*}}, %[[T]][%{{.*}}] : memref<3xindex>
// CHECK:       memref.store %{{.*}}, %[[T]][%{{.*}}] : memref<3xindex>
// CHECK:       memref.store %{{.*}}, %[[T]][%{{.*}}] : memref<3xindex>
// CHECK:       call @strata_rt_host_callback(%c7_i64, %{{.*}}, %{{.*}}) : (i64, index, index) -> ()
// CHECK:     }
// CHECK:     bufferization.to_tensor %{{.*}} restrict writable
func.func @two_in_one_out(%x: tensor<2x3xf32>, %n: tensor<i32>) -> tensor<2x3xf32> {
  %0 = strata.host_callback "f" (%x, %n) callback = 7 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @no_results
// CHECK: arith.constant dense<[1, 0, 6, 1, 5]> : tensor<5xi64>
// CHECK: call @strata_rt_host_callback(%c9_i64
func.func @no_results(%x: tensor<5xf64>) {
  strata.host_callback "debug.print" (%x) callback = 9 {has_side_effect} : (tensor<5xf64>) -> ()
  return
}
