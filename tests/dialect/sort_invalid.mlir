// One expected-error for every verifier message of strata.sort (issue 13).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @sort_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+1 {{'strata.sort' op expects operands of one shape, but operand 1 is [5] and operand 0 is [4]}}
  %0:2 = strata.sort %x, %y : (tensor<4xf32>, tensor<5xf32>) -> (tensor<4xf32>, tensor<5xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = strata.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}

// -----

func.func @sort_dimension(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.sort' op expects a dimension in [-1, 1), but got 1}}
  %0 = strata.sort %x {dimension = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}

// -----

func.func @sort_result_types(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.sort' op expects results of the inputs' types (tensor<4xf32>), but got (tensor<4xi32>)}}
  %0 = strata.sort %x : (tensor<4xf32>) -> tensor<4xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}

// -----

func.func @sort_arity(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.sort' op expects a comparator with 2 arguments (two per input), but got 1}}
  %0 = strata.sort %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>):
    %p = strata.compare LT, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}

// -----

func.func @sort_argument_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.sort' op expects comparator argument #1 of type 'tensor<f32>', but got 'tensor<f64>'}}
  %0 = strata.sort %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f64>):
    %p = strata.compare LT, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}

// -----

func.func @sort_return(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.sort' op expects the comparator to return one tensor<i1>}}
  %0 = strata.sort %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    strata.return %a : tensor<f32>
  }
  return
}

// -----

func.func @sort_empty() {
  // expected-error @+1 {{'strata.sort' op expects at least one input}}
  strata.sort : () -> () {
  ^bb0:
    %p = strata.constant dense<true> : tensor<i1>
    strata.return %p : tensor<i1>
  }
  return
}
