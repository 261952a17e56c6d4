// strata.linalg (issue 14) parses, verifies and prints back.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @family
// CHECK: strata.linalg "cholesky"(%{{.*}}) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
// CHECK: strata.linalg "triangular_solve"(%{{.*}}, %{{.*}}) flags = 3 : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
// CHECK: strata.linalg "lu"(%{{.*}}) flags = 0 : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3xi32>, tensor<5xi32>)
// CHECK: strata.linalg "qr"(%{{.*}}) flags = 1 : (tensor<5x3xf64>) -> (tensor<5x5xf64>, tensor<5x3xf64>)
// CHECK: strata.linalg "eigh"(%{{.*}}) flags = 0 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3xf32>)
// CHECK: strata.linalg "svd"(%{{.*}}) flags = 2 : (tensor<5x3xf64>) -> (tensor<3xf64>, tensor<5x3xf64>, tensor<3x3xf64>)
// CHECK: strata.linalg "svd"(%{{.*}}) flags = 0 : (tensor<5x3xf64>) -> tensor<3xf64>
// CHECK: strata.linalg "eig"(%{{.*}}) flags = 3 : (tensor<4x3x3xf32>) -> (tensor<4x3xcomplex<f32>>, tensor<4x3x3xcomplex<f32>>, tensor<4x3x3xcomplex<f32>>)
// CHECK: strata.linalg "eig"(%{{.*}}) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3xcomplex<f32>>
// CHECK: strata.linalg "schur"(%{{.*}}) flags = 1 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3x3xf32>)
// CHECK: strata.linalg "schur"(%{{.*}}) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
// CHECK: strata.linalg "hessenberg"(%{{.*}}) flags = 0 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3x3xf32>)
// CHECK-LABEL: func.func @complex
// CHECK: strata.linalg "cholesky"(%{{.*}}) flags = 0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
// CHECK: strata.linalg "triangular_solve"(%{{.*}}, %{{.*}}) flags = 23 : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
// CHECK: strata.linalg "eigh"(%{{.*}}) flags = 0 : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>)
// CHECK: strata.linalg "svd"(%{{.*}}) flags = 2 : (tensor<3x3xcomplex<f64>>) -> (tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
// CHECK: strata.linalg "eig"(%{{.*}}) flags = 2 : (tensor<3x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
// CHECK: strata.linalg "schur"(%{{.*}}) flags = 1 : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
func.func @family(%a: tensor<4x3x3xf32>, %b: tensor<4x3x2xf32>, %c: tensor<5x3xf64>) {
  %0 = strata.linalg "cholesky"(%a) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %1 = strata.linalg "triangular_solve"(%a, %b) flags = 3 : (tensor<4x3x3xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
  %2:3 = strata.linalg "lu"(%c) flags = 0 : (tensor<5x3xf64>) -> (tensor<5x3xf64>, tensor<3xi32>, tensor<5xi32>)
  %3:2 = strata.linalg "qr"(%c) flags = 1 : (tensor<5x3xf64>) -> (tensor<5x5xf64>, tensor<5x3xf64>)
  %4:2 = strata.linalg "eigh"(%a) flags = 0 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3xf32>)
  %5:3 = strata.linalg "svd"(%c) flags = 2 : (tensor<5x3xf64>) -> (tensor<3xf64>, tensor<5x3xf64>, tensor<3x3xf64>)
  %6 = strata.linalg "svd"(%c) flags = 0 : (tensor<5x3xf64>) -> tensor<3xf64>
  %7:3 = strata.linalg "eig"(%a) flags = 3 : (tensor<4x3x3xf32>) -> (tensor<4x3xcomplex<f32>>, tensor<4x3x3xcomplex<f32>>, tensor<4x3x3xcomplex<f32>>)
  %8 = strata.linalg "eig"(%a) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3xcomplex<f32>>
  %9:2 = strata.linalg "schur"(%a) flags = 1 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3x3xf32>)
  %10 = strata.linalg "schur"(%a) flags = 0 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %11:2 = strata.linalg "hessenberg"(%a) flags = 0 : (tensor<4x3x3xf32>) -> (tensor<4x3x3xf32>, tensor<4x3x3xf32>)
  return
}

// Complex matrices: eigh's eigenvalues and svd's singular values real; triangular_solve with
// left_side, lower, transpose_a and conjugate_a (16).
func.func @complex(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>) {
  %0 = strata.linalg "cholesky"(%a) flags = 0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
  %1 = strata.linalg "triangular_solve"(%a, %b) flags = 23 : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  %2:2 = strata.linalg "eigh"(%a) flags = 0 : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3xf64>)
  %3:3 = strata.linalg "svd"(%a) flags = 2 : (tensor<3x3xcomplex<f64>>) -> (tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
  %4:2 = strata.linalg "eig"(%a) flags = 2 : (tensor<3x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
  %5:2 = strata.linalg "schur"(%a) flags = 1 : (tensor<3x3xcomplex<f64>>) -> (tensor<3x3xcomplex<f64>>, tensor<3x3xcomplex<f64>>)
  return
}
