#include "lowering/Dialects.h"

#include "dialect/StablehloCompat.h"
#include "dialect/StrataDialect.h"
#include "lowering/CpuPipeline.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::strata::registerStrataDialects(DialectRegistry& registry) {
  registry.insert<StrataDialect, StablehloCompatDialect, ChloCompatDialect, func::FuncDialect, arith::ArithDialect, math::MathDialect,
                  complex::ComplexDialect, tensor::TensorDialect, linalg::LinalgDialect, scf::SCFDialect,
                  cf::ControlFlowDialect, memref::MemRefDialect,
                  bufferization::BufferizationDialect, vector::VectorDialect,
                  affine::AffineDialect, LLVM::LLVMDialect>();
  registerCpuPipelineInterfaces(registry);
}
