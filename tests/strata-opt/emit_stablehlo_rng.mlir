// --emit=stablehlo of rng_bit_generator and reduce_precision: StableHLO's attributes, read back.
// RUN: strata-opt %s --emit=stablehlo | FileCheck %s
// RUN: strata-opt %s --emit=stablehlo | strata-opt --emit=strata | FileCheck %s --check-prefix=BACK

// CHECK: "stablehlo.rng_bit_generator"(%{{.*}}) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
// CHECK: "stablehlo.reduce_precision"(%{{.*}}) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: strata.
// BACK: strata.rng_bit_generator %{{.*}}, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
// BACK: strata.reduce_precision %{{.*}}, format = e5m10 : tensor<4xf32>
func.func @main(%s: tensor<2xui64>, %x: tensor<4xf32>) -> (tensor<2xui64>, tensor<3x2xui32>, tensor<4xf32>) {
  %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  return %state, %bits, %r : tensor<2xui64>, tensor<3x2xui32>, tensor<4xf32>
}
