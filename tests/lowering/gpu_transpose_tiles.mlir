// RUN: strata-opt --split-input-file --strata-gpu-map-loops %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-gpu-map-loops=transpose-tiles=false %s | FileCheck %s --check-prefix=OFF
// RUN: strata-opt --split-input-file --strata-gpu-map-loops --convert-parallel-loops-to-gpu --strata-gpu-workgroup-buffers %s | FileCheck %s --check-prefix=SHARED

// y[i, j] = exp(x[j, i]) * b[i, j], 300x1000: 10x32 tiles of 32x32, a block of 256 threads
// each. The block reads x's tile along i (x's rows: coalesced) into a 32x33 workgroup buffer,
// waits, then computes along j reading x's values from the buffer transposed; guards cut the
// tiles at 300.
// CHECK-LABEL: func.func @main
// CHECK:       scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c320) step
// CHECK:         scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256) step
// CHECK:           %[[TX:.*]] = arith.remui %[[T]], %c32
// CHECK:           %[[TY:.*]] = arith.divui %[[T]], %c32
// CHECK:           %[[TILE:.*]] = memref.alloca() : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK:             %[[R:.*]] = arith.addi %[[TY]]
// CHECK:             %[[II:.*]] = arith.addi %{{.*}}, %[[TX]]
// CHECK:             %[[JJ:.*]] = arith.addi %{{.*}}, %[[R]]
// CHECK:             arith.cmpi ult, %[[II]], %c300
// CHECK:             scf.if
// CHECK:               %[[V:.*]] = memref.load %arg0[%[[JJ]], %[[II]]]
// CHECK:               memref.store %[[V]], %[[TILE]][%[[R]], %[[TX]]]
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK:             %[[R2:.*]] = arith.addi %[[TY]]
// CHECK:             %[[I2:.*]] = arith.addi %{{.*}}, %[[R2]]
// CHECK:             %[[J2:.*]] = arith.addi %{{.*}}, %[[TX]]
// CHECK:             scf.if
// CHECK:               %[[W:.*]] = memref.load %[[TILE]][%[[TX]], %[[R2]]]
// CHECK:               %[[E:.*]] = math.exp %[[W]]
// CHECK:               memref.store %{{.*}}, %arg2[%[[I2]], %[[J2]]]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// OFF-LABEL:   func.func @main
// OFF-NOT:     memref.alloca
// OFF:         return
// SHARED:      gpu.launch
// SHARED-SAME: workgroup(%[[BUF:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// SHARED-NOT:  memref.alloca
// SHARED:      memref.store %{{.*}}, %[[BUF]]
// SHARED:      gpu.barrier
func.func @main(%x: memref<1000x300xf32>, %b: memref<300x1000xf32>, %y: memref<300x1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c300, %c1000) step (%c1, %c1) {
    %v = memref.load %x[%j, %i] : memref<1000x300xf32>
    %w = memref.load %b[%i, %j] : memref<300x1000xf32>
    %e = math.exp %v : f32
    %p = arith.mulf %e, %w : f32
    memref.store %p, %y[%i, %j] : memref<300x1000xf32>
    scf.reduce
  }
  return
}

// -----

// Too narrow to tile (16 columns): the plain mapping.
// CHECK-LABEL: func.func @main
// CHECK-NOT:   memref.alloca
// CHECK:       return
func.func @main(%x: memref<16x512xf32>, %y: memref<512x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c16) step (%c1, %c1) {
    %v = memref.load %x[%j, %i] : memref<16x512xf32>
    memref.store %v, %y[%i, %j] : memref<512x16xf32>
    scf.reduce
  }
  return
}
