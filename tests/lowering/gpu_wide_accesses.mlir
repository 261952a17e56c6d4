// RUN: strata-opt --split-input-file --strata-gpu-map-loops %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-gpu-map-loops=vector-lanes=1 %s | FileCheck %s --check-prefix=OFF

// An elementwise loop with a row broadcast: each thread takes 4 consecutive elements of a row
// (1024 threads for 64x64), loads each contiguous operand as one vector<4xf32> (16-byte
// aligned) when the buffers' pointers are, computes the 4 lanes, and stores one vector; with a
// misaligned pointer, the same 4 lanes with scalar accesses.
// CHECK-LABEL: func.func @broadcast_row
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           memref.extract_aligned_pointer_as_index %arg1
// CHECK:           memref.extract_aligned_pointer_as_index %arg2
// CHECK:           scf.if %{{.*}} {
// CHECK:             %[[X:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK:             %[[B:.*]] = vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK-COUNT-4:     math.exp
// CHECK:             %[[V:.*]] = vector.from_elements
// CHECK:             vector.store %[[V]], %arg2[%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK:           } else {
// CHECK-COUNT-4:     memref.store
// CHECK:           }
// OFF-LABEL:   func.func @broadcast_row
// OFF-NOT:     vector.
// OFF:         return
func.func @broadcast_row(%x: memref<64x64xf32>, %b: memref<64xf32>, %y: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x64xf32>
    %w = memref.load %b[%j] : memref<64xf32>
    %s = arith.mulf %v, %w : f32
    %e = math.exp %s : f32
    memref.store %e, %y[%i, %j] : memref<64x64xf32>
    scf.reduce
  }
  return
}

// -----

// A 0-d operand (a scalar input) is one load for all lanes.
// CHECK-LABEL: func.func @scalar_operand
// CHECK:       scf.if
// CHECK:         memref.load %arg1[] : memref<f32>
// CHECK:         vector.load %arg0
func.func @scalar_operand(%x: memref<4096xf32>, %s: memref<f32>, %y: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %a = memref.load %s[] : memref<f32>
    %v = memref.load %x[%i] : memref<4096xf32>
    %p = arith.mulf %v, %a : f32
    memref.store %p, %y[%i] : memref<4096xf32>
    scf.reduce
  }
  return
}

// -----

// f64: a vector<4xf64> (32 bytes) needs only 16-byte alignment (two 16-byte accesses).
// CHECK-LABEL: func.func @doubles
// CHECK:       vector.load %arg0[%{{.*}}] {alignment = 16 : i64} : memref<4096xf64>, vector<4xf64>
func.func @doubles(%x: memref<4096xf64>, %y: memref<4096xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4096 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<4096xf64>
    %s = arith.addf %v, %v : f64
    memref.store %s, %y[%i] : memref<4096xf64>
    scf.reduce
  }
  return
}

// -----

// Left as they were: a transpose (the inner variable indexes a leading dimension), an inner
// extent that 4 does not divide, and a view whose rows do not start on 16 bytes.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:   vector.
// CHECK:       return
func.func @transpose(%x: memref<64x64xf32>, %y: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %v = memref.load %x[%j, %i] : memref<64x64xf32>
    memref.store %v, %y[%i, %j] : memref<64x64xf32>
    scf.reduce
  }
  return
}
// -----

// CHECK-LABEL: func.func @odd
// CHECK-NOT:   vector.
// CHECK:       return
func.func @odd(%x: memref<1000x66xf32>, %y: memref<1000x66xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c66 = arith.constant 66 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1000, %c66) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<1000x66xf32>
    memref.store %v, %y[%i, %j] : memref<1000x66xf32>
    scf.reduce
  }
  return
}
// -----

// CHECK-LABEL: func.func @unaligned_view
// CHECK-NOT:   vector.
// CHECK:       return
func.func @unaligned_view(%x: memref<64x66xf32>, %y: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = memref.subview %x[0, 1] [64, 64] [1, 1] : memref<64x66xf32> to memref<64x64xf32, strided<[66, 1], offset: 1>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %a = memref.load %v[%i, %j] : memref<64x64xf32, strided<[66, 1], offset: 1>>
    memref.store %a, %y[%i, %j] : memref<64x64xf32>
    scf.reduce
  }
  return
}
