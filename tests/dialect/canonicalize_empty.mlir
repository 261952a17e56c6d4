// An op computing an empty tensor canonicalizes to a constant (StrataDialect.cpp), so no
// lowering sees an empty computation; found by fuzz_differential (an empty slice at offset ==
// size became a tensor.extract_slice MLIR rejects).
// RUN: strata-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: strata-opt --emit=asm %s --split-input-file > /dev/null

// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[E:.*]] = strata.constant dense<> : tensor<0xi32>
// CHECK-DAG: %[[F:.*]] = strata.constant dense<> : tensor<2x0xf32>
// CHECK-NOT: strata.slice
// CHECK-NOT: strata.scatter
// CHECK: return %[[E]], %[[F]], %{{.*}}
func.func @main(%x: tensor<1xi32>, %y: tensor<2x0xf32>, %z: tensor<3xf32>) -> (tensor<0xi32>, tensor<2x0xf32>, tensor<3xf32>) {
  %0 = strata.slice %x [1:1] : (tensor<1xi32>) -> tensor<0xi32>
  %1 = strata.reshape %y : (tensor<2x0xf32>) -> tensor<0xf32>
  %2 = strata.reshape %0 : (tensor<0xi32>) -> tensor<0x1xi32>
  %3 = strata.scatter REPLACE, %1[%2], %1, update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<0xf32>, tensor<0x1xi32>, tensor<0xf32>) -> tensor<0xf32>
  %4 = strata.reshape %3 : (tensor<0xf32>) -> tensor<2x0xf32>
  %5 = strata.exponential %z : tensor<3xf32>
  return %0, %4, %5 : tensor<0xi32>, tensor<2x0xf32>, tensor<3xf32>
}
