// --strata-split-reduction-loops: a serial reduction nest of @main (a full sum with a fused
// elementwise output) becomes an scf.parallel over chunks of its outer loop, each accumulating
// into its own partial, then a loop combining the partials into the accumulator; nests whose
// iterations depend on each other, or that are small, stay.
// RUN: strata-opt --split-input-file --strata-split-reduction-loops %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-split-reduction-loops=max-chunks=4 %s | FileCheck %s --check-prefix=FOUR
// RUN: strata-opt --split-input-file --strata-split-reduction-loops=combine-in-memory=true %s | FileCheck %s --check-prefix=MEM
// RUN: strata-opt --split-input-file --strata-split-reduction-loops=column-places=32 %s | FileCheck %s --check-prefix=COLS

// combine-in-memory (the cuda target's): the partials are combined by loading and storing the
// accumulator in each iteration, the form a GPU block splits.
// MEM-LABEL:   func.func @sum_and_square
// MEM:         scf.parallel
// MEM:         scf.reduce
// MEM:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// MEM-NEXT:      %[[OLD:.*]] = memref.load %[[S:.*]][] : memref<f32>
// MEM-NEXT:      %[[PT:.*]] = memref.load %{{.*}}[%[[T]]] : memref<64xf32>
// MEM-NEXT:      %[[C:.*]] = arith.addf %[[OLD]], %[[PT]] fastmath<reassoc>
// MEM-NEXT:      memref.store %[[C]], %[[S]][] : memref<f32>
// MEM-NEXT:    }

// CHECK-LABEL: func.func @sum_and_square
// CHECK-SAME:  (%[[X:.*]]: memref<512x512xf32>, %[[Y:.*]]: memref<512x512xf32>, %[[S:.*]]: memref<f32>)
// CHECK:       %[[P:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK:         %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:         memref.store %[[ID]], %[[P]][%[[K]]]
// CHECK:         scf.for %[[II:.*]] = %{{.*}} to %[[C8:.*]] step
// CHECK:           %[[N:.*]] = arith.muli %[[K]], %[[C8]]
// CHECK:           %[[M:.*]] = arith.addi %[[N]], %[[II]]
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[V:.*]] = memref.load %[[X]][%[[I:.*]], %[[J]]]
// CHECK:             %[[A:.*]] = memref.load %[[P]][%[[K]]]
// CHECK:             %[[SUM:.*]] = arith.addf %[[A]], %{{.*}} fastmath<reassoc>
// CHECK:             memref.store %[[SUM]], %[[P]][%[[K]]]
// CHECK:             memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]]
// A float sum's partials join compensated (TwoSum: no fast-math flags), from -0.0.
// CHECK:       %[[START:.*]] = memref.load %[[S]][]
// CHECK:       %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:       %[[TOTAL:.*]]:2 = scf.for %[[T:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[START]], %[[COMP:.*]] = %[[NEG0]]) -> (f32, f32)
// CHECK:         %[[PT:.*]] = memref.load %[[P]][%[[T]]]
// CHECK:         %[[SUM2:.*]] = arith.addf %[[ACC]], %[[PT]] : f32
// CHECK:         %[[Z:.*]] = arith.subf %[[SUM2]], %[[ACC]] : f32
// CHECK:         %[[TZ:.*]] = arith.subf %[[SUM2]], %[[Z]] : f32
// CHECK:         %[[E1:.*]] = arith.subf %[[ACC]], %[[TZ]] : f32
// CHECK:         %[[E2:.*]] = arith.subf %[[PT]], %[[Z]] : f32
// CHECK:         %[[E:.*]] = arith.addf %[[E1]], %[[E2]] : f32
// CHECK:         %[[NC:.*]] = arith.addf %[[COMP]], %[[E]] : f32
// CHECK:         scf.yield %[[SUM2]], %[[NC]]
// CHECK:       %[[ORD:.*]] = arith.cmpf ord, %[[TOTAL]]#1, %[[TOTAL]]#1
// CHECK:       %[[WITH:.*]] = arith.addf %[[TOTAL]]#0, %[[TOTAL]]#1 : f32
// CHECK:       %[[RES:.*]] = arith.select %[[ORD]], %[[WITH]], %[[TOTAL]]#0
// CHECK:       memref.store %[[RES]], %[[S]][]
// FOUR-LABEL:  func.func @sum_and_square
// FOUR:        memref.alloc() : memref<4xf32>
func.func @sum_and_square(%x: memref<512x512xf32>, %y: memref<512x512xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %s[] : memref<f32>
  scf.for %i = %c0 to %c512 step %c1 {
    scf.for %j = %c0 to %c512 step %c1 {
      %v = memref.load %x[%i, %j] : memref<512x512xf32>
      %a = memref.load %s[] : memref<f32>
      %sq = arith.mulf %v, %v : f32
      %sum = arith.addf %a, %sq fastmath<reassoc> : f32
      memref.store %sum, %s[] : memref<f32>
      memref.store %sq, %y[%i, %j] : memref<512x512xf32>
    }
  }
  return
}

