// StableHLO forms the import rewrites (rewriteImportedForms, batchIndexColumns) refuse at
// their line when they do not fit.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --emit=strata

func.func @bitcast_width_shape(%a: tensor<3xf32>) -> tensor<3x2xi8> {
  // expected-error @+1 {{'strata.bitcast_convert' op between element widths 32 and 8 expects the narrow side's shape to be the wide side's with a last dimension of 4, but got 'tensor<3xf32>' and 'tensor<3x2xi8>'}}
  %0 = stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3x2xi8>
  func.return %0 : tensor<3x2xi8>
}

// -----

func.func @gather_batching_on_index_vector(%t: tensor<2x5xf32>, %i: tensor<2x2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{expects index batching dimensions of the start indices other than index_vector_dim}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xf32>, tensor<2x2xi32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @rng_philox(%s: tensor<4xui64>) -> tensor<4xui32> {
  // expected-error @+1 {{'strata.rng_bit_generator' op expects a PHILOX state of two or three 64-bit integers (tensor<2xui64> or tensor<3xui64>), but got 'tensor<4xui64>'}}
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  func.return %bits : tensor<4xui32>
}

// -----

func.func @rng_state(%s: tensor<3xui64>) -> tensor<4xui32> {
  // expected-error @+1 {{'strata.rng_bit_generator' op expects a THREE_FRY state of two 64-bit integers (tensor<2xui64>), but got 'tensor<3xui64>'}}
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %bits : tensor<4xui32>
}

// -----

func.func @precision_format(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects a format as e<exponent bits>m<mantissa bits> (e5m10), but got 'f16'}}
  %0 = stablehlo.reduce_precision %x, format = f16 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @fft_type(%a: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{expects fft_type as #stablehlo<fft_type FFT> (FFT, IFFT, RFFT or IRFFT)}}
  %0 = "stablehlo.fft"(%a) {fft_type = #stablehlo<fft_type DCT>, fft_length = array<i64: 8>} : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return
}
