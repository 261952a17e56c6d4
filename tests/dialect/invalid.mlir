// One expected-error for every message the strata ops' verifiers and type inference emit.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @iota_dimension(%x: tensor<f32>) {
  // expected-error @+1 {{'strata.iota' op expects an iota dimension in [0, 2), but got 2}}
  %0 = strata.iota dim = 2 : tensor<2x3xi32>
  return
}

// -----

func.func @integer_pow_negative_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'strata.integer_pow' op expects a float or complex operand for the negative exponent -2, but got 'tensor<4xi32>'}}
  %0 = strata.integer_pow %x, -2 : tensor<4xi32>
  return
}

// -----

func.func @select_pred_shape(%p: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = strata.select %p, %a, %a : tensor<3xi1>, tensor<4xf32>
  return
}

// -----

func.func @bitcast_width(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.bitcast_convert' op expects a result element type as wide as 'f32' (32 bits), but got 'i64' (64 bits)}}
  %0 = strata.bitcast_convert %a : (tensor<4xf32>) -> tensor<4xi64>
  return
}

// -----

func.func @broadcast_element_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects the operand's element type 'f32' for the result, but got 'i32'}}
  %0 = strata.broadcast_in_dim %a, dims = [0] : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @broadcast_dims_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects one broadcast dimension per operand dimension (1), but got []}}
  %0 = strata.broadcast_in_dim %a, dims = [] : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_dims_range(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects broadcast dimensions in [0, 2), but got [2]}}
  %0 = strata.broadcast_in_dim %a, dims = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_dims_distinct(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects distinct broadcast dimensions, but got [1, 1]}}
  %0 = strata.broadcast_in_dim %a, dims = [1, 1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dims_increasing(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects strictly increasing broadcast dimensions, but got [1, 0]}}
  %0 = strata.broadcast_in_dim %a, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dim_size(%b: tensor<16xf32>) {
  // expected-error @+1 {{'strata.broadcast_in_dim' op expects operand dimension 0 (size 16) to be 1 or 4, but got operand [16] and result [4,16]}}
  %0 = strata.broadcast_in_dim %b, dims = [0] : (tensor<16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @reshape_elements(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.reshape' op expects a shape with 6 elements like [2,3], but got [7]}}
  %0 = strata.reshape %a : (tensor<2x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.reshape' op expects the operand's element type 'f32' for the result, but got 'f64'}}
  %0 = strata.reshape %a : (tensor<2x3xf32>) -> tensor<6xf64>
  return
}

// -----

func.func @transpose_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.transpose' op expects a permutation of 2 dimensions, but got [0]}}
  %0 = strata.transpose %a, dims = [0] : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @transpose_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.transpose' op expects permutation entries in [0, 2), but got [0, 2]}}
  %0 = strata.transpose %a, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_distinct(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.transpose' op expects distinct permutation entries, but got [1, 1]}}
  %0 = strata.transpose %a, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'strata.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'strata.transpose' op failed to infer returned types}}
  %0 = strata.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_rank(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'strata.slice' op expects start, limit and strides of rank 2, but got [0], [1] and [1]}}
  %0 = strata.slice %a [0:1] : (tensor<4x8xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @slice_strides(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'strata.slice' op expects positive strides, but got [1, 0]}}
  %0 = strata.slice %a [0:4, 0:8:0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_bounds(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'strata.slice' op expects 0 <= start <= limit <= 4 in dimension 0, but got start [3, 0] and limit [5, 8] for [4,8]}}
  %0 = strata.slice %a [3:5, 0:8] : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// The shared rule's "expects at least one operand" is caught first by the ODS trait.
func.func @concatenate_none() {
  // expected-error @+1 {{'strata.concatenate' op expected 1 or more operands, but found 0}}
  %0 = strata.concatenate dim = 0 : () -> tensor<0xf32>
  return
}

// -----

func.func @concatenate_dimension(%a: tensor<3xf32>) {
  // expected-error @+1 {{'strata.concatenate' op expects a dimension in [0, 1), but got 1}}
  %0 = strata.concatenate %a, %a, dim = 1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @concatenate_shapes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'strata.concatenate' op expects operands that agree except in dimension 0, but got [2,3] and [2,4]}}
  %0 = strata.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_value(%a: tensor<2x3xf32>, %v: tensor<i32>) {
  // expected-error @+1 {{'strata.pad' op expects a padding value of type tensor<f32>, but got tensor<i32>}}
  %0 = strata.pad %a, %v, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_rank(%a: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'strata.pad' op expects low, high and interior padding of rank 2, but got [0], [0] and [0]}}
  %0 = strata.pad %a, %v, low = [0], high = [0], interior = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_negative_interior(%a: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'strata.pad' op expects non-negative interior padding, but got low [0, 0], high [0, 0] and interior [-1, 0]}}
  %0 = strata.pad %a, %v, low = [0, 0], high = [0, 0], interior = [-1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x3xf32>
  return
}

