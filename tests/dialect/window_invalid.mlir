// One expected-error for every verifier message of the window ops (issue 13).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @init_count(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects one init value per input and at least one input, but got 2 inputs and 1 init values}}
  %0:2 = "strata.reduce_window"(%x, %x, %i) <{operandSegmentSizes = array<i32: 2, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @result_count(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects 1 results, but got 2}}
  %0:2 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @input_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects inputs of one shape, but got 'tensor<4xf32>' and 'tensor<5xf32>'}}
  %0:2 = "strata.reduce_window"(%x, %y, %i, %i) <{operandSegmentSizes = array<i32: 2, 2>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    strata.return %a, %b : tensor<f32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<5xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @init_type(%x: tensor<4xf32>, %i: tensor<f64>) {
  // expected-error @+1 {{'strata.reduce_window' op expects init value #0 of type 'tensor<f32>', but got 'tensor<f64>'}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    strata.return %a : tensor<f64>
  }) : (tensor<4xf32>, tensor<f64>) -> tensor<3xf32>
  return
}

// -----

func.func @padding_shape(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects padding of shape [1, 2], but got 'tensor<2x2xi64>'}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>, padding = dense<0> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @window_rank(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects window_dimensions of length 1 (the operand's rank), but got [2, 2]}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @window_positive(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects positive window_dimensions, window_strides, base_dilation and window_dilation, but got [2], [0], [1] and [1]}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_padding(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects non-negative padding, but got low [-1] and high [0]}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>, padding = dense<[[-1, 0]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @result_type(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects result #0 of type 'tensor<3xf32>', but got 'tensor<4xf32>'}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @body_args(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects the body to take (tensor<f32>, tensor<f32>), but got 1 arguments}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @body_results(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.reduce_window' op expects the body to return (tensor<f32>)}}
  %0 = "strata.reduce_window"(%x, %i) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a, %b : tensor<f32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @sas_types(%x: tensor<4xf32>, %g: tensor<2xf64>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.select_and_scatter' op expects a source and a 0-d init value of the operand's element type, but got 'tensor<2xf64>' and 'tensor<f32>' for 'tensor<4xf32>'}}
  %0 = "strata.select_and_scatter"(%x, %g, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf64>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @sas_source_shape(%x: tensor<4xf32>, %g: tensor<3xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.select_and_scatter' op expects a source of shape [2] (one element per window), but got 'tensor<3xf32>'}}
  %0 = "strata.select_and_scatter"(%x, %g, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @sas_result(%x: tensor<4xf32>, %g: tensor<2xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.select_and_scatter' op expects the result type 'tensor<4xf32>', but got 'tensor<2xf32>'}}
  %0 = "strata.select_and_scatter"(%x, %g, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @sas_select(%x: tensor<4xf32>, %g: tensor<2xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.select_and_scatter' op expects the select region to return (tensor<i1>)}}
  %0 = "strata.select_and_scatter"(%x, %g, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @sas_scatter(%x: tensor<4xf32>, %g: tensor<2xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'strata.select_and_scatter' op expects the scatter region to take (tensor<f32>, tensor<f32>), but got 1 arguments}}
  %0 = "strata.select_and_scatter"(%x, %g, %i) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = strata.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>):
    strata.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return
}
