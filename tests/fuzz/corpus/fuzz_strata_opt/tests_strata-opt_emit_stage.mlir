// --emit=STAGE prints that stage alone, without a header, as MLIR that parses again.
// RUN: strata-opt --emit=canonicalized %s | FileCheck %s
// RUN: strata-opt --emit=canonicalized %s | strata-opt --emit=strata | FileCheck %s
// RUN: strata-opt --emit=jaxpr %S/Inputs/seed.jaxpr | FileCheck %s --check-prefix=JAXPR
// RUN: strata-opt --emit=jaxpr %S/Inputs/seed.jaxpr | strata-opt --emit=jaxpr | FileCheck %s --check-prefix=JAXPR

// CHECK-NOT: =====
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[C:.*]] = strata.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]

// JAXPR-NOT: =====
// JAXPR: { lambda ; a:f32[4,8] b:f32[8,16] c:f32[16]. let
// JAXPR-NOT: module
func.func @main() -> tensor<4xf32> {
  %one = strata.constant dense<1.0> : tensor<4xf32>
  %two = strata.constant dense<2.0> : tensor<4xf32>
  %0 = strata.add %one, %two : tensor<4xf32>
  return %0 : tensor<4xf32>
}
