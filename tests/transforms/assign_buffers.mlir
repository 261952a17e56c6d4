// --strata-assign-buffers: offsets in one scratch arena from the temporaries' live ranges on
// the schedule (the function's top-level ops, numbered from 0).
// RUN: strata-opt --split-input-file --strata-assign-buffers %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-assign-buffers=print %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// RUN: strata-opt --split-input-file --strata-assign-buffers --strata-scratch-arena %s | FileCheck %s --check-prefix=ARENA
// RUN: strata-opt --split-input-file --strata-assign-buffers=share=false %s | FileCheck %s --check-prefix=UNSHARED

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// Overlapping and disjoint live ranges: %a dies where %b is written through a transpose (not in
// place: they overlap there, so they get different bytes); %c is first used after %a died and
// takes %a's bytes.
// CHECK:       module attributes {strata.scratch_bytes = 128 : i64, strata.temporaries_bytes = 192 : i64}
// CHECK-LABEL: func.func @overlap
// CHECK:       memref.alloc() {strata.buffer = 0 : i64, strata.offset = 0 : i64}
// CHECK:       memref.alloc() {strata.buffer = 1 : i64, strata.offset = 64 : i64}
// CHECK:       memref.alloc() {strata.buffer = 2 : i64, strata.offset = 0 : i64}
// PRINT:       BufferAssignment: 3 temporaries, 192 bytes; arena 128 bytes
// PRINT-NEXT:    buffer 0: 64 bytes at offset 0, live [1, 3], %alloc : memref<4x4xf32>, first used by linalg.generic
// PRINT-NEXT:    buffer 1: 64 bytes at offset 64, live [3, 5], %alloc_0 : memref<4x4xf32>, first used by linalg.generic
// PRINT-NEXT:    buffer 2: 64 bytes at offset 0, live [5, 6], %alloc_1 : memref<4x4xf32>, first used by linalg.generic
// The scratch-arena pass places each allocation at its offset in the arena argument.
// ARENA-LABEL: func.func @overlap
// ARENA-SAME:    %[[S:[a-z0-9]+]]: memref<128xi8>
// ARENA:         %[[O0:.*]] = arith.constant 0 : index
// ARENA:         memref.view %[[S]][%[[O0]]][] : memref<128xi8> to memref<4x4xf32>
// ARENA:         %[[O1:.*]] = arith.constant 64 : index
// ARENA:         memref.view %[[S]][%[[O1]]][] : memref<128xi8> to memref<4x4xf32>
// ARENA:         %[[O2:.*]] = arith.constant 0 : index
// ARENA:         memref.view %[[S]][%[[O2]]][] : memref<128xi8> to memref<4x4xf32>
// ARENA-NOT:     memref.alloc
func.func @overlap(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %c = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %c, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// In place: %b is written elementwise from %a, which dies there, so %b takes %a's bytes; %c
// (read with %b by the last op) cannot take %b's: %b is still live when %c is written.
// CHECK:       module attributes {strata.scratch_bytes = 128 : i64, strata.temporaries_bytes = 192 : i64}
// CHECK-LABEL: func.func @in_place
// CHECK:       memref.alloc() {strata.buffer = 0 : i64, strata.offset = [[A:[0-9]+]] : i64}
// CHECK:       memref.alloc() {strata.buffer = 1 : i64, strata.in_place_of = 0 : i64, strata.offset = [[A]] : i64}
// CHECK:       memref.alloc() {strata.buffer = 2 : i64, strata.offset = {{[0-9]+}} : i64}
// PRINT:       buffer 1: 64 bytes at offset {{[0-9]+}}, live [3, 6], %alloc_0 : memref<4x4xf32>, first used by linalg.generic, in place over buffer 0
func.func @in_place(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  %c = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b, %c : memref<4x4xf32>, memref<4x4xf32>) outs(%out : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// Not in place: f32 → f64 of one shape would write element i over input elements 2i and
// 2i + 1 before they are read (both buffers round up to 64 bytes).
// CHECK-LABEL: func.func @wider
// CHECK:       memref.alloc() {strata.buffer = 0 : i64, strata.offset = [[A:[0-9]+]] : i64}
// CHECK-NOT:   strata.in_place_of
// CHECK-NOT:   strata.offset = [[A]] : i64
func.func @wider(%in: memref<6xf32>, %out: memref<6xf64>) {
  %a = memref.alloc() : memref<6xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<6xf32>) outs(%a : memref<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %b = memref.alloc() : memref<6xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<6xf32>) outs(%b : memref<6xf64>) {
  ^bb0(%x: f32, %o: f64):
    %w = arith.extf %x : f32 to f64
    linalg.yield %w : f64
  }
  memref.copy %b, %out : memref<6xf64> to memref<6xf64>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// share=false (JitOptions::assign_buffers off): nothing shares, every temporary its own slot,
// in order of first use. With sharing, %b is written in place over %a, which dies there.
// CHECK:       module attributes {strata.scratch_bytes = 128 : i64, strata.temporaries_bytes = 192 : i64}
// CHECK-LABEL: func.func @unshared
// CHECK:       strata.offset = 0 : i64
// CHECK:       strata.in_place_of = 0 : i64, strata.offset = 0 : i64
// CHECK:       strata.offset = 64 : i64
// UNSHARED:       module attributes {strata.scratch_bytes = 192 : i64, strata.temporaries_bytes = 192 : i64}
// UNSHARED-LABEL: func.func @unshared
// UNSHARED:       strata.offset = 0 : i64
// UNSHARED:       strata.offset = 64 : i64
// UNSHARED:       strata.offset = 128 : i64
module {
  func.func @unshared(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
    %a = memref.alloc() : memref<4x4xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%in : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
    %b = memref.alloc() : memref<4x4xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    }
    %c = memref.alloc() : memref<4x4xf32>
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%b : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    }
    memref.copy %c, %out : memref<4x4xf32> to memref<4x4xf32>
    return
  }
}

// -----

// A pointer stored in a table that a call reads (a host callback's operands): the buffer lives
// until the call, so %b, written between the store and the call, does not take %a's bytes.
// CHECK-LABEL: func.func @pointer_table
// CHECK:       memref.alloc() {strata.buffer = 0 : i64, strata.offset = [[A:[0-9]+]] : i64}
// CHECK-NOT:   strata.offset = [[A]] :
// CHECK:       call @consume
// PRINT:       buffer 0: 64 bytes at offset {{[0-9]+}}, live [1, 9]
// ARENA-LABEL: func.func @pointer_table
func.func @pointer_table(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %t = memref.alloca() : memref<1xindex>
  %p = memref.extract_aligned_pointer_as_index %a : memref<16xf32> -> index
  %c0 = arith.constant 0 : index
  memref.store %p, %t[%c0] : memref<1xindex>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  %tp = memref.extract_aligned_pointer_as_index %t : memref<1xindex> -> index
  func.call @consume(%tp) : (index) -> ()
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}
func.func private @consume(index)
