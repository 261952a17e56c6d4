// The sorting group's ops (issue 13) parse, verify and print back as written.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @clamp
func.func @clamp(%lo: tensor<4xf32>, %x: tensor<4xf32>, %hi: tensor<4xf32>, %b: tensor<3xi1>) -> (tensor<4xf32>, tensor<3xi1>) {
  // CHECK: strata.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = strata.clamp %lo, %x, %hi : tensor<4xf32>
  // CHECK: strata.clamp %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xi1>
  %1 = strata.clamp %b, %b, %b : tensor<3xi1>
  return %0, %1 : tensor<4xf32>, tensor<3xi1>
}

// CHECK-LABEL: func.func @cumulative
func.func @cumulative(%x: tensor<2x5xf32>, %i: tensor<7xi64>) -> (tensor<2x5xf32>, tensor<7xi64>) {
  // CHECK: strata.cumulative %{{.*}} kind = "logsumexp", dim = 1 reverse : tensor<2x5xf32>
  %0 = strata.cumulative %x kind = "logsumexp", dim = 1 reverse : tensor<2x5xf32>
  // CHECK: strata.cumulative %{{.*}} kind = "sum", dim = 0 : tensor<7xi64>
  %1 = strata.cumulative %i kind = "sum", dim = 0 : tensor<7xi64>
  return %0, %1 : tensor<2x5xf32>, tensor<7xi64>
}
