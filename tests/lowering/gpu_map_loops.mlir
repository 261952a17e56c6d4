// RUN: strata-opt --strata-gpu-map-loops %s | FileCheck %s
// RUN: strata-opt --strata-gpu-map-loops=row-reductions=false %s | FileCheck %s --check-prefix=NOROWS

// An elementwise 2-d loop: collapsed to one dimension, tiled by 256, tiles on blocks and the
// iterations of a tile on threads (a guard skips the tail).
// CHECK-LABEL: func.func @main
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// A store outside any loop (a 0-d accumulator's initial value) runs in a loop of one
// iteration (one thread of a 32-thread block).
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.*}}, %arg2[] : memref<f32>
// A loop over rows that sums along each row: one row per block, the row split across the
// block's threads, their partial sums combined with gpu.all_reduce.
// CHECK:       scf.parallel (%[[ROW:.*]]) =
// CHECK:         scf.parallel (%[[T:.*]]) =
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[T]]
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store
// CHECK:           gpu.barrier
// CHECK:           %[[PART:.*]] = scf.for {{.*}} = %{{.*}} to %c300{{.*}} step %{{.*}} iter_args
// CHECK:           %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             arith.addf %{{.*}}, %[[TOTAL]]
// CHECK:           gpu.barrier
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x

// NOROWS-NOT:  gpu.all_reduce
func.func @main(%x: memref<64x300xf32>, %y: memref<64x300xf32>, %acc: memref<f32>, %rows: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c300 = arith.constant 300 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c300) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x300xf32>
    %e = math.exp %v : f32
    memref.store %e, %y[%i, %j] : memref<64x300xf32>
    scf.reduce
  }
  memref.store %zero, %acc[] : memref<f32>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %rows[%i] : memref<64xf32>
    scf.for %j = %c0 to %c300 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x300xf32>
      %a = memref.load %rows[%i] : memref<64xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %rows[%i] : memref<64xf32>
    }
    scf.reduce
  }
  return
}
