// --strata-block-float-sums: a long float sum (reassociable addf into a place fixed in the
// loop) accumulates in blocks from -0.0, each block's sum joining a running total and a
// compensation by TwoSum; strict sums, other combines, shared buffers and short loops stay.
// RUN: strata-opt --split-input-file --strata-block-float-sums %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-block-float-sums=block-iterations=4096 %s | FileCheck %s --check-prefix=BIG

// A chunk of a split sum (--strata-split-reduction-loops' form): 8192 trips, 8 blocks of 1024.
// CHECK-LABEL: func.func @chunk
// CHECK-SAME:  (%[[X:.*]]: memref<16384xf32>, %[[P:.*]]: memref<2xf32>)
// CHECK:       scf.parallel (%[[K:.*]]) =
// CHECK:         %[[S0:.*]] = memref.load %[[P]][%[[K]]]
// CHECK:         %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[R:.*]]:2 = scf.for %[[B:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[S:.*]] = %[[S0]], %[[C:.*]] = %[[NEG0]]) -> (f32, f32)
// CHECK:           %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:           %[[OFF:.*]] = arith.muli %[[B]], %[[C1024]]
// CHECK:           %[[LO:.*]] = arith.addi %{{.*}}, %[[OFF]]
// CHECK:           %[[HI:.*]] = arith.addi %[[LO]], %{{.*}}
// CHECK:           %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:           memref.store %[[ID]], %[[P]][%[[K]]]
// CHECK:           scf.for %[[J:.*]] = %[[LO]] to %[[HI]] step
// CHECK:             memref.load %[[X]]
// CHECK:             memref.load %[[P]][%[[K]]]
// CHECK:             arith.addf %{{.*}}, %{{.*}} fastmath<reassoc>
// CHECK:             memref.store %{{.*}}, %[[P]][%[[K]]]
// CHECK:           }
// CHECK:           %[[BS:.*]] = memref.load %[[P]][%[[K]]]
// CHECK:           %[[T:.*]] = arith.addf %[[S]], %[[BS]] : f32
// CHECK:           %[[Z:.*]] = arith.subf %[[T]], %[[S]] : f32
// CHECK:           %[[TZ:.*]] = arith.subf %[[T]], %[[Z]] : f32
// CHECK:           %[[E1:.*]] = arith.subf %[[S]], %[[TZ]] : f32
// CHECK:           %[[E2:.*]] = arith.subf %[[BS]], %[[Z]] : f32
// CHECK:           %[[E:.*]] = arith.addf %[[E1]], %[[E2]] : f32
// CHECK:           %[[NC:.*]] = arith.addf %[[C]], %[[E]] : f32
// CHECK:           scf.yield %[[T]], %[[NC]] : f32, f32
// CHECK:         %[[ORD:.*]] = arith.cmpf ord, %[[R]]#1, %[[R]]#1
// CHECK:         %[[WITH:.*]] = arith.addf %[[R]]#0, %[[R]]#1 : f32
// CHECK:         %[[TOT:.*]] = arith.select %[[ORD]], %[[WITH]], %[[R]]#0
// CHECK:         memref.store %[[TOT]], %[[P]][%[[K]]]
// BIG-LABEL:   func.func @chunk
// BIG:         arith.constant 2 : index
// BIG:         arith.constant 4096 : index
func.func @chunk(%x: memref<16384xf32>, %p: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8192 = arith.constant 8192 : index
  %id = arith.constant -0.0 : f32
  scf.parallel (%k) = (%c0) to (%c2) step (%c1) {
    memref.store %id, %p[%k] : memref<2xf32>
    scf.for %j = %c0 to %c8192 step %c1 {
      %n = arith.muli %k, %c8192 : index
      %i = arith.addi %n, %j : index
      %v = memref.load %x[%i] : memref<16384xf32>
      %a = memref.load %p[%k] : memref<2xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %p[%k] : memref<2xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Long rows summed to one value, with a sum of squares and a max in the same nest: each row is
// a block (4096 >= 1024 iterations) and each row's loop blocks again; both sums block, the max
// keeps its plain accumulator. A remainder block: 4099 trips (prime) as four of 1024 and one
// of 3 (the upper bound clamped).
// CHECK-LABEL: func.func @rows_and_moments
// CHECK-SAME:  (%[[X:.*]]: memref<64x4099xf32>, %[[S:.*]]: memref<f32>, %[[Q:.*]]: memref<f32>, %[[M:.*]]: memref<f32>)
// CHECK:       %[[S0:.*]] = memref.load %[[S]][]
// CHECK:       %[[Q0:.*]] = memref.load %[[Q]][]
// CHECK:       %[[C64:.*]] = arith.constant 64 : index
// CHECK:       scf.for %[[ROW:.*]] = %{{.*}} to %[[C64]] step %{{.*}} iter_args(%{{.*}} = %[[S0]], %{{.*}} = %[[Q0]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32, f32)
// CHECK:         memref.store %{{.*}}, %[[S]][]
// CHECK:         memref.store %{{.*}}, %[[Q]][]
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[C5:.*]] = arith.constant 5 : index
// CHECK:           scf.for %[[B:.*]] = %{{.*}} to %[[C5]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK:             %[[UB:.*]] = arith.constant 4099 : index
// CHECK:             %[[CLAMP:.*]] = arith.minsi %{{.*}}, %[[UB]]
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %[[CLAMP]] step
// CHECK:               %[[V:.*]] = memref.load %[[X]][%[[R]], %[[J]]]
// CHECK:               memref.load %[[M]][]
// CHECK:               arith.maximumf
// CHECK:               memref.store %{{.*}}, %[[M]][]
// CHECK:             memref.load %[[S]][]
// CHECK:             memref.load %[[Q]][]
// CHECK-NOT:     memref.load %[[M]][]
// CHECK:       arith.select
// CHECK:       memref.store %{{.*}}, %[[S]][]
// CHECK:       arith.select
// CHECK:       memref.store %{{.*}}, %[[Q]][]
// CHECK-NOT:   memref.store %{{.*}}, %[[M]][]
// CHECK:       return
func.func @rows_and_moments(%x: memref<64x4099xf32>, %s: memref<f32>, %q: memref<f32>, %m: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c4099 = arith.constant 4099 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c4099 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x4099xf32>
      %a = memref.load %s[] : memref<f32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[] : memref<f32>
      %b = memref.load %q[] : memref<f32>
      %sq = arith.mulf %v, %v : f32
      %sumsq = arith.addf %sq, %b fastmath<reassoc> : f32
      memref.store %sumsq, %q[] : memref<f32>
      %c = memref.load %m[] : memref<f32>
      %mx = arith.maximumf %c, %v : f32
      memref.store %mx, %m[] : memref<f32>
    }
  }
  return
}

