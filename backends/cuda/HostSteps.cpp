// The host program (HostProgram.h) read off the entry function of the gpu stage: what is left
// there after strata-gpu-map-loops and kernel outlining is constants, views, copies, global
// constants and kernel launches, and each becomes pointer arithmetic or one step.
#include "backends/cuda/HostSteps.h"

#include <cstring>
#include <string>

#include "llvm/ADT/DenseMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "lowering/CpuAbi.h"
#include "transforms/EntryFunction.h"

namespace strata::backends::cuda {
namespace {

using mlir::Operation;
using mlir::Value;

absl::Status unsupported(Operation* op, const std::string& why) {
  std::string name = op->getName().getStringRef().str();
  return absl::UnimplementedError("the cuda target cannot run `" + name + "` on the host: " + why);
}

int64_t element_bytes(mlir::Type t) {
  if (t.isIndex()) return 8;
  return std::max<int64_t>(1, static_cast<int64_t>(t.getIntOrFloatBitWidth()) / 8);
}

// The bytes of a global constant, splats expanded.
absl::StatusOr<std::string> global_bytes(mlir::memref::GlobalOp g) {
  auto init = llvm::dyn_cast_or_null<mlir::DenseElementsAttr>(g.getInitialValueAttr());
  if (!init) return absl::UnimplementedError("memref.global @" + g.getSymName().str() + " has no dense value");
  mlir::MemRefType type = g.getType();
  int64_t eb = element_bytes(type.getElementType());
  int64_t n = type.getNumElements();
  std::string out(static_cast<size_t>(n * eb), '\0');
  llvm::ArrayRef<char> raw = init.getRawData();
  bool i1 = type.getElementType().isInteger(1);
  if (i1) {  // stored bit-packed by MLIR; one byte each in memory
    for (int64_t k = 0; k < n; ++k) {
      int64_t bit = init.isSplat() ? 0 : k;
      out[static_cast<size_t>(k)] = static_cast<char>((raw[static_cast<size_t>(bit / 8)] >> (bit % 8)) & 1);
    }
    return out;
  }
  if (init.isSplat()) {
    for (int64_t k = 0; k < n; ++k) std::memcpy(&out[static_cast<size_t>(k * eb)], raw.data(), static_cast<size_t>(eb));
  } else if (static_cast<int64_t>(raw.size()) == n * eb) {
    std::memcpy(out.data(), raw.data(), raw.size());
  } else {
    return absl::UnimplementedError("memref.global @" + g.getSymName().str() + ": unexpected data size");
  }
  return out;
}

}  // namespace

absl::StatusOr<HostProgram> host_program(mlir::ModuleOp module, int num_consts, int num_inputs, int num_outputs) {
  mlir::func::FuncOp main = mlir::strata::entryFunction(module);
  if (!main || !main.getBody().hasOneBlock())
    return absl::InvalidArgumentError("the cuda target expects one entry function of one block");
  const int nargs = static_cast<int>(main.getNumArguments());
  if (nargs != num_consts + num_inputs + num_outputs + 1)
    return absl::InternalError("the entry function takes " + std::to_string(nargs) + " arguments, expected " +
                               std::to_string(num_consts + num_inputs + num_outputs + 1));
  HostProgram p;
  llvm::DenseMap<Value, BufferRef> refs;
  llvm::DenseMap<Value, int64_t> ints;
  llvm::DenseMap<Value, double> floats;
  llvm::DenseMap<Operation*, int> global_index;
  llvm::DenseMap<Operation*, int> kernel_index;
  for (int a = 0; a < nargs; ++a) {
    BufferRef r;
    if (a < num_consts) {
      r = {BufferRef::Base::constant, a, 0};
    } else if (a < num_consts + num_inputs) {
      r = {BufferRef::Base::input, a - num_consts, 0};
    } else if (a < num_consts + num_inputs + num_outputs) {
      r = {BufferRef::Base::output, a - num_consts - num_inputs, 0};
    } else {
      r = {BufferRef::Base::scratch, 0, 0};
    }
    refs[main.getArgument(static_cast<unsigned>(a))] = r;
  }
  auto ref_of = [&](Value v, Operation* user) -> absl::StatusOr<BufferRef> {
    auto it = refs.find(v);
    if (it == refs.end()) return unsupported(user, "a buffer of unknown origin");
    return it->second;
  };
  mlir::SymbolTableCollection symbols;

  for (Operation& opRef : main.getBody().front()) {
    Operation* op = &opRef;
    if (auto c = llvm::dyn_cast<mlir::arith::ConstantOp>(op)) {
      if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(c.getValue())) ints[c] = i.getInt();
      else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(c.getValue())) floats[c] = f.getValueAsDouble();
      continue;
    }
    if (auto v = llvm::dyn_cast<mlir::memref::ViewOp>(op)) {
      absl::StatusOr<BufferRef> base = ref_of(v.getSource(), op);
      if (!base.ok()) return base.status();
      auto shift = ints.find(v.getByteShift());
      if (shift == ints.end() || !v.getSizes().empty()) return unsupported(op, "a view at a dynamic offset");
      BufferRef r = *base;
      r.offset += shift->second;
      refs[v] = r;
      continue;
    }
    // Views that keep the base pointer (bare-pointer kernels read static offsets and strides
    // from the memref type).
    if (llvm::isa<mlir::memref::SubViewOp, mlir::memref::ExpandShapeOp, mlir::memref::CollapseShapeOp,
                  mlir::memref::ReinterpretCastOp, mlir::memref::CastOp>(op)) {
      absl::StatusOr<BufferRef> base = ref_of(op->getOperand(0), op);
      if (!base.ok()) return base.status();
      for (Value operand : op->getOperands().drop_front())
        if (!ints.count(operand)) return unsupported(op, "a view with dynamic offsets or sizes");
      refs[op->getResult(0)] = *base;
      continue;
    }
    if (auto g = llvm::dyn_cast<mlir::memref::GetGlobalOp>(op)) {
      auto global = symbols.lookupNearestSymbolFrom<mlir::memref::GlobalOp>(op, g.getNameAttr());
      if (!global) return unsupported(op, "no such global");
      auto [it, fresh] = global_index.try_emplace(global, static_cast<int>(p.globals.size()));
      if (fresh) {
        absl::StatusOr<std::string> bytes = global_bytes(global);
        if (!bytes.ok()) return bytes.status();
        p.globals.push_back(*std::move(bytes));
      }
      refs[g] = {BufferRef::Base::global, it->second, 0};
      continue;
    }
    if (auto c = llvm::dyn_cast<mlir::memref::CopyOp>(op)) {
      auto from = llvm::cast<mlir::MemRefType>(c.getSource().getType());
      auto to = llvm::cast<mlir::MemRefType>(c.getTarget().getType());
      if (!from.getLayout().isIdentity() || !to.getLayout().isIdentity() || !from.hasStaticShape())
        return unsupported(op, "a copy between strided buffers");
      absl::StatusOr<BufferRef> src = ref_of(c.getSource(), op), dst = ref_of(c.getTarget(), op);
      if (!src.ok()) return src.status();
      if (!dst.ok()) return dst.status();
      Step s;
      s.kind = Step::Kind::copy;
      s.src = *src;
      s.dst = *dst;
      s.bytes = from.getNumElements() * element_bytes(from.getElementType());
      if (s.bytes) p.steps.push_back(std::move(s));
      continue;
    }
    if (auto launch = llvm::dyn_cast<mlir::gpu::LaunchFuncOp>(op)) {
      Step s;
      s.kind = Step::Kind::launch;
      // A gpu.func in the gpu stage, an llvm.func once the kernels are in NVVM.
      Operation* kernel = symbols.lookupNearestSymbolFrom(op, launch.getKernel());
      if (!kernel) return unsupported(op, "no such kernel");
      auto [it, fresh] = kernel_index.try_emplace(kernel, static_cast<int>(p.kernels.size()));
      if (fresh) p.kernels.push_back(mlir::SymbolTable::getSymbolName(kernel).str());
      s.kernel = it->second;
      Value dims[6] = {launch.getGridSizeX(),  launch.getGridSizeY(),  launch.getGridSizeZ(),
                       launch.getBlockSizeX(), launch.getBlockSizeY(), launch.getBlockSizeZ()};
      for (int d = 0; d < 6; ++d) {
        auto it2 = ints.find(dims[d]);
        if (it2 == ints.end() || it2->second < 0 || it2->second > 0x7fffffff)
          return unsupported(op, "a launch of dynamic size");
        (d < 3 ? s.grid[d] : s.block[d - 3]) = static_cast<uint32_t>(it2->second);
      }
      if (Value smem = launch.getDynamicSharedMemorySize()) {
        auto it2 = ints.find(smem);
        if (it2 == ints.end()) return unsupported(op, "dynamic shared memory of dynamic size");
        s.shared_bytes = static_cast<uint32_t>(it2->second);
      }
      for (Value v : launch.getKernelOperands()) {
        KernelArg a;
        mlir::Type t = v.getType();
        if (llvm::isa<mlir::MemRefType>(t)) {
          absl::StatusOr<BufferRef> r = ref_of(v, op);
          if (!r.ok()) return r.status();
          a.kind = KernelArg::Kind::pointer;
          a.buffer = *r;
        } else if (t.isIndex() || t.isInteger(64) || t.isInteger(32) || t.isInteger(16) || t.isInteger(8) ||
                   t.isInteger(1)) {
          auto it2 = ints.find(v);
          if (it2 == ints.end()) return unsupported(op, "a kernel argument computed on the host");
          a.kind = t.isIndex() || t.isInteger(64) ? KernelArg::Kind::i64 : KernelArg::Kind::i32;
          a.i = it2->second;
          if (!t.isIndex() && !t.isInteger(64) && !t.isInteger(32))
            return unsupported(op, "a kernel argument narrower than 32 bits");
        } else if (t.isF32() || t.isF64()) {
          auto it2 = floats.find(v);
          if (it2 == floats.end()) return unsupported(op, "a kernel argument computed on the host");
          a.kind = t.isF32() ? KernelArg::Kind::f32 : KernelArg::Kind::f64;
          a.f = it2->second;
        } else {
          return unsupported(op, "a kernel argument of an unsupported type");
        }
        s.args.push_back(a);
      }
      p.steps.push_back(std::move(s));
      continue;
    }
    if (auto p = llvm::dyn_cast<mlir::memref::ExtractAlignedPointerAsIndexOp>(op)) {
      absl::StatusOr<BufferRef> r = ref_of(p.getSource(), op);
      if (!r.ok()) return r.status();
      refs[p] = *r;
      continue;
    }
    if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
      // The runtime GEMM (strata-runtime-gemm): flags, B, M, N, K, lhs, rhs, out, workspace.
      llvm::StringRef callee = call.getCallee();
      if (!callee.consume_front(::strata::cpu_abi::kDotPrefix) ||
          (call.getNumOperands() != 9 && call.getNumOperands() != 11))
        return unsupported(op, "a call of a function the GPU runtime does not have");
      int64_t type = callee == "f32" ? 0 : callee == "bf16" ? 1 : callee == "f16" ? 2 : -1;
      if (type < 0) return unsupported(op, "a GEMM of an element type cuBLASLt does not take here");
      Step s;
      s.kind = Step::Kind::gemm;
      KernelArg t;
      t.kind = KernelArg::Kind::i64;
      t.i = type;
      s.args.push_back(t);
      for (unsigned i = 0; i < 5; ++i) {
        auto it2 = ints.find(call.getOperand(i));
        if (it2 == ints.end()) return unsupported(op, "a GEMM of dynamic size");
        KernelArg a;
        a.kind = KernelArg::Kind::i64;
        a.i = it2->second;
        s.args.push_back(a);
      }
      for (unsigned i = 5; i < 8; ++i) {
        absl::StatusOr<BufferRef> r = ref_of(call.getOperand(i), op);
        if (!r.ok()) return r.status();
        KernelArg a;
        a.buffer = *r;
        s.args.push_back(a);
      }
      if (call.getNumOperands() == 11) {  // the library epilogue and the bias (or 0)
        auto kind = ints.find(call.getOperand(9));
        if (kind == ints.end()) return unsupported(op, "a GEMM epilogue chosen at run time");
        KernelArg e;
        e.kind = KernelArg::Kind::i64;
        e.i = kind->second;
        s.args.push_back(e);
        KernelArg bias;
        if (auto none = ints.find(call.getOperand(10)); none != ints.end() && none->second == 0) {
          bias.kind = KernelArg::Kind::i64;
        } else {
          absl::StatusOr<BufferRef> r = ref_of(call.getOperand(10), op);
          if (!r.ok()) return r.status();
          bias.buffer = *r;
        }
        s.args.push_back(bias);
      }
      p.steps.push_back(std::move(s));
      continue;
    }
    if (llvm::isa<mlir::func::ReturnOp>(op)) {
      if (op->getNumOperands()) return unsupported(op, "a function returning values");
      continue;
    }
    return unsupported(op, "not a launch, a copy or a view");
  }
  return p;
}

}  // namespace strata::backends::cuda
