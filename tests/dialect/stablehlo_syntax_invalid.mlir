// What strata cannot read of StableHLO is refused at its line, never a crash.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @unknown_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.no_such_op' is unknown}}
  %0 = stablehlo.no_such_op %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @compare_type(%a: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{expects a comparison type for integers (SIGNED, UNSIGNED), but got FLOAT}}
  %0 = stablehlo.compare LT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @applies_non_elementwise(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects an elementwise strata op after 'applies', but got 'stablehlo.reshape'}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.reshape across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @precision(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expects a precision (DEFAULT, HIGH, HIGHEST), but got FASTEST}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [FASTEST, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

func.func @chlo_type_count(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{chlo.zeta expects as many types as operands, got 2 for 3}}
  %0 = chlo.zeta %a, %b, %c : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
