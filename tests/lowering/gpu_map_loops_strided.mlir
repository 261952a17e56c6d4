// RUN: strata-opt --strata-gpu-map-loops=vector-lanes=1 %s | FileCheck %s

// 2^40 iterations would need 2^32 blocks of 256 threads, over CUDA's grid limit (2^31 - 1): the
// grid stops at 2^24 blocks and each thread walks 256 strided chunks, guarded at the end.
// CHECK-LABEL: func.func @main
// CHECK-DAG:   %[[W:.*]] = arith.constant 4294967296 : index
// CHECK-DAG:   %[[N:.*]] = arith.constant 1099511627776 : index
// CHECK-DAG:   %[[CHUNKS:.*]] = arith.constant 256 : index
// CHECK:       scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[W]]) step
// CHECK:         scf.parallel (%[[T:.*]]) =
// CHECK:           %[[P:.*]] = arith.addi %[[T]], %[[B]]
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]] step
// CHECK:             %[[S:.*]] = arith.muli %[[C]], %[[W]]
// CHECK:             %[[I:.*]] = arith.addi %[[S]], %[[P]]
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]]
// CHECK:             scf.if %[[IN]] {
// CHECK:               memref.store %{{.*}}, %arg1[%{{.*}}]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @main(%x: memref<1xf32>, %y: memref<1099511627776xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1099511627776 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%c0] : memref<1xf32>
    memref.store %v, %y[%i] : memref<1099511627776xf32>
    scf.reduce
  }
  return
}
