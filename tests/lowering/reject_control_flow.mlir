// --strata-reject-control-flow: the cuda target's first pass reports control flow it cannot
// compile yet at the op, and fails.
// RUN: strata-opt %s --strata-reject-control-flow --split-input-file --verify-diagnostics

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the cuda target cannot compile control flow yet (strata.while); run this function on the CPU (JitOptions::device = st::cpu())}}
  %r = strata.while(%a = %x) : tensor<4xf32>
    cond {
      %p = strata.constant dense<false> : tensor<i1>
      strata.return %p : tensor<i1>
    } do {
      strata.return %a : tensor<4xf32>
    }
  return %r : tensor<4xf32>
}

// -----

func.func @sort(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the cuda target cannot compile strata.sort yet; run this function on the CPU (JitOptions::device = st::cpu())}}
  %0 = strata.sort %x : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = strata.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @window(%x: tensor<4xf32>) -> tensor<2xf32> {
  %z = strata.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{the cuda target cannot compile window reductions yet (strata.reduce_window); run this function on the CPU (JitOptions::device = st::cpu())}}
  %r = "strata.reduce_window"(%x, %z) <{operandSegmentSizes = array<i32: 1, 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = strata.add %a, %b : tensor<f32>
    strata.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
