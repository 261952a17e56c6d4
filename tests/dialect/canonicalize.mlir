// Canonicalization of strata ops: constant folding, arithmetic identities, and chains of
// shape ops folded into one op.
// RUN: strata-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @add_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = strata.constant dense<0.0> : tensor<4xf32>
  %0 = strata.add %x, %zero : tensor<4xf32>
  %1 = strata.add %zero, %x : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @multiply_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @multiply_one(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %one = strata.constant dense<1> : tensor<4xi32>
  %0 = strata.multiply %x, %one : tensor<4xi32>
  %1 = strata.multiply %one, %x : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @subtract_zero_divide_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @subtract_zero_divide_one(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = strata.constant dense<0.0> : tensor<4xf32>
  %one = strata.constant dense<1.0> : tensor<4xf32>
  %0 = strata.subtract %x, %zero : tensor<4xf32>
  %1 = strata.divide %x, %one : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @fold_float_constants
// CHECK-DAG: %[[A:.*]] = strata.constant dense<[4.000000e+00, 8.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[B:.*]] = strata.constant dense<[-3.000000e+00, -1.600000e+01]> : tensor<2xf32>
// CHECK-DAG: %[[C:.*]] = strata.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[D:.*]] = strata.constant dense<[0.000000e+00, 5.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @fold_float_constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = strata.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %b = strata.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %0 = strata.add %a, %b : tensor<2xf32>
  %1 = strata.multiply %a, %b : tensor<2xf32>
  %2 = strata.negate %1 : tensor<2xf32>
  %3 = strata.minimum %a, %b : tensor<2xf32>
  %4 = strata.sqrt %3 : tensor<2xf32>
  %5 = strata.multiply %4, %4 : tensor<2xf32>
  %h = strata.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %6 = strata.ceil %h : tensor<2xf32>
  %7 = strata.floor %h : tensor<2xf32>
  %8 = strata.maximum %6, %7 : tensor<2xf32>
  %9 = strata.subtract %8, %a : tensor<2xf32>
  %10 = strata.abs %9 : tensor<2xf32>
  return %0, %2, %5, %10 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_transcendental
// CHECK-NEXT: %[[E:.*]] = strata.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: return %[[E]]
func.func @fold_transcendental() -> tensor<3xf32> {
  %zero = strata.constant dense<0.0> : tensor<3xf32>
  %0 = strata.exponential %zero : tensor<3xf32>
  %1 = strata.cosine %zero : tensor<3xf32>
  %2 = strata.multiply %0, %1 : tensor<3xf32>
  %3 = strata.log %2 : tensor<3xf32>
  %4 = strata.tanh %3 : tensor<3xf32>
  %5 = strata.sine %4 : tensor<3xf32>
  %6 = strata.add %5, %2 : tensor<3xf32>
  %7 = strata.rsqrt %6 : tensor<3xf32>
  return %7 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @fold_integer_constants
// CHECK-DAG: %[[Q:.*]] = strata.constant dense<[3, -3]> : tensor<2xi32>
// CHECK-DAG: %[[Z:.*]] = strata.divide
// CHECK-DAG: %[[P:.*]] = strata.constant dense<[true, false]> : tensor<2xi1>
// CHECK: return %[[Q]], %[[Z]], %[[P]]
func.func @fold_integer_constants() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi1>) {
  %a = strata.constant dense<[7, -7]> : tensor<2xi32>
  %b = strata.constant dense<2> : tensor<2xi32>
  %zero = strata.constant dense<0> : tensor<2xi32>
  %0 = strata.divide %a, %b : tensor<2xi32>
  %1 = strata.subtract %0, %zero : tensor<2xi32>
  %2 = strata.maximum %1, %0 : tensor<2xi32>
  // Division by zero is left to run time.
  %3 = strata.divide %a, %zero : tensor<2xi32>
  // On i1, add is or and multiply is and.
  %t = strata.constant dense<[true, false]> : tensor<2xi1>
  %f = strata.constant dense<[false, false]> : tensor<2xi1>
  %4 = strata.add %t, %t : tensor<2xi1>
  %5 = strata.not %4 : tensor<2xi1>
  %6 = strata.not %5 : tensor<2xi1>
  %7 = strata.or %6, %f : tensor<2xi1>
  return %2, %3, %7 : tensor<2xi32>, tensor<2xi32>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @involutions
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[P:.*]]: tensor<4xi1>)
// CHECK-NEXT: return %[[X]], %[[P]]
func.func @involutions(%x: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi1>) {
  %0 = strata.negate %x : tensor<4xf32>
  %1 = strata.negate %0 : tensor<4xf32>
  %2 = strata.not %p : tensor<4xi1>
  %3 = strata.not %2 : tensor<4xi1>
  return %1, %3 : tensor<4xf32>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = strata.transpose %[[X]], dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[X]], %[[T]], %[[X]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = strata.transpose %x, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = strata.transpose %0, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = strata.transpose %0, dims = [2, 1, 0] : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %3 = strata.transpose %x, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1, %2, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// -----

// transpose(dot_general(a, b)) that swaps a's and b's free dimensions is dot_general(b, a);
// batch dimensions stay first. Other permutations, and a dot with another use, stay.
// CHECK-LABEL: func.func @transpose_of_dot
// CHECK-SAME: (%[[A:.*]]: tensor<256x1024xf32>, %[[B:.*]]: tensor<256x784xf32>, %[[P:.*]]: tensor<4x2x3xf32>, %[[Q:.*]]: tensor<4x3x5xf32>)
// CHECK-NEXT: %[[D:.*]] = strata.dot_general %[[B]], %[[A]], contracting_dims = [0] x [0] : (tensor<256x784xf32>, tensor<256x1024xf32>) -> tensor<784x1024xf32>
// CHECK-NEXT: %[[E:.*]] = strata.dot_general %[[Q]], %[[P]], batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<4x3x5xf32>, tensor<4x2x3xf32>) -> tensor<4x5x2xf32>
// CHECK-NEXT: %[[F:.*]] = strata.dot_general %[[P]], %[[Q]]
// CHECK-NEXT: %[[G:.*]] = strata.transpose %[[F]], dims = [2, 1, 0]
// CHECK-NEXT: return %[[D]], %[[E]], %[[G]]
func.func @transpose_of_dot(%a: tensor<256x1024xf32>, %b: tensor<256x784xf32>, %p: tensor<4x2x3xf32>, %q: tensor<4x3x5xf32>) -> (tensor<784x1024xf32>, tensor<4x5x2xf32>, tensor<5x2x4xf32>) {
  %0 = strata.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<256x1024xf32>, tensor<256x784xf32>) -> tensor<1024x784xf32>
  %1 = strata.transpose %0, dims = [1, 0] : (tensor<1024x784xf32>) -> tensor<784x1024xf32>
  %2 = strata.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  %3 = strata.transpose %2, dims = [0, 2, 1] : (tensor<4x2x5xf32>) -> tensor<4x5x2xf32>
  %4 = strata.dot_general %p, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, tensor<4x3x5xf32>) -> tensor<4x2x5xf32>
  %5 = strata.transpose %4, dims = [2, 1, 0] : (tensor<4x2x5xf32>) -> tensor<5x2x4xf32>
  return %1, %3, %5 : tensor<784x1024xf32>, tensor<4x5x2xf32>, tensor<5x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x6xf32>)