// -----

// An integer max over a 1-d array: the identity is the smallest i32; 65535 = 3·5·17·257 trips,
// whose largest divisor up to 64 is 51.
// CHECK-LABEL: func.func @max_i32
// CHECK:       memref.alloc() : memref<51xi32>
// CHECK:       arith.constant -2147483648 : i32
// CHECK:       arith.maxsi
func.func @max_i32(%x: memref<65535xi32>, %m: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65535 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65535xi32>
    %a = memref.load %m[] : memref<i32>
    %r = arith.maxsi %v, %a : i32
    memref.store %r, %m[] : memref<i32>
  }
  return
}

// -----

// Not split: iteration i reads what iteration i - 1 wrote (a prefix sum) ...
// CHECK-LABEL: func.func @prefix
// CHECK-NOT:   scf.parallel
// CHECK-NOT:   memref.alloc
func.func @prefix(%x: memref<65536xf32>, %y: memref<65536xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c1 to %n step %c1 {
    %im1 = arith.subi %i, %c1 : index
    %p = memref.load %y[%im1] : memref<65536xf32>
    %v = memref.load %x[%i] : memref<65536xf32>
    %a = memref.load %s[] : memref<f32>
    %sum = arith.addf %a, %v : f32
    memref.store %sum, %s[] : memref<f32>
    %q = arith.addf %p, %v : f32
    memref.store %q, %y[%i] : memref<65536xf32>
  }
  return
}

// -----

// ... a combine that is not associative (subtraction) ...
// CHECK-LABEL: func.func @difference
// CHECK-NOT:   scf.parallel
func.func @difference(%x: memref<65536xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65536xf32>
    %a = memref.load %s[] : memref<f32>
    %d = arith.subf %a, %v : f32
    memref.store %d, %s[] : memref<f32>
  }
  return
}

// -----

// ... and a small nest. A prime trip count (no divisor up to 64 worth taking) runs as the 64
// chunks of 1024 trips that leave the fewest trips after them; the one left runs after the
// combine as the original loop, into the accumulator. combine-in-memory (the GPU's) takes
// divisors only.
// CHECK-LABEL: func.func @prime_and_small
// CHECK-SAME:  (%[[X:.*]]: memref<65537xf32>, %{{.*}}: memref<64xf32>, %[[S:.*]]: memref<f32>)
// CHECK:       %[[P:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       scf.parallel
// CHECK:         %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C1024]]
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         memref.load %[[P]]
// CHECK:       memref.store %{{.*}}, %[[S]][]
// CHECK:       %[[REST:.*]] = arith.constant 65536 : index
// CHECK:       scf.for %[[I:.*]] = %[[REST]] to %{{.*}} step
// CHECK-NEXT:    memref.load %[[X]][%[[I]]]
// CHECK-NEXT:    memref.load %[[S]][]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.store %{{.*}}, %[[S]][]
// CHECK-NOT:   scf.parallel
// CHECK:       return
// MEM-LABEL:   func.func @prime_and_small
// MEM-NOT:     scf.parallel
// MEM:         return
func.func @prime_and_small(%x: memref<65537xf32>, %z: memref<64xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65537 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<65537xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.addf %a, %v : f32
    memref.store %r, %s[] : memref<f32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %z[%i] : memref<64xf32>
    %a = memref.load %s[] : memref<f32>
    %r = arith.addf %a, %v : f32
    memref.store %r, %s[] : memref<f32>
  }
  return
}

// -----

