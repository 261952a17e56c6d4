// --strata-fuse-parallel-loops=rows=true: loops that share their outer (row) dimensions, one
// with more, become one loop over the rows when each iteration touches only its own row of
// what the other writes; their inner dimensions become scf.for nests, the first's first.
// RUN: strata-opt --split-input-file --strata-fuse-parallel-loops=rows=true %s | FileCheck %s
// Without the option the loops stay apart.
// RUN: strata-opt --split-input-file --strata-fuse-parallel-loops %s | FileCheck %s --check-prefix=OFF

// Softmax's row loop (max and sum of exponentials per row) and the division over the rows'
// elements, in place: one loop per row.
// CHECK-LABEL: func.func @softmax
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      memref.store %{{.*}}, %[[SUM:.*]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK:             math.exp
// CHECK:             memref.store %{{.*}}, %[[OUT:.*]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK:           }
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        memref.load %[[OUT]][%[[I]], %[[K]]]
// CHECK-NEXT:        memref.load %[[SUM]][%[[I]]]
// CHECK-NEXT:        arith.divf
// CHECK-NEXT:        memref.store %{{.*}}, %[[OUT]][%[[I]], %[[K]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
// CHECK-NOT:     scf.parallel
// OFF-LABEL: func.func @softmax
// OFF-COUNT-2:   scf.parallel
func.func @softmax(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloc() {strata.offset = 0 : i64} : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %sum[%i] : memref<4xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %v : f32
      %s = memref.load %sum[%i] : memref<4xf32>
      %t = arith.addf %s, %e : f32
      memref.store %t, %sum[%i] : memref<4xf32>
      memref.store %e, %out[%i, %j] : memref<4x8xf32>
    }
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %e = memref.load %out[%i, %j] : memref<4x8xf32>
    %s = memref.load %sum[%i] : memref<4xf32>
    %d = arith.divf %e, %s : f32
    memref.store %d, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}

// -----

// The other order: an elementwise loop over the rows, then a reduction of each row (a
// normalisation's centred values, then their sum of squares); the row sums are read through a
// reshape that keeps the leading dimension.
// CHECK-LABEL: func.func @center_then_reduce
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK-NEXT:      scf.for
// CHECK:             arith.subf
// CHECK:           }
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      scf.for
// CHECK:             arith.mulf
// CHECK:           }
// CHECK-NEXT:      scf.reduce
// CHECK-NOT:     scf.parallel
func.func @center_then_reduce(%x: memref<4x8xf32>, %mean: memref<4x1xf32>, %c: memref<4x8xf32>, %ss: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x8xf32>
    %m = memref.load %mean[%i, %c0] : memref<4x1xf32>
    %d = arith.subf %v, %m : f32
    memref.store %d, %c[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  %ss2 = memref.expand_shape %ss [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %ss2[%i, %c0] : memref<4x1xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      %d = memref.load %c[%i, %j] : memref<4x8xf32>
      %q = arith.mulf %d, %d : f32
      %s = memref.load %ss2[%i, %c0] : memref<4x1xf32>
      %t = arith.addf %s, %q : f32
      memref.store %t, %ss2[%i, %c0] : memref<4x1xf32>
    }
    scf.reduce
  }
  return
}

// -----

// The second loop reads the next row of what the first writes: not fused.
// CHECK-LABEL: func.func @next_row
// CHECK-COUNT-2: scf.parallel
func.func @next_row(%x: memref<4x8xf32>, %t: memref<5xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i, %c0] : memref<4x8xf32>
    memref.store %v, %t[%i] : memref<5xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %k = arith.addi %i, %c1 : index
    %s = memref.load %t[%k] : memref<5xf32>
    memref.store %s, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}

// -----

// The second loop reduces columns (its rows index the buffer's second dimension): not fused.
// CHECK-LABEL: func.func @columns
// CHECK-COUNT-2: scf.parallel
func.func @columns(%x: memref<4x4xf32>, %t: memref<4x4xf32>, %cs: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x4xf32>
    memref.store %v, %t[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %t[%i, %j] : memref<4x4xf32>
      %s = memref.load %cs[%j] : memref<4xf32>
      %a = arith.addf %s, %v : f32
      memref.store %a, %cs[%j] : memref<4xf32>
    }
    scf.reduce
  }
  return
}

// -----

// One buffer seen with other leading dimensions (4x8 as 8x4): rows differ, not fused.
// CHECK-LABEL: func.func @other_rows
// CHECK-COUNT-2: scf.parallel
func.func @other_rows(%x: memref<32xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() {strata.offset = 0 : i64} : memref<32xf32>
  %a = memref.expand_shape %t [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  %b = memref.expand_shape %t [[0, 1]] output_shape [8, 4] : memref<32xf32> into memref<8x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    memref.store %one, %a[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %b[%i, %c0] : memref<8x4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// Outer bounds that differ: not fused.
// CHECK-LABEL: func.func @other_bounds
// CHECK-COUNT-2: scf.parallel
func.func @other_bounds(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() {strata.offset = 0 : i64} : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    %v = memref.load %x[%i, %c0] : memref<4x8xf32>
    memref.store %v, %t[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    %s = memref.load %t[%i] : memref<4xf32>
    memref.store %s, %out[%i, %j] : memref<4x8xf32>
    scf.reduce
  }
  return
}
