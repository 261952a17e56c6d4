// --strata-carry-column-accumulators: a column reduction's accumulators (one per place of its
// scf.parallel of constant bounds) become the row loop's carried values, the scf.parallel
// unrolled, order-free combiners (integer and min/max) interleaving 4 rows (one set of
// accumulators each, combined after the loop) and the rows left one at a time; loops whose places
// are too many, too few bytes, not constant, or whose buffers something else touches stay.
// RUN: strata-opt --split-input-file --strata-carry-column-accumulators=fewest-bytes=4 --cse %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-carry-column-accumulators %s | FileCheck %s --check-prefix=DEF
// RUN: strata-opt --split-input-file '--strata-carry-column-accumulators=most-values=4 fewest-bytes=4' %s | FileCheck %s --check-prefix=FEW
// RUN: strata-opt --split-input-file '--strata-carry-column-accumulators=most-copied-ops=40 fewest-bytes=4' %s | FileCheck %s --check-prefix=OPS

// A chunk of a split column reduction (--strata-split-reduction-loops' slab partial[k, p]), a
// float sum and an integer max over 2 columns, with an elementwise output: the sum's 2 places
// carried once (its rows stay in order), the max's in 4 sets.
// CHECK-LABEL: func.func @chunk
// CHECK-SAME:  (%[[X:.*]]: memref<1024x2xf32>, %[[S:.*]]: memref<8x2xf32>, %[[M:.*]]: memref<8x2xi32>, %[[Y:.*]]: memref<1024x2xf32>, %[[K:.*]]: index)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
// CHECK:       %[[S0:.*]] = memref.load %[[S]][%[[K]], %[[C0]]]
// CHECK:       %[[S1:.*]] = memref.load %[[S]][%[[K]], %[[C1]]]
// CHECK:       %[[M0:.*]] = memref.load %[[M]][%[[K]], %[[C0]]]
// CHECK:       %[[M1:.*]] = memref.load %[[M]][%[[K]], %[[C1]]]
// CHECK:       %[[ID:.*]] = arith.constant -2147483648 : i32
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK:       %[[MID:.*]] = arith.addi
// CHECK:       %[[G:.*]]:10 = scf.for %[[N:.*]] = %[[C0]] to %[[MID]] step %[[C4]] iter_args(%[[A0:.*]] = %[[S0]], %[[A1:.*]] = %[[S1]], %[[B0:.*]] = %[[M0]], %[[B1:.*]] = %[[M1]], %[[B2:.*]] = %[[ID]], %[[B3:.*]] = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]], %{{.*}} = %[[ID]])
// CHECK-NOT:     scf.parallel
// CHECK-NOT:     memref.load %[[S]]
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %[[N]]
// CHECK:         %[[V0:.*]] = memref.load %[[X]][%[[I]], %[[C0]]]
// CHECK:         %[[T0:.*]] = arith.addf %[[A0]], %[[V0]] fastmath<reassoc>
// CHECK:         %[[W0:.*]] = arith.fptosi %[[V0]]
// CHECK:         %[[N0:.*]] = arith.maxsi %[[B0]], %[[W0]]
// CHECK:         memref.store %[[V0]], %[[Y]][%[[I]], %[[C0]]]
// CHECK:         %[[V1:.*]] = memref.load %[[X]][%[[I]], %[[C1]]]
// CHECK:         %[[T1:.*]] = arith.addf %[[A1]], %[[V1]] fastmath<reassoc>
// CHECK:         arith.maxsi %[[B1]]
// CHECK:         memref.store %[[V1]], %[[Y]][%[[I]], %[[C1]]]
// The next row: the sum goes on from the first row's value, the max into set 1.
// CHECK:         %[[N1:.*]] = arith.addi %[[N]], %[[C1]]
// CHECK:         %[[I1:.*]] = arith.addi %{{.*}}, %[[N1]]
// CHECK:         %[[U0:.*]] = memref.load %[[X]][%[[I1]], %[[C0]]]
// CHECK:         arith.addf %[[T0]], %[[U0]] fastmath<reassoc>
// CHECK:         arith.maxsi %[[B2]]
// CHECK:         scf.yield
// CHECK:       } {loop_annotation = #{{.*}}}
// CHECK:       %[[R:.*]]:10 = scf.for %{{.*}} = %[[MID]] to %[[C128]] step %[[C1]] iter_args(%{{.*}} = %[[G]]#0, {{.*}}, %{{.*}} = %[[G]]#9)
// CHECK:       } {loop_annotation = #{{.*}}}
// CHECK:       memref.store %[[R]]#0, %[[S]][%[[K]], %[[C0]]]
// CHECK:       memref.store %[[R]]#1, %[[S]][%[[K]], %[[C1]]]
// CHECK:       %[[X0:.*]] = arith.maxsi %[[R]]#2, %[[R]]#4
// CHECK:       %[[X1:.*]] = arith.maxsi %[[X0]], %[[R]]#6
// CHECK:       %[[X2:.*]] = arith.maxsi %[[X1]], %[[R]]#8
// CHECK:       memref.store %[[X2]], %[[M]][%[[K]], %[[C0]]]
// CHECK:       arith.maxsi %[[R]]#3, %[[R]]#5
// CHECK:       memref.store %{{.*}}, %[[M]][%[[K]], %[[C1]]]
// CHECK:       return
// By default 2 columns of 4 bytes are left to LLVM (fewer than 32 bytes of places).
// DEF-LABEL:   func.func @chunk
// DEF-NOT:     iter_args
// DEF:         scf.parallel
// With most-copied-ops=40, 4 rows (and the rest) of 2 places of 9 ops (and 2 pure ops) make
// 5 × 20 = 100 ops; 2 rows, 3 × 20 = 60, neither; one row (20) fits. 64 places of 4 ops do not.
// OPS-LABEL:   func.func @chunk
// OPS:         scf.for {{.*}} -> (f32, f32, i32, i32)
// OPS-NOT:     scf.for
// OPS:         return
// OPS-LABEL:   func.func @grid
// OPS:         iter_args
// OPS-LABEL:   func.func @wide
// OPS-NOT:     iter_args
// OPS:         return
// With most-values=4 the max's 2 places fit in one set only.
// FEW-LABEL:   func.func @chunk
// FEW:         scf.for {{.*}} -> (f32, f32, i32, i32)
// FEW-NOT:     scf.parallel
// FEW:         return
func.func @chunk(%x: memref<1024x2xf32>, %s: memref<8x2xf32>, %m: memref<8x2xi32>, %y: memref<1024x2xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  scf.for %n = %c0 to %c128 step %c1 {
    %base = arith.muli %k, %c128 : index
    %i = arith.addi %base, %n : index
    scf.parallel (%p) = (%c0) to (%c2) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<1024x2xf32>
      %a = memref.load %s[%k, %p] : memref<8x2xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[%k, %p] : memref<8x2xf32>
      %w = arith.fptosi %v : f32 to i32
      %b = memref.load %m[%k, %p] : memref<8x2xi32>
      %mx = arith.maxsi %b, %w : i32
      memref.store %mx, %m[%k, %p] : memref<8x2xi32>
      memref.store %v, %y[%i, %p] : memref<1024x2xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Two dimensions of places, in the scf.parallel's order (the last varies fastest), from its
// lower bounds by its steps.
// CHECK-LABEL: func.func @grid
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK:       memref.load %{{.*}}[%[[C0]], %[[C1]]]
// CHECK:       memref.load %{{.*}}[%[[C0]], %[[C3]]]
// CHECK:       memref.load %{{.*}}[%[[C1]], %[[C1]]]
// CHECK:       memref.load %{{.*}}[%[[C1]], %[[C3]]]
// CHECK:       scf.for {{.*}} -> (f64, f64, f64, f64)
// CHECK:       return
// DEF-LABEL:   func.func @grid
// DEF:         iter_args
// FEW-LABEL:   func.func @grid
// FEW:         iter_args
func.func @grid(%x: memref<64x2x4xf64>, %s: memref<2x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.parallel (%p, %q) = (%c0, %c1) to (%c2, %c4) step (%c1, %c2) {
      %v = memref.load %x[%i, %p, %q] : memref<64x2x4xf64>
      %a = memref.load %s[%p, %q] : memref<2x4xf64>
      %sum = arith.addf %a, %v : f64
      memref.store %sum, %s[%p, %q] : memref<2x4xf64>
      scf.reduce
    }
  }
  return
}

// -----

// Left as they are: 64 places times one accumulator are carried by default but not with
// most-values=4; places of dynamic bounds; an accumulator whose buffer is also read; a place
// that not every column indexes (all columns would add into one place).
// DEF-LABEL:   func.func @wide
// DEF:         iter_args
// DEF-NOT:     scf.parallel
// DEF:         return
// FEW-LABEL:   func.func @wide
// FEW-NOT:     iter_args
// FEW:         scf.parallel
func.func @wide(%x: memref<128x64xf32>, %s: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c128 step %c1 {
    scf.parallel (%p) = (%c0) to (%c64) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<128x64xf32>
      %a = memref.load %s[%p] : memref<64xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[%p] : memref<64xf32>
      scf.reduce
    }
  }
  return
}

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   iter_args
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}})
// CHECK:       scf.parallel
// CHECK:       scf.parallel
// CHECK:       return
func.func @left_alone(%x: memref<128x4xf32>, %s: memref<4xf32>, %t: memref<4xf32>, %u: memref<f32>, %y: memref<128x4xf32>, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c128 step %c1 {
    scf.parallel (%p) = (%c0) to (%hi) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<128x4xf32>
      %a = memref.load %s[%p] : memref<4xf32>
      %sum = arith.addf %a, %v : f32
      memref.store %sum, %s[%p] : memref<4xf32>
      scf.reduce
    }
  }
  scf.for %i = %c0 to %c128 step %c1 {
    scf.parallel (%p) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<128x4xf32>
      %a = memref.load %t[%p] : memref<4xf32>
      %sum = arith.addf %a, %v : f32
      memref.store %sum, %t[%p] : memref<4xf32>
      %first = memref.load %t[%c0] : memref<4xf32>
      memref.store %first, %y[%i, %p] : memref<128x4xf32>
      scf.reduce
    }
  }
  scf.for %i = %c0 to %c128 step %c1 {
    scf.parallel (%p) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<128x4xf32>
      %a = memref.load %u[] : memref<f32>
      %sum = arith.addf %a, %v : f32
      memref.store %sum, %u[] : memref<f32>
      scf.reduce
    }
  }
  return
}
