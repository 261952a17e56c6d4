// Every strata op parses, verifies and prints back as written; the generic form and a second
// round trip agree.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s
// RUN: strata-opt %s --verify-roundtrip > /dev/null

// CHECK-LABEL: func.func @constant_and_iota
func.func @constant_and_iota() -> (tensor<2x2xf32>, tensor<i1>, tensor<2x3xi32>, tensor<4xbf16>) {
  // CHECK: strata.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = strata.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: strata.constant dense<true> : tensor<i1>
  %1 = strata.constant dense<true> : tensor<i1>
  // CHECK: strata.iota dim = 1 : tensor<2x3xi32>
  %2 = strata.iota dim = 1 : tensor<2x3xi32>
  // CHECK: strata.constant dense<5.000000e-01> : tensor<4xbf16>
  %3 = strata.constant dense<0.5> : tensor<4xbf16>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<i1>, tensor<2x3xi32>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> tensor<4xf32> {
  // CHECK: strata.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = strata.add %a, %b : tensor<4xf32>
  // CHECK: strata.subtract %{{.*}}, %{{.*}} : tensor<4xf32>
  %1 = strata.subtract %0, %b : tensor<4xf32>
  // CHECK: strata.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
  %2 = strata.multiply %1, %b : tensor<4xf32>
  // CHECK: strata.divide %{{.*}}, %{{.*}} : tensor<4xf32>
  %3 = strata.divide %2, %b : tensor<4xf32>
  // CHECK: strata.remainder %{{.*}}, %{{.*}} : tensor<4xf32>
  %4 = strata.remainder %3, %b : tensor<4xf32>
  // CHECK: strata.maximum %{{.*}}, %{{.*}} : tensor<4xf32>
  %5 = strata.maximum %4, %b : tensor<4xf32>
  // CHECK: strata.minimum %{{.*}}, %{{.*}} : tensor<4xf32>
  %6 = strata.minimum %5, %b : tensor<4xf32>
  // CHECK: strata.power %{{.*}}, %{{.*}} : tensor<4xf32>
  %7 = strata.power %6, %b : tensor<4xf32>
  // CHECK: strata.and %{{.*}}, %{{.*}} : tensor<4xi1>
  %8 = strata.and %p, %p : tensor<4xi1>
  // CHECK: strata.or %{{.*}}, %{{.*}} : tensor<4xi32>
  %9 = strata.or %i, %i : tensor<4xi32>
  // CHECK: strata.shift_right_logical %{{.*}}, %{{.*}} : tensor<4xi32>
  %10 = strata.shift_right_logical %9, %i : tensor<4xi32>
  // CHECK: strata.shift_left %{{.*}}, %{{.*}} : tensor<4xi32>
  %shl = strata.shift_left %10, %i : tensor<4xi32>
  // CHECK: strata.shift_right_arithmetic %{{.*}}, %{{.*}} : tensor<4xi32>
  %sra = strata.shift_right_arithmetic %shl, %i : tensor<4xi32>
  // CHECK: strata.xor %{{.*}}, %{{.*}} : tensor<4xi32>
  %xor = strata.xor %sra, %i : tensor<4xi32>
  // CHECK: strata.population_count %{{.*}} : tensor<4xi32>
  %popcnt = strata.population_count %xor : tensor<4xi32>
  // CHECK: strata.clz %{{.*}} : tensor<4xi32>
  %clz = strata.clz %popcnt : tensor<4xi32>
  // CHECK: strata.not %{{.*}} : tensor<4xi1>
  %11 = strata.not %8 : tensor<4xi1>
  return %7 : tensor<4xf32>
}

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf32>, %i: tensor<3xi64>) -> tensor<2x3xf32> {
  // CHECK: strata.negate %{{.*}} : tensor<2x3xf32>
  %0 = strata.negate %x : tensor<2x3xf32>
  // CHECK: strata.exponential %{{.*}} : tensor<2x3xf32>
  %1 = strata.exponential %0 : tensor<2x3xf32>
  // CHECK: strata.log %{{.*}} : tensor<2x3xf32>
  %2 = strata.log %1 : tensor<2x3xf32>
  // CHECK: strata.log_plus_one %{{.*}} : tensor<2x3xf32>
  %3 = strata.log_plus_one %2 : tensor<2x3xf32>
  // CHECK: strata.exponential_minus_one %{{.*}} : tensor<2x3xf32>
  %4 = strata.exponential_minus_one %3 : tensor<2x3xf32>
  // CHECK: strata.tanh %{{.*}} : tensor<2x3xf32>
  %5 = strata.tanh %4 : tensor<2x3xf32>
  // CHECK: strata.logistic %{{.*}} : tensor<2x3xf32>
  %6 = strata.logistic %5 : tensor<2x3xf32>
  // CHECK: strata.sine %{{.*}} : tensor<2x3xf32>
  %7 = strata.sine %6 : tensor<2x3xf32>
  // CHECK: strata.cosine %{{.*}} : tensor<2x3xf32>
  %8 = strata.cosine %7 : tensor<2x3xf32>
  // CHECK: strata.sqrt %{{.*}} : tensor<2x3xf32>
  %9 = strata.sqrt %8 : tensor<2x3xf32>
  // CHECK: strata.rsqrt %{{.*}} : tensor<2x3xf32>
  %10 = strata.rsqrt %9 : tensor<2x3xf32>
  // CHECK: strata.abs %{{.*}} : tensor<2x3xf32>
  %11 = strata.abs %10 : tensor<2x3xf32>
  // CHECK: strata.sign %{{.*}} : tensor<2x3xf32>
  %12 = strata.sign %11 : tensor<2x3xf32>
  // CHECK: strata.floor %{{.*}} : tensor<2x3xf32>
  %13 = strata.floor %12 : tensor<2x3xf32>
  // CHECK: strata.ceil %{{.*}} : tensor<2x3xf32>
  %14 = strata.ceil %13 : tensor<2x3xf32>
  // CHECK: strata.round AWAY_FROM_ZERO, %{{.*}} : tensor<2x3xf32>
  %round0 = strata.round AWAY_FROM_ZERO, %14 : tensor<2x3xf32>
  // CHECK: strata.round TO_NEAREST_EVEN, %{{.*}} : tensor<2x3xf32>
  %round1 = strata.round TO_NEAREST_EVEN, %round0 : tensor<2x3xf32>
  // CHECK: strata.is_finite %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %finite = strata.is_finite %round1 : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: strata.abs %{{.*}} : tensor<3xi64>
  %15 = strata.abs %i : tensor<3xi64>
  // CHECK: strata.erf %{{.*}} : tensor<2x3xf32>
  %16 = strata.erf %14 : tensor<2x3xf32>
  // CHECK: strata.erfc %{{.*}} : tensor<2x3xf32>
  %17 = strata.erfc %16 : tensor<2x3xf32>
  // CHECK: strata.tan %{{.*}} : tensor<2x3xf32>
  %18 = strata.tan %17 : tensor<2x3xf32>
  // CHECK: strata.asin %{{.*}} : tensor<2x3xf32>
  %19 = strata.asin %18 : tensor<2x3xf32>
  // CHECK: strata.acos %{{.*}} : tensor<2x3xf32>
  %20 = strata.acos %19 : tensor<2x3xf32>
  // CHECK: strata.atan %{{.*}} : tensor<2x3xf32>
  %21 = strata.atan %20 : tensor<2x3xf32>
  // CHECK: strata.sinh %{{.*}} : tensor<2x3xf32>
  %22 = strata.sinh %21 : tensor<2x3xf32>
  // CHECK: strata.cosh %{{.*}} : tensor<2x3xf32>
  %23 = strata.cosh %22 : tensor<2x3xf32>
  // CHECK: strata.asinh %{{.*}} : tensor<2x3xf32>
  %24 = strata.asinh %23 : tensor<2x3xf32>
  // CHECK: strata.acosh %{{.*}} : tensor<2x3xf32>
  %25 = strata.acosh %24 : tensor<2x3xf32>
  // CHECK: strata.atanh %{{.*}} : tensor<2x3xf32>
  %26 = strata.atanh %25 : tensor<2x3xf32>
  // CHECK: strata.cbrt %{{.*}} : tensor<2x3xf32>
  %27 = strata.cbrt %26 : tensor<2x3xf32>
  // CHECK: strata.exp2 %{{.*}} : tensor<2x3xf32>
  %28 = strata.exp2 %27 : tensor<2x3xf32>
  // CHECK: strata.erf_inv %{{.*}} : tensor<2x3xf32>
  %29 = strata.erf_inv %28 : tensor<2x3xf32>
  // CHECK: strata.atan2 %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %30 = strata.atan2 %29, %28 : tensor<2x3xf32>
  // CHECK: strata.integer_pow %{{.*}}, -3 : tensor<2x3xf32>
  %31 = strata.integer_pow %30, -3 : tensor<2x3xf32>
  return %31 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @integer_pow_on_integers
func.func @integer_pow_on_integers(%i: tensor<4xi64>) -> tensor<4xi64> {
  // CHECK: strata.integer_pow %{{.*}}, 5 : tensor<4xi64>
  %0 = strata.integer_pow %i, 5 : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @compare_select_convert
func.func @compare_select_convert(%a: tensor<4xf32>, %b: tensor<4xf32>, %k: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: strata.compare EQ, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = strata.compare EQ, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.compare NE,
  %1 = strata.compare NE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.compare LT,
  %2 = strata.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.compare LE,
  %3 = strata.compare LE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.compare GT,
  %4 = strata.compare GT, %k, %k : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK: strata.compare GE,
  %5 = strata.compare GE, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: strata.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %6 = strata.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>
  // CHECK: strata.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>
  %p = strata.constant dense<true> : tensor<4xi1>
  %7 = strata.select %p, %6, %b : tensor<4xi1>, tensor<4xf32>
  // CHECK: strata.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
  %8 = strata.convert %7 : (tensor<4xf32>) -> tensor<4xi32>
  // CHECK: strata.bitcast_convert %{{.*}} : (tensor<4xi32>) -> tensor<4xf32>
  %9 = strata.bitcast_convert %8 : (tensor<4xi32>) -> tensor<4xf32>
  return %9 : tensor<4xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%c: tensor<16xf32>, %x: tensor<2x3xf32>, %m: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<7x3xf32> {
  // CHECK: strata.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %0 = strata.broadcast_in_dim %c, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  // CHECK: strata.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = strata.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: strata.reshape %{{.*}} : (tensor<2x3xf32>) -> tensor<6xf32>
  %2 = strata.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: strata.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = strata.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: strata.slice %{{.*}} [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  %4 = strata.slice %m [1:3, 0:8:2] : (tensor<4x8xf32>) -> tensor<2x4xf32>
  // CHECK: strata.concatenate %{{.*}}, %{{.*}}, dim = 0 : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<7x3xf32>
  %y = strata.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
  %5 = strata.concatenate %x, %y, dim = 0 : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<7x3xf32>
  // CHECK: strata.pad %{{.*}}, %{{.*}}, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x7xf32>
  %6 = strata.pad %x, %s, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %5 : tensor<7x3xf32>
}

// CHECK-LABEL: func.func @dot_general
func.func @dot_general(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<2x4x8xf64>, %d: tensor<2x8x16xf64>) -> tensor<4x16xf32> {
  // CHECK: strata.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = strata.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: strata.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf64>, tensor<2x8x16xf64>) -> tensor<2x4x16xf64>
  %1 = strata.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf64>, tensor<2x8x16xf64>) -> tensor<2x4x16xf64>
  // CHECK: strata.dot_general %{{.*}}, %{{.*}}, contracting_dims = [] x [] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x8x8x16xf32>
  %2 = strata.dot_general %a, %b, contracting_dims = [] x [] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x8x8x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<4x16xf32>, %i: tensor<4x16xi32>) -> (tensor<4xf32>, tensor<16xi32>) {
  %zero = strata.constant dense<0.0> : tensor<f32>
  %izero = strata.constant dense<0> : tensor<i32>
  // CHECK: strata.reduce(%{{.*}} init: %{{.*}}) across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
  // CHECK-NEXT:   %[[S:.*]] = strata.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT:   strata.return %[[S]] : tensor<f32>
  // CHECK-NEXT: }
  %0 = strata.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
    %s = strata.add %acc, %e : tensor<f32>
    strata.return %s : tensor<f32>
  }
  // CHECK: strata.reduce(%{{.*}}, %{{.*}} init: %{{.*}}, %{{.*}}) across dimensions = [0] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
  %1:2 = strata.reduce(%x, %i init: %zero, %izero) across dimensions = [0] : (tensor<4x16xf32>, tensor<4x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %v = strata.maximum %av, %bv : tensor<f32>
    %j = strata.minimum %ai, %bi : tensor<i32>
    strata.return %v, %j : tensor<f32>, tensor<i32>
  }
  return %0, %1#1 : tensor<4xf32>, tensor<16xi32>
}

// CHECK-LABEL: func.func @fusion
func.func @fusion(%a: tensor<4x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // CHECK: strata.fusion(%{{.*}}, %{{.*}}) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> {
  // CHECK: strata.return %{{.*}} : tensor<4x16xf32>
  %0 = strata.fusion(%a, %b) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>):
    %s = strata.add %x, %y : tensor<4x16xf32>
    strata.return %s : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @threefry
func.func @threefry(%k0: tensor<i32>, %k1: tensor<i32>, %x0: tensor<8xi32>, %x1: tensor<8xi32>) -> tensor<8xi32> {
  // CHECK: %[[Y0:.*]], %[[Y1:.*]] = strata.threefry2x32 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xi32>
  // CHECK: return %[[Y1]]
  %y0, %y1 = strata.threefry2x32 %k0, %k1, %x0, %x1 : tensor<8xi32>
  return %y1 : tensor<8xi32>
}

// CHECK-LABEL: func.func @optimization_barrier
func.func @optimization_barrier(%x: tensor<3xf32>, %n: tensor<2xi32>) -> (tensor<3xf32>, tensor<2xi32>) {
  // CHECK: %[[B:.*]]:2 = strata.optimization_barrier %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<2xi32>
  // CHECK: return %[[B]]#0, %[[B]]#1
  %b:2 = strata.optimization_barrier %x, %n : tensor<3xf32>, tensor<2xi32>
  return %b#0, %b#1 : tensor<3xf32>, tensor<2xi32>
}
