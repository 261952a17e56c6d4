// Programs for tools/check_stablehlo_export.py (ctest stablehlo.export), which exports each
// public function with strata-opt --emit=stablehlo, reads it with StableHLO's parser and runs it
// with XLA against strata-run on random inputs: every flag combination of triangular_solve
// (left_side 1, lower 2, transpose_a 4, unit_diagonal 8), cholesky, and each cumulative kind
// both ways. Also a lit test: the export keeps each op's StableHLO form.
// RUN: strata-opt %s --emit=stablehlo | FileCheck %s
// CHECK-COUNT-16: "stablehlo.triangular_solve"
// CHECK: "stablehlo.cholesky"
// CHECK-COUNT-10: "stablehlo.reduce_window"

func.func @triangular_solve_0(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 0 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_1(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 1 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_2(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 2 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_3(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 3 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_4(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 4 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_5(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 5 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_6(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 6 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_7(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 7 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_8(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 8 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_9(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 9 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_10(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 10 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_11(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 11 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_12(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 12 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_13(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 13 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @triangular_solve_14(%a: tensor<2x4x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 14 : (tensor<2x4x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}

func.func @triangular_solve_15(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  // Well conditioned: the diagonal kept away from zero.
  %eye = strata.iota dim = 1 : tensor<2x4x4xi32>
  %col = strata.iota dim = 2 : tensor<2x4x4xi32>
  %d = strata.compare EQ, %eye, %col : (tensor<2x4x4xi32>, tensor<2x4x4xi32>) -> tensor<2x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<2x4x4xf32>
  %shifted = strata.add %a, %four : tensor<2x4x4xf32>
  %a2 = strata.select %d, %shifted, %a : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  %x = strata.linalg "triangular_solve" (%a2, %b) flags = 15 : (tensor<2x4x4xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %x : tensor<2x4x3xf32>
}

func.func @cholesky(%a: tensor<3x4x4xf64>) -> tensor<3x4x4xf64> {
  // a aᵀ + 4 I: positive definite.
  %g = strata.dot_general %a, %a, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<3x4x4xf64>, tensor<3x4x4xf64>) -> tensor<3x4x4xf64>
  %r = strata.iota dim = 1 : tensor<3x4x4xi32>
  %c = strata.iota dim = 2 : tensor<3x4x4xi32>
  %d = strata.compare EQ, %r, %c : (tensor<3x4x4xi32>, tensor<3x4x4xi32>) -> tensor<3x4x4xi1>
  %four = strata.constant dense<4.0> : tensor<3x4x4xf64>
  %shifted = strata.add %g, %four : tensor<3x4x4xf64>
  %spd = strata.select %d, %shifted, %g : tensor<3x4x4xi1>, tensor<3x4x4xf64>
  %l = strata.linalg "cholesky" (%spd) flags = 0 : (tensor<3x4x4xf64>) -> tensor<3x4x4xf64>
  return %l : tensor<3x4x4xf64>
}

func.func @cumsum(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "sum", dim = 1 : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

func.func @cumsum_reverse(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "sum", dim = 1 reverse : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

func.func @cumprod(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "prod", dim = 1 : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

func.func @cumprod_reverse(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "prod", dim = 1 reverse : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

func.func @cummax(%x: tensor<3x6xi32>) -> tensor<3x6xi32> {
  %0 = strata.cumulative %x kind = "max", dim = 1 : tensor<3x6xi32>
  return %0 : tensor<3x6xi32>
}

func.func @cummax_reverse(%x: tensor<3x6xi32>) -> tensor<3x6xi32> {
  %0 = strata.cumulative %x kind = "max", dim = 1 reverse : tensor<3x6xi32>
  return %0 : tensor<3x6xi32>
}

func.func @cummin(%x: tensor<3x6xf64>) -> tensor<3x6xf64> {
  %0 = strata.cumulative %x kind = "min", dim = 1 : tensor<3x6xf64>
  return %0 : tensor<3x6xf64>
}

func.func @cummin_reverse(%x: tensor<3x6xf64>) -> tensor<3x6xf64> {
  %0 = strata.cumulative %x kind = "min", dim = 1 reverse : tensor<3x6xf64>
  return %0 : tensor<3x6xf64>
}

func.func @cumlogsumexp(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "logsumexp", dim = 1 : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

func.func @cumlogsumexp_reverse(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = strata.cumulative %x kind = "logsumexp", dim = 1 reverse : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
