// --strata-parallel-launch (LLVM dialect): a call of an outlined loop F(lo, hi, captured...)
// becomes strata_rt_parallel_for(F_task, ctx, hi - lo, grain) with the captured values in a
// stack struct at ctx, which F_task unpacks; a GEMM wrapper's calls become one
// strata_rt_dot_ep_<t> call with the epilogue's task, and the wrapper goes. Aligned pointers of
// buffer arguments get noalias where strata.noalias_args says so. Bodies and epilogues become
// internal (their tasks are their only callers).
// RUN: strata-opt --split-input-file --strata-parallel-launch %s | FileCheck %s

// CHECK:       llvm.func @strata_rt_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-LABEL: llvm.func @main
// CHECK-SAME:  (%[[X:.*]]: !llvm.ptr)
// CHECK:       %[[LO:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK:       %[[HI:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK:       %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64)> {alignment = 16 : i64}
// CHECK:       %[[P0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK:       llvm.store %[[X]], %[[P0]]
// CHECK-COUNT-4: llvm.store
// CHECK:       %[[TASK:.*]] = llvm.mlir.addressof @body_task
// CHECK:       %[[N:.*]] = llvm.sub %[[HI]], %[[LO]]
// CHECK:       %[[GRAIN:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK:       llvm.call @strata_rt_parallel_for(%[[TASK]], %[[CTX]], %[[N]], %[[GRAIN]])
// CHECK-NOT:   llvm.call @body(
// CHECK:       llvm.func internal @body(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-LABEL: llvm.func internal @body_task
// CHECK-SAME:  (%[[C:.*]]: !llvm.ptr, %[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK:       %[[Q0:.*]] = llvm.getelementptr %[[C]][0, 0]
// CHECK:       %[[V0:.*]] = llvm.load %[[Q0]] : !llvm.ptr -> !llvm.ptr
// CHECK:       llvm.call @body(%[[A]], %[[B]], %[[V0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
module {
  llvm.func @main(%x: !llvm.ptr) {
    %lo = llvm.mlir.constant(0 : index) : i64
    %hi = llvm.mlir.constant(64 : index) : i64
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    llvm.call @body(%lo, %hi, %x, %x, %c0, %c64, %c1) : (i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
    llvm.return
  }
  // Its memref<64xf32> argument: allocated and aligned pointer, offset, size, stride.
  llvm.func @body(%lo: i64, %hi: i64, %a: !llvm.ptr, %p: !llvm.ptr, %o: i64, %n: i64, %s: i64) attributes {strata.parallel_grain = 8 : i64, strata.noalias_args, strata.arg_types = [index, index, memref<64xf32>]} {
    llvm.return
  }
}

// -----

// Without strata.noalias_args: no noalias.
// CHECK-LABEL: llvm.func @main
// CHECK:       llvm.call @strata_rt_parallel_for
// CHECK:       llvm.func internal @body
// CHECK-NOT:   llvm.noalias
// CHECK-SAME:  {
module {
  llvm.func @main(%x: !llvm.ptr) {
    %lo = llvm.mlir.constant(0 : index) : i64
    %hi = llvm.mlir.constant(64 : index) : i64
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c64 = llvm.mlir.constant(64 : i64) : i64
    llvm.call @body(%lo, %hi, %x, %x, %c0, %c64, %c1) : (i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
    llvm.return
  }
  llvm.func @body(%lo: i64, %hi: i64, %a: !llvm.ptr, %p: !llvm.ptr, %o: i64, %n: i64, %s: i64) attributes {strata.parallel_grain = 8 : i64, strata.arg_types = [index, index, memref<64xf32>]} {
    llvm.return
  }
}

// -----

// A GEMM wrapper: the runtime gets the nine dot arguments, the epilogue's task and a struct of
// the epilogue's captured values; the wrapper is erased.
// CHECK:       llvm.func @strata_rt_dot_ep_f32(i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @main
// CHECK-SAME:  (%[[V:.*]]: f32)
// CHECK:       %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(f32)>
// CHECK:       llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr
// CHECK:       %[[TASK:.*]] = llvm.mlir.addressof @epilogue_task
// CHECK:       llvm.call @strata_rt_dot_ep_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TASK]], %[[CTX]])
// CHECK-NOT:   @gemm
// CHECK:       llvm.func internal @epilogue(
// CHECK-LABEL: llvm.func internal @epilogue_task
// CHECK-SAME:  (%[[C:.*]]: !llvm.ptr, %[[M0:.*]]: i64, %[[M1:.*]]: i64, %[[N0:.*]]: i64, %[[N1:.*]]: i64)
// CHECK:       %[[F:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:       llvm.call @epilogue(%[[M0]], %[[M1]], %[[N0]], %[[N1]], %[[F]])
module {
  llvm.func @main(%v: f32) {
    %c = llvm.mlir.constant(1 : i64) : i64
    llvm.call @gemm(%c, %c, %c, %c, %c, %c, %c, %c, %c, %v) : (i64, i64, i64, i64, i64, i64, i64, i64, i64, f32) -> ()
    llvm.return
  }
  llvm.func @gemm(%f: i64, %b: i64, %m: i64, %n: i64, %k: i64, %l: i64, %r: i64, %o: i64, %w: i64, %v: f32) attributes {strata.gemm_epilogue_of = @epilogue, strata.runtime = "strata_rt_dot_ep_f32"} {
    llvm.return
  }
  llvm.func @epilogue(%m0: i64, %m1: i64, %n0: i64, %n1: i64, %v: f32) {
    llvm.return
  }
}
