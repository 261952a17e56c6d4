// --strata-split-column-reductions: a column sum (for rows { parallel columns { acc += x } })
// becomes a fold of chunks of rows, a thread per (chunk, column), into partials, then a loop
// combining each column's partials; with `threads` outputs or more, no partials; a nest that
// also writes elsewhere stays.
// RUN: strata-opt --split-input-file --strata-split-column-reductions %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-split-column-reductions=threads=64 %s | FileCheck %s --check-prefix=DIRECT

// 8192 rows, 64 columns: 512 chunks of 16 rows (131072 threads / 64 columns = 2048, at most
// 8192 / 16 = 512).
// CHECK-LABEL: func.func @column_sum
// CHECK-SAME:  (%[[X:.*]]: memref<8192x64xf32>, %[[S:.*]]: memref<64xf32>)
// CHECK:       %[[P:.*]] = memref.alloc() : memref<512x64xf32>
// CHECK:       scf.parallel (%[[C:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}})
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32)
// CHECK:           %[[ROW:.*]] = arith.addi
// CHECK:           %[[V:.*]] = memref.load %[[X]][%{{.*}}, %[[J]]]
// CHECK:           %[[SUM:.*]] = arith.addf %[[A]], %[[V]]
// CHECK:           scf.yield %[[SUM]]
// CHECK:         memref.store %[[R]], %[[P]][%[[C]], %[[J]]]
// CHECK:       scf.parallel (%[[K:.*]]) =
// CHECK:         scf.for %[[T:.*]] =
// CHECK:           %[[PART:.*]] = memref.load %[[P]][%[[T]], %[[K]]]
// CHECK:           %[[OLD:.*]] = memref.load %[[S]][%[[K]]]
// CHECK:           %[[NEW:.*]] = arith.addf %[[OLD]], %[[PART]]
// CHECK:           memref.store %[[NEW]], %[[S]][%[[K]]]
// DIRECT-LABEL: func.func @column_sum
// DIRECT-NOT:   memref.alloc
// DIRECT:       scf.parallel (%{{.*}}, %[[J:.*]]) =
// DIRECT:         %[[R:.*]] = scf.for
// DIRECT:         %[[OLD:.*]] = memref.load %{{.*}}[%[[J]]]
// DIRECT:         %[[NEW:.*]] = arith.addf %[[OLD]], %[[R]]
// DIRECT:         memref.store %[[NEW]], %{{.*}}[%[[J]]]
func.func @column_sum(%x: memref<8192x64xf32>, %s: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<8192x64xf32>
      %a = memref.load %s[%j] : memref<64xf32>
      %n = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %n, %s[%j] : memref<64xf32>
      scf.reduce
    }
  }
  return
}

// -----

// A store that is not an accumulator step (x is copied as well): left alone.
// CHECK-LABEL: func.func @also_copies
// CHECK:       scf.for
// CHECK-NEXT:    scf.parallel
// CHECK-NOT:   memref.alloc
func.func @also_copies(%x: memref<8192x64xf32>, %s: memref<64xf32>, %y: memref<8192x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
      %v = memref.load %x[%i, %j] : memref<8192x64xf32>
      %a = memref.load %s[%j] : memref<64xf32>
      %n = arith.maximumf %a, %v : f32
      memref.store %n, %s[%j] : memref<64xf32>
      memref.store %v, %y[%i, %j] : memref<8192x64xf32>
      scf.reduce
    }
  }
  return
}
