// --strata-scratch-arena: temporaries become views of one trailing scratch argument; buffers
// whose live ranges do not overlap share memory.
// RUN: strata-opt --strata-scratch-arena %s | FileCheck %s
// share=false (JitOptions::assign_buffers off): every temporary its own slot.
// RUN: strata-opt --strata-scratch-arena=share=false %s | FileCheck %s --check-prefix=UNSHARED

// UNSHARED:       module attributes {strata.scratch_bytes = 192 : i64, strata.temporaries_bytes = 192 : i64}
// UNSHARED-LABEL: func.func @main
// UNSHARED-SAME:  %[[S:[a-z0-9]+]]: memref<192xi8>
// UNSHARED:       arith.constant 0 : index
// UNSHARED:       memref.view %[[S]]
// UNSHARED:       arith.constant 64 : index
// UNSHARED:       memref.view %[[S]]
// UNSHARED:       arith.constant 128 : index
// UNSHARED:       memref.view %[[S]]

// CHECK:       module attributes {strata.scratch_bytes = 128 : i64, strata.temporaries_bytes = 192 : i64}
// CHECK-LABEL: func.func @main
// CHECK-SAME:  (%{{.*}}: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>, %[[S:.*]]: memref<128xi8>)
// CHECK-SAME:  strata.entry_arg_types = [memref<16xf32>, memref<16xf32>, memref<128xi8>]
// CHECK:       arith.constant 0 : index
// CHECK:       %[[A:.*]] = memref.view %[[S]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK:       arith.constant 64 : index
// CHECK:       %[[B:.*]] = memref.view %[[S]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK:       memref.copy %[[A]], %[[B]]
// The third buffer reuses the first's memory (offset 0): their live ranges do not overlap.
// CHECK:       arith.constant 0 : index
// CHECK:       %[[C:.*]] = memref.view %[[S]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK:       memref.copy %[[B]], %[[C]]
// CHECK-NOT:   memref.alloc
func.func @main(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  memref.copy %b, %c : memref<16xf32> to memref<16xf32>
  memref.copy %c, %out : memref<16xf32> to memref<16xf32>
  return
}
