// --strata-expand-rng-bit-generator: THREE_FRY as strata.threefry2x32 of counters, PHILOX and
// DEFAULT as Philox-4x32-10 in elementwise integer ops (ten rounds of two 64-bit products), the
// state bitcast to signless words and back; no rng_bit_generator is left. The bits themselves
// are checked against JAX in tests/strata-run/rng_bit_generator.mlir.
// RUN: strata-opt %s --strata-expand-rng-bit-generator | FileCheck %s

// CHECK-LABEL: func.func @three_fry
// CHECK:       strata.bitcast_convert %arg0 : (tensor<2xui64>) -> tensor<2xi64>
// CHECK:       strata.iota
// CHECK:       strata.threefry2x32
// CHECK:       strata.concatenate
// CHECK:       strata.bitcast_convert %{{.*}} : (tensor<2xi64>) -> tensor<2xui64>
// CHECK-NOT:   strata.rng_bit_generator
func.func @three_fry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>) {
  %state, %bits = strata.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2xui32>)
  return %state, %bits : tensor<2xui64>, tensor<3x2xui32>
}

// CHECK-LABEL: func.func @philox
// CHECK:       strata.compare LT, {{.*}}, UNSIGNED
// CHECK-COUNT-20: strata.multiply %{{.*}}, %{{.*}} : tensor<2xi64>
// CHECK:       strata.concatenate {{.*}} dim = 1 : (tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
// CHECK:       strata.slice {{.*}} -> tensor<5xi32>
// CHECK:       strata.convert {{.*}} -> tensor<5xi16>
// CHECK:       strata.bitcast_convert {{.*}} : (tensor<5xi16>) -> tensor<5xui16>
// CHECK-NOT:   strata.rng_bit_generator
func.func @philox(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui16>) {
  %state, %bits = strata.rng_bit_generator %s, algorithm = DEFAULT : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui16>)
  return %state, %bits : tensor<3xui64>, tensor<5xui16>
}
