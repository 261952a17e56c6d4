// --strata-to-linalg for strata.sort (issue 13): copies of the inputs sorted in place by the
// runtime; a lexicographic comparator becomes flags of strata_rt_sort, any other a compiled
// function strata_rt_sort_cmp calls.
// RUN: strata-opt --strata-to-linalg --split-input-file %s | FileCheck %s

// jax.lax.sort's comparator with two keys (-0.0/nan canonicalised, total order): codes are
// bytes | kind << 8 (f32: 4 | 2 << 8 = 516, i32: 4 | 1 << 8 = 260); flags = 2 keys << 8 |
// canonical (2) | stable (4) = 518.
// CHECK-LABEL: func.func @jax_keys
// CHECK-COUNT-2: bufferization.alloc_tensor() copy(
// CHECK: memref.alloca() : memref<2xindex>
// CHECK: arith.constant 516 : i64
// CHECK: arith.constant 260 : i64
// CHECK: %[[FLAGS:.*]] = arith.constant 518 : i64
// CHECK: call @strata_rt_sort(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]])
// CHECK-COUNT-2: bufferization.to_tensor %{{.*}} restrict writable
func.func @jax_keys(%x: tensor<3x8xf32>, %i: tensor<3x8xi32>) -> (tensor<3x8xf32>, tensor<3x8xi32>) {
  %0:2 = strata.sort %x, %i {dimension = 1 : i64, is_stable = true} : (tensor<3x8xf32>, tensor<3x8xi32>) -> (tensor<3x8xf32>, tensor<3x8xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %zero = strata.constant dense<0.0> : tensor<f32>
    %nan = strata.constant dense<0x7FC00000> : tensor<f32>
    %az = strata.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %a1 = strata.select %az, %zero, %a : tensor<i1>, tensor<f32>
    %an = strata.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %a2 = strata.select %an, %nan, %a1 : tensor<i1>, tensor<f32>
    %bz = strata.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b1 = strata.select %bz, %zero, %b : tensor<i1>, tensor<f32>
    %bn = strata.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b2 = strata.select %bn, %nan, %b1 : tensor<i1>, tensor<f32>
    %lt0 = strata.compare LT, %a2, %b2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq0 = strata.compare EQ, %a2, %b2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt1 = strata.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %and = strata.and %eq0, %lt1 : tensor<i1>
    %or = strata.or %lt0, %and : tensor<i1>
    strata.return %or : tensor<i1>
  }
  return %0#0, %0#1 : tensor<3x8xf32>, tensor<3x8xi32>
}

// -----

// Descending on an unsigned comparison: kind 0 (unsigned), flags = 1 key << 8 | descending.
// CHECK-LABEL: func.func @descending_unsigned
// CHECK: arith.constant 4 : i64
// CHECK: %[[FLAGS:.*]] = arith.constant 257 : i64
// CHECK: call @strata_rt_sort(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]])
func.func @descending_unsigned(%x: tensor<6xi32>) -> tensor<6xi32> {
  %0 = strata.sort %x {dimension = 0 : i64} : (tensor<6xi32>) -> tensor<6xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = strata.compare GT, %a, %b, UNSIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return %0 : tensor<6xi32>
}

// -----

// Any other comparator (here: by absolute value, IEEE order) is compiled into a function of
// the element pointers that the runtime's merge sort calls.
// CHECK-LABEL: func.func @by_magnitude
// CHECK: %[[LESS:.*]] = constant @by_magnitude_sort_less_0
// CHECK: call @strata_rt_sort_cmp(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LESS]])
// CHECK-LABEL: func.func private @by_magnitude_sort_less_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i8
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: math.absf
// CHECK: arith.cmpf olt
// CHECK: arith.extui
func.func @by_magnitude(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = strata.sort %x {dimension = 0 : i64, is_stable = true} : (tensor<6xf32>) -> tensor<6xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %aa = strata.abs %a : tensor<f32>
    %bb = strata.abs %b : tensor<f32>
    %p = strata.compare LT, %aa, %bb : (tensor<f32>, tensor<f32>) -> tensor<i1>
    strata.return %p : tensor<i1>
  }
  return %0 : tensor<6xf32>
}
