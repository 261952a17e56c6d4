// One expected-error for every message of the control-flow ops' verifiers.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @if_branch_type(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.if' op expects the false branch to return (tensor<4xf32>), but got (tensor<3xf32>)}}
  %r = "strata.if"(%p) ({
    strata.return %a : tensor<4xf32>
  }, {
    strata.return %b : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @case_no_branches(%i: tensor<i32>) {
  // expected-error @+1 {{'strata.case' op expects at least one branch, but got none}}
  "strata.case"(%i) : (tensor<i32>) -> ()
  return
}

// -----

func.func @case_branch_type(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'strata.case' op expects branch 1 to return (tensor<f32>), but got (tensor<i32>)}}
  %r = "strata.case"(%i) ({
    strata.return %a : tensor<f32>
  }, {
    strata.return %b : tensor<i32>
  }) : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @while_body_changes_the_carry(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.while' op expects body to return (tensor<4xf32>), but got (tensor<f32>)}}
  %r = strata.while(%a = %x) : tensor<4xf32>
    cond {
      %p = strata.constant dense<true> : tensor<i1>
      strata.return %p : tensor<i1>
    } do {
      %z = strata.constant dense<0.0> : tensor<f32>
      strata.return %z : tensor<f32>
    }
  return %r : tensor<4xf32>
}

// -----

func.func @while_cond_not_a_predicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'strata.while' op expects cond to return (tensor<i1>), but got (tensor<4xf32>)}}
  %r = strata.while(%a = %x) : tensor<4xf32>
    cond {
      strata.return %a : tensor<4xf32>
    } do {
      strata.return %a : tensor<4xf32>
    }
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic_slice_indices(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'strata.dynamic_slice' op expects 2 start indices (one a dimension), but got 1}}
  %s = strata.dynamic_slice %x[%i], sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @dynamic_slice_too_big(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'strata.dynamic_slice' op expects slice size 1 in [0, 4], but got 5}}
  %s = strata.dynamic_slice %x[%i, %i], sizes = [1, 5] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
  return
}

// -----

func.func @dynamic_slice_result(%x: tensor<8x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'strata.dynamic_slice' op expects the result type 'tensor<1x4xf32>', but got 'tensor<4xf32>'}}
  %s = strata.dynamic_slice %x[%i, %i], sizes = [1, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_update_slice_rank(%x: tensor<8x4xf32>, %u: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'strata.dynamic_update_slice' op expects an update of the operand's rank and element type, but got 'tensor<4xf32>' for 'tensor<8x4xf32>'}}
  %r = strata.dynamic_update_slice %x[%i, %i], %u : (tensor<8x4xf32>, tensor<4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  return
}