// A column sum over few columns (16 places, at most column-places=32) and a column max with a
// fused elementwise output: each chunk of rows folds into a slab of partials of its own, set to
// the identity first; then each place combines its chunks' partials (the sum compensated).
// Without column-places (the default), the nest stays.
// COLS-LABEL:  func.func @columns
// COLS-SAME:   (%[[X:.*]]: memref<65536x16xf32>, %[[S:.*]]: memref<16xf32>, %[[M:.*]]: memref<16xf32>, %[[Y:.*]]: memref<65536x16xf32>)
// COLS-DAG:    %[[PS:.*]] = memref.alloc() : memref<64x16xf32>
// COLS-DAG:    %[[PM:.*]] = memref.alloc() : memref<64x16xf32>
// COLS:        scf.parallel (%[[K:.*]]) =
// COLS:          scf.parallel (%[[E:.*]]) =
// COLS:            %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// COLS:            memref.store %[[ID]], %[[PS]][%[[K]], %[[E]]]
// COLS:          scf.parallel (%[[E2:.*]]) =
// COLS:            %[[IDM:.*]] = arith.constant 0xFF800000 : f32
// COLS:            memref.store %[[IDM]], %[[PM]][%[[K]], %[[E2]]]
// COLS:          scf.for %[[N:.*]] =
// COLS:            scf.parallel (%[[P:.*]]) =
// COLS:              %[[V:.*]] = memref.load %[[X]][%[[I:.*]], %[[P]]]
// COLS:              %[[A:.*]] = memref.load %[[PS]][%[[K]], %[[P]]]
// COLS:              %[[SUM:.*]] = arith.addf %[[A]], %[[V]] fastmath<reassoc>
// COLS:              memref.store %[[SUM]], %[[PS]][%[[K]], %[[P]]]
// COLS:              memref.load %[[PM]][%[[K]], %[[P]]]
// COLS:              arith.maximumf
// COLS:              memref.store %{{.*}}, %[[PM]][%[[K]], %[[P]]]
// COLS:              memref.store %{{.*}}, %[[Y]][%[[I]], %[[P]]]
// COLS:        scf.parallel (%[[Q:.*]]) =
// COLS:          %[[OLD:.*]] = memref.load %[[S]][%[[Q]]]
// COLS:          scf.for %[[J:.*]] = {{.*}} iter_args(%{{.*}} = %[[OLD]], %{{.*}} = %{{.*}}) -> (f32, f32)
// COLS:            memref.load %[[PS]][%[[J]], %[[Q]]]
// COLS:            arith.subf
// COLS:          arith.select
// COLS:          memref.store %{{.*}}, %[[S]][%[[Q]]]
// COLS:        scf.parallel (%[[Q2:.*]]) =
// COLS:          %[[OLDM:.*]] = memref.load %[[M]][%[[Q2]]]
// COLS:          scf.for %[[J2:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[OLDM]]) -> (f32)
// COLS:            %[[PT:.*]] = memref.load %[[PM]][%[[J2]], %[[Q2]]]
// COLS:            arith.maximumf %[[ACC]], %[[PT]]
// COLS:          memref.store %{{.*}}, %[[M]][%[[Q2]]]
// CHECK-LABEL: func.func @columns
// CHECK-NOT:   memref.alloc
// CHECK:       return
func.func @columns(%x: memref<65536x16xf32>, %s: memref<16xf32>, %m: memref<16xf32>, %y: memref<65536x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c65536 = arith.constant 65536 : index
  scf.for %i = %c0 to %c65536 step %c1 {
    scf.parallel (%p) = (%c0) to (%c16) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<65536x16xf32>
      %a = memref.load %s[%p] : memref<16xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[%p] : memref<16xf32>
      %b = memref.load %m[%p] : memref<16xf32>
      %mx = arith.maximumf %b, %v : f32
      memref.store %mx, %m[%p] : memref<16xf32>
      %sq = arith.mulf %v, %v : f32
      memref.store %sq, %y[%i, %p] : memref<65536x16xf32>
      scf.reduce
    }
  }
  return
}

// -----

// Column reductions left as they are: more places than column-places (64 > 32), and a place
// that some column does not index (every column would add into one place).
// COLS-LABEL:  func.func @columns_left_alone
// COLS-NOT:    memref.alloc
// COLS:        return
func.func @columns_left_alone(%x: memref<65536x64xf32>, %s: memref<64xf32>, %t: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c65536 = arith.constant 65536 : index
  scf.for %i = %c0 to %c65536 step %c1 {
    scf.parallel (%p) = (%c0) to (%c64) step (%c1) {
      %v = memref.load %x[%i, %p] : memref<65536x64xf32>
      %a = memref.load %s[%p] : memref<64xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %s[%p] : memref<64xf32>
      scf.reduce
    }
  }
  scf.for %i = %c0 to %c65536 step %c1 {
    scf.parallel (%p, %q) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
      %v = memref.load %x[%i, %p] : memref<65536x64xf32>
      %a = memref.load %t[%q] : memref<16xf32>
      %sum = arith.addf %a, %v fastmath<reassoc> : f32
      memref.store %sum, %t[%q] : memref<16xf32>
      scf.reduce
    }
  }
  return
}