// CHECK-DAG: %[[C:.*]] = strata.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-DAG: %[[R:.*]] = strata.reshape %[[X]] : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[R]], %[[X]], %[[C]]
func.func @reshape_of_reshape(%x: tensor<2x6xf32>) -> (tensor<3x4xf32>, tensor<2x6xf32>, tensor<2x2xi32>) {
  %0 = strata.reshape %x : (tensor<2x6xf32>) -> tensor<12xf32>
  %1 = strata.reshape %0 : (tensor<12xf32>) -> tensor<3x4xf32>
  %2 = strata.reshape %x : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %c = strata.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %3 = strata.reshape %c : (tensor<4xi32>) -> tensor<2x2xi32>
  return %1, %2, %3 : tensor<3x4xf32>, tensor<2x6xf32>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_scalar_constant
// CHECK-NEXT: %[[S:.*]] = strata.constant dense<2.500000e+00> : tensor<4x16xf32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_scalar_constant() -> tensor<4x16xf32> {
  %c = strata.constant dense<2.5> : tensor<f32>
  %0 = strata.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_chains
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[B:.*]] = strata.broadcast_in_dim %[[X]], dims = [2] : (tensor<16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: return %[[X]], %[[B]]
func.func @broadcast_chains(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<2x4x16xf32>) {
  %0 = strata.broadcast_in_dim %x, dims = [0] : (tensor<16xf32>) -> tensor<16xf32>
  %1 = strata.broadcast_in_dim %x, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = strata.broadcast_in_dim %1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<2x4x16xf32>
  return %0, %2 : tensor<16xf32>, tensor<2x4x16xf32>
}

// -----

// A reshape that only adds size-1 dims (keepdims) folds into the broadcast that follows it;
// one that moves elements between dims does not.
// CHECK-LABEL: func.func @broadcast_of_unit_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<6xf32>)
// CHECK-NEXT: %[[B:.*]] = strata.broadcast_in_dim %[[X]], dims = [0] : (tensor<2xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %[[R:.*]] = strata.reshape %[[Y]] : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[C:.*]] = strata.broadcast_in_dim %[[R]], dims = [0, 2]
// CHECK-NEXT: return %[[B]], %[[C]]
func.func @broadcast_of_unit_reshape(%x: tensor<2xf32>, %y: tensor<6xf32>) -> (tensor<2x5xf32>, tensor<2x4x3xf32>) {
  %0 = strata.reshape %x : (tensor<2xf32>) -> tensor<2x1xf32>
  %1 = strata.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x5xf32>
  %2 = strata.reshape %y : (tensor<6xf32>) -> tensor<2x3xf32>
  %3 = strata.broadcast_in_dim %2, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
  return %1, %3 : tensor<2x5xf32>, tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @convert
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[H:.*]] = strata.constant dense<1.500000e+00> : tensor<4xf16>
// CHECK-DAG: %[[F:.*]] = strata.constant dense<-3.000000e+00> : tensor<4xf64>
// CHECK-DAG: %[[B:.*]] = strata.constant dense<true> : tensor<4xi1>
// CHECK: return %[[X]], %[[H]], %[[F]], %[[B]]
func.func @convert(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf64>, tensor<4xi1>) {
  %0 = strata.convert %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = strata.constant dense<1.5> : tensor<4xf32>
  %1 = strata.convert %c : (tensor<4xf32>) -> tensor<4xf16>
  %i = strata.constant dense<-3> : tensor<4xi32>
  %2 = strata.convert %i : (tensor<4xi32>) -> tensor<4xf64>
  %3 = strata.convert %i : (tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf16>, tensor<4xf64>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[P:.*]]: tensor<4xi1>)
// CHECK-NEXT: return %[[A]], %[[B]], %[[A]]
func.func @select(%a: tensor<4xf32>, %b: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = strata.constant dense<true> : tensor<4xi1>
  %f = strata.constant dense<false> : tensor<4xi1>
  %0 = strata.select %t, %a, %b : tensor<4xi1>, tensor<4xf32>
  %1 = strata.select %f, %a, %b : tensor<4xi1>, tensor<4xf32>
  %2 = strata.select %p, %a, %a : tensor<4xi1>, tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @identity_shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[V:.*]]: tensor<f32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]]
func.func @identity_shape_ops(%x: tensor<4x8xf32>, %v: tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = strata.slice %x [0:4, 0:8] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = strata.concatenate %x, dim = 0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = strata.pad %x, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Ops whose operands are not constant stay.
// CHECK-LABEL: func.func @no_fold
// CHECK: strata.add
// CHECK: strata.multiply
// CHECK: strata.exponential
func.func @no_fold(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %two = strata.constant dense<2.0> : tensor<4xf32>
  %0 = strata.add %x, %y : tensor<4xf32>
  %1 = strata.multiply %0, %two : tensor<4xf32>
  %2 = strata.exponential %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
