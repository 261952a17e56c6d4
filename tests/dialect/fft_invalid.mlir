// One expected-error for each kind of verifier message of strata.fft.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @real_for_fft(%a: tensor<8xf32>) {
  // expected-error @+1 {{'strata.fft' op expects a complex operand for FFT, but got 'tensor<8xf32>'}}
  %0 = strata.fft %a, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @complex_for_rfft(%a: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'strata.fft' op expects a real operand for RFFT, but got 'tensor<8xcomplex<f32>>'}}
  %0 = strata.fft %a, type = RFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  return
}

// -----

func.func @integers(%a: tensor<8xi32>) {
  // expected-error @+1 {{'strata.fft' op expects f32, f64 or complex of them, but got 'tensor<8xi32>'}}
  %0 = strata.fft %a, type = RFFT, length = [8] : (tensor<8xi32>) -> tensor<5xcomplex<f32>>
  return
}

// -----

func.func @lengths(%a: tensor<2x2x2x2xcomplex<f32>>) {
  // expected-error @+1 {{'strata.fft' op expects 1 to 3 fft_lengths, but got (2, 2, 2, 2)}}
  %0 = strata.fft %a, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  return
}

// -----

func.func @dims(%a: tensor<3x8xcomplex<f32>>) {
  // expected-error @+1 {{'strata.fft' op expects the operand's last 1 dimensions (the last one n/2+1 for IRFFT) to be (5,) for fft_lengths (8,), but got [3,8]}}
  %0 = strata.fft %a, type = IRFFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xf32>
  return
}

// -----

func.func @rank(%a: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{'strata.fft' op expects an operand of rank >= 2 (the transformed dimensions last), but got [8]}}
  %0 = strata.fft %a, type = FFT, length = [2, 4] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @result(%a: tensor<8xf64>) {
  // expected-error @+1 {{'strata.fft' op expects a result of type 'tensor<5xcomplex<f64>>', but got 'tensor<5xcomplex<f32>>'}}
  %0 = strata.fft %a, type = RFFT, length = [8] : (tensor<8xf64>) -> tensor<5xcomplex<f32>>
  return
}

