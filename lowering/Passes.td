// lowering/Passes.td — strata's own passes of the CPU pipeline (the rest are upstream MLIR
// passes): one record per pass, with its options and statistics. The C++ of each is
// lowering/NAME.cpp, its lit test tests/lowering/name.mlir. The pipeline builders
// (CpuPipeline.cpp) set the options from PipelineOptions; no pass reads options from the module.
#ifndef STRATA_LOWERING_PASSES_TD
#define STRATA_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

//===-- linalg stage ------------------------------------------------------------------===//

def StrataToLinalgPass : Pass<"strata-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the strata dialect to linalg, arith, math and tensor";
  let description = [{
    1. Calls of the module's functions (custom_vjp_call's `fun`) are inlined, and private
       functions left unused are erased: the CPU pipeline compiles one function.
    2. Each strata.fusion becomes one loop nest (lowerFusions, FusionToLinalg.cpp): one
       linalg.generic for a loop fusion, a reduction nest and an epilogue nest for an input
       fusion, a GEMM with an in-place epilogue generic (strata.epilogue) for an output fusion.
    3. Every other strata op is converted by its pattern (populateStrataToLinalgPatterns,
       StrataToLinalg.cpp); the ops of strata.reduce bodies are consumed by the reduce's.
       Control flow becomes scf (if, index_switch, while) with its regions moved as they are
       (ControlFlowToScf.cpp), and the ops inside them convert like any other.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect", "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"runtimeConvolution", "runtime-convolution", "bool", /*default=*/"false",
           "strata.convolution of f32/f64/bf16/f16 becomes a call of the CPU runtime's convolution "
           "(strata_rt_conv: the eager kernel) instead of im2col + GEMM in linalg">,
  ];
  let statistics = [
    Statistic<"numInlinedCalls", "inlined-calls", "Calls of module functions inlined">,
    Statistic<"numFusions", "fusions", "strata.fusion regions lowered">,
  ];
}

def RejectControlFlowPass : Pass<"strata-reject-control-flow", "::mlir::ModuleOp"> {
  let summary = "Fail with a clear diagnostic on control flow (targets that cannot compile it)";
  let description = [{
    The cuda target's host program is a flat list of launches and copies (HostSteps.h): it has
    no way yet to run a loop or a branch on the host around kernels.

    1. The first strata.if, strata.case or strata.while is reported at its location: "the
       cuda target cannot compile control flow yet (strata.while); run this function on the
       CPU (JitOptions::device = st::cpu())", and the pass fails.
    2. So is the first strata.dynamic_slice or strata.dynamic_update_slice (their starts are
       read on the host): "the cuda target cannot compile run-time slices yet (...)".
    3. So is the first strata.reduce_window (its loop nest, window loops between result loops,
       is not one the GPU loop mapping handles): "the cuda target cannot compile window
       reductions yet (strata.reduce_window); ...".
  }];
}

def UnshareFillsPass : Pass<"strata-unshare-fills", "::mlir::ModuleOp"> {
  let summary = "Clone each linalg.fill on tensors with several uses just before each use";
  let description = [{
    CSE merges identical zero fills; two GEMM results or reduction accumulators sharing one
    fill would bufferize to a copy, and --strata-runtime-gemm recognises a GEMM by the fill
    just before it.

    1. Every linalg.fill on tensors whose result has more than one use is collected.
    2. Each use gets its own clone of the fill, placed just before the user (so that the
       buffer is live, and filled, only there); the shared fill is erased.
  }];
  let statistics = [
    Statistic<"numUnshared", "unshared-fills", "Fills with several uses split">,
    Statistic<"numClones", "clones", "Fills created, one per use">,
  ];
}

