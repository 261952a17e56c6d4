// strata.convolution and strata.reverse parse, verify and print back in StableHLO's syntax;
// the generic form and a second round trip agree; verifier errors.
// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file | strata-opt --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @nhwc
// CHECK: strata.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = {{\[\[}}1, 1], [0, -1]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x4x12x16xf32>
func.func @nhwc(%x: tensor<2x9x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<2x4x12x16xf32> {
  %0 = strata.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 1], pad = [[1, 1], [0, -1]], lhs_dilate = [1, 2], rhs_dilate = [2, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x9x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x4x12x16xf32>
  return %0 : tensor<2x4x12x16xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_1d
// CHECK: dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0]
// CHECK-SAME: feature_group_count = 2 : i64
func.func @grouped_1d(%x: tensor<1x4x9xbf16>, %w: tensor<6x2x3xbf16>) -> tensor<1x6x7xbf16> {
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
      window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
      : (tensor<1x4x9xbf16>, tensor<6x2x3xbf16>) -> tensor<1x6x7xbf16>
  return %0 : tensor<1x6x7xbf16>
}

// -----

// CHECK-LABEL: func.func @reverse
// CHECK: strata.reverse %{{.*}}, dims = [0, 1] : tensor<3x3x4x8xf32>
func.func @reverse(%x: tensor<3x3x4x8xf32>) -> tensor<3x3x4x8xf32> {
  %0 = strata.reverse %x, dims = [0, 1] : tensor<3x3x4x8xf32>
  return %0 : tensor<3x3x4x8xf32>
}

// -----

// StableHLO leaves out window fields at their defaults, in any subset; reverse = all false.
// CHECK-LABEL: func.func @window_defaults
// CHECK: window = {stride = [1, 1], pad = {{\[\[}}1, 1], [2, 2]], lhs_dilate = [2, 2], rhs_dilate = [1, 1]}
// CHECK: window = {stride = [1, 1], pad = {{\[\[}}0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
func.func @window_defaults(%x: tensor<1x16x16x2xf32>, %w: tensor<2x3x2x2xf32>) -> (tensor<1x32x33x2xf32>, tensor<1x15x14x2xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x32x33x2xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x15x14x2xf32>
  return %0, %1 : tensor<1x32x33x2xf32>, tensor<1x15x14x2xf32>
}
