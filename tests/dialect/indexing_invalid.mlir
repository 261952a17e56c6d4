// expected-errors of strata.gather's and strata.scatter's verifiers (the shared rules of
// tracer/gather_rules.h).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @gather_collapsed(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>) {
  // expected-error @+1 {{'strata.gather' op expects slice size 1 in collapsed_slice_dims [0], but got [2, 4]}}
  %r = strata.gather CLIP, %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>) {
  // expected-error @+1 {{'strata.gather' op expects the result type 'tensor<6x4xf32>', but got 'tensor<4x6xf32>'}}
  %r = strata.gather CLIP, %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @scatter_updates(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<5x4xf32>) {
  // expected-error @+1 {{'strata.scatter' op expects update scatter dims equal to the index batch dims [6], but got updates [5, 4]}}
  %r = strata.scatter ADD, %x[%i], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<5x4xf32>) -> tensor<10x4xf32>
  return
}

// -----

func.func @scatter_bool_add(%x: tensor<10x4xi1>, %i: tensor<6x1xi32>, %u: tensor<6x4xi1>) {
  // expected-error @+1 {{'strata.scatter' op expects a numeric operand for combiner ADD, but got 'tensor<10x4xi1>'}}
  %r = strata.scatter ADD, %x[%i], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xi1>, tensor<6x1xi32>, tensor<6x4xi1>) -> tensor<10x4xi1>
  return
}
