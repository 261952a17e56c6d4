// --strata-to-linalg: one pattern per op family (lowering/StrataToLinalg.cpp).
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// Elementwise ops become a linalg.generic over their shape, with the op's scalar semantics.
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK: linalg.yield
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = strata.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// An op's scalar body comes from its ODS record: strata.erf is math.erf on f16 widened to f32.
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: math.erf %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @main(%a: tensor<4xf16>) -> tensor<4xf16> {
  %0 = strata.erf %a : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// bf16 computes in f32 and rounds to nearest even on store: integer code on the f32 bits.
// CHECK-LABEL: func.func @main
// CHECK: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.constant 32767 : i32
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @main(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = strata.multiply %a, %b : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// Integer division cannot trap: a safe divisor, then x/0 = -1 and x/-1 = -x selected.
// CHECK-LABEL: func.func @main
// CHECK: arith.divsi
// CHECK: arith.select
// CHECK: arith.constant -1 : i32
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = strata.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// dot_general is a batch_matmul on [B, M, K] x [B, K, N] views (reshapes, no copies).
// CHECK-LABEL: func.func @main
// CHECK: linalg.fill
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 6, 4]
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x6x4xf32>, tensor<1x4x5xf32>)
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 3, 5]
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = strata.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A transposed operand is an indexing map of the batch_matmul, not a copy.
// CHECK-LABEL: func.func @main
// CHECK-NOT: linalg.generic
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<1x8x4xf32>, tensor<1x8x16xf32>)
func.func @main(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = strata.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// reduce along the innermost dimension: kept dimensions outermost, the reduced one innermost;
// the body on scalars, with reassociation allowed so that LLVM can vectorise the sum.
// CHECK-LABEL: func.func @main
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
func.func @main(%a: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %0 = strata.reduce(%a init: %zero) across dimensions = [2] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3xf32> {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = strata.add %acc, %x : tensor<f32>
    strata.return %s : tensor<f32>
  }
  return %0 : tensor<2x3xf32>
}

// -----

// reduce along another dimension: the reduced dimension outermost, so that the innermost loop
// still reads contiguous rows (and updates a row of accumulators).
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic {indexing_maps = [#[[IN:.*]], #[[OUT:.*]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK: arith.maximumf
func.func @main(%a: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %low = strata.constant dense<0xFF800000> : tensor<f32>
  %0 = strata.reduce(%a init: %low) across dimensions = [1] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x4xf32> {
  ^bb0(%acc: tensor<f32>, %x: tensor<f32>):
    %s = strata.maximum %acc, %x : tensor<f32>
    strata.return %s : tensor<f32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

// pad: the padding value everywhere, then the operand at low + i * (interior + 1).
// CHECK-LABEL: func.func @main
// CHECK: tensor.extract
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 0] [2, 3] [1, 2]
func.func @main(%a: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<3x7xf32> {
  %0 = strata.pad %a, %v, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}

// -----

// Complex add, subtract, exp and log (and multiply, divide) become arith and math on the
// parts here, before a canonicalizer could apply the complex dialect's folders
// ((a - b) + b → a, log(exp(z)) → z), which do not hold in floating point.
// CHECK-LABEL: func.func @complex_arithmetic_on_parts
// CHECK-NOT:     complex.sub
// CHECK-NOT:     complex.add
// CHECK-NOT:     complex.exp
// CHECK-NOT:     complex.log
// CHECK:         arith.subf
// CHECK:         arith.subf
// CHECK:         complex.create
// CHECK:         arith.addf
// CHECK:         arith.addf
// CHECK:         complex.create
// CHECK:         math.exp
// CHECK:         math.atan2
// CHECK:         return
func.func @complex_arithmetic_on_parts(%x: tensor<3xcomplex<f32>>, %y: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %a = strata.subtract %x, %y : tensor<3xcomplex<f32>>
  %b = strata.add %a, %y : tensor<3xcomplex<f32>>
  %c = strata.exponential %b : tensor<3xcomplex<f32>>
  %d = strata.log %c : tensor<3xcomplex<f32>>
  return %d : tensor<3xcomplex<f32>>
}
