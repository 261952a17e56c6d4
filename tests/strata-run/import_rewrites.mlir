// StableHLO forms strata's ops do not take, rewritten on import (rewriteImportedForms,
// batchIndexColumns, packByteBoolLiterals in dialect/StablehloCompat.h). Expected values from
// NumPy (views for the bitcasts) and JAX (vmapped gather).
// RUN: strata-run %s --split-input-file | FileCheck %s

// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @clamp_scalar_bounds (2 checks)
func.func @clamp_scalar_bounds() {
  %lo = stablehlo.constant dense<-1.0> : tensor<f32>
  %x = stablehlo.constant dense<[-3.0, 0.5, 2.0]> : tensor<3xf32>
  %hi = stablehlo.constant dense<[0.0, 0.25, 4.0]> : tensor<3xf32>
  %r = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %r, dense<[-1.0, 0.25, 2.0]> : tensor<3xf32>
  %h = stablehlo.constant dense<1.0> : tensor<f32>
  %g = "stablehlo.clamp"(%lo, %x, %h) : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %g, dense<[-1.0, 0.5, 1.0]> : tensor<3xf32>
  func.return
}

// -----

// i8 operands, i32 result: the products summed in i32 (the sums leave i8's range).
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @convolution_i8_to_i32 (1 checks)
func.func @convolution_i8_to_i32() {
  %x = stablehlo.constant dense<[[[1], [2], [3], [4]]]> : tensor<1x4x1xi8>
  %w = stablehlo.constant dense<[[[100]], [[100]]]> : tensor<2x1x1xi8>
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1xi8>, tensor<2x1x1xi8>) -> tensor<1x3x1xi32>
  check.expect_eq_const %r, dense<[[[300], [500], [700]]]> : tensor<1x3x1xi32>
  func.return
}

// -----

// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @bitcast_narrower (2 checks)
func.func @bitcast_narrower() {
  %x = stablehlo.constant dense<[1.5, -2.0, 3.25e-3]> : tensor<3xf32>
  %b = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x4xui8>
  check.expect_eq_const %b, dense<[[0, 0, 192, 63], [0, 0, 0, 192], [244, 253, 84, 59]]> : tensor<3x4xui8>
  %h = stablehlo.bitcast_convert %x : (tensor<3xf32>) -> tensor<3x2xi16>
  check.expect_eq_const %h, dense<[[0, 16320], [0, -16384], [-524, 15188]]> : tensor<3x2xi16>
  func.return
}

// -----

// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @bitcast_wider (3 checks)
func.func @bitcast_wider() {
  %b = stablehlo.constant dense<[[18, 52, 86, 120], [255, 254, 128, 1]]> : tensor<2x4xui8>
  %w = stablehlo.bitcast_convert %b : (tensor<2x4xui8>) -> tensor<2xi32>
  check.expect_eq_const %w, dense<[2018915346, 25231103]> : tensor<2xi32>
  %s = stablehlo.constant dense<[[-1, 2], [127, -128]]> : tensor<2x2xi8>
  %t = stablehlo.bitcast_convert %s : (tensor<2x2xi8>) -> tensor<2xi16>
  check.expect_eq_const %t, dense<[767, -32641]> : tensor<2xi16>
  %bits = stablehlo.constant dense<[true, false, true, true, false, false, false, false]> : tensor<8xi1>
  %u = stablehlo.bitcast_convert %bits : (tensor<8xi1>) -> tensor<ui8>
  check.expect_eq_const %u, dense<13> : tensor<ui8>
  func.return
}

// -----

// JAX's vmap of `table[i]` (index_vector_dim = the indices' rank: an implicit index vector);
// out-of-range starts clamp.
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @gather_batching_dims (1 checks)
func.func @gather_batching_dims() {
  %t = stablehlo.iota dim = 0 : tensor<30xf32>
  %table = stablehlo.reshape %t : (tensor<30xf32>) -> tensor<2x5x3xf32>
  %ids = stablehlo.constant dense<[[4, 0, 9], [1, -2, 2]]> : tensor<2x3xi32>
  %r = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<2x5x3xf32>, tensor<2x3xi32>) -> tensor<2x3x3xf32>
  check.expect_eq_const %r, dense<[[[12.0, 13.0, 14.0], [0.0, 1.0, 2.0], [12.0, 13.0, 14.0]], [[18.0, 19.0, 20.0], [15.0, 16.0, 17.0], [21.0, 22.0, 23.0]]]> : tensor<2x3x3xf32>
  func.return
}

// -----

