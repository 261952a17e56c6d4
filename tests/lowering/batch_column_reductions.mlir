// --strata-batch-column-reductions: a column reduction whose scf.parallel's leading induction
// variables index the dimensions in front of its rows (a sum over axis 1 of [B, R, C]) runs
// batch by batch; nests with too few batches, no batch dimension, or iterations that depend on
// each other stay.
// RUN: strata-opt --split-input-file --strata-batch-column-reductions=fewest-batches=8 %s | FileCheck %s

// 64 batches of 4096 rows of 16: a sum with an elementwise output of the same nest.
// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%[[X:.*]]: memref<64x4096x16xf32>, %[[S:.*]]: memref<64x16xf32>, %[[Y:.*]]: memref<64x4096x16xf32>)
// CHECK:       scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NEXT:    scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[X]][%[[B]], %[[R]], %[[C]]]
// CHECK-NEXT:        %[[A:.*]] = memref.load %[[S]][%[[B]], %[[C]]]
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[A]], %[[V]]
// CHECK-NEXT:        memref.store %[[T]], %[[S]][%[[B]], %[[C]]]
// CHECK-NEXT:        memref.store %[[V]], %[[Y]][%[[B]], %[[R]], %[[C]]]
func.func @main(%x: memref<64x4096x16xf32>, %s: memref<64x16xf32>, %y: memref<64x4096x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  scf.for %r = %c0 to %c4096 step %c1 {
    scf.parallel (%b, %c) = (%c0, %c0) to (%c64, %c16) step (%c1, %c1) {
      %v = memref.load %x[%b, %r, %c] : memref<64x4096x16xf32>
      %a = memref.load %s[%b, %c] : memref<64x16xf32>
      %t = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %t, %s[%b, %c] : memref<64x16xf32>
      memref.store %v, %y[%b, %r, %c] : memref<64x4096x16xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Two batch dimensions (4 × 4 = 16 batches) in front of the rows, two columns after them.
// CHECK-LABEL: func.func @main
// CHECK:       scf.parallel (%[[B0:.*]], %[[B1:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step
// CHECK-NEXT:    scf.for %[[R:.*]] =
// CHECK-NEXT:      scf.parallel (%[[C0:.*]], %[[C1:.*]]) =
// CHECK-NEXT:        memref.load %{{.*}}[%[[B0]], %[[B1]], %[[R]], %[[C0]], %[[C1]]]
// CHECK:             arith.maxnumf
func.func @main(%x: memref<4x4x512x8x2xf32>, %m: memref<4x4x8x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  scf.for %r = %c0 to %c512 step %c1 {
    scf.parallel (%b0, %b1, %d0, %d1) = (%c0, %c0, %c0, %c0) to (%c4, %c4, %c8, %c2) step (%c1, %c1, %c1, %c1) {
      %v = memref.load %x[%b0, %b1, %r, %d0, %d1] : memref<4x4x512x8x2xf32>
      %a = memref.load %m[%b0, %b1, %d0, %d1] : memref<4x4x8x2xf32>
      %t = arith.maxnumf %a, %v : f32
      memref.store %t, %m[%b0, %b1, %d0, %d1] : memref<4x4x8x2xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Left as they are: 4 batches (fewer than 8); a plain column sum (no dimension in front of the
// rows); a nest whose accumulator's buffer is also read elsewhere in it.
// CHECK-LABEL: func.func @main
// CHECK:       scf.for
// CHECK-NEXT:    scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK:       scf.for
// CHECK-NEXT:    scf.parallel (%{{.*}}) =
// CHECK:       scf.for
// CHECK-NEXT:    scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK:       return
func.func @main(%x: memref<4x4096x16xf32>, %s: memref<4x16xf32>, %z: memref<4096x16xf32>, %t: memref<16xf32>, %w: memref<64x64x16xf32>, %u: memref<64x16xf32>, %o: memref<64x64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  scf.for %r = %c0 to %c4096 step %c1 {
    scf.parallel (%b, %c) = (%c0, %c0) to (%c4, %c16) step (%c1, %c1) {
      %v = memref.load %x[%b, %r, %c] : memref<4x4096x16xf32>
      %a = memref.load %s[%b, %c] : memref<4x16xf32>
      %n = arith.addf %a, %v : f32
      memref.store %n, %s[%b, %c] : memref<4x16xf32>
      scf.reduce
    }
  }
  scf.for %r = %c0 to %c4096 step %c1 {
    scf.parallel (%c) = (%c0) to (%c16) step (%c1) {
      %v = memref.load %z[%r, %c] : memref<4096x16xf32>
      %a = memref.load %t[%c] : memref<16xf32>
      %n = arith.addf %a, %v : f32
      memref.store %n, %t[%c] : memref<16xf32>
      scf.reduce
    }
  }
  scf.for %r = %c0 to %c64 step %c1 {
    scf.parallel (%b, %c) = (%c0, %c0) to (%c64, %c16) step (%c1, %c1) {
      %v = memref.load %w[%b, %r, %c] : memref<64x64x16xf32>
      %a = memref.load %u[%b, %c] : memref<64x16xf32>
      %n = arith.addf %a, %v : f32
      memref.store %n, %u[%b, %c] : memref<64x16xf32>
      %first = memref.load %u[%b, %c0] : memref<64x16xf32>
      memref.store %first, %o[%b, %r, %c] : memref<64x64x16xf32>
      scf.reduce
    }
  }
  return
}
