// strata.fusion → linalg (FusionToLinalg.cpp, run by --strata-to-linalg): one loop nest per
// region, its values computed as scalars at index maps, each outside value read once per map.
// RUN: strata-opt --split-input-file --strata-to-linalg %s | FileCheck %s

// A loop region with a broadcast, a transpose and 0-d operands: one parallel generic that
// reads the bias through (d1), the transposed input through (d1, d0), the 0-d values through ().
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[TR:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @loop
// CHECK:       %[[G:.*]] = linalg.generic {indexing_maps = [#[[SCALAR]], #[[ID]], #[[ROW]], #[[TR]], #[[SCALAR]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:    ins(%arg4, %arg0, %arg1, %arg2, %arg3 : tensor<i1>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<f32>)
// CHECK:         arith.addf
// CHECK:         arith.subf
// CHECK:         arith.select
// CHECK:       return %[[G]]
// CHECK-NOT:   linalg.generic
func.func @loop(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %y: tensor<8x4xf32>, %s: tensor<f32>, %p: tensor<i1>) -> tensor<4x8xf32> {
  %0 = strata.fusion(%x, %b, %y, %s, %p) {kind = "loop"} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<f32>, tensor<i1>) -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>, %a2: tensor<8x4xf32>, %a3: tensor<f32>, %a4: tensor<i1>):
    %1 = strata.broadcast_in_dim %a1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %2 = strata.add %a0, %1 : tensor<4x8xf32>
    %3 = strata.transpose %a2, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %4 = strata.subtract %2, %3 : tensor<4x8xf32>
    %5 = strata.broadcast_in_dim %a3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %p4 = strata.broadcast_in_dim %a4, dims = [] : (tensor<i1>) -> tensor<4x8xi1>
    %6 = strata.select %p4, %4, %5 : tensor<4x8xi1>, tensor<4x8xf32>
    strata.return %6 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An input region (softmax's middle): one reduction generic over (rows, columns) whose outputs
// are the sum and exp(x - max), the latter stored for the next loop (multi-output).
// CHECK-LABEL: func.func @input
// CHECK:       %[[FILL:.*]] = linalg.fill
// CHECK:       %[[G:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:    ins(%arg0, %arg1 : tensor<2x5xf32>, tensor<2xf32>) outs(%[[FILL]], %{{.*}} : tensor<2xf32>, tensor<2x5xf32>)
// CHECK:         arith.subf
// CHECK:         %[[E:.*]] = math.exp
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %[[E]]
// CHECK:         linalg.yield %[[S]], %[[E]]
// CHECK:       return %[[G]]#1, %[[G]]#0
// CHECK-NOT:   linalg.generic
func.func @input(%x: tensor<2x5xf32>, %max: tensor<2xf32>) -> (tensor<2x5xf32>, tensor<2xf32>) {
  %0:2 = strata.fusion(%x, %max) {kind = "input"} : (tensor<2x5xf32>, tensor<2xf32>) -> (tensor<2x5xf32>, tensor<2xf32>) {
  ^bb0(%a0: tensor<2x5xf32>, %a1: tensor<2xf32>):
    %1 = strata.broadcast_in_dim %a1, dims = [0] : (tensor<2xf32>) -> tensor<2x5xf32>
    %2 = strata.subtract %a0, %1 : tensor<2x5xf32>
    %3 = strata.exponential %2 : tensor<2x5xf32>
    %4 = strata.constant dense<0.000000e+00> : tensor<f32>
    %5 = strata.reduce(%3 init: %4) across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32> {
    ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
      %6 = strata.add %b0, %b1 : tensor<f32>
      strata.return %6 : tensor<f32>
    }
    strata.return %3, %5 : tensor<2x5xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2xf32>
}

// -----

// A reduction with an epilogue (a mean): the sum's nest, then a small nest over the kept shape
// that divides, reshaped to keepdims.
// CHECK-LABEL: func.func @epilogue
// CHECK:       %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:       %[[MEAN:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<4xf32>)
// CHECK:         arith.divf
// CHECK:       %[[R:.*]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:       return %[[R]]
func.func @epilogue(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = strata.fusion(%x) {kind = "input"} : (tensor<4x8xf32>) -> tensor<4x1xf32> {
  ^bb0(%a0: tensor<4x8xf32>):
    %1 = strata.constant dense<0.000000e+00> : tensor<f32>
    %2 = strata.reduce(%a0 init: %1) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%b0: tensor<f32>, %b1: tensor<f32>):
      %6 = strata.add %b0, %b1 : tensor<f32>
      strata.return %6 : tensor<f32>
    }
    %3 = strata.reshape %2 : (tensor<4xf32>) -> tensor<4x1xf32>
    %4 = strata.constant dense<8.000000e+00> : tensor<4x1xf32>
    %5 = strata.divide %3, %4 : tensor<4x1xf32>
    strata.return %5 : tensor<4x1xf32>
  }
  return %0 : tensor<4x1xf32>
}

