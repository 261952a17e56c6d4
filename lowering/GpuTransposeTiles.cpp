// Transposes through shared memory (GpuTransposeTiles.h).
#include "lowering/GpuTransposeTiles.h"

#include <optional>

#include "lowering/GpuMapping.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::strata {
namespace {

constexpr int64_t kTile = 32, kRows = 8;  // a 32x32 tile, 32x8 threads: 4 rows a thread

}  // namespace

scf::ParallelOp tileTranspose(scf::ParallelOp loop) {
  unsigned n = loop.getNumLoops();
  if (n < 2 || loop.getNumResults() != 0) return {};
  SmallVector<int64_t> extents;
  for (unsigned d = 0; d < n; ++d) {
    if (getConstantIntValue(loop.getLowerBound()[d]) != 0 || getConstantIntValue(loop.getStep()[d]) != 1) return {};
    std::optional<int64_t> e = getConstantIntValue(loop.getUpperBound()[d]);
    if (!e) return {};
    extents.push_back(*e);
  }
  const int64_t ei = extents[n - 2], ej = extents[n - 1];
  if (ei < kTile || ej < kTile) return {};
  const int64_t ti = (ei + kTile - 1) / kTile, tj = (ej + kTile - 1) / kTile;
  int64_t blocks = ti * tj;
  for (unsigned d = 0; d + 2 < n; ++d) blocks *= extents[d];
  if (blocks > kMaxGpuBlocks) return {};

  Block* body = loop.getBody();
  SmallVector<Value> ivs(loop.getInductionVars());
  Value i = ivs[n - 2], j = ivs[n - 1];
  auto outside = [&](Value v) { return !loop->isAncestor(v.getParentRegion()->getParentOp()); };
  auto fixed = [&](Value v) { return llvm::is_contained(ivs, v) || outside(v); };
  SmallVector<memref::LoadOp> transposed;
  for (Operation& op : body->without_terminator()) {
    if (op.getNumRegions()) return {};
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      ValueRange idx = load.getIndices();
      if (!llvm::all_of(idx, fixed) || !outside(load.getMemref())) return {};
      if (idx.empty() || !llvm::is_contained(idx.drop_back(), j)) continue;  // j last or absent
      Type e = load.getType();
      if (idx.back() != i || !e.isIntOrFloat() || e.getIntOrFloatBitWidth() > 64) return {};
      transposed.push_back(load);
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (store.getIndices().empty() || store.getIndices().back() != j || !llvm::all_of(store.getIndices(), fixed) ||
          !outside(store.getMemref()))
        return {};
    } else if (!isMemoryEffectFree(&op)) {
      return {};
    }
  }
  if (transposed.empty() || transposed.size() > 2) return {};

  MLIRContext* ctx = loop.getContext();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto c = [&](OpBuilder& ob, int64_t v) -> Value { return arith::ConstantIndexOp::create(ob, loc, v); };
  auto grid = scf::ParallelOp::create(b, loc, ValueRange{c(b, 0)}, ValueRange{c(b, blocks)}, ValueRange{c(b, 1)});
  b.setInsertionPointToStart(grid.getBody());
  auto threads = scf::ParallelOp::create(b, loc, ValueRange{c(b, 0)}, ValueRange{c(b, kTile * kRows)},
                                         ValueRange{c(b, 1)});
  b.setInsertionPointToStart(threads.getBody());
  Value tid = threads.getInductionVars()[0];
  Value tx = arith::RemUIOp::create(b, loc, tid, c(b, kTile)), ty = arith::DivUIOp::create(b, loc, tid, c(b, kTile));
  // The block's tile: (outer..., tile of i, tile of j), j's tiles innermost.
  Value rest = grid.getInductionVars()[0];
  Value tileJ = arith::RemUIOp::create(b, loc, rest, c(b, tj));
  rest = arith::DivUIOp::create(b, loc, rest, c(b, tj));
  Value tileI = arith::RemUIOp::create(b, loc, rest, c(b, ti));
  rest = arith::DivUIOp::create(b, loc, rest, c(b, ti));
  IRMapping outer;
  for (int d = static_cast<int>(n) - 3; d >= 0; --d) {
    outer.map(ivs[static_cast<size_t>(d)], arith::RemUIOp::create(b, loc, rest, c(b, extents[static_cast<size_t>(d)])).getResult());
    rest = arith::DivUIOp::create(b, loc, rest, c(b, extents[static_cast<size_t>(d)]));
  }
  Value i0 = arith::MulIOp::create(b, loc, tileI, c(b, kTile)), j0 = arith::MulIOp::create(b, loc, tileJ, c(b, kTile));
  auto shared = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<Value> tiles;
  for (memref::LoadOp t : transposed)
    tiles.push_back(memref::AllocaOp::create(
        b, loc, MemRefType::get({kTile, kTile + 1}, t.getType(), MemRefLayoutAttrInterface(), shared)));

  // for k < 4: the thread's row r = ty + 8k of the tile, its column tx; `rowIsJ`: r runs along
  // j (the read of the transposed operands) or along i (the computation and the stores).
  auto sweep = [&](bool rowIsJ, function_ref<void(OpBuilder&, IRMapping&, Value r)> each) {
    auto rows = scf::ForOp::create(b, loc, c(b, 0), c(b, kTile / kRows), c(b, 1));
    OpBuilder in = OpBuilder::atBlockTerminator(rows.getBody());
    Value r = arith::AddIOp::create(in, loc, ty, arith::MulIOp::create(in, loc, rows.getInductionVar(), c(in, kRows)));
    Value ii = arith::AddIOp::create(in, loc, i0, rowIsJ ? tx : r), jj = arith::AddIOp::create(in, loc, j0, rowIsJ ? r : tx);
    Value inside = arith::AndIOp::create(in, loc, arith::CmpIOp::create(in, loc, arith::CmpIPredicate::ult, ii, c(in, ei)),
                                         arith::CmpIOp::create(in, loc, arith::CmpIPredicate::ult, jj, c(in, ej)));
    auto guard = scf::IfOp::create(in, loc, inside, /*withElseRegion=*/false);
    OpBuilder g = guard.getThenBodyBuilder();
    IRMapping map = outer;
    map.map(i, ii);
    map.map(j, jj);
    each(g, map, r);
  };
  // 1. Each transposed operand's tile, read along i: tile[j - j0][i - i0].
  sweep(/*rowIsJ=*/true, [&](OpBuilder& g, IRMapping& map, Value r) {
    for (auto [t, tile] : llvm::zip(transposed, tiles)) {
      Operation* v = g.clone(*t, map);
      memref::StoreOp::create(g, loc, v->getResult(0), tile, ValueRange{r, tx});
    }
  });
  gpu::BarrierOp::create(b, loc);
  // 2. The body along j, its transposed values from the tiles.
  sweep(/*rowIsJ=*/false, [&](OpBuilder& g, IRMapping& map, Value r) {
    for (Operation& op : body->without_terminator()) {
      auto it = llvm::find(transposed, dyn_cast<memref::LoadOp>(op));
      if (it == transposed.end()) {
        g.clone(op, map);
        continue;
      }
      Value tile = tiles[static_cast<size_t>(it - transposed.begin())];
      map.map(op.getResult(0), memref::LoadOp::create(g, loc, tile, ValueRange{tx, r}).getResult());
    }
  });
  (void)gpu::setMappingAttr(grid, {processorMapping(ctx, gpu::Processor::BlockX)});
  (void)gpu::setMappingAttr(threads, {processorMapping(ctx, gpu::Processor::ThreadX)});
  loop.erase();
  return grid;
}

}  // namespace mlir::strata
