// Complex strata.linalg exported to StableHLO: triangular_solve with transpose_a and
// conjugate_a is ADJOINT (without conjugate_a, TRANSPOSE); conjugate_a alone has no StableHLO
// form and is refused; cholesky's zero mask is a complex constant. The export reads back.
// RUN: strata-opt %s --split-input-file --emit=stablehlo --verify-diagnostics | FileCheck %s
// RUN: strata-opt %s --split-input-file --emit=stablehlo --verify-diagnostics | strata-opt --split-input-file --emit=strata | FileCheck %s --check-prefix=BACK

// CHECK-LABEL: sym_name = "adjoint"
// CHECK: "stablehlo.triangular_solve"{{.*}}transpose_a = #stablehlo<transpose ADJOINT>
// CHECK: "stablehlo.triangular_solve"{{.*}}transpose_a = #stablehlo<transpose TRANSPOSE>
// CHECK: "stablehlo.cholesky"
// CHECK: "stablehlo.constant"() {value = dense<(0.000000e+00,0.000000e+00)> : tensor<3x3xcomplex<f64>>}
// BACK-LABEL: func.func @adjoint
// BACK: strata.linalg "triangular_solve"(%{{.*}}, %{{.*}}) flags = 23
// BACK: strata.linalg "triangular_solve"(%{{.*}}, %{{.*}}) flags = 7
// BACK: strata.linalg "cholesky"
func.func @adjoint(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>) -> (tensor<3x2xcomplex<f64>>, tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>) {
  %0 = strata.linalg "triangular_solve"(%a, %b) flags = 23 : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  %1 = strata.linalg "triangular_solve"(%a, %b) flags = 7 : (tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  %2 = strata.linalg "cholesky"(%a) flags = 0 : (tensor<3x3xcomplex<f64>>) -> tensor<3x3xcomplex<f64>>
  return %0, %1, %2 : tensor<3x2xcomplex<f64>>, tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>
}

// -----

func.func @conjugate_only(%a: tensor<3x3xcomplex<f32>>, %b: tensor<3x2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>> {
  // expected-error @+1 {{StableHLO's triangular_solve has no conjugate_a without transpose_a (flags = 19)}}
  %0 = strata.linalg "triangular_solve"(%a, %b) flags = 19 : (tensor<3x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  return %0 : tensor<3x2xcomplex<f32>>
}
