// --strata-runtime-gemm: batch_matmul on buffers → a call of the runtime GEMM; the zero fill
// before it goes (the runtime writes C = A·B); transposed layouts are flags; a strided view
// goes through a contiguous temporary.
// RUN: strata-opt --strata-runtime-gemm --split-input-file %s | FileCheck %s
// parallel=false (JitOptions::parallel off): the flags lack 4, the GEMM runs on the caller's thread.
// RUN: strata-opt --strata-runtime-gemm=parallel=false --split-input-file %s | FileCheck %s --check-prefix=SERIAL

// SERIAL-LABEL: func.func @main
// SERIAL:       %[[F:.*]] = arith.constant 0 : i64
// SERIAL:       call @strata_rt_dot_f32(%[[F]],
// SERIAL-LABEL: func.func @main
// SERIAL:       %[[F:.*]] = arith.constant 1 : i64
// SERIAL:       call @strata_rt_dot_bf16(%[[F]],

// CHECK-LABEL: func.func @main
// CHECK-NOT:   linalg.fill
// CHECK:       %[[L:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK:       %[[R:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK:       %[[O:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK:       call @strata_rt_dot_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[L]], %[[R]], %[[O]], %{{.*}})
// CHECK-NOT:   linalg.batch_matmul
func.func @main(%a: memref<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: memref<2x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x16xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%c : memref<2x4x16xf32>)
  return
}

// -----

// lhs stored [B, K, M]: flag 1 (plus 4, parallel); bf16 gets a workspace for the widened operands.
// CHECK-LABEL: func.func @main
// CHECK-DAG:   memref.alloc() {alignment = 64 : i64} : memref<1280xi8>
// CHECK-DAG:   %[[FLAGS:.*]] = arith.constant 5 : i64
// CHECK:       call @strata_rt_dot_bf16(%[[FLAGS]],
#lhs = affine_map<(b, m, n, k) -> (b, k, m)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @main(%a: memref<2x8x4xbf16>, %b: memref<2x8x16xbf16>, %c: memref<2x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x16xf32>)
  linalg.batch_matmul indexing_maps = [#lhs, #rhs, #out] ins(%a, %b : memref<2x8x4xbf16>, memref<2x8x16xbf16>) outs(%c : memref<2x4x16xf32>)
  return
}

// -----

// The 8-bit floats as bf16: widened by the runtime into the workspace, the f32 sum rounded after.
// CHECK-LABEL: func.func @main
// CHECK-DAG:   memref.alloc() {alignment = 64 : i64} : memref<768xi8>
// CHECK:       call @strata_rt_dot_f8e4m3fn(
// CHECK-LABEL: func.func @other
// CHECK:       call @strata_rt_dot_f8e5m2(
func.func @main(%a: memref<1x4x16xf8E4M3FN>, %b: memref<1x16x8xf8E4M3FN>, %c: memref<1x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x8xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x4x16xf8E4M3FN>, memref<1x16x8xf8E4M3FN>) outs(%c : memref<1x4x8xf32>)
  return
}
func.func @other(%a: memref<1x4x16xf8E5M2>, %b: memref<1x16x8xf8E5M2>, %c: memref<1x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x8xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x4x16xf8E5M2>, memref<1x16x8xf8E5M2>) outs(%c : memref<1x4x8xf32>)
  return
}

// -----

// Without a zero fill the op accumulates: it is left for the loops.
// CHECK-LABEL: func.func @main
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   call
func.func @main(%a: memref<1x4x8xf32>, %b: memref<1x8x16xf32>, %c: memref<1x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%c : memref<1x4x16xf32>)
  return
}

// -----

// In a loop body (a scan's): the output is zeroed by a copy of a zero buffer whose fill LICM
// hoisted out of the loop; nothing in the loop writes that buffer, so the GEMM is the runtime's
// and the copy goes (the fill stays, outside).
// CHECK-LABEL: func.func @in_loop
// CHECK:       linalg.fill
// CHECK:       scf.for
// CHECK-NOT:     memref.copy
// CHECK:         call @strata_rt_dot_f32(
// CHECK-NOT:     linalg.batch_matmul
func.func @in_loop(%a: memref<1x4x8xf32>, %b: memref<1x8x16xf32>, %c: memref<1x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<1x4x16xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<1x4x16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    memref.copy %z, %c : memref<1x4x16xf32> to memref<1x4x16xf32>
    linalg.batch_matmul ins(%a, %b : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%c : memref<1x4x16xf32>)
  }
  return
}

// -----

// The same, but the loop also writes the zero buffer: its contents at the copy are unknown, so
// the matmul stays (it lowers to loops).
// CHECK-LABEL: func.func @zero_buffer_written_in_loop
// CHECK:         linalg.batch_matmul
func.func @zero_buffer_written_in_loop(%a: memref<1x4x8xf32>, %b: memref<1x8x16xf32>, %c: memref<1x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %z = memref.alloc() : memref<1x4x16xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<1x4x16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    memref.copy %z, %c : memref<1x4x16xf32> to memref<1x4x16xf32>
    linalg.batch_matmul ins(%a, %b : memref<1x4x8xf32>, memref<1x8x16xf32>) outs(%c : memref<1x4x16xf32>)
    memref.store %one, %z[%c0, %c0, %c0] : memref<1x4x16xf32>
  }
  return
}

// -----

// An operand that is step %i of a stacked array (a subview packed row-major at an offset) is
// read in place: its address plus the offset, no contiguous copy.
// CHECK-LABEL: func.func @stacked_operand
// CHECK-NOT:   memref.copy
// CHECK:       %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %subview
// CHECK:       %[[META:.*]], %[[OFF:.*]], %{{.*}}:3, %{{.*}}:3 = memref.extract_strided_metadata
// CHECK:       %[[BYTES:.*]] = arith.muli %[[OFF]], %c4
// CHECK:       %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]]
// CHECK:       call @strata_rt_dot_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ADDR]],
func.func @stacked_operand(%a: memref<3x4x8xf32>, %b: memref<1x8x16xf32>, %c: memref<1x4x16xf32>, %i: index) {
  %zero = arith.constant 0.0 : f32
  %s = memref.subview %a[%i, 0, 0] [1, 4, 8] [1, 1, 1] : memref<3x4x8xf32> to memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x16xf32>)
  linalg.batch_matmul ins(%s, %b : memref<1x4x8xf32, strided<[32, 8, 1], offset: ?>>, memref<1x8x16xf32>) outs(%c : memref<1x4x16xf32>)
  return
}

// -----

// A transposed view is not packed: it still goes through a contiguous copy.
// CHECK-LABEL: func.func @strided_operand
// CHECK:       memref.copy
// CHECK:       call @strata_rt_dot_f32(
func.func @strided_operand(%a: memref<8x4xf32>, %b: memref<1x8x16xf32>, %c: memref<1x4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.transpose %a (i, j) -> (j, i) : memref<8x4xf32> to memref<4x8xf32, strided<[1, 4]>>
  %e = memref.expand_shape %t [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32, strided<[1, 4]>> into memref<1x4x8xf32, strided<[4, 1, 4]>>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4x16xf32>)
  linalg.batch_matmul ins(%e, %b : memref<1x4x8xf32, strided<[4, 1, 4]>>, memref<1x8x16xf32>) outs(%c : memref<1x4x16xf32>)
  return
}
