// One expected-error for each kind of message the convolution and reverse verifiers emit.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @features(%x: tensor<1x4x5x5xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'strata.convolution' op expects rhs input features times the feature group count 1 to equal lhs features, but got [1,4,5,5] and [8,3,3,3]}}
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
      window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x4x5x5xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x3x3xf32>
  return
}

// -----

func.func @result_type(%x: tensor<1x3x5x5xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{'strata.convolution' op inferred type(s) 'tensor<1x8x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x8x5x5xf32>'}}
  // expected-error @+1 {{'strata.convolution' op failed to infer returned types}}
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
      window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x3x5x5xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @strides(%x: tensor<1x3x5xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{'strata.convolution' op expects positive window strides, but got [0]}}
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
      window = {stride = [0], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x3x5xf32>, tensor<8x3x3xf32>) -> tensor<1x8x3xf32>
  return
}

// -----

func.func @both_groups(%x: tensor<2x4x5xf32>, %w: tensor<8x2x3xf32>) {
  // expected-error @+1 {{'strata.convolution' op expects a feature or a batch group count of 1, but got 2 and 2}}
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0],
      window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]}
      {batch_group_count = 2 : i64, feature_group_count = 2 : i64}
      : (tensor<2x4x5xf32>, tensor<8x2x3xf32>) -> tensor<1x8x3xf32>
  return
}

// -----

func.func @layout(%x: tensor<1x3x5xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{expected each of 'b', 'f' and the spatial numbers 0..0 once}}
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, f]x[o, i, 0]->[b, f, 0],
      window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<1x3x5xf32>, tensor<8x3x3xf32>) -> tensor<1x8x3xf32>
  return
}

// -----

func.func @reverse_dims(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'strata.reverse' op expects distinct dimensions, but got [1, 1]}}
  %0 = strata.reverse %x, dims = [1, 1] : tensor<3x4xf32>
  return
}

// -----

func.func @reversed_window(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
  // expected-error @+1 {{strata's convolution does not reverse its window}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}
