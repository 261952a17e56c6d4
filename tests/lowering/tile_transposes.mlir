// --strata-tile-transposes: an all-parallel loop nest that reads (or writes) a buffer across its
// rows becomes parallel loops over square tiles of the transposed loop and the innermost one;
// a nest that reads everything along rows, or is smaller than two tiles, stays.
// RUN: strata-opt --split-input-file --strata-tile-transposes %s | FileCheck %s
// RUN: strata-opt --split-input-file --strata-tile-transposes=tile-size=16 %s | FileCheck %s --check-prefix=T16

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// CHECK-LABEL: func.func @transpose
// CHECK:       scf.parallel (%[[I:.*]], %[[J:.*]]) = 
// CHECK:         %[[IN:.*]] = memref.subview %arg0[%[[J]], %[[I]]] [32, 32] [1, 1]
// CHECK:         %[[OUT:.*]] = memref.subview %arg1[%[[I]], %[[J]]] [32, 32] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[IN]] : {{.*}}) outs(%[[OUT]] : {{.*}})
// T16-LABEL:   func.func @transpose
// T16:         scf.parallel
// T16:           memref.subview %arg0[{{.*}}] [16, 16] [1, 1]
func.func @transpose(%x: memref<128x128xf32>, %y: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%y : memref<128x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// Along rows only: no tiles. A transpose smaller than two tiles (32 rows): no tiles either;
// with 16-element tiles it has two, and is tiled.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT:   scf.parallel
// CHECK:       linalg.generic {{.*}} ins(%arg0 : memref<128x128xf32>) outs(%arg1 : memref<128x128xf32>)
// CHECK:       linalg.generic {{.*}} ins(%arg2 : memref<32x32xf32>) outs(%arg3 : memref<32x32xf32>)
// CHECK-NOT:   scf.parallel
// T16-LABEL:   func.func @untouched
// T16:         linalg.generic {{.*}} ins(%arg0 : memref<128x128xf32>) outs(%arg1 : memref<128x128xf32>)
// T16:         scf.parallel
// T16:           memref.subview %arg2[{{.*}}] [16, 16] [1, 1]
func.func @untouched(%x: memref<128x128xf32>, %y: memref<128x128xf32>, %s: memref<32x32xf32>, %t: memref<32x32xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x128xf32>) outs(%y : memref<128x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<32x32xf32>) outs(%t : memref<32x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
