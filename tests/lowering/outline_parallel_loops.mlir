// --strata-outline-parallel-loops: a large top-level scf.parallel of @main becomes a call of
// an outlined function over [lo, hi) of its outer dimension; small loops stay.
// RUN: strata-opt --strata-outline-parallel-loops %s | FileCheck %s
// RUN: strata-opt --strata-outline-parallel-loops=min-iterations=1024 %s | FileCheck %s --check-prefix=LOW
// RUN: strata-opt --strata-outline-parallel-loops=min-iterations=1000000 %s | FileCheck %s --check-prefix=HIGH

// A lower threshold outlines the 64x64 loop too, with a grain of 512 iterations (8 rows).
// LOW-LABEL:   func.func @main
// LOW:         call @main_parallel_0(
// LOW:         call @main_parallel_1(%{{.*}}, %{{.*}}, %arg2)
// LOW-NOT:     scf.parallel
// LOW:         func.func private @main_parallel_1({{.*}}) attributes {{{.*}}strata.parallel_grain = 8 : i64
// LOW:         func.func private @main_parallel_0({{.*}}) attributes {{{.*}}strata.parallel_grain = 1 : i64

// Above every loop's size nothing is outlined.
// HIGH-LABEL:  func.func @main
// HIGH-NOT:    call
// HIGH:        scf.parallel
// HIGH:        scf.parallel
// HIGH-NOT:    func.func private

// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%[[X:.*]]: memref<512x512xf32>, %[[Y:.*]]: memref<512x512xf32>, %[[S:.*]]: memref<64x64xf32>)
// CHECK:       call @main_parallel_0(%{{.*}}, %{{.*}}, %[[X]], %[[Y]])
// CHECK:       scf.parallel {{.*}} to (%{{.*}}, %{{.*}}) step
// CHECK:       func.func private @main_parallel_0(%[[LO:.*]]: index, %[[HI:.*]]: index, %{{.*}}: memref<512x512xf32>, %{{.*}}: memref<512x512xf32>)
// CHECK-SAME:  strata.noalias_args, strata.parallel_grain = 32 : i64
// Iterations [lo, hi) of the outer dimension: lb + lo * step to min(lb + hi * step, ub).
// CHECK:       %[[A:.*]] = arith.muli %[[LO]], %{{.*}} : index
// CHECK:       %[[FIRST:.*]] = arith.addi %{{.*}}, %[[A]] : index
// CHECK:       %[[B:.*]] = arith.muli %[[HI]], %{{.*}} : index
// CHECK:       %[[END:.*]] = arith.addi %{{.*}}, %[[B]] : index
// CHECK:       %[[LAST:.*]] = arith.minsi %[[END]], %{{.*}} : index
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = (%[[FIRST]], %{{.*}}) to (%[[LAST]], %{{.*}})
func.func @main(%x: memref<512x512xf32>, %y: memref<512x512xf32>, %s: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c512) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<512x512xf32>
    memref.store %v, %y[%i, %j] : memref<512x512xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %v = memref.load %s[%i, %j] : memref<64x64xf32>
    memref.store %v, %s[%j, %i] : memref<64x64xf32>
    scf.reduce
  }
  return
}
