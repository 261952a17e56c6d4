// mlir-opt's flags work, with and without --emit.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize,cse)' | FileCheck %s --check-prefix=PIPE
// RUN: strata-opt %s --split-input-file --emit=cse | FileCheck %s --check-prefix=PIPE
// RUN: strata-opt %s --split-input-file --emit=cse --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: strata-opt %s --split-input-file --emit=cse --verify-diagnostics
// RUN: strata-opt %s --split-input-file --emit=cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING

// PIPE-LABEL: func.func @first
// PIPE: %[[C:.*]] = strata.constant dense<4.000000e+00> : tensor<2xf32>
// PIPE: return %[[C]]
// PIPE: // -----
// PIPE-LABEL: func.func @second
// PIPE: strata.multiply %[[S:.*]], %[[S]]

// AFTER: IR Dump After Canonicalizer
// AFTER: IR Dump After CSE

// Each stage's pass manager reports its passes' times.
// TIMING: Execution time report
// TIMING: Canonicalizer
// TIMING: Execution time report
// TIMING: CSE
func.func @first() -> tensor<2xf32> {
  %c = strata.constant dense<2.0> : tensor<2xf32>
  %0 = strata.add %c, %c : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = strata.exponential %x : tensor<2xf32>
  %1 = strata.exponential %x : tensor<2xf32>
  %2 = strata.multiply %0, %1 : tensor<2xf32>
  return %2 : tensor<2xf32>
}
