// --strata-fuse-parallel-loops: adjacent parallel loops over one iteration space become one when
// each iteration depends only on the same iteration of the other; otherwise they stay apart.
// RUN: strata-opt --split-input-file --strata-fuse-parallel-loops %s | FileCheck %s

// An input fusion's three nests (the accumulators' fill, the row sums, the mean over them) in
// one loop per row; the loop over the whole matrix after it has another iteration space.
// CHECK-LABEL: func.func @main
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      memref.store %{{.*}}, %[[ACC:.*]][%[[I]]]
// CHECK-NEXT:      scf.for
// CHECK:           memref.load %[[ACC]][%[[I]]]
// CHECK:           arith.divf
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK-NOT:     scf.parallel
func.func @main(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %acc = memref.alloc() {strata.offset = 0 : i64} : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %acc[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %a = memref.load %acc[%i] : memref<4xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %acc[%i] : memref<4xf32>
    }
    scf.reduce
  }
  // In place: the mean is written over the sums (another allocation at the same offset, seen
  // through a reshape).
  %mean = memref.alloc() {strata.offset = 0 : i64} : memref<4xf32>
  %mean2 = memref.expand_shape %mean [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %a = memref.load %acc[%i] : memref<4xf32>
    %m = arith.divf %a, %n : f32
    memref.store %m, %mean2[%i, %c0] : memref<4x1xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x8xf32>
    %m = memref.load %mean[%i] : memref<4xf32>
    %d = arith.subf %v, %m : f32
    memref.store %d, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}

// -----

// The second loop reads an element the first writes in another iteration: not fused.
// CHECK-LABEL: func.func @main
// CHECK:         scf.parallel
// CHECK:         scf.parallel
func.func @main(%x: memref<8xf32>, %out: memref<7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %t = memref.alloc() {strata.offset = 0 : i64} : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %t[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c7) step (%c1) {
    %k = arith.addi %i, %c1 : index
    %v = memref.load %t[%k] : memref<8xf32>
    memref.store %v, %out[%i] : memref<7xf32>
    scf.reduce
  }
  return
}

// -----

// Two temporaries whose arena ranges overlap at different offsets: the second loop's writes
// could clobber what later iterations of the first still read. Not fused.
// CHECK-LABEL: func.func @main
// CHECK:         scf.parallel
// CHECK:         scf.parallel
func.func @main(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() {strata.offset = 0 : i64} : memref<8xf32>
  %b = memref.alloc() {strata.offset = 16 : i64} : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

// A call between the loops (it may touch any memory) keeps them apart.
// CHECK-LABEL: func.func @main
// CHECK:         scf.parallel
// CHECK:         call @opaque
// CHECK:         scf.parallel
func.func private @opaque(memref<8xf32>)
func.func @main(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() {strata.offset = 0 : i64} : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %t[%i] : memref<8xf32>
    scf.reduce
  }
  func.call @opaque(%t) : (memref<8xf32>) -> ()
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %t[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