// Row b of the result gets updates[b] added at ids[b]; the out-of-range index 9 is dropped.
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @scatter_batching_dims (1 checks)
func.func @scatter_batching_dims() {
  %acc = stablehlo.constant dense<0> : tensor<2x4xi32>
  %ids = stablehlo.constant dense<[[0, 3, 3], [1, 1, 9]]> : tensor<2x3xi32>
  %upd = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %r = "stablehlo.scatter"(%acc, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<2x4xi32>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x4xi32>
  check.expect_eq_const %r, dense<[[1, 0, 0, 5], [0, 9, 0, 0]]> : tensor<2x4xi32>
  func.return
}

// -----

// i1 hex data one byte per element (StableHLO's testdata writes it so; MLIR 22 reads bits).
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @bool_hex_bytes (1 checks)
func.func @bool_hex_bytes() {
  %b = stablehlo.constant dense<"0x000101000100000000010101"> : tensor<3x4xi1>
  %i = stablehlo.convert %b : (tensor<3x4xi1>) -> tensor<3x4xi32>
  check.expect_eq_const %i, dense<[[0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 1, 1]]> : tensor<3x4xi32>
  func.return
}


// -----

// StableHLO's case runs the last branch for an index outside [0, N) (strata's own case, as the
// jaxpr's cond, clamps: branch 0 for a negative index); the import maps such an index to N - 1.
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @case_index_out_of_range (5 checks)
func.func @case_index_out_of_range() {
  %m1 = stablehlo.constant dense<-1> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %big = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r0 = func.call @three_branches(%m1) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r0, dense<30.0> : tensor<f32>
  %r1 = func.call @three_branches(%c0) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r1, dense<10.0> : tensor<f32>
  %r2 = func.call @three_branches(%c1) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r2, dense<20.0> : tensor<f32>
  %r3 = func.call @three_branches(%c3) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r3, dense<30.0> : tensor<f32>
  %r4 = func.call @three_branches(%big) : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %r4, dense<30.0> : tensor<f32>
  func.return
}
func.func private @three_branches(%k: tensor<i32>) -> tensor<f32> {
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.constant dense<10.0> : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }, {
    %b = stablehlo.constant dense<20.0> : tensor<f32>
    stablehlo.return %b : tensor<f32>
  }, {
    %c = stablehlo.constant dense<30.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// complex<E> is its (real, imaginary) parts, in memory order (NumPy's views).
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @bitcast_complex (6 checks)
func.func @bitcast_complex() {
  %z = stablehlo.constant dense<[(1.5, -2.0), (-0.25, 3.25e-3)]> : tensor<2xcomplex<f32>>
  %i = stablehlo.bitcast_convert %z : (tensor<2xcomplex<f32>>) -> tensor<2xi64>
  check.expect_eq_const %i, dense<[-4611686017357840384, 4275321173891350528]> : tensor<2xi64>
  %back = stablehlo.bitcast_convert %i : (tensor<2xi64>) -> tensor<2xcomplex<f32>>
  check.expect_eq %back, %z : tensor<2xcomplex<f32>>
  %p = stablehlo.bitcast_convert %z : (tensor<2xcomplex<f32>>) -> tensor<2x2xf32>
  check.expect_eq_const %p, dense<[[1.5, -2.0], [-0.25, 3.25e-3]]> : tensor<2x2xf32>
  %w = stablehlo.constant dense<[(1.5, -2.0)]> : tensor<1xcomplex<f64>>
  %q = stablehlo.bitcast_convert %w : (tensor<1xcomplex<f64>>) -> tensor<1x4xf32>
  check.expect_eq_const %q, dense<[[0.0, 1.9375, 0.0, -2.0]]> : tensor<1x4xf32>
  %h = stablehlo.bitcast_convert %w : (tensor<1xcomplex<f64>>) -> tensor<1x8xui16>
  check.expect_eq_const %h, dense<[[0, 0, 0, 16376, 0, 0, 0, 49152]]> : tensor<1x8xui16>
  %c = stablehlo.bitcast_convert %q : (tensor<1x4xf32>) -> tensor<1xcomplex<f64>>
  check.expect_eq %c, %w : tensor<1xcomplex<f64>>
  func.return
}

// -----

// A complex convolution: four real ones of the parts (convolutionOfComplexParts).
// CHECK: PASS import_rewrites.mlir:[[@LINE+1]] @convolution_complex (1 checks)
func.func @convolution_complex() {
  %x = stablehlo.constant dense<[[[(1.0, 2.0), (3.0, -1.0), (0.0, 0.5)]]]> : tensor<1x1x3xcomplex<f32>>
  %w = stablehlo.constant dense<[[[(1.0, -1.0), (2.0, 0.5)]]]> : tensor<1x1x2xcomplex<f32>>
  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x3xcomplex<f32>>, tensor<1x1x2xcomplex<f32>>) -> tensor<1x1x2xcomplex<f32>>
  check.expect_eq_const %r, dense<[[[(9.5, 0.5), (1.75, -3.0)]]]> : tensor<1x1x2xcomplex<f32>>
  func.return
}

// CHECK: 10 passed, 0 failed
