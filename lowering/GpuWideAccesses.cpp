// Wide loads and stores for the GPU's elementwise loops (GpuWideAccesses.h).
#include "lowering/GpuWideAccesses.h"

#include <algorithm>
#include <optional>

#include "llvm/ADT/MapVector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::strata {
namespace {

// The byte alignment a wide access of `lanes` elements of `m` needs (up to 16), or 0 when its
// layout cannot keep every run of `lanes` elements that starts at a multiple of `lanes` on it.
int64_t neededAlignment(MemRefType m, int64_t lanes) {
  Type e = m.getElementType();
  if (!e.isIntOrFloat() || e.getIntOrFloatBitWidth() % 8 != 0) return 0;
  int64_t bytes = e.getIntOrFloatBitWidth() / 8;
  int64_t need = std::min<int64_t>(16, bytes * lanes);
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(m.getStridesAndOffset(strides, offset)) || strides.empty() || strides.back() != 1) return 0;
  if (ShapedType::isDynamic(offset) || (offset * bytes) % need != 0) return 0;
  for (size_t d = 0; d + 1 < strides.size(); ++d)
    if (ShapedType::isDynamic(strides[d]) || (strides[d] * bytes) % need != 0) return 0;
  return need;
}

}  // namespace

scf::ParallelOp widenAccesses(scf::ParallelOp loop, int64_t lanes) {
  if (lanes < 2 || loop.getNumResults() != 0) return {};
  unsigned n = loop.getNumLoops();
  for (unsigned d = 0; d < n; ++d)
    if (getConstantIntValue(loop.getLowerBound()[d]) != 0 || getConstantIntValue(loop.getStep()[d]) != 1 ||
        !getConstantIntValue(loop.getUpperBound()[d]))
      return {};
  int64_t inner = *getConstantIntValue(loop.getUpperBound()[n - 1]);
  if (inner < lanes || inner % lanes != 0) return {};
  Block* body = loop.getBody();
  Value iv = loop.getInductionVars()[n - 1];

  // What varies along the innermost dimension: the variable and whatever is computed from it.
  // A varying value may only be the last index of an access (exactly the variable) or data.
  llvm::DenseSet<Value> varying{iv};
  SmallVector<Operation*> wide;                 // the contiguous loads and stores
  llvm::MapVector<Value, int64_t> alignments;  // their buffers, each with the alignment it needs
  auto varies = [&](Value v) { return varying.contains(v); };
  for (Operation& op : body->without_terminator()) {
    if (op.getNumRegions()) return {};
    ValueRange indices;
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op)) indices = load.getIndices(), memref = load.getMemref();
    else if (auto store = dyn_cast<memref::StoreOp>(op)) indices = store.getIndices(), memref = store.getMemref();
    else if (!isMemoryEffectFree(&op)) return {};
    if (memref) {
      if (loop->isAncestor(memref.getParentRegion()->getParentOp())) return {};  // a view made per iteration
      bool contiguous = !indices.empty() && indices.back() == iv;
      if (llvm::any_of(contiguous ? indices.drop_back() : indices, varies)) return {};  // a gather
      if (!contiguous && isa<memref::StoreOp>(op)) return {};  // every lane would store to one place
      if (contiguous) {
        wide.push_back(&op);
        alignments.insert({memref, 0});
        if (isa<memref::LoadOp>(op)) varying.insert(op.getResult(0));
      }
      continue;  // else a load of one value for all lanes (a 0-d input, a broadcast)
    }
    if (llvm::any_of(op.getOperands(), varies))
      for (Value r : op.getResults()) varying.insert(r);
  }
  if (wide.empty()) return {};
  for (auto& [m, need] : alignments) {
    need = neededAlignment(cast<MemRefType>(m.getType()), lanes);
    if (!need) return {};
  }

  // parallel (..., i) step (..., lanes) { if (aligned) { wide lanes } else { scalar lanes } }
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> steps(loop.getStep());
  steps.back() = arith::ConstantIndexOp::create(b, loc, lanes);
  auto widened = scf::ParallelOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), steps);
  b.setInsertionPointToStart(widened.getBody());
  Value aligned;
  for (auto [m, need] : alignments) {
    Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
    Value rem = arith::RemUIOp::create(b, loc, p, arith::ConstantIndexOp::create(b, loc, need));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem, arith::ConstantIndexOp::create(b, loc, 0));
    aligned = aligned ? arith::AndIOp::create(b, loc, aligned, ok).getResult() : ok;
  }
  auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
  SmallVector<Value> ivs(widened.getInductionVars());

  // The body once per lane, with the innermost variable + lane; `wideAccesses` turns the
  // contiguous loads into lanes of one vector.load and the stores into one vector.store.
  auto emit = [&](OpBuilder in, bool wideAccesses) {
    llvm::DenseMap<Operation*, Value> vectors;                 // load → its vector
    llvm::DenseMap<Operation*, SmallVector<Value>> storeLanes;  // store → its values so far
    for (int64_t lane = 0; lane < lanes; ++lane) {
      IRMapping map;
      for (unsigned d = 0; d + 1 < n; ++d) map.map(loop.getInductionVars()[d], ivs[d]);
      Value at = lane == 0 ? ivs.back()
                           : arith::AddIOp::create(in, loc, ivs.back(), arith::ConstantIndexOp::create(in, loc, lane))
                                 .getResult();
      map.map(iv, at);
      for (Operation& op : body->without_terminator()) {
        if (!wideAccesses || !llvm::is_contained(wide, &op)) {
          in.clone(op, map);
          continue;
        }
        SmallVector<Value> indices;
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          auto type = VectorType::get({lanes}, load.getType());
          if (lane == 0) {
            for (Value i : load.getIndices()) indices.push_back(map.lookupOrDefault(i));
            vectors[&op] = vector::LoadOp::create(in, loc, type, load.getMemref(), indices, /*nontemporal=*/false,
                                                  llvm::MaybeAlign(alignments.lookup(load.getMemref())));
          }
          map.map(load.getResult(), vector::ExtractOp::create(in, loc, vectors[&op], lane).getResult());
          continue;
        }
        // A store: its lanes' values gathered, stored by the last lane at the first's place
        // (the other indices do not vary, so the last lane's copies of them are the same).
        auto store = cast<memref::StoreOp>(op);
        SmallVector<Value>& values = storeLanes[&op];
        values.push_back(map.lookupOrDefault(store.getValueToStore()));
        if (lane + 1 == lanes) {
          auto type = VectorType::get({lanes}, store.getValueToStore().getType());
          Value v = vector::FromElementsOp::create(in, loc, type, values);
          for (Value i : store.getIndices()) indices.push_back(i == iv ? ivs.back() : map.lookupOrDefault(i));
          vector::StoreOp::create(in, loc, v, store.getMemref(), indices, /*nontemporal=*/false,
                                  llvm::MaybeAlign(alignments.lookup(store.getMemref())));
        }
      }
    }
  };
  emit(branch.getThenBodyBuilder(), true);
  emit(branch.getElseBodyBuilder(), false);
  loop.erase();
  return widened;
}

}  // namespace mlir::strata
