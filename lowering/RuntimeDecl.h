// lowering/RuntimeDecl.h — calls of CPU runtime functions (CpuAbi.h) from lowerings: the
// private declaration of a runtime function in a module, made once (GEMM, sort, linalg,
// collectives, convolution), and the tensor plumbing of a call that reads operands in place
// and writes a fresh result buffer (collectives, convolution).
#pragma once

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

inline func::FuncOp declareRuntime(OpBuilder& b, ModuleOp module, StringRef name, FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name)) return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

// The aligned address (an index) of a buffer.
inline Value alignedPointer(OpBuilder& b, Location loc, Value memref) {
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref).getResult();
}

// The address of `tensor`'s buffer, read in place (read_only: bufferization keeps the buffer as
// it is, and copies one that is not contiguous).
inline Value readOnlyPointer(OpBuilder& b, Location loc, Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  return alignedPointer(
      b, loc, bufferization::ToBufferOp::create(b, loc, MemRefType::get(t.getShape(), t.getElementType()), tensor, true));
}

// A new buffer of type `t` for a runtime call to write (a copy of `copyOf` when given).
inline Value freshBuffer(OpBuilder& b, Location loc, RankedTensorType t, Value copyOf = {}) {
  Value fresh = copyOf ? bufferization::AllocTensorOp::create(b, loc, t, ValueRange{}, copyOf)
                       : bufferization::AllocTensorOp::create(b, loc, t, ValueRange{});
  return bufferization::ToBufferOp::create(b, loc, MemRefType::get(t.getShape(), t.getElementType()), fresh);
}

// Calls runtime function `name` on `args` (their types make its signature) and gives `out`, the
// buffer it writes, as the result tensor of type `type` (restrict: nothing else aliases it). The
// pointers go to the call itself, so that buffer assignment sees every buffer live up to the call
// (transforms/BufferAssignment.cpp).
inline Value callRuntime(OpBuilder& b, Location loc, ModuleOp module, StringRef name, ValueRange args, Value out,
                         RankedTensorType type) {
  auto fnType = FunctionType::get(b.getContext(), TypeRange(args), {});
  func::CallOp::create(b, loc, declareRuntime(b, module, name, fnType), args);
  return bufferization::ToTensorOp::create(b, loc, type, out, /*restrict=*/true, /*writable=*/true).getResult();
}

}  // namespace mlir::strata
