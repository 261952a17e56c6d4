// One expected-error for every verifier message of the sorting group's ops (issue 13).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @clamp_types(%lo: tensor<f32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.clamp' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "strata.clamp"(%lo, %x, %x) : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cumulative_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.cumulative' op expects a kind of sum, prod, max, min or logsumexp, but got "mean"}}
  %0 = strata.cumulative %x kind = "mean", dim = 0 : tensor<4xf32>
  return
}

// -----

func.func @cumulative_dimension(%x: tensor<4xf32>) {
  // expected-error @+1 {{'strata.cumulative' op expects a dimension in [0, 1), but got 1}}
  %0 = strata.cumulative %x kind = "sum", dim = 1 : tensor<4xf32>
  return
}

// -----

func.func @cumulative_logsumexp_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'strata.cumulative' op expects a float operand for kind "logsumexp", but got 'tensor<4xi32>'}}
  %0 = strata.cumulative %x kind = "logsumexp", dim = 0 : tensor<4xi32>
  return
}
