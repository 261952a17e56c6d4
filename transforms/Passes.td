// transforms/Passes.td — the passes on the `strata` dialect and on its bufferized program:
// one record per pass, its options and statistics. The C++ of each is transforms/NAME.cpp,
// its lit test tests/transforms/name.mlir.
#ifndef STRATA_TRANSFORMS_PASSES_TD
#define STRATA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StrataInlineCalls : Pass<"strata-inline-calls", "::mlir::ModuleOp"> {
  let summary = "Inline calls of the module's own functions, so that fusion sees one function";
  let description = [{
    Replaces every `func.call` of a function defined in the module by the callee's body
    (the jaxpr lowering makes private functions of custom_jvp_call's and custom_vjp_call's
    `fun` and of custom_linear_solve's solvers; StableHLO programs call helpers), then erases
    the private functions left unused. It runs before canonicalization: a call is a boundary
    that fusion does not cross, so an elementwise chain through jnp.xlogy's custom_jvp would
    otherwise be three loop nests, each writing its result to memory.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numInlined", "inlined-calls", "Calls replaced by the callee's body">,
  ];
}

def StrataExpandRngBitGenerator : Pass<"strata-expand-rng-bit-generator", "::mlir::ModuleOp"> {
  let summary = "Write strata.rng_bit_generator as XLA expands it, in strata integer ops";
  let description = [{
    THREE_FRY as strata.threefry2x32 of consecutive counters (the words split or joined by
    XLA's rule), PHILOX and DEFAULT (XLA's CPU and GPU default) as Philox-4x32-10 of a 128-bit
    counter in elementwise integer ops, four words a block in order; the new state as XLA
    computes it. The bits equal JAX's. It runs first in the `fused` stage, before strata-fuse
    (after cse, whose program --emit=stablehlo exports with the op itself), so the generator's
    ops fuse into loop nests rather than being lowered to linalg one by one.
  }];
  let statistics = [
    Statistic<"numExpanded", "expanded-rng-bit-generators", "rng_bit_generator ops expanded">,
  ];
}

def StrataFuse : Pass<"strata-fuse", "::mlir::ModuleOp"> {
  let summary = "Group ops into strata.fusion regions, each computed as one loop nest";
  let description = [{
    Decides, from the ops' traits and a small cost model, which ops of each function run
    together as one kernel, and wraps each group in a `strata.fusion` region:

    - loop fusion: chains of elementwise ops with the broadcasts, transposes, slices, unit
      reshapes and converts that feed them;
    - input fusion: a `strata.reduce` with its elementwise producers (one pass over the data);
    - output fusion: an unbatched 2-D `strata.dot_general` of an element type the target's
      GEMM hands output blocks of to an epilogue (`dot-epilogue-types`, set by the target:
      f32 and f64 on the CPU) with its elementwise epilogue (bias add, activation), run on each
      output block right after the GEMM writes it;
    - multi-output fusion: groups of one iteration space that read the same input, or whose
      producer is also needed elsewhere, become one region with several results.

    An expensive op (transcendental, division) is never recomputed for several consumers or
    for each element of a broadcast, and nothing is fused across a reduction in a way that
    recomputes it. With fusion off (JitOptions::fuse) the pipeline leaves this pass out.
  }];
  let dependentDialects = ["::mlir::strata::StrataDialect"];
  let options = [
    Option<"printDecisions", "print-decisions", "bool", /*default=*/"false",
           "Print each decision (inline, materialize, merge) and its reason to stderr">,
    Option<"maxDuplicates", "max-duplicates", "int64_t", /*default=*/"4",
           "Most copies of a cheap op recomputed in consumer regions">,
    ListOption<"dotEpilogueTypes", "dot-epilogue-types", "std::string",
               "Element types (f32, f64, ...) of the dots whose GEMM can run an epilogue on each "
               "output block (the target's; none: no output fusion)">,
  ];
  let statistics = [
    Statistic<"numFusions", "fusions", "strata.fusion regions created">,
    Statistic<"numFusedOps", "fused-ops", "Ops placed in a region">,
    Statistic<"numDuplicated", "duplicated-ops", "Ops recomputed in more than one region">,
    Statistic<"numMaterialized", "materialized-ops", "Fusible ops whose result is stored">,
    Statistic<"numEpilogues", "dot-epilogues", "dot_general ops with a fused epilogue">,
    Statistic<"numMultiOutput", "multi-output-merges", "Regions merged for multi-output fusion">,
  ];
}

def StrataAssignBuffers : Pass<"strata-assign-buffers", "::mlir::ModuleOp"> {
  let summary = "Give every temporary buffer an offset in one scratch arena";
  let description = [{
    Runs assignBuffers (BufferAssignment.h) on the entry function of a bufferized module and
    records the result on it: each `memref.alloc` gets `strata.offset` (bytes into the arena)
    and `strata.buffer` (its number in the assignment); the module gets
    `strata.scratch_bytes` and `strata.temporaries_bytes`. The scratch-arena pass later turns
    the allocations into views at these offsets. With `share=false` (JitOptions::assign_buffers
    off) every temporary gets its own slot.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"share", "share", "bool", /*default=*/"true",
           "Buffers whose live ranges do not overlap share bytes; false: each its own slot">,
    Option<"print", "print", "bool", /*default=*/"false",
           "Print the BufferAssignment to stderr">,
  ];
  let statistics = [
    Statistic<"numBuffers", "buffers", "Temporary buffers assigned">,
    Statistic<"numInPlace", "in-place", "Buffers written in place over an input that dies">,
    Statistic<"bytesSaved", "bytes-saved", "Temporaries' bytes minus the arena's">,
  ];
}

#endif  // STRATA_TRANSFORMS_PASSES_TD
