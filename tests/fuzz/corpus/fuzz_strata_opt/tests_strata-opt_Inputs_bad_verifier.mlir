func.func @main(%b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = strata.broadcast_in_dim %b, dims = [0] : (tensor<16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
