// --strata-to-linalg of strata.gather (a linalg.generic reading with clamped tensor.extract)
// and strata.scatter (an scf.for nest over the index vectors, each window inside combined in).
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<6x1xi32>
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract %{{.*}} : tensor<10x4xf32>
// CHECK-NOT: strata.gather
func.func @gather(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>) -> tensor<6x4xf32> {
  %r = strata.gather CLIP, %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_add
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %arg0) -> (tensor<10x4xbf16>)
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK: scf.if
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: tensor.insert
// CHECK-NOT: strata.scatter
func.func @scatter_add(%x: tensor<10x4xbf16>, %i: tensor<6x1xi32>, %u: tensor<6x4xbf16>) -> tensor<10x4xbf16> {
  %r = strata.scatter ADD, %x[%i], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xbf16>, tensor<6x1xi32>, tensor<6x4xbf16>) -> tensor<10x4xbf16>
  return %r : tensor<10x4xbf16>
}