// -----

// Negative edges crop (as StableHLO), but not past nothing.
func.func @pad_crops_too_much(%a: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{'strata.pad' op expects padding that leaves a dimension of size >= 0, but low [-2, 0], high [-1, 0] and interior [0, 0] give -1 along dimension 0 of [2,3]}}
  %0 = strata.pad %a, %v, low = [-2, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @dot_element_types(%a: tensor<4x8xf32>, %b: tensor<8x16xf64>) {
  // expected-error @+1 {{'strata.dot_general' op expects operands of one element type, but got f32 and f64}}
  %0 = strata.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf64>) -> tensor<4x16xf32>
  return
}

// -----

func.func @dot_batch_count(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects as many lhs as rhs batch dimensions, but got [0] and []}}
  %0 = strata.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @dot_contract_count(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects as many lhs as rhs contracting dimensions, but got [1] and []}}
  %0 = strata.dot_general %a, %b, contracting_dims = [1] x [] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @dot_lhs_dims(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects lhs batch and contracting dimensions in [0, 2), but got [2]}}
  %0 = strata.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @dot_rhs_dims(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects distinct rhs batch and contracting dimensions, but got [0, 0]}}
  %0 = strata.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [0] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @dot_batch_size(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects batch dimensions of equal size, but got [2,4,8] and [3,8,16] with batch dims [0] x [0]}}
  %0 = strata.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @dot_contract_size(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+1 {{'strata.dot_general' op expects contracting dimensions of equal size, but got [4,8] and [7,16] contracting [1] x [0]}}
  %0 = strata.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<7x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @reduce_no_inputs() {
  // expected-error @+1 {{'strata.reduce' op expects at least one input, but got none}}
  strata.reduce( init: ) across dimensions = [] : () -> () {
  ^bb0:
    strata.return
  }
  return
}

// -----

func.func @reduce_init_count(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects one init value per input (2), but got 1}}
  %0 = strata.reduce(%x, %x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_input_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects inputs of one shape, but got tensor<4xf32> and tensor<5xf32>}}
  %0:2 = strata.reduce(%x, %y init: %z, %z) across dimensions = [0] : (tensor<4xf32>, tensor<5xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    strata.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_init_type(%x: tensor<4xf32>, %z: tensor<i32>) {
  // expected-error @+1 {{'strata.reduce' op expects init value #0 of type tensor<f32>, but got tensor<i32>}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<i32>) -> tensor<i32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    strata.return %a : tensor<i32>
  }
  return
}

// -----

func.func @reduce_axes(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects reduction axes in [0, 1), but got [1]}}
  %0 = strata.reduce(%x init: %z) across dimensions = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_axes_distinct(%x: tensor<4x2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects distinct reduction axes, but got [0, 0]}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_arity(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects a body with 2 arguments (accumulators, then elements), but got 1}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_argument(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects body argument #1 of type 'tensor<f32>', but got 'tensor<i32>'}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_terminator(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects the body to end in strata.return, but got func.return}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    func.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_results(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce' op expects the body to return (tensor<f32>), but got (tensor<f32>, tensor<f32>)}}
  %0 = strata.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @fusion_arguments(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.fusion' op expects body arguments of types (tensor<4xf32>), but got (tensor<4xi32>)}}
  %0 = strata.fusion(%a) : (tensor<4xf32>) -> tensor<4xi32> {
  ^bb0(%x: tensor<4xi32>):
    strata.return %x : tensor<4xi32>
  }
  return
}

// -----

func.func @fusion_terminator(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.fusion' op expects the body to end in strata.return, but got func.return}}
  %0 = strata.fusion(%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    func.return %x : tensor<4xf32>
  }
  return
}

// -----

func.func @fusion_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{'strata.fusion' op expects the body to return (tensor<2x2xf32>), but got (tensor<4xf32>)}}
  %0 = strata.fusion(%a) : (tensor<4xf32>) -> tensor<2x2xf32> {
  ^bb0(%x: tensor<4xf32>):
    strata.return %x : tensor<4xf32>
  }
  return
}

// -----

// The type constraints come from ODS; one example of their wording.
func.func @elementwise_types(%a: tensor<4xi32>) {
  // expected-error @+1 {{'strata.exponential' op operand #0 must be statically shaped tensor of 32-bit float or 64-bit float or bfloat16 type or 16-bit float or 8-, 6- or 4-bit float or complex<f32> or complex<f64> values, but got 'tensor<4xi32>'}}
  %0 = strata.exponential %a : tensor<4xi32>
  return
}
