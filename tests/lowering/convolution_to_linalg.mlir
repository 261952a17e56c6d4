// --strata-to-linalg on strata.convolution (lowering/ConvolutionToLinalg.cpp): im2col as one
// linalg.generic, then the batch_matmul that dot_general lowers to.
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// NHWC/HWIO/NHWC, ungrouped: padding (fill + strided insert), patches [1, N, H, W, KH, KW, C],
// the kernel and the result as views.
// CHECK-LABEL: func.func @main
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [2, 8, 8, 3] [1, 1, 1, 1] : tensor<2x8x8x3xf32> into tensor<2x10x10x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x10x10x3xf32>) outs(%{{.*}} : tensor<1x2x8x8x3x3x3xf32>)
// CHECK-NOT: linalg.generic
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x128x27xf32>, tensor<1x27x16xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @main(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<2x8x8x16xf32> {
  %0 = strata.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
      : (tensor<2x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x8x8x16xf32>
  return %0 : tensor<2x8x8x16xf32>
}

// -----

// NCHW, two feature groups, strided and dilated: the patch reads are affine (group g reads
// features g*2 + c), the kernel and the result are rearranged by copies.
// CHECK-LABEL: func.func @main
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[PATCH:.*]], #{{.*}}]
// CHECK-SAME: outs(%{{.*}} : tensor<2x1x2x3x2x2x2xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x2x2x3xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x6x8xf32>, tensor<2x8x3xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x3x2x3xf32>)
func.func @main(%x: tensor<1x4x5x7xf32>, %w: tensor<6x2x2x2xf32>) -> tensor<1x6x2x3xf32> {
  %0 = strata.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
      window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 1]}
      {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
      : (tensor<1x4x5x7xf32>, tensor<6x2x2x2xf32>) -> tensor<1x6x2x3xf32>
  return %0 : tensor<1x6x2x3xf32>
}

// -----

// reverse reads index size-1-i along the reversed dimensions.
// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (-d0 + 2, d1)>
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #{{.*}}]
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = strata.reverse %x, dims = [0] : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