// -----

// Left alone: a sum without `reassoc` (its order is the program's), a sum whose buffer the
// loop also reads elsewhere, a sum into a place that moves with the loop (a row's own output),
// and a loop of fewer than 2048 iterations.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   iter_args
// CHECK:       return
func.func @left_alone(%x: memref<8192xf32>, %s: memref<f32>, %t: memref<f32>, %y: memref<8192xf32>,
                      %r: memref<8192xf32>, %u: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2047 = arith.constant 2047 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = memref.load %x[%i] : memref<8192xf32>
    %a = memref.load %s[] : memref<f32>
    %sum = arith.addf %a, %v : f32
    memref.store %sum, %s[] : memref<f32>
  }
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = memref.load %x[%i] : memref<8192xf32>
    %a = memref.load %t[] : memref<f32>
    %sum = arith.addf %a, %v fastmath<reassoc> : f32
    memref.store %sum, %t[] : memref<f32>
    %seen = memref.load %t[] : memref<f32>
    memref.store %seen, %y[%i] : memref<8192xf32>
  }
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = memref.load %x[%i] : memref<8192xf32>
    %a = memref.load %r[%i] : memref<8192xf32>
    %sum = arith.addf %a, %v fastmath<reassoc> : f32
    memref.store %sum, %r[%i] : memref<8192xf32>
  }
  scf.for %i = %c0 to %c2047 step %c1 {
    %v = memref.load %x[%i] : memref<8192xf32>
    %a = memref.load %u[] : memref<f32>
    %sum = arith.addf %a, %v fastmath<reassoc> : f32
    memref.store %sum, %u[] : memref<f32>
  }
  return
}

// -----

