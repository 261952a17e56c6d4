// --strata-split-row-reductions: a reduction along few long rows (parallel rows { for j {
// acc += x } }) becomes chunks of each row folded into partials, the chunks leading, then the
// row itself with its loop replaced by one combining the row's partials; a row of several
// loops (softmax), or whose loop reads what the row wrote ahead of it, becomes one parallel
// loop a piece first. Rows enough already, a store in the loop that is neither an accumulator
// nor an elementwise output, or a value the pieces cannot recompute: left alone.
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

// The loop also keeps the row's last element (a store at a place fixed in the loop that is no
// accumulator: the order of the iterations matters): left alone.
// CHECK-LABEL: func.func @keeps_the_last
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel
// CHECK-NEXT:    scf.for
func.func @keeps_the_last(%x: memref<4x1048576xf32>, %s: memref<4xf32>, %y: memref<4xf32>) {
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
      memref.store %v, %y[%i] : memref<4xf32>
    }
    scf.reduce
  }
  return
}

// -----

// The loop reads what the row wrote ahead of it: that part of the row becomes a parallel loop
// of its own first (the chunks must run after it), then the loop splits.
// CHECK-LABEL: func.func @reads_the_row
// CHECK-SAME:  (%[[X:[a-z0-9_]+]]: memref<4x1048576xf32>, %[[S:[a-z0-9_]+]]: memref<4xf32>, %[[T:[a-z0-9_]+]]: memref<4x1048576xf32>)
// CHECK:       scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK-NEXT:    memref.load %[[X]]
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    memref.store %{{.*}}, %[[T]]
// CHECK-NEXT:    scf.reduce
// CHECK:       %[[P:[a-z0-9_]+]] = memref.alloc() : memref<4x16xf32>
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%c16, %c4)
// CHECK:         memref.load %[[T]]
// CHECK:       scf.parallel
// CHECK:         memref.load %[[P]]
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

// -----

// A softmax row: a max, then a sum of exponentials that also writes them, then the division
// in place. One parallel loop a loop, each in chunks: the max's chunks and combine, the sum's
// (the row's max read by every chunk, the exponentials written by it) and combine, then the
// division's chunks (elementwise: no partials, nothing left of the row).
// CHECK-LABEL: func.func @softmax_row
// CHECK-SAME:  (%[[X:[a-z0-9_]+]]: memref<2x1048576xf32>, %[[Y:[a-z0-9_]+]]: memref<2x1048576xf32>, %[[M:[a-z0-9_]+]]: memref<2xf32>, %[[S:[a-z0-9_]+]]: memref<2xf32>)
// CHECK:       %[[PM:[a-z0-9_]+]] = memref.alloc() : memref<2x32xf32>
// CHECK:       scf.parallel
// CHECK:         arith.maximumf
// CHECK:         memref.store %{{.*}}, %[[PM]]
// CHECK:       scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:         memref.store %{{.*}}, %[[M]][%[[I]]]
// CHECK:         scf.for
// CHECK:           memref.load %[[PM]]
// CHECK:       %[[PS:[a-z0-9_]+]] = memref.alloc() : memref<2x32xf32>
// CHECK:       scf.parallel
// CHECK:         scf.for
// CHECK:           memref.load %[[M]]
// CHECK:           math.exp
// CHECK:           memref.store %{{.*}}, %[[PS]]
// CHECK:           memref.store %{{.*}}, %[[Y]]
// CHECK:       scf.parallel
// CHECK:         memref.store %{{.*}}, %[[S]]
// CHECK:         scf.for
// CHECK:           memref.load %[[PS]]
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%c32, %c2)
// CHECK:         scf.for
// CHECK:           memref.load %[[Y]]
// CHECK:           memref.load %[[S]]
// CHECK:           arith.divf
// CHECK:           memref.store %{{.*}}, %[[Y]]
// CHECK-NOT:   scf.parallel
// CHECK:       return
func.func @softmax_row(%x: memref<2x1048576xf32>, %y: memref<2x1048576xf32>, %m: memref<2xf32>, %s: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cn = arith.constant 1048576 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    memref.store %ninf, %m[%i] : memref<2xf32>
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x1048576xf32>
      %a = memref.load %m[%i] : memref<2xf32>
      %n = arith.maximumf %a, %v : f32
      memref.store %n, %m[%i] : memref<2xf32>
    }
    memref.store %zero, %s[%i] : memref<2xf32>
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x1048576xf32>
      %mx = memref.load %m[%i] : memref<2xf32>
      %d = arith.subf %v, %mx : f32
      %e = math.exp %d : f32
      %a = memref.load %s[%i] : memref<2xf32>
      %n = arith.addf %a, %e fastmath<reassoc> : f32
      memref.store %n, %s[%i] : memref<2xf32>
      memref.store %e, %y[%i, %j] : memref<2x1048576xf32>
    }
    scf.for %j = %c0 to %cn step %c1 {
      %e = memref.load %y[%i, %j] : memref<2x1048576xf32>
      %t = memref.load %s[%i] : memref<2xf32>
      %q = arith.divf %e, %t : f32
      memref.store %q, %y[%i, %j] : memref<2x1048576xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Two loops, the second using a value the row read ahead of the first from memory the row
// writes (the sum's old value): the pieces could not read it again; left alone.
// CHECK-LABEL: func.func @value_across_loops
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel
// CHECK:         scf.for
// CHECK:         scf.for
func.func @value_across_loops(%x: memref<2x1048576xf32>, %m: memref<2xf32>, %s: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cn = arith.constant 1048576 : index
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %old = memref.load %s[%i] : memref<2xf32>
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x1048576xf32>
      %a = memref.load %m[%i] : memref<2xf32>
      %n = arith.maximumf %a, %v : f32
      memref.store %n, %m[%i] : memref<2xf32>
    }
    scf.for %j = %c0 to %cn step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x1048576xf32>
      %d = arith.subf %v, %old : f32
      %a = memref.load %s[%i] : memref<2xf32>
      %n = arith.addf %a, %d fastmath<reassoc> : f32
      memref.store %n, %s[%i] : memref<2xf32>
    }
    scf.reduce
  }
  return
}
