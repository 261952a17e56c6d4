// --strata-split-row-reductions: a reduction along few long rows (parallel rows { for j {
// acc += x } }) becomes chunks of each row folded into partials, the chunks leading, then the
// row itself with its loop replaced by one combining the row's partials; rows enough already,
// a store in the loop that is not an accumulator, or a loop reading what the row writes: left
// alone.
// RUN: strata-opt --split-input-file --strata-split-row-reductions --canonicalize %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-split-row-reductions=blocks=1024\ min-chunk=8192 --canonicalize %s | FileCheck %s --check-prefix=GPU

// 4 rows of 1048576: 16 chunks a row (64 / 4; at most 1048576 / 32768 = 32), each of 65536
// iterations; the row's init before and its division after stay in the row.
// CHECK-LABEL: func.func @mean_rows
// CHECK-SAME:  (%[[X:[a-z0-9_]+]]: memref<4x1048576xf32>, %[[S:[a-z0-9_]+]]: memref<4xf32>)
// CHECK-DAG:   %[[ID:[a-z0-9_]+]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG:   %[[K:[a-z0-9_]+]] = arith.constant 65536 : index
// CHECK:       %[[P:[a-z0-9_]+]] = memref.alloc() : memref<4x16xf32>
// CHECK:       scf.parallel (%[[C:[a-z0-9_]+]], %[[R:[a-z0-9_]+]]) = (%{{.*}}, %{{.*}}) to (%c16, %c4)
// CHECK:         memref.store %[[ID]], %[[P]][%[[R]], %[[C]]]
// CHECK:         scf.for %[[T:[a-z0-9_]+]] = %{{.*}} to %[[K]] step
// CHECK:           %[[BASE:[a-z0-9_]+]] = arith.muli %[[C]], %[[K]]
// CHECK:           %[[J:[a-z0-9_]+]] = arith.addi %[[BASE]], %[[T]]
// CHECK:           %[[V:[a-z0-9_]+]] = memref.load %[[X]][%[[R]], %[[J]]]
// CHECK:           %[[A:[a-z0-9_]+]] = memref.load %[[P]][%[[R]], %[[C]]]
// CHECK:           %[[N:[a-z0-9_]+]] = arith.addf %[[A]], %[[V]]
// CHECK:           memref.store %[[N]], %[[P]][%[[R]], %[[C]]]
// CHECK:       scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:         memref.store %{{.*}}, %[[S]][%[[I]]]
// CHECK:         scf.for %[[U:[a-z0-9_]+]] = %{{.*}} to %c16 step
// CHECK:           %[[OLD:[a-z0-9_]+]] = memref.load %[[S]][%[[I]]]
// CHECK:           %[[PART:[a-z0-9_]+]] = memref.load %[[P]][%[[I]], %[[U]]]
// CHECK:           %[[SUM:[a-z0-9_]+]] = arith.addf %[[OLD]], %[[PART]]
// CHECK:           memref.store %[[SUM]], %[[S]][%[[I]]]
// CHECK:         }
// CHECK:         arith.divf
// CHECK-NOT:     scf.for
// GPU-LABEL:   func.func @mean_rows
// GPU:         memref.alloc() : memref<4x128xf32>
// GPU:         scf.parallel ({{.*}}) = ({{.*}}) to (%c128, %c4)
// GPU:           scf.for %{{.*}} = %{{.*}} to %c8192 step
func.func @mean_rows(%x: memref<4x1048576xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1048576 = arith.constant 1048576 : index
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1048576.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %s[%i] : memref<4xf32>
    scf.for %j = %c0 to %c1048576 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x1048576xf32>
      %a = memref.load %s[%i] : memref<4xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[%i] : memref<4xf32>
    }
    %t = memref.load %s[%i] : memref<4xf32>
    %m = arith.divf %t, %n : f32
    memref.store %m, %s[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// Two accumulators of one row (max and a sum of exp), each with partials of its own; what the
// loop uses from the row ahead of it (a read of an input) is read again by each chunk.
// CHECK-LABEL: func.func @two_accumulators
// CHECK-DAG:   %[[NEG:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:   %[[PM:[a-z0-9_]+]] = memref.alloc() : memref<2x32xf32>
// CHECK-DAG:   %[[PS:[a-z0-9_]+]] = memref.alloc() : memref<2x32xf32>
// CHECK:       scf.parallel (%[[C:[a-z0-9_]+]], %[[R:[a-z0-9_]+]]) =
// CHECK:         %[[SHIFT:[a-z0-9_]+]] = memref.load %{{.*}}[%[[R]]] : memref<2xf32>
// CHECK:         memref.store %[[NEG]], %[[PM]][%[[R]], %[[C]]]
// CHECK:         scf.for
// CHECK:           arith.maximumf
// CHECK:           arith.subf %{{.*}}, %[[SHIFT]]
// CHECK:           math.exp
// CHECK:       scf.parallel
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c32
// CHECK-DAG:       memref.load %[[PM]]
// CHECK-DAG:       memref.load %[[PS]]
func.func @two_accumulators(%x: memref<2x1048576xf32>, %shift: memref<2xf32>, %m: memref<2xf32>, %s: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cn = arith.constant 1048576 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %sh = memref.load %shift[%i] : memref<2xf32>
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x1048576xf32>
      %am = memref.load %m[%i] : memref<2xf32>
      %nm = arith.maximumf %am, %v : f32
      memref.store %nm, %m[%i] : memref<2xf32>
      %d = arith.subf %v, %sh : f32
      %e = math.exp %d : f32
      %as = memref.load %s[%i] : memref<2xf32>
      %ns = arith.addf %as, %e fastmath<reassoc> : f32
      memref.store %ns, %s[%i] : memref<2xf32>
    }
    scf.reduce
  }
  return
}

// -----

// 64 rows: as many as the chunks would be; left alone.
// CHECK-LABEL: func.func @many_rows
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel
// CHECK-NEXT:    scf.for
func.func @many_rows(%x: memref<64x1048576xf32>, %s: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 1048576 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x1048576xf32>
      %a = memref.load %s[%i] : memref<64xf32>
      %n = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %n, %s[%i] : memref<64xf32>
    }
    scf.reduce
  }
  return
}

// -----

// The loop also copies x (a store that is not an accumulator step): left alone.
// CHECK-LABEL: func.func @also_copies
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel
// CHECK-NEXT:    scf.for
func.func @also_copies(%x: memref<4x1048576xf32>, %s: memref<4xf32>, %y: memref<4x1048576xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cn = arith.constant 1048576 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x1048576xf32>
      %a = memref.load %s[%i] : memref<4xf32>
      %n = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %n, %s[%i] : memref<4xf32>
      memref.store %v, %y[%i, %j] : memref<4x1048576xf32>
    }
    scf.reduce
  }
  return
}

// -----

// The loop reads what the row wrote before it (a temporary row): the chunks would run before
// that write; left alone.
// CHECK-LABEL: func.func @reads_the_row
// CHECK-NOT:   memref.alloc() : memref<4x
// CHECK:       scf.parallel
func.func @reads_the_row(%x: memref<4x1048576xf32>, %s: memref<4xf32>, %t: memref<4x1048576xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cn = arith.constant 1048576 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v0 = memref.load %x[%i, %c0] : memref<4x1048576xf32>
    %w = arith.mulf %v0, %two : f32
    memref.store %w, %t[%i, %c0] : memref<4x1048576xf32>
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %t[%i, %j] : memref<4x1048576xf32>
      %a = memref.load %s[%i] : memref<4xf32>
      %n = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %n, %s[%i] : memref<4xf32>
    }
    scf.reduce
  }
  return
}
