// --strata-to-linalg for the sorting group's ops (issue 13).
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// clamp is elementwise: IEEE maximum against the lower bound, then minimum against the upper.
// CHECK-LABEL: func.func @clamp
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: linalg.yield
func.func @clamp(%lo: tensor<4xf32>, %x: tensor<4xf32>, %hi: tensor<4xf32>) -> tensor<4xf32> {
  %0 = strata.clamp %lo, %x, %hi : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// On integers: signed max then min.
// CHECK-LABEL: func.func @clamp_int
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @clamp_int(%lo: tensor<4xi32>, %x: tensor<4xi32>, %hi: tensor<4xi32>) -> tensor<4xi32> {
  %0 = strata.clamp %lo, %x, %hi : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// cumulative: [outer, n, inner] loops on tensors; the first row copied, each later one the
// previous result row combined with the operand's (reverse: from the last row down).
// CHECK-LABEL: func.func @cumsum_reverse
// CHECK: tensor.empty() : tensor<2x3x4xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.insert
// CHECK: scf.for
// CHECK: arith.subi
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: tensor.insert
func.func @cumsum_reverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = strata.cumulative %x kind = "sum", dim = 1 reverse : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// bf16 combines in f32 and rounds (to nearest even, on the bits) at each step.
// CHECK-LABEL: func.func @cummax_bf16
// CHECK: arith.maximumf {{.*}} : f32
// CHECK: arith.bitcast {{.*}} : i16 to bf16
// CHECK: tensor.insert
func.func @cummax_bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = strata.cumulative %x kind = "max", dim = 0 : tensor<8xbf16>
  return %0 : tensor<8xbf16>
}
