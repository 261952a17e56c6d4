// The compiler's switches (JitOptions) reach the pipelines through strata-opt's flags, which
// fill a PipelineOptions for --emit; no pass reads them from the module.
// RUN: strata-opt --emit=fused --split-input-file %s | FileCheck %s --check-prefix=FUSED
// RUN: strata-opt --emit=fused --fuse=false --split-input-file %s | FileCheck %s --check-prefix=UNFUSED
// RUN: strata-opt --emit=loops --split-input-file %s | FileCheck %s --check-prefix=PARALLEL
// RUN: strata-opt --emit=loops --parallel=false --split-input-file %s | FileCheck %s --check-prefix=SERIAL
// RUN: strata-opt --emit=buffers --split-input-file %s | FileCheck %s --check-prefix=SHARED
// RUN: strata-opt --emit=loops --assign-buffers=false --split-input-file %s | FileCheck %s --check-prefix=UNSHARED
// RUN: strata-opt --emit=bufferized --donate=0 --split-input-file %s | FileCheck %s --check-prefix=DONATE
// RUN: strata-opt --emit=llvm-ir --opt-level=0 --split-input-file %s | FileCheck %s --check-prefix=O0
// RUN: strata-opt --emit=llvm-ir --opt-level=3 --split-input-file %s | FileCheck %s --check-prefix=O3

// Fusion on: one region; off: the ops as they were. Parallel on: the loop nest (65536
// iterations) is outlined for the thread pool; off: it stays in @main. Donated %x: the output is
// written into it. -O0: no vectorised loop; -O3: vectors of floats.
// FUSED:        strata.fusion
// UNFUSED-NOT:  strata.fusion
// UNFUSED:      strata.exponential
// UNFUSED-NEXT: strata.negate
// UNFUSED-NEXT: strata.add
// PARALLEL:     call @main_parallel_0(
// PARALLEL:     func.func private @main_parallel_0
// SERIAL-NOT:   @main_parallel
// SERIAL:       scf.parallel
// SERIAL-NOT:   @main_parallel
// DONATE:       module attributes {strata.output_aliases = array<i64: 0>}
// DONATE:       linalg.generic {{.*}} outs(%arg0 : memref<256x256xf32>)
// O0-NOT:       x float>
// O3:           x float>
func.func @main(%x: tensor<256x256xf32>, %y: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = strata.exponential %x : tensor<256x256xf32>
  %1 = strata.negate %0 : tensor<256x256xf32>
  %2 = strata.add %1, %y : tensor<256x256xf32>
  return %2 : tensor<256x256xf32>
}

// -----

// Two temporaries of 1 KiB (the first two GEMMs' results, the exp's written in place over its
// input): with sharing the second takes the first's bytes; without, the arena holds both. The
// GEMM runs on the thread pool only with parallel on (flag 4).
// SHARED:       module attributes {strata.scratch_bytes = 1024 : i64, strata.temporaries_bytes = 2048 : i64}
// UNSHARED:     module attributes {strata.scratch_bytes = 2048 : i64, strata.temporaries_bytes = 2048 : i64}
// PARALLEL:     %[[P:.*]] = arith.constant 4 : i64
// PARALLEL:     call @strata_rt_dot_f32(%[[P]],
// SERIAL:       %[[S:.*]] = arith.constant 0 : i64
// SERIAL:       call @strata_rt_dot_f32(%[[S]],
func.func @main(%x: tensor<16x16xf32>, %y: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = strata.exponential %x : tensor<16x16xf32>
  %1 = strata.dot_general %0, %y, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = strata.dot_general %1, %y, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = strata.dot_general %2, %y, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %3 : tensor<16x16xf32>
}
