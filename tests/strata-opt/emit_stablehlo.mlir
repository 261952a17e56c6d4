// --emit=stablehlo: the program after cse as StableHLO (generic form), read back as strata.
// RUN: strata-opt %s --emit=stablehlo | FileCheck %s
// RUN: strata-opt %s --emit=stablehlo | strata-opt --emit=strata | FileCheck %s --check-prefix=BACK

// CHECK: "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>), sym_name = "main"}>
// CHECK: "stablehlo.compare"(%{{.*}}, %{{.*}}) {compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}
// CHECK: "stablehlo.select"
// CHECK: %[[SQ:.*]] = "stablehlo.multiply"(%[[X:.*]], %[[X]])
// CHECK: "stablehlo.multiply"(%[[X]], %[[SQ]])
// CHECK: "chlo.erf"
// CHECK: "stablehlo.dot_general"({{.*}}) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}
// CHECK: "stablehlo.round_nearest_even"
// CHECK-NOT: strata.
// BACK: strata.compare LT, %{{.*}}, %{{.*}}, FLOAT
// BACK: strata.erf
// BACK: strata.dot_general %{{.*}}, %{{.*}}, contracting_dims = [0] x [0]
// BACK: strata.round TO_NEAREST_EVEN
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>
  %2 = strata.integer_pow %1, 3 : tensor<4xf32>
  %3 = chlo.erf %2 : tensor<4xf32> -> tensor<4xf32>
  %4 = stablehlo.dot_general %3, %b, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %5 = stablehlo.round_nearest_even %3 : tensor<4xf32>
  return %5, %4 : tensor<4xf32>, tensor<f32>
}
