// --strata-assign-buffers: the BufferAssignment of the entry function, recorded on the IR (see
// Passes.td). The scratch-arena pass (lowering/ScratchArena.cpp) later places each allocation
// at its recorded offset and any allocation made after this pass around them.
//
// 1. assignBuffers(module, options), with sharing unless share=false.
// 2. Each memref.alloc gets strata.buffer (its number), strata.offset (bytes) and, when it
//    takes over a dying input's bytes, strata.in_place_of; the module gets strata.scratch_bytes
//    and strata.temporaries_bytes.
// REQUIRES: bufferized; static, contiguous allocations in the entry function only.
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "transforms/BufferAssignment.h"
#include "transforms/EntryFunction.h"
#include "transforms/Passes.h"

namespace mlir::strata {

#define GEN_PASS_DEF_STRATAASSIGNBUFFERS
#include "transforms/Passes.h.inc"

namespace {

struct StrataAssignBuffersPass : impl::StrataAssignBuffersBase<StrataAssignBuffersPass> {
  using StrataAssignBuffersBase::StrataAssignBuffersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    BufferAssignmentOptions options;
    options.share = share;
    options.keepOffsets = false;
    FailureOr<BufferAssignment> a = assignBuffers(module, options);
    if (failed(a)) return signalPassFailure();
    Builder b(&getContext());
    for (const BufferAssignment::Buffer& buf : a->buffers()) {
      buf.alloc->setAttr(kBufferAttr, b.getI64IntegerAttr(buf.id));
      buf.alloc->setAttr(kOffsetAttr, b.getI64IntegerAttr(buf.offset));
      if (buf.inPlaceOf >= 0) buf.alloc->setAttr(kInPlaceAttr, b.getI64IntegerAttr(buf.inPlaceOf));
      else buf.alloc->removeAttr(kInPlaceAttr);
      numInPlace += buf.inPlaceOf >= 0;
    }
    module->setAttr("strata.scratch_bytes", b.getI64IntegerAttr(a->arenaBytes()));
    module->setAttr("strata.temporaries_bytes", b.getI64IntegerAttr(a->temporariesBytes()));
    numBuffers += static_cast<int64_t>(a->buffers().size());
    bytesSaved += a->temporariesBytes() - a->arenaBytes();
    if (print) a->print(llvm::errs());
  }
};

}  // namespace

std::string recordedBufferAssignment(ModuleOp module) {
  func::FuncOp fn = entryFunction(module);
  if (!fn) return "";
  bool recorded = false;
  fn.walk([&](memref::AllocOp a) { recorded |= a->hasAttr(kOffsetAttr); });
  if (!recorded && !module->hasAttr("strata.scratch_bytes")) return "";
  BufferAssignmentOptions options;
  options.keepOffsets = true;
  FailureOr<BufferAssignment> a = assignBuffers(fn, options);
  if (failed(a)) return "";
  std::string text, out;
  llvm::raw_string_ostream os(text);
  a->print(os);
  llvm::StringRef rest(text);
  while (!rest.empty()) {
    auto [line, tail] = rest.split('\n');
    out += "// " + line.str() + "\n";
    rest = tail;
  }
  return out;
}

}  // namespace mlir::strata
