// strata.host_callback parses, verifies and prints back; a pure one (no has_side_effect) is
// removed when unused and merged with an identical call, one with a side effect never is.
// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --verify-roundtrip > /dev/null
// RUN: strata-opt %s --split-input-file --canonicalize --cse | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: func.func @forms
// CHECK: strata.host_callback "pure_callback"(%{{.*}}) callback = 3 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: strata.host_callback "io"(%{{.*}}, %{{.*}}) callback = 4 {has_side_effect} : (tensor<4xf32>, tensor<i1>) -> (tensor<2xi64>, tensor<complex<f32>>)
// CHECK: strata.host_callback "debug.print"() callback = 5 {has_side_effect} : () -> ()
func.func @forms(%x: tensor<4xf32>, %p: tensor<i1>) -> tensor<4xf32> {
  %0 = strata.host_callback "pure_callback" (%x) callback = 3 : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = strata.host_callback "io" (%0, %p) callback = 4 {has_side_effect} : (tensor<4xf32>, tensor<i1>) -> (tensor<2xi64>, tensor<complex<f32>>)
  strata.host_callback "debug.print" () callback = 5 {has_side_effect} : () -> ()
  return %0 : tensor<4xf32>
}

// -----

// CANON-LABEL: func.func @effects
// CANON-NOT:   callback = 1 :
// CANON:       %[[A:.*]] = strata.host_callback "pure"(%{{.*}}) callback = 2 :
// CANON-NOT:   callback = 2 :
// CANON:       strata.host_callback "io"(%{{.*}}) callback = 3 {has_side_effect}
// CANON:       strata.host_callback "io"(%{{.*}}) callback = 3 {has_side_effect}
// CANON:       strata.add %[[A]], %[[A]]
func.func @effects(%x: tensor<4xf32>) -> tensor<4xf32> {
  %unused = strata.host_callback "pure" (%x) callback = 1 : (tensor<4xf32>) -> tensor<4xf32>
  %a = strata.host_callback "pure" (%x) callback = 2 : (tensor<4xf32>) -> tensor<4xf32>
  %b = strata.host_callback "pure" (%x) callback = 2 : (tensor<4xf32>) -> tensor<4xf32>
  %c = strata.host_callback "io" (%x) callback = 3 {has_side_effect} : (tensor<4xf32>) -> tensor<4xf32>
  %d = strata.host_callback "io" (%x) callback = 3 {has_side_effect} : (tensor<4xf32>) -> tensor<4xf32>
  %s = strata.add %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}
