// One expected-error for each kind of verifier message of strata.linalg (issue 14).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @kind(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects kind cholesky, triangular_solve, lu, qr, eigh, svd, eig, schur or hessenberg, but got "qz"}}
  %0 = strata.linalg "qz"(%a) flags = 0 : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @square(%a: tensor<3x4xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects an operand of square matrices [..., n, n], but got [3,4]}}
  %0 = strata.linalg "cholesky"(%a) flags = 0 : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rank(%a: tensor<3xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects an operand of rank >= 2 (a batch of matrices), but got [3]}}
  %0:3 = strata.linalg "lu"(%a) flags = 0 : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<3xi32>)
  return
}

// -----

func.func @dtype(%a: tensor<3x3xi32>) {
  // expected-error @+1 {{'strata.linalg' op expects f32, f64 or complex of them as operands}}
  %0 = strata.linalg "cholesky"(%a) flags = 0 : (tensor<3x3xi32>) -> tensor<3x3xi32>
  return
}

// -----

func.func @rhs(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects b's rows to match a's size, but got [3,3] and [2,3]}}
  %0 = strata.linalg "triangular_solve"(%a, %b) flags = 1 : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @result(%a: tensor<5x3xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects result #0 of type 'tensor<5x3xf32>', but got 'tensor<5x5xf32>'}}
  %0:2 = strata.linalg "qr"(%a) flags = 0 : (tensor<5x3xf32>) -> (tensor<5x5xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @count(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'strata.linalg' op expects 2 results, but got 1}}
  %0 = strata.linalg "eigh"(%a) flags = 0 : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @eig_real_result(%a: tensor<3x3xf64>) {
  // expected-error @+1 {{'strata.linalg' op expects result #0 of type 'tensor<3xcomplex<f64>>', but got 'tensor<3xf64>'}}
  %0 = strata.linalg "eig"(%a) flags = 0 : (tensor<3x3xf64>) -> tensor<3xf64>
  return
}

// -----

func.func @eig_not_square(%a: tensor<3x2xf64>) {
  // expected-error @+1 {{'strata.linalg' op expects an operand of square matrices [..., n, n], but got [3,2]}}
  %0 = strata.linalg "eig"(%a) flags = 0 : (tensor<3x2xf64>) -> tensor<3xcomplex<f64>>
  return
}

// -----

func.func @eigh_complex_eigenvalues(%a: tensor<3x3xcomplex<f32>>) {
  // expected-error @+1 {{'strata.linalg' op expects result #1 of type 'tensor<3xf32>', but got 'tensor<3xcomplex<f32>>'}}
  %0:2 = strata.linalg "eigh"(%a) flags = 0 : (tensor<3x3xcomplex<f32>>) -> (tensor<3x3xcomplex<f32>>, tensor<3xcomplex<f32>>)
  return
}
