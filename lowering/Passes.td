// lowering/Passes.td — strata's own passes of the CPU pipeline (the rest are upstream MLIR
// passes): one record per pass, with its options and statistics. The C++ of each is
// lowering/NAME.cpp, its lit test tests/lowering/name.mlir. The pipeline builders
// (CpuPipeline.cpp) set the options from PipelineOptions; no pass reads options from the module.
#ifndef STRATA_LOWERING_PASSES_TD
#define STRATA_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

def RuntimeGemmPass : Pass<"strata-runtime-gemm", "::mlir::ModuleOp"> {
  let summary = "Replace linalg.batch_matmul on buffers by calls of the runtime GEMM";
  let description = [{
    linalg.batch_matmul on buffers becomes a call of strata_rt_dot_<t> (CpuAbi.h), as XLA:CPU
    calls Eigen rather than generating GEMM loops.

    1. The operands' layouts come from the op's indexing maps: lhs (b, m, k) or (b, k, m), rhs
       (b, k, n) or (b, n, k); either transposition is a flag, not a copy.
    2. An operand or result buffer with a non-identity layout (a strided view) goes through a
       contiguous temporary (memref.alloc, later placed in the scratch arena).
    3. The zeroing of the result before the matmul (a zero fill, or a copy of a zero-filled
       buffer that CSE shared) is erased unless something else reads it: the runtime writes
       C = A·B rather than accumulating. Without such a zeroing the op is left alone (it then
       lowers to loops, correct but slow).
    4. Dot epilogues: a matmul (f32/f64, one batch, writing its buffer directly) followed by the
       in-place linalg.generic of an output fusion (strata.epilogue) has that generic outlined
       into @main_epilogue_N(m0, m1, n0, n1, buffers...), run on one block of the output, and
       the GEMM goes through @main_gemm_N(dot arguments..., buffers...), which calls the GEMM
       then the epilogue on the whole output; --strata-parallel-launch later makes it one
       strata_rt_dot_ep_<t> call.

    REQUIRES: bufferized; static shapes.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Let the runtime split each GEMM across the thread pool (JitOptions::parallel)">,
  ];
  let statistics = [
    Statistic<"numGemms", "gemms", "Matmuls replaced by a runtime call">,
    Statistic<"numEpilogues", "epilogues", "GEMMs whose epilogue runs per output block">,
  ];
}

def OutlineParallelLoopsPass : Pass<"strata-outline-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Outline large top-level parallel loops of @main for the runtime's parallel_for";
  let description = [{
    1. Each top-level scf.parallel of the entry function (or serial scf.for around one
       scf.parallel, as leading-axis reductions are) that runs at least `min-iterations`
       iterations (counting its inner loops) is outlined into a private function
       @main_parallel_N(%lo: index, %hi: index, captured values...) that runs the same loop nest
       with iterations [lo, hi) of its outermost non-trivial dimension; constants and globals
       are cloned in, other values become arguments (two allocations that buffer assignment put
       at one offset are one argument).
    2. The loop becomes `func.call @main_parallel_N(0, trips, captured...)`, still a correct
       serial program; the function carries strata.parallel_grain (the smallest chunk worth a
       thread: about min-iterations / 2 iterations) and, when no two captured buffers can
       overlap, strata.noalias_args. --strata-parallel-launch turns the call into a launch.

    With parallel loops off (JitOptions::parallel) the pipeline leaves this pass out.
    REQUIRES: bufferized, loops.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t",
           /*default=*/"::strata::cpu_abi::kParallelThreshold",
           "Fewest iterations (inner loops included) of a loop worth outlining">,
  ];
  let statistics = [
    Statistic<"numOutlined", "outlined-loops", "Loops outlined for parallel_for">,
    Statistic<"numNoalias", "noalias-functions", "Outlined functions whose buffers overlap nothing">,
  ];
}

def DonateInputsPass : Pass<"strata-donate-inputs", "::mlir::ModuleOp"> {
  let summary = "Write outputs into the buffers of donated inputs";
  let description = [{
    `args` names the entry function's arguments the caller gives up (JitOptions::donate, as
    argument positions) and `num-inputs` how many arguments precede the out-params.

    1. Each donated input takes the first output of exactly its buffer type not yet taken.
    2. The output then lives in the input's buffer. When nothing uses the output before the
       input's last read (or the one op where both meet reads each input element only to write
       the same output element: an elementwise linalg op with identity maps, or a copy of the
       input onto the output, which disappears), every use of the output becomes a use of the
       input. Otherwise the output is computed in a temporary and copied into the input at the
       end, after its last read.
    3. The module records the result strata.output_aliases: per output, the argument position
       of the input it is written into, or -1.

    REQUIRES: bufferized, results turned into out-params (one block).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    ListOption<"args", "args", "int64_t",
               "Positions of the donated arguments of the entry function">,
    Option<"numInputs", "num-inputs", "int64_t", /*default=*/"-1",
           "Arguments of the entry function before the outputs (required with args)">,
  ];
  let statistics = [
    Statistic<"numInPlace", "in-place", "Outputs computed directly in a donated buffer">,
    Statistic<"numCopied", "copied", "Outputs computed in a temporary, then copied into a donated buffer">,
  ];
}

def ScratchArenaPass : Pass<"strata-scratch-arena", "::mlir::ModuleOp"> {
  let summary = "Place the entry function's temporary buffers in one scratch arena argument";
  let description = [{
    Every temporary buffer of the entry function becomes a view into one scratch arena, a
    trailing argument, so that the generated code never allocates.

    1. The offsets are the BufferAssignment's (transforms/BufferAssignment.h): allocations that
       strata-assign-buffers placed keep their strata.offset; those made since (the runtime
       GEMM's workspaces and contiguous copies) are placed around them by the same liveness, on
       the schedule as it is now. With `share=false` nothing shares: every temporary has its
       own slot.
    2. Each alloc becomes memref.view %scratch[offset]; the function gains the argument
       `%scratch: memref<Sxi8>` and the attribute strata.entry_arg_types (its arguments'
       types, for --strata-cpu-entry); the module records the results strata.scratch_bytes (S)
       and strata.temporaries_bytes (the sum of all temporaries, before sharing).

    REQUIRES: bufferized, results turned into out-params, static shapes, allocations only in
    the entry function.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
  let options = [
    Option<"share", "share", "bool", /*default=*/"true",
           "Temporaries whose live ranges do not overlap share bytes (JitOptions::assign_buffers)">,
  ];
  let statistics = [
    Statistic<"numViews", "views", "Allocations turned into views of the arena">,
    Statistic<"arenaBytes", "arena-bytes", "Bytes of the scratch arena">,
  ];
}

#endif  // STRATA_LOWERING_PASSES_TD
