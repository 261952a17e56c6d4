// --strata-donate-inputs: outputs written into donated inputs' buffers (args names the
// arguments, num-inputs how many precede the outputs).
// RUN: strata-opt --split-input-file --strata-donate-inputs="args=0 num-inputs=2" %s | FileCheck %s
// Nothing donated: nothing changes, no aliases recorded.
// RUN: strata-opt --split-input-file --strata-donate-inputs %s | FileCheck %s --check-prefix=NONE
// Donated arguments without num-inputs: an error.
// RUN: not strata-opt --split-input-file --strata-donate-inputs=args=0 %s 2>&1 | FileCheck %s --check-prefix=ERR

// NONE-NOT:    strata.output_aliases
// NONE-LABEL:  func.func @in_place
// NONE:        outs(%arg2 : memref<16xf32>)
// NONE-LABEL:  func.func @aside
// NONE-NOT:    memref.copy
// NONE-LABEL:  func.func @identity
// NONE:        memref.copy %arg0, %arg2
// ERR:         error: strata-donate-inputs: expects num-inputs, the arguments before the outputs, but got -1

#id = affine_map<(i) -> (i)>

// The elementwise op reads each element of the donated %x once, where it writes the same element
// of the output: the output is %x itself.
// CHECK:       module attributes {{{.*}}strata.output_aliases = array<i64: 0>
// CHECK-LABEL: func.func @in_place
// CHECK-SAME:  (%[[X:[a-z0-9]+]]: memref<16xf32>, %[[G:[a-z0-9]+]]: memref<16xf32>, %{{.*}}: memref<16xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[X]], %[[G]] : memref<16xf32>, memref<16xf32>) outs(%[[X]] : memref<16xf32>)
// CHECK-NOT:   memref.copy
module {
  func.func @in_place(%x: memref<16xf32>, %g: memref<16xf32>, %out: memref<16xf32>) {
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x, %g : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    }
    return
  }
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// The output is written (a transpose of %x) while %x is still read: it goes to a temporary,
// copied into %x after the last read.
// CHECK:       module attributes {{{.*}}strata.output_aliases = array<i64: 0>
// CHECK-LABEL: func.func @aside
// CHECK-SAME:  (%[[X:[a-z0-9]+]]: memref<4x4xf32>, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4x4xf32>)
// CHECK:       %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[X]] : memref<4x4xf32>) outs(%[[T]] : memref<4x4xf32>)
// CHECK:       memref.copy %[[T]], %[[X]]
// CHECK-NEXT:  return
module {
  func.func @aside(%x: memref<4x4xf32>, %unused: memref<4xf32>, %out: memref<4x4xf32>) {
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<4x4xf32>) outs(%out : memref<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    }
    return
  }
}

// -----

// The first output is the donated input, copied: nothing is left to do. The second output's
// input is not donated.
// CHECK:       module attributes {{{.*}}strata.output_aliases = array<i64: 0, -1>
// CHECK-LABEL: func.func @identity
// CHECK-SAME:  (%{{.*}}: memref<8xf32>, %[[Y:[a-z0-9]+]]: memref<2xf32>, %{{.*}}: memref<8xf32>, %[[OUT1:[a-z0-9]+]]: memref<2xf32>)
// CHECK-NEXT:  memref.copy %[[Y]], %[[OUT1]]
// CHECK-NEXT:  return
module {
  func.func @identity(%x: memref<8xf32>, %y: memref<2xf32>, %out0: memref<8xf32>, %out1: memref<2xf32>) {
    memref.copy %x, %out0 : memref<8xf32> to memref<8xf32>
    memref.copy %y, %out1 : memref<2xf32> to memref<2xf32>
    return
  }
}