def RuntimeReadsAtCallsPass : Pass<"strata-runtime-reads-at-calls", "::mlir::ModuleOp"> {
  let summary = "Give each runtime call its own read of the tensors it reads, just before it";
  let description = [{
    A runtime call (convolution, linalg, sort, collectives) reads a tensor through a pointer
    taken from `bufferization.to_buffer %t read_only`: one-shot bufferization sees the read of
    %t at that to_buffer, not at the call. CSE merges the to_buffers of two calls reading one
    tensor, LICM hoists one out of a loop, and the canonicalizer folds `to_buffer(to_tensor %m)`
    (a call reading an earlier call's result) to %m itself: each moves the visible read before
    the real one, or removes it, and bufferization may then write another value into the
    tensor's buffer in place before the call reads it (found by fuzz_differential: a
    convolution read a buffer an elementwise nest had overwritten).

    1. For each func.call operand that is the aligned pointer of a memref, the tensor the call
       reads is found: the operand of a read_only to_buffer, or, for a memref an earlier call
       wrote, its to_tensor that comes before this call.
    2. The call gets a new `to_buffer %t read_only` and pointer just before it; the old ones
       go when nothing else uses them. Buffers a call writes (to_buffer of alloc_tensor, its
       to_tensor after the call) are left as they are.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect", "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numReads", "reads", "Tensor reads put at their calls">,
  ];
}

def CarriesInPlacePass : Pass<"strata-carries-in-place", "::mlir::ModuleOp"> {
  let summary = "Read a loop carry that a reduction nest rewrites through the nest's output";
  let description = [{
    A while loop's new carry is computed in the carry's own buffer when bufferization can
    prove the op writing it reads each element only where it writes it; it proves that for
    nests without reduction loops (elementwise access) only. A fused nest that updates a carry
    and reduces (`x += alpha·p` with a dot product, one nest) would write a temporary and copy
    it into the carry on every trip.

    1. For each linalg.generic on tensors with reduction loops, each output k whose init is a
       tensor.empty its body does not read, whose map visits every element once (a
       permutation of the loops), and whose result is materialized into a destination D
       (bufferization.materialize_in_destination: ControlFlowToScf's carries) that the nest
       reads as one input at the output's own map, with no other use of D in or after it:
    2. D becomes output k's init and stops being an input; the body reads output k's block
       argument (D's element, since each element is visited once) where it read D's.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numInPlace", "in-place", "Outputs computed in the carry they update">,
  ];
}

//===-- bufferized stage --------------------------------------------------------------===//

def MarkReadOnlyInputsPass : Pass<"strata-mark-readonly-inputs", "::mlir::ModuleOp"> {
  let summary = "Mark the tensor arguments of public functions as not writable by bufferization";
  let description = [{
    Inputs belong to the caller: one-shot bufferization must never write into them.

    1. For each public function with a body, each tensor argument gets
       `bufferization.writable = false`; other arguments and private functions are left alone.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
  let statistics = [
    Statistic<"numMarked", "marked-arguments", "Arguments marked not writable">,
  ];
}

def CopyOverwrittenValuesPass : Pass<"strata-copy-overwritten-values", "::mlir::ModuleOp"> {
  let summary = "Make the copies of values overwritten in place but read afterwards before bufferization";
  let description = [{
    One-shot bufferization copies a value that an op would overwrite in place while it is
    still read; to make the copy it asks for the value's buffer type, which it finds by
    following aliases through loops (init and yield) and scf.if (both branches) without
    remembering them: exponential in a chain of loops that carry each other's results (a chain
    of 12 scatters whose indices read earlier results took 40 s). The copies are made here
    instead, with their memory space stated, which ends that search.

    1. For each loop init (scf.for, scf.while), linalg output and tensor insert destination
       of tensor type that is not a fresh tensor (tensor.empty, bufferization.alloc_tensor):
    2. when the writer is in the value's own block and the value is read by an op of that
       block that is not before the writer (or within it), the operand becomes
       `bufferization.alloc_tensor() copy(value) {memory_space = 0}`. Writers nested deeper
       (a branch, a loop body the value comes from outside) are left to the analysis.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
  let statistics = [
    Statistic<"numCopies", "copies", "Copies made before bufferization">,
  ];
}

def ForwardOutputsPass : Pass<"strata-forward-outputs", "::mlir::ModuleOp"> {
  let summary = "Compute results that are reshaped before being returned directly in the output buffer";
  let description = [{
    A result returned through reshapes of a temporary is left, after out-params, as a copy of
    the temporary into the output. It is computed in the output buffer itself instead.

    1. For each memref.copy in the entry function's block from (reshapes of) a local
       memref.alloc into an output argument used only by that copy,
    2. when both types are static and contiguous with as many elements of one type, and
       nothing uses the allocation (or a view of it) after the copy,
    3. the allocation is replaced by the output viewed with the allocation's shape
       (collapse_shape/expand_shape), and the allocation and the copy are erased.

    REQUIRES: bufferized, results turned into out-params.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numForwarded", "forwarded-outputs", "Outputs computed in place instead of copied">,
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

//===-- loops stage -------------------------------------------------------------------===//

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
    ListOption<"types", "types", "std::string",
               "Element types the runtime GEMM takes, with results of the same type (empty: "
               "f32, f64, bf16, f16, i32, i64 and the CPU's mixed results)">,
    Option<"halfWorkspace", "half-workspace", "bool", /*default=*/"true",
           "Give bf16/f16 GEMMs a workspace for f32 copies of their operands (the CPU's)">,
    Option<"libraryEpilogues", "library-epilogues", "bool", /*default=*/"false",
           "Map a dot epilogue of + bias[n] and/or relu onto the GEMM library's own epilogue "
           "(two more call arguments: the epilogue, 0 none 1 relu 2 bias 3 bias+relu, and the "
           "bias pointer); other epilogues stay loops after the call (cuBLASLt)">,
  ];
  let statistics = [
    Statistic<"numGemms", "gemms", "Matmuls replaced by a runtime call">,
    Statistic<"numEpilogues", "epilogues", "GEMMs whose epilogue runs per output block">,
  ];
}

def ExpandStridedCopiesPass : Pass<"strata-expand-strided-copies", "::mlir::ModuleOp"> {
  let summary = "Turn memref.copy between non-contiguous buffers into linalg.copy";
  let description = [{
    A memref.copy whose source or target has a non-identity layout (a strided view) would
    need MLIR's runtime library; as linalg.copy it becomes loops like any other op.

    1. Each memref.copy with a source or target of non-identity layout becomes a
       linalg.copy of the same operands; copies between contiguous buffers are left alone
       (they lower to memcpy).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numExpanded", "expanded-copies", "Strided copies turned into linalg.copy">,
  ];
}

def TileTransposesPass : Pass<"strata-tile-transposes", "::mlir::ModuleOp"> {
  let summary = "Tile elementwise loop nests that transpose a buffer into square tiles (parallel loops)";
  let description = [{
    A transposing loop nest reads (or writes) one buffer across its rows: each step of the
    innermost loop jumps a whole row, and large transposes thrash the caches. Tiling the two
    dimensions involved keeps a tile of each buffer in L1.

    1. Each linalg.generic on buffers with two or more loops, all parallel, is examined.
    2. The loop along which some operand is contiguous (the last result of its indexing map),
       when it is not the innermost loop, is the transposed one.
    3. When both it and the innermost loop run at least twice `tile-size` iterations, the op
       is tiled by `tile-size` along those two loops (1 along the others) into scf.parallel
       loops over tiles, and the original op erased.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"tileSize", "tile-size", "int64_t", /*default=*/"32",
           "Side of the square tiles (elements)">,
  ];
  let statistics = [
    Statistic<"numTiled", "tiled-ops", "Transposing ops tiled">,
  ];
}

def FuseParallelLoopsPass : Pass<"strata-fuse-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Fuse adjacent parallel loops over one iteration space whose iterations depend only on the same iteration";
  let description = [{
    Each fusion region then runs as one loop nest: an input fusion's accumulator fill,
    reduction and epilogue on the reduced values become one nest per kept index.

    1. Walking the entry function's top-level ops, each scf.parallel is compared with the
       previous one; only ops without regions that are free of memory effects (or
       allocations) may stand between them.
    2. Each memref access is traced through views to its base (BufferAliasing.h): an argument,
       a global, or an allocation, which buffer assignment placed at a byte range of the arena
       (strata.offset: allocations at one offset are the same memory).
    3. Two loops fuse when they have the same bounds and steps, no reductions, bodies of only
       loads, stores, pure ops, scf.for and scf.if, and every pair of accesses where one
       writes and whose bases may share bytes touches the same base and element type at the
       same linear element index, an affine function of the loop indices that uses all of them.
    4. The first loop's body is moved to the start of the second's (its induction variables
       mapped), and the first loop erased.
    5. With `rows`: two loops whose bounds agree on their k outer dimensions, one of them with
       more (a row reduction and the elementwise loop over the same rows: softmax, a
       normalisation), become one scf.parallel over those k dimensions, each body's inner
       dimensions an scf.for nest, the first's before the second's. Every pair of accesses as
       in 3 must then touch one base (through reshapes only) with the same element type and k
       leading dimensions, indexed by the k outer induction variables: iteration i touches
       only row i. The CPU runs a loop's outer dimensions on the pool and the rest serially
       anyway; the fused rows stay in cache, and one kernel is compiled instead of two.

    With fusion off (JitOptions::fuse) the pipeline leaves this pass out.
    REQUIRES: bufferized, loops; before the scratch arena (allocations carry strata.offset).
  }];
  let options = [
    Option<"rows", "rows", "bool", /*default=*/"false",
           "Also fuse loops that share only their outer dimensions (5; the CPU pipeline)">,
  ];
  let statistics = [
    Statistic<"numFused", "fused-loops", "Loops merged into the loop after them">,
    Statistic<"numRowFused", "row-fused-loops", "Loops merged row by row into the loop after them">,
  ];
}

def SplitReductionLoopsPass : Pass<"strata-split-reduction-loops", "::mlir::ModuleOp"> {
  let summary = "Split serial reduction loop nests of @main into chunks that run in parallel";
  let description = [{
    A reduction to a few values (a sum, a dot product, a max over a whole array) becomes a
    nest of scf.for loops (ConvertLinalgToParallelLoops: nothing in it is parallel), so it runs
    on one thread however large it is. For each such nest at the top level of the entry
    function or inside its control flow (the roots --strata-outline-parallel-loops takes) that
    runs at least `min-iterations` iterations:

    1. The nest qualifies when its outer loop's iterations are independent except for its
       accumulators: each store either writes an accumulator (`acc[idx] = combine(acc[idx], x)`,
       idx fixed in the nest, combine associative and commutative with an identity:
       add/mul/max/min/and/or/xor) whose buffer nothing else in the nest touches, or writes at
       an index that contains the outer induction variable (a fused elementwise output); loads
       of a written buffer read the element their own iteration writes; nothing else has memory
       effects.
    2. The outer loop's trips become an scf.parallel over T chunks of C = trips / T trips; chunk
       k runs trips [k·C, (k+1)·C) with each accumulator redirected to element k of a new buffer
       of partials, which starts at the identity. T is the trips' largest divisor up to
       `max-chunks` when that is at least half of `max-chunks` (or of the trips, when fewer);
       otherwise (a prime count of rows, say) the T in [max-chunks / 2, max-chunks] that leaves
       the fewest trips after T·C, which then run as the original loop after the combine below
       (into the accumulators themselves). With `combine-in-memory`, divisors only.
    3. After it, a loop of T iterations combines the partials, in order, into each accumulator
       (which keeps the value it had before the nest: the reduction's init); a float sum's
       partials join compensated (TwoSum, as --strata-block-float-sums joins its blocks).

    With `column-places` > 0 (the CPU's: 16 per thread of the pool), a column reduction
    `for i { parallel p { acc[.., p, ..] = combine(acc[.., p, ..], x) } }` (the loop's body
    just the scf.parallel, static bounds, no regions in it) whose accumulators' buffers have
    static shapes of at most that many elements, indexed by every induction variable of the
    parallel loop and otherwise by values fixed in the nest, splits the same way: each chunk's
    partials are a slab `partial[k, places...]` set to the identity by a parallel loop over the
    places, and the partials combine place by place (a parallel loop over the places, each a
    loop over the chunks). Few places split over threads by columns would have every thread
    stream every row (1M rows of 16 f32: each thread's 32 bytes of a 64-byte line); split by
    rows each streams its own.

    The scf.parallel is then outlined for the thread pool by --strata-outline-parallel-loops.
    Float sums and products change their association (as the vectorised loop already does:
    the reduction bodies are `reassoc`). REQUIRES: bufferized, loops; before
    --strata-scratch-arena (which places the partials).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t",
           /*default=*/"::strata::cpu_abi::kParallelThreshold",
           "Fewest iterations (inner loops included) of a nest worth splitting">,
    Option<"maxChunks", "max-chunks", "int64_t", /*default=*/"64",
           "Most chunks (partials per accumulator)">,
    Option<"combineInMemory", "combine-in-memory", "bool", /*default=*/"false",
           "Combine the partials by loading and storing the accumulator in each iteration (the "
           "form --strata-gpu-map-loops splits across a block) rather than in a loop-carried value">,
    Option<"columnPlaces", "column-places", "int64_t", /*default=*/"0",
           "Split the rows of column reductions with at most this many places (0: none; not with "
           "combine-in-memory)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-loops", "Reduction loop nests split into parallel chunks">,
  ];
}

def SplitColumnReductionsPass : Pass<"strata-split-column-reductions", "::mlir::ModuleOp"> {
  let summary = "Reduce over leading axes (column sums) by coalesced chunks of rows on a GPU";
  let description = [{
    A reduction over a leading axis lowers to `for j { parallel p { acc[p] = combine(acc[p],
    x(j, p)) } }` at the top level of the entry function (a column sum, a bias gradient). On a
    GPU, one block per output splitting the rows reads a column's elements a row apart: each
    warp load touches 32 cache lines. Instead, with R rows and P outputs:

    1. The rows split into C chunks of K rows (C: the largest divisor of R up to
       ceil(`threads` / P) and R / `min-rows`): `parallel (c, p) { r = fold of rows
       [c·K, (c+1)·K) in a loop-carried value; partial[c, p] = r }`. Consecutive threads take
       consecutive outputs, so every row's loads coalesce.
    2. `parallel p { for c: acc[p] = combine(acc[p], partial[c, p]) }` (by load and store:
       strata-gpu-map-loops splits it across a block when it is long). With C = 1 the fold is
       combined into the accumulator directly, without partials.

    The nest qualifies when the scf.for holds only the scf.parallel (static bounds from 0, step
    1), whose body has no regions, loads and pure ops, and stores that are accumulator steps
    (combine associative and commutative with an identity) at a place every induction variable
    of the parallel loop indexes, their buffers touched by nothing else in it. Float sums
    change their association. REQUIRES: bufferized, loops; before --strata-scratch-arena
    (which places the partials).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"131072",
           "Threads the first phase should have (outputs times chunks)">,
    Option<"minRows", "min-rows", "int64_t", /*default=*/"16",
           "Fewest rows a chunk folds (and a reduction must have)">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-reductions", "Column reductions split into chunks of rows">,
  ];
}

def SplitRowReductionsPass : Pass<"strata-split-row-reductions", "::mlir::ModuleOp"> {
  let summary = "Run the loops of few long rows (a sum along rows of f32[8, 1M], a softmax) in chunks of each row";
  let description = [{
    A reduction along rows lowers to `parallel rows { ...; for j { acc = combine(acc, x(row,
    j)) }; ... }` at the top level of the entry function (or inside its control flow, as
    --strata-split-reduction-loops finds its nests); strata-gpu-map-loops runs it one block
    per row and the CPU one row per task, so with few rows most of the GPU (or of the cores)
    idles however long they are. For a parallel loop of R rows (static bounds from 0, step 1,
    no results, R < `blocks`) whose row holds scf.for loops and no other regions:

    0. With fewer than `fission-rows` rows (on the CPU, the thread pool's size: a row cut into
       pieces streams from memory once a piece rather than once), the row is cut into
       pieces: each loop with the row's ops since the previous loop (those
       after the last loop go with it); those ops become a piece of their own when the loop
       reads memory they write (its accumulators' own loads aside). With more than one piece
       (softmax: a max, a sum of exponentials using it, the division using both), each
       becomes a parallel loop over the R rows, in order (rows are independent, so each row's
       pieces still run in order); what a piece uses of an earlier one is computed again,
       which must be pure ops or loads of memory the row does not write, or nothing changes.
       Every piece with a loop must then split as below, or nothing changes.
    1. A piece's loop of T trips (L iterations with its inner loops) splits into C chunks of K
       trips (C: the largest divisor of T up to ceil(`blocks` / R) and L / `min-chunk`; no
       split when C < 2): `parallel (c, rows...) { partial[rows..., c] = identity; for t in
       [c·K, (c+1)·K) { the loop's body, its accumulators redirected to partial[rows..., c] }
       }`, preceded by what the loop uses of the row ahead of it (pure ops, loads). Each chunk
       is a row of its own for strata-gpu-map-loops (a block splits it); the chunks lead, as
       the CPU's pool splits the outermost dimension.
    2. The piece's row itself, its loop replaced by `for c: acc = combine(acc, partial[rows...,
       c])` (by load and store), or by nothing when it has no accumulators; what the row does
       before (the accumulator's init) and after (a mean's division) stays in place. A row
       left with pure ops only is erased.

    A loop splits when its static bounds have no loop-carried values; its regions are
    scf.for/scf.if; every store in it is an accumulator step (combine associative and
    commutative with an identity) of a place fixed in the loop, accumulators on buffers of
    their own, or an elementwise output (an index holding the loop's induction variable; no
    other store of the loop on its buffer, nothing of the row ahead of the loop touching it);
    its other loads, and the loads it uses from ahead of it, read memory that nothing in the
    row writes, or the element their own iteration writes. Float sums change their
    association. REQUIRES: bufferized, loops; before --strata-scratch-arena (which places the
    partials).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"blocks", "blocks", "int64_t", /*default=*/"64",
           "Chunks the first phase should have (rows times chunks); rows at or above it stay whole">,
    Option<"minChunk", "min-chunk", "int64_t", /*default=*/"::strata::cpu_abi::kParallelThreshold",
           "Fewest iterations a chunk reduces">,
    Option<"fissionRows", "fission-rows", "int64_t", /*default=*/"64",
           "Rows below which a row is cut into pieces (step 0); at or above, only rows of one "
           "piece split">,
  ];
  let statistics = [
    Statistic<"numSplit", "split-row-loops", "Row loops split into chunks of each row">,
    Statistic<"numFissioned", "fissioned-rows", "Rows of several loops made one parallel loop a loop">,
  ];
}

def BlockFloatSumsPass : Pass<"strata-block-float-sums", "::mlir::ModuleOp"> {
  let summary = "Accumulate long float sums in blocks, joined with compensation";
  let description = [{
    A float sum vectorised by LLVM runs each vector lane over its share of the terms in a
    row (and a column sum each column over all its rows): 64 lanes over a chunk of 256K values add 4096 terms each to one running value, whose
    rounding errors grow with that count (16M f32 normals: 5-10x JAX's error). For each scf.for
    (in any function; static bounds, no loop-carried values) whose body's ops are loads,
    stores, pure ops and scf.for/scf.parallel/scf.if, with L iterations (its inner loops
    included) of at least twice `block-iterations`, and for each float sum in it (`acc[idx] =
    acc[idx] + x` by an addf with `reassoc`, idx fixed in the loop, nothing else in the loop
    touching acc's buffer):

    1. The loop's trips go in blocks of B = max(1, `block-iterations` / its inner iterations)
       trips (a divisor of the trips when one is at least B/2; otherwise the last block is
       short), in an scf.for over the blocks carrying each sum's running total s (acc's value
       before the loop) and compensation c (-0.0).
    2. Each block stores -0.0 (the identity) into acc, runs its trips of the loop's body
       (moved, not copied), loads the block's sum x and adds it: t = s + x, c += (s - (t - (t
       - s))) + (x - (t - s)) (TwoSum, t + e = s + x exactly; no fast-math flags).
    3. After the blocks acc = s + c, or s when c is nan (an infinity or nan went through).

    Loops are judged before any changes, so nested loops block at each level that qualifies
    (a row per block and, for long rows, blocks within the row). Lanes then add
    `block-iterations` / 64 terms in a row, and the blocks join nearly exactly.

    A column sum, `for i { parallel p { acc[.., p, ..] += x } }` (the loop's body that
    scf.parallel after pure ops, its bounds defined outside the loop, no regions in it; each sum's place
    indexed by every induction variable of it and otherwise by values defined outside the
    loop; its buffer of a static shape of at most 8192 elements, touched by nothing else),
    adds each column's rows in order, so the same blocking applies with the places as lanes:
    blocks of max(32, `block-iterations` / places) rows, each place's running total and
    compensation in two memref.alloca of the places' shape at the function's entry (each
    thread running an outlined loop has its own), and loops like the column sum's own
    scf.parallel: before the blocks, copying acc into the totals and storing -0.0 into acc;
    after each block, joining it by TwoSum and storing -0.0 again; at the end, s + c. REQUIRES: loops; after
    --strata-split-reduction-loops (whose chunks it blocks) and
    --strata-outline-parallel-loops (an outlined loop's allocas are its thread's).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"blockIterations", "block-iterations", "int64_t", /*default=*/"1024",
           "Iterations (inner loops included) of each block">,
  ];
  let statistics = [
    Statistic<"numBlocked", "blocked-loops", "Loops whose float sums accumulate in blocks">,
  ];
}

def BatchColumnReductionsPass : Pass<"strata-batch-column-reductions", "::mlir::ModuleOp"> {
  let summary = "Run a column reduction with batch dimensions batch by batch";
  let description = [{
    A reduction over a middle axis with columns after it (a sum over axis 1 of [B, R, C]) is
    lowered with its reduced loop outside every kept one, `for r { parallel (b, c) { ... } }`:
    each row visits every batch, B streams R·C elements apart (64 × 4096 × 16 f32: 13 GB/s).
    For each such nest at the top level of the entry function or inside its control flow (the
    roots --strata-outline-parallel-loops takes), when the first k ≥ 1 induction variables of
    the scf.parallel (all but one at most) index, in order, the dimensions in front of r in
    every load that r indexes, and the nest's iterations may be reordered (each store an
    accumulator step at a place indexed by every induction variable of the scf.parallel, whose
    buffer nothing else touches, or a store at indices holding r and all of them, and no other
    load of a written buffer reads another iteration's element), and those k dimensions run at
    least `fewest-batches` trips: the nest becomes `parallel (b) { for r { parallel (c) { ... }
    } }` (each place still adds its rows in order). With fewer batches the rows are left to
    --strata-split-reduction-loops' column split. REQUIRES: loops; before
    --strata-split-reduction-loops and --strata-outline-parallel-loops.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
  let options = [
    Option<"fewestBatches", "fewest-batches", "int64_t", /*default=*/"1",
           "Fewest trips of the batch dimensions (the CPU's: 4 per thread of the pool)">,
  ];
  let statistics = [
    Statistic<"numBatched", "batched-nests", "Column reductions run batch by batch">,
  ];
}

def CarryColumnAccumulatorsPass : Pass<"strata-carry-column-accumulators", "::mlir::ModuleOp"> {
  let summary = "Carry a narrow column reduction's accumulators in the row loop's values, not in memory";
  let description = [{
    A column reduction `for i { parallel p { acc[.., p, ..] = combine(acc[.., p, ..], x) } }`
    loads and stores each place's accumulator on every row: LLVM cannot keep them in registers
    (it cannot tell the accumulators' buffer from the rows'), or it vectorises the row loop,
    gathering each column. (A split chunk's slab `partial[k, p]` of a 16-column sum ran at half
    a flat sum's bandwidth.) For each scf.for (no loop-carried values, a constant step) whose
    body is pure ops without regions followed by an scf.parallel of constant bounds with P
    iterations and no regions, where at least one store is an accumulator step (an associative
    combine: Accumulator.h) at a column place (its indices every induction variable of the
    scf.parallel and otherwise values defined outside the loop) whose buffer nothing else in
    the loop touches, and each such accumulator's P places hold at least `fewest-bytes` (fewer:
    LLVM vectorises the rows well, interleaving their loads):

    1. Order-free accumulators (integer add/mul without overflow flags, and/or/xor, integer and
       float max/min: the same value in any order) get R = 4 sets of P carried values (2 or 1
       when 4 would carry more than `most-values` in all, or copy more than `most-copied-ops`
       ops of the body in all; with one set, more than that leaves the loop as it is), the others (float
       sums, products) one; the first set starts from the places' values, the others from the
       identity.
    2. A loop over groups of R rows: the loop's body R times, each the pure ops then the
       scf.parallel's body once per place, in order, its induction variables constants; an
       accumulator's load is its carried value (row r's of set r of an order-free one, every
       row's of the single set of the others, so that float sums keep their order), its store
       the value carried on. Then a loop over the rows left, one at a time, into the first set.
    3. After the loops each place combines its sets and is stored.

    Both loops carry an LLVM loop annotation that turns off LLVM's loop vectorizer: it would
    take the carried values for reductions over the rows; the places are the vectors (LLVM's
    SLP vectorizer makes them). Results are bitwise those of the loop replaced. REQUIRES: loops;
    after --strata-block-float-sums (whose blocks' row loops are this form).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"mostValues", "most-values", "int64_t", /*default=*/"64",
           "Most values carried by one loop (places times accumulators and their sets)">,
    Option<"fewestBytes", "fewest-bytes", "int64_t", /*default=*/"32",
           "Fewest bytes of an accumulator's places (fewer: LLVM vectorises by rows)">,
    Option<"mostCopiedOps", "most-copied-ops", "int64_t", /*default=*/"4096",
           "Most ops of the loop's body in the carrying loops, all copies counted (what LLVM compiles)">,
  ];
  let statistics = [
    Statistic<"numCarried", "carried-loops", "Column loops whose accumulators became loop-carried values">,
  ];
}

def OutlineParallelLoopsPass : Pass<"strata-outline-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Outline large parallel loops of @main (also inside its control flow) for the runtime's parallel_for";
  let description = [{
    1. Each scf.parallel of the entry function at its top level or inside its control flow
       (scf.while, scf.if, scf.index_switch bodies, but not inside another loop nest), or
       serial scf.for around one scf.parallel (as leading-axis reductions are), that runs at
       least `min-iterations`
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

def MergeIdenticalFunctionsPass : Pass<"strata-merge-identical-functions", "::mlir::ModuleOp"> {
  let summary = "Merge private functions that are identical but for their names";
  let description = [{
    Private functions with bodies whose types, attributes (all but the name) and bodies agree
    (operation by operation, locations aside) become one: every use of a later copy refers to
    the first, and the copy is erased. A program that repeats a block (a network's layers, an
    unrolled loop) outlines one loop nest per repetition; after this pass LLVM optimises and
    compiles each distinct nest once, which is most of a first call's time.

    REQUIRES: nothing; on the CPU it runs last in the `loops` stage, after outlining.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numMerged", "merged", "Functions merged into an identical earlier one">,
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


//===-- llvm-dialect stage ------------------------------------------------------------===//

def ComplexToStandardPass : Pass<"strata-complex-to-standard"> {
  let summary = "Lower complex arithmetic to arith and math on the parts, complex.mul as fused multiply-adds";
  let description = [{
    MLIR's --convert-complex-to-standard (Smith's division, the careful abs, log1p, expm1),
    but for complex.mul: (a + bi)(c + di) = fma(a, c, -(b·d)) + fma(b, c, a·d)·i, each part
    rounded once, as XLA computes it (its backends let LLVM fuse multiply-adds; JAX's
    (1e30 + 1e30i)² in c64 is -inf + inf·i, MLIR's expansion gives nan + inf·i). Stated as
    math.fma rather than left to LLVM's fusion, which x86's vectorised complex multiply escapes,
    it is the same in every lane and on every target; the eager kernels compute the same.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def ExpandFloat8Pass : Pass<"strata-expand-float8"> {
  let summary = "Lower the conversions between the byte floats (f8E4M3FN .. f4E2M1FN) and f32/f64 to integer code";
  let description = [{
    LLVM has no 8-, 6- or 4-bit float type: the LLVM type converter stores f8E4M3FN, f8E5M2
    and the rarer formats as integers of their width (i8, i6, i4), but arith.extf and
    arith.truncf of them have no lowering. The scalar bodies convert through
    toCompute/toStorage (dialect/ScalarOps.cpp) already; what linalg's named ops build (the
    widening arith.extf in a linalg.batch_matmul body) reaches this pass.

    1. Each scalar arith.extf from a byte float becomes the integer decoding of its bits
       (exact), followed by an f32 → f64 extension when f64 was asked for.
    2. Each scalar arith.truncf to a byte float becomes the round-to-nearest-even encoding
       (an f64 source first rounded to f32 to odd, so that the value is rounded once).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
  let statistics = [
    Statistic<"numExpanded", "expanded-conversions", "8-bit float conversions expanded">,
  ];
}

def MathToLibmCallsPass : Pass<"strata-math-to-libm-calls", "::mlir::ModuleOp"> {
  let summary = "Lower f32 math.tanh to Eigen's rational approximation, and the math ops LLVM has no accurate intrinsic for (log1p, expm1, f64 tanh, erf, ...) to calls of libm";
  let description = [{
    LLVM has no accurate intrinsic for log1p, expm1, tanh, erf and the others listed in
    lowering/LibmCalls.def (the one list: the CPU runtime resolves exactly those names).

    0. math.exp and math.log (f32, f64) get guards: glibc's libmvec, which the vectoriser
       calls for them, computes a vector with any special lane (log of 0, of a negative
       number, inf, nan; exp whose result is not normal) by a scalar call per such lane, 20-40x
       slower. Those lanes get a harmless argument and their result is selected afterwards
       (exp's subnormal results from exp(x + 64 ln 2)·2^-64, within an ulp). Subnormal results are made as integers
       (no arithmetic result in the subnormal range: x86's microcode assists). math.erfc
       likewise beyond its underflow to 0 and for nan (libmvec calls the scalar erfc there).
    1. f32 math.tanh becomes Eigen's rational approximation (MLIR's port of it, the algorithm
       of the eager kernel): inline arithmetic that LLVM vectorises, 40x faster than a libm
       call per element.
    2. Each remaining op of LibmCalls.def (f64 tanh among them) becomes a func.call of its
       libm function (with an `f` suffix for f32), declared once, private and
       `llvm.readnone` (LLVM may hoist, merge and drop the calls). Other element types are an
       error.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let statistics = [
    Statistic<"numGuarded", "guarded-exp-log", "exp, log and erfc ops whose special lanes were kept from libmvec">,
    Statistic<"numApproximated", "approximated-tanh", "f32 tanh ops approximated inline">,
    Statistic<"numCalls", "libm-calls", "Ops turned into libm calls">,
  ];
}

def ParallelLaunchPass : Pass<"strata-parallel-launch", "::mlir::ModuleOp"> {
  let summary = "Launch outlined parallel loops and GEMM epilogues through the runtime (LLVM dialect)";
  let description = [{
    1. Dot epilogues (--strata-runtime-gemm): each call of a GEMM wrapper G
       (strata.gemm_epilogue_of = @E) becomes strata_rt_dot_ep_<t>(the dot's arguments,
       E_task, ctx), with ctx a stack struct of the captured values and E_task(ctx, m0, m1, n0,
       n1) calling E on one output block; G is erased.
    2. For each function F outlined by --strata-outline-parallel-loops (strata.parallel_grain),
       a trampoline F_task(ctx, lo, hi) loads the captured values from the struct at ctx and
       calls F(lo, hi, ...).
    3. Each call of F becomes: store the captured values in a stack struct, then
       strata_rt_parallel_for(F_task, ctx, hi - lo, grain), which splits the range across the
       thread pool (CpuAbi.h).
    4. The aligned pointers of the buffer arguments of F and E get `noalias` when
       strata.noalias_args says so (LLVM then vectorises without runtime alias checks and
       keeps reduction accumulators in registers).

    REQUIRES: the LLVM dialect; outlined functions carry strata.arg_types.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numLaunches", "parallel-launches", "Calls of outlined loops launched through parallel_for">,
    Statistic<"numEpilogueLaunches", "epilogue-launches", "GEMMs launched with their epilogue">,
  ];
}

def CpuEntryPass : Pass<"strata-cpu-entry", "::mlir::ModuleOp"> {
  let summary = "Add strata_entry(void**), which calls the entry function with descriptors of bare buffers";
  let description = [{
    The runtime calls one function, `strata_entry(void* const* buffers)` (CpuAbi.h).

    1. The entry function is the LLVM function carrying strata.entry_arg_types (set by
       --strata-scratch-arena): its arguments' memref types, each static and contiguous.
    2. strata_entry loads one pointer per buffer and rebuilds its memref descriptor (allocated
       and aligned pointer, offset 0, the static sizes, row-major strides), then calls the
       entry function with them.
    3. The entry function's aligned pointers get `noalias`: inputs are only read, and outputs
       and the scratch arena overlap nothing.
    4. The entry function becomes internal: called once, it is inlined into strata_entry and
       the descriptors' constants fold into it.

    REQUIRES: the LLVM dialect.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let statistics = [
    Statistic<"numBuffers", "buffers", "Buffers passed through strata_entry">,
  ];
}

#endif  // STRATA_LOWERING_PASSES_TD

def GpuMapLoopsPass : Pass<"strata-gpu-map-loops", "::mlir::ModuleOp"> {
  let summary = "Map the entry function's loop nests onto GPU blocks and threads";
  let description = [{
    Prepares the `loops` stage of the cuda target for convert-parallel-loops-to-gpu: every
    loop nest of the entry function becomes one kernel, and nothing but views, copies and
    constants is left to run on the host.

    1. Each run of top-level operations that touch memory and are not a parallel loop (a full
       reduction's scf.for, a store initialising a 0-d accumulator) is moved into a parallel
       loop of one iteration: one thread runs it.
    2. Each top-level scf.parallel is collapsed to one dimension (its iterations numbered in
       row-major order: consecutive threads touch consecutive elements, so loads coalesce),
       tiled by `block-size` (a guard skips the tail) and mapped: tiles to blocks (x), the
       iterations of a tile to threads (x). A loop of fewer iterations gets a block of that
       many threads, rounded up to a warp.
    3. Parallel loops nested inside run sequentially in their thread.
    4. Except (`row-reductions`): a loop over rows whose body accumulates along each row in
       scf.for loops (acc[row] = combine(acc[row], x)), as softmax and layer norm lower, runs
       one row per block: the block's threads split each row loop, combine their partial
       results with gpu.all_reduce (warp shuffles and shared memory), one thread stores the
       result, and a barrier follows each step.

    6. Before 2 and 5 (`transpose-tiles`): an elementwise loop that reads an operand with its
       innermost variable in a leading place runs in 32x32 tiles, each a block that reads the
       operand's tile along its rows into shared memory and writes the result along the
       output's rows (GpuTransposeTiles.h; strata-gpu-workgroup-buffers makes the tiles
       shared after convert-parallel-loops-to-gpu).
    5. Before 2 (`vector-lanes`): an elementwise loop whose innermost extent divides into
       runs of `vector-lanes` elements gives each thread one run: each contiguous load and
       store becomes one vector access (8 or 16 bytes) when the thread finds its buffers
       aligned at run time, scalar accesses otherwise (GpuWideAccesses.h).

    REQUIRES: bufferized, static loop bounds, views of the scratch arena (no allocation).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect", "::mlir::affine::AffineDialect",
                           "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of a mapped loop">,
    Option<"rowReductions", "row-reductions", "bool", /*default=*/"true",
           "Run a loop over rows that reduces along each row one row per block">,
    Option<"vectorLanes", "vector-lanes", "int64_t", /*default=*/"4",
           "Consecutive elements an elementwise loop's thread loads and stores at once (1: off)">,
    Option<"transposeTiles", "transpose-tiles", "bool", /*default=*/"true",
           "Run an elementwise loop that reads an operand transposed in 32x32 tiles through shared memory">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Loop nests mapped to a grid of blocks">,
    Statistic<"numWideKernels", "wide-kernels", "Elementwise loops given vector loads and stores">,
    Statistic<"numTransposeKernels", "transpose-kernels", "Transposing loops run in tiles through shared memory">,
    Statistic<"numRowKernels", "row-kernels", "Loops over rows mapped one row per block">,
    Statistic<"numSerial", "serial-kernels", "Runs of host operations moved into a one-thread loop">,
  ];
}

def GpuWorkgroupBuffersPass : Pass<"strata-gpu-workgroup-buffers", "::mlir::ModuleOp"> {
  let summary = "Turn a kernel's workgroup-space allocas into its launch's workgroup buffers";
  let description = [{
    strata-gpu-map-loops asks for a buffer a block shares (a transpose's tile) with a
    `memref.alloca` in the workgroup address space inside the loop its threads run; after
    convert-parallel-loops-to-gpu, each becomes a workgroup attribution of its gpu.launch (one
    buffer in shared memory per block, which outlining and the NVVM lowering keep). REQUIRES:
    static shapes; every such alloca inside a gpu.launch.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numBuffers", "workgroup-buffers", "Allocas made workgroup buffers of their launch">,
  ];
}

def GpuMergeKernelsPass : Pass<"strata-gpu-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    gpu-kernel-outlining makes one gpu.module per kernel, each holding a function named after
    the launching function. One program is one cubin: this pass moves every kernel into the
    first module, renamed `@kernels::@<its module's name>` (unique, as module names are), and
    points each gpu.launch_func at it. Kernels share nothing else (outlined kernels call no
    functions), so nothing else moves.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}