// A column sum (the CPU's `for rows { parallel columns }`; here with the bounds an outlined
// loop gets): each column adds 64 rows (max(32, 1024 / 16 places)) from -0.0 per block; the
// running totals and compensations live in allocas at the function's entry; one pass over the
// places before the blocks and one after each block (the join, which also restarts acc).
// CHECK-LABEL: func.func @columns
// CHECK-SAME:  (%[[X:.*]]: memref<4096x16xf32>, %[[ACC:.*]]: memref<16xf32>, %[[LO:.*]]: index, %[[HI:.*]]: index)
// CHECK-DAG:   %[[TOT:.*]] = memref.alloca() : memref<16xf32>
// CHECK-DAG:   %[[COMP:.*]] = memref.alloca() : memref<16xf32>
// CHECK:       scf.parallel (%[[P:.*]]) = (%[[LO]]) to (%[[HI]])
// CHECK:         %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         %[[A:.*]] = memref.load %[[ACC]][%[[P]]]
// CHECK:         memref.store %[[A]], %[[TOT]][%[[P]]]
// CHECK:         memref.store %[[NEG0]], %[[COMP]][%[[P]]]
// CHECK:         memref.store %[[NEG0]], %[[ACC]][%[[P]]]
// CHECK:       %[[C64:.*]] = arith.constant 64 : index
// CHECK:       scf.for %[[B:.*]] = %{{.*}} to %[[C64]] step
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.parallel (%[[P3:.*]]) = (%[[LO]]) to (%[[HI]])
// CHECK:             memref.load %[[X]][%[[I]], %[[P3]]]
// CHECK:             arith.addf %{{.*}}, %{{.*}} fastmath<reassoc>
// CHECK:             memref.store %{{.*}}, %[[ACC]][%[[P3]]]
// CHECK:         scf.parallel (%[[P4:.*]]) = (%[[LO]]) to (%[[HI]])
// CHECK:           %[[BS:.*]] = memref.load %[[ACC]][%[[P4]]]
// CHECK:           %[[S:.*]] = memref.load %[[TOT]][%[[P4]]]
// CHECK:           %[[C:.*]] = memref.load %[[COMP]][%[[P4]]]
// CHECK:           %[[T:.*]] = arith.addf %[[S]], %[[BS]] : f32
// CHECK:           %[[NC:.*]] = arith.addf %[[C]], %{{.*}} : f32
// CHECK:           memref.store %[[T]], %[[TOT]][%[[P4]]]
// CHECK:           memref.store %[[NC]], %[[COMP]][%[[P4]]]
// CHECK:           %[[RESTART:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:           memref.store %[[RESTART]], %[[ACC]][%[[P4]]]
// CHECK:       scf.parallel (%[[P5:.*]]) = (%[[LO]]) to (%[[HI]])
// CHECK:         arith.cmpf ord
// CHECK:         %[[R:.*]] = arith.select
// CHECK:         memref.store %[[R]], %[[ACC]][%[[P5]]]
func.func @columns(%x: memref<4096x16xf32>, %acc: memref<16xf32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  scf.for %i = %c0 to %c4096 step %c1 {
    scf.parallel (%p) = (%lo) to (%hi) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<4096x16xf32>
      %a = memref.load %acc[%p] : memref<16xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %acc[%p] : memref<16xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Column sums left alone: more than 8192 places, and too few rows (63 < 2 × 32).
// CHECK-LABEL: func.func @columns_left_alone
// CHECK-NOT:   memref.alloca
// CHECK-NOT:   arith.subf
// CHECK:       return
func.func @columns_left_alone(%x: memref<64x8200xf32>, %wide: memref<8200xf32>, %y: memref<63x4096xf32>,
                              %few: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %c8200 = arith.constant 8200 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.parallel (%p) = (%c0) to (%c8200) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<64x8200xf32>
      %a = memref.load %wide[%p] : memref<8200xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %wide[%p] : memref<8200xf32>
      scf.reduce
    }
  }
  scf.for %i = %c0 to %c63 step %c1 {
    scf.parallel (%p) = (%c0) to (%c4096) step (%c1) {
      %v = memref.load %y[%i, %p] : memref<63x4096xf32>
      %a = memref.load %few[%p] : memref<4096xf32>
      %s = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %s, %few[%p] : memref<4096xf32>
      scf.reduce
    }
  }
  return
}