// -----

// An output region: the GEMM, then its epilogue as a generic over the [1, M, N] product that
// updates it in place (outs is the product), marked for the runtime-GEMM pass.
// CHECK-LABEL: func.func @output
// CHECK:       %[[P:.*]] = linalg.batch_matmul
// CHECK:       %[[E:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<16xf32>) outs(%[[P]] : tensor<1x4x16xf32>) attrs = {strata.epilogue}
// CHECK:         arith.addf
// CHECK:         arith.maximumf
// CHECK:       tensor.collapse_shape %[[E]]
func.func @output(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = strata.fusion(%x, %w, %b) {kind = "output"} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8x16xf32>, %a2: tensor<16xf32>):
    %1 = strata.dot_general %a0, %a1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %2 = strata.broadcast_in_dim %a2, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
    %3 = strata.add %1, %2 : tensor<4x16xf32>
    %4 = strata.constant dense<0.000000e+00> : tensor<4x16xf32>
    %5 = strata.maximum %3, %4 : tensor<4x16xf32>
    strata.return %5 : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}

// -----

// A 2-D dot whose two dimensions are both the rhs's (a scalar times a [3, 1] matrix): the
// product is [1, 1, 3], not [1, M, N] = [1, 3, 1], so there is no epilogue over it; the region
// is inlined and lowered op by op (fuzz_differential found the epilogue read through (d1, d2)).
// CHECK-LABEL: func.func @outer_product
// CHECK-NOT:   strata.epilogue
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   strata.epilogue
// CHECK:       return
func.func @outer_product(%s: tensor<f64>, %a: tensor<3x1xf64>) -> tensor<3x1xf64> {
  %0 = strata.fusion(%s, %a) {kind = "output"} : (tensor<f64>, tensor<3x1xf64>) -> tensor<3x1xf64> {
  ^bb0(%a0: tensor<f64>, %a1: tensor<3x1xf64>):
    %1 = strata.dot_general %a0, %a1, contracting_dims = [] x [] : (tensor<f64>, tensor<3x1xf64>) -> tensor<3x1xf64>
    %2 = strata.add %1, %a1 : tensor<3x1xf64>
    strata.return %2 : tensor<3x1xf64>
  }
  return %0 : tensor<3x1xf64>
}

// -----

// Piecewise reads: a concatenate and a pad inside a loop region are computed per element by
// in-bounds reads of their operands (tensor.extract at a clamped index) and a select, so the
// region stays one nest.
// CHECK-LABEL: func.func @piecewise
// CHECK:       linalg.generic
// CHECK-NOT:   tensor.insert_slice
// CHECK:         linalg.index 0
// CHECK:         tensor.extract %arg0
// CHECK:         arith.cmpi slt
// CHECK:         arith.select
// CHECK:         math.exp
func.func @piecewise(%x: tensor<2xf32>) -> tensor<4xf32> {
  %0 = strata.fusion(%x) {kind = "loop"} : (tensor<2xf32>) -> tensor<4xf32> {
  ^bb0(%a0: tensor<2xf32>):
    %1 = strata.concatenate %a0, %a0, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    %2 = strata.exponential %1 : tensor<4xf32>
    strata.return %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A region of a form the emitter does not handle (a pad with interior padding inside) is
// inlined: its ops lower one by one, correct but unfused.
// CHECK-LABEL: func.func @fallback
// CHECK:       tensor.insert_slice
// CHECK:       linalg.generic
func.func @fallback(%x: tensor<2xf32>) -> tensor<3xf32> {
  %0 = strata.fusion(%x) {kind = "loop"} : (tensor<2xf32>) -> tensor<3xf32> {
  ^bb0(%a0: tensor<2xf32>):
    %c = strata.constant dense<0.000000e+00> : tensor<f32>
    %1 = strata.pad %a0, %c, low = [0], high = [0], interior = [1] : (tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = strata.exponential %1 : tensor<3xf32>
    strata.return %2 : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}
