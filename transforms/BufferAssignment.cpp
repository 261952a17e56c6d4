// assignBuffers (BufferAssignment.h): liveness on the entry function's schedule, in-place
// reuse, then offsets.
//
// 1. Schedule: the top-level ops of the function, numbered in order. A buffer is live from
//    the first op that uses the alloc, a view of it (subview, reshape, cast: any op whose
//    memref result comes from it) or a pointer taken from it (or the table a pointer is stored
//    in), to the last; uses nested in loops or calls count at the enclosing top-level op.
// 2. In place: when the op at a buffer B's first use is an elementwise linalg op (all loops
//    parallel) that writes B through an identity map and reads a buffer A through an identity
//    map, A dies there (its last use), has B's shape and element width and is read by nothing
//    else in that op, then B takes A's bytes: each element is read before it is written, and
//    by nobody else.
// 3. Offsets: buffers sharing bytes form one slot; slots are placed largest first, each at
//    the lowest 64-byte-aligned offset free of every placed slot whose live ranges overlap
//    its own (first fit by decreasing size). Buffers that already carry strata.offset keep it.
//    Without sharing, each buffer gets the next free offset in order of first use.
#include "transforms/BufferAssignment.h"
#include "transforms/EntryFunction.h"
#include "dialect/ElementTypes.h"

#include <algorithm>
#include <utility>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {
namespace {

int64_t alignUp(int64_t n, int64_t a) { return (n + a - 1) / a * a; }


// The first and last top-level positions at which `v` or a memref derived from it is used.
std::pair<int64_t, int64_t> liveRange(Value v, Block& block, const DenseMap<Operation*, int64_t>& index) {
  SmallVector<int64_t> uses = usePositions(v, block, index);
  if (uses.empty()) return {INT64_MAX, -1};
  auto [first, last] = std::minmax_element(uses.begin(), uses.end());
  return {*first, *last};
}

// The allocation a memref value views (through subviews, reshapes, casts), or null.
Operation* rootAlloc(Value v) { return viewedBuffer(v).getDefiningOp<memref::AllocOp>(); }

// The allocation whose bytes the top-level `op` may write `out` over: op is elementwise (all
// loops parallel), writes `out` itself through the identity map, and reads that allocation
// through the identity map and through no other operand.
Operation* inPlaceSource(Operation* op, Value out, const DenseMap<Operation*, int>& ids) {
  auto l = dyn_cast<linalg::LinalgOp>(op);
  if (!l || !l.hasPureBufferSemantics() || l.getNumLoops() != l.getNumParallelLoops()) return nullptr;
  OpOperand* init = nullptr;
  for (OpOperand& o : l.getDpsInitsMutable())
    if (o.get() == out) init = &o;
  if (!init || !l.getMatchingIndexingMap(init).isIdentity() || l.payloadUsesValueFromOperand(init))
    return nullptr;
  for (OpOperand* in : l.getDpsInputOperands()) {
    Operation* a = in->get().getDefiningOp();
    if (!a || !ids.count(a) || !l.getMatchingIndexingMap(in).isIdentity()) continue;
    // Element i of the result lands exactly on element i of the input.
    if (in->get().getType() != out.getType() &&
        (cast<MemRefType>(in->get().getType()).getShape() != cast<MemRefType>(out.getType()).getShape() ||
         storageBits(cast<MemRefType>(in->get().getType()).getElementType()) !=
             storageBits(cast<MemRefType>(out.getType()).getElementType())))
      continue;
    bool alone = true;
    for (OpOperand& other : op->getOpOperands())
      if (&other != in && rootAlloc(other.get()) == a) alone = false;
    if (alone) return a;
  }
  return nullptr;
}

}  // namespace

SmallVector<int64_t> usePositions(Value v, Block& block, const DenseMap<Operation*, int64_t>& index) {
  SmallVector<int64_t> out;
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (!seen.insert(cur).second) continue;
    for (Operation* user : cur.getUsers()) {
      if (isa<memref::DeallocOp>(user)) continue;
      if (Operation* top = block.findAncestorOpInBlock(*user))
        if (auto it = index.find(top); it != index.end()) out.push_back(it->second);
      // Views, and pointers taken from the buffer (runtime calls read and write through them).
      // (An address plus an offset is still the buffer's: a view's first element.)
      bool pointer = isa<memref::ExtractAlignedPointerAsIndexOp, memref::ExtractStridedMetadataOp>(user) ||
                     (isa<arith::AddIOp>(user) && isa<IndexType>(cur.getType()));
      for (Value r : user->getResults())
        if (pointer || isa<MemRefType>(r.getType())) work.push_back(r);
      // A pointer stored in a table (a host callback's): whoever reads the table uses the buffer.
      if (auto store = dyn_cast<memref::StoreOp>(user); store && store.getValueToStore() == cur &&
                                                         isa<IndexType>(cur.getType()))
        work.push_back(store.getMemRef());
      // A buffer yielded out of a region (scf.if / index_switch / while / for) lives on as
      // the parent op's results (any of them, conservatively), read after it.
      if (user->hasTrait<OpTrait::IsTerminator>())
        if (Operation* parent = user->getParentOp(); parent && !isa<func::FuncOp>(parent))
          for (Value r : parent->getResults())
            if (isa<MemRefType>(r.getType())) work.push_back(r);
    }
  }
  return out;
}

Value viewedBuffer(Value v) {
  while (Operation* def = v.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp,
             memref::ReinterpretCastOp, memref::ViewOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

int64_t byteSize(MemRefType t) { return storageBytes(t); }

const BufferAssignment::Buffer* BufferAssignment::find(Operation* alloc) const {
  for (const Buffer& b : buffers_)
    if (b.alloc == alloc) return &b;
  return nullptr;
}

void BufferAssignment::print(llvm::raw_ostream& os) const {
  os << "BufferAssignment: " << buffers_.size() << " temporaries, " << temporaries_
     << " bytes; arena " << arena_ << " bytes\n";
  for (const Buffer& b : buffers_) {
    os << "  buffer " << b.id << ": " << b.size << " bytes at offset " << b.offset << ", live ["
       << b.first << ", " << b.last << "], " << b.value;
    if (!b.writer.empty()) os << ", first used by " << b.writer;
    if (b.inPlaceOf >= 0) os << ", in place over buffer " << b.inPlaceOf;
    os << "\n";
  }
}

std::string BufferAssignment::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

FailureOr<BufferAssignment> assignBuffers(func::FuncOp fn, const BufferAssignmentOptions& options) {
  ModuleOp module = fn->getParentOfType<ModuleOp>();
  bool stray = false;
  if (module)
    module.walk([&](memref::AllocOp a) {
      if (a->getParentOfType<func::FuncOp>() != fn) {
        a.emitError("buffer assignment: expects allocations only in @") << fn.getName();
        stray = true;
      }
    });
  if (stray) return failure();

  Block& block = fn.getBody().front();
  DenseMap<Operation*, int64_t> index;
  SmallVector<Operation*> schedule;
  for (Operation& op : block) {
    index[&op] = static_cast<int64_t>(schedule.size());
    schedule.push_back(&op);
  }

  BufferAssignment result;
  std::vector<BufferAssignment::Buffer>& buffers = result.buffers_;
  DenseMap<Operation*, int> ids;
  bool bad = false;
  fn.walk([&](memref::AllocOp a) {
    MemRefType t = a.getType();
    if (!t.hasStaticShape() || !t.getLayout().isIdentity()) {
      a.emitError("buffer assignment: expects static, contiguous allocations, but got ") << t;
      bad = true;
      return;
    }
    BufferAssignment::Buffer b;
    b.id = static_cast<int>(buffers.size());
    b.alloc = a;
    b.size = alignUp(std::max<int64_t>(1, byteSize(t)), options.alignment);
    auto [first, last] = liveRange(a.getResult(), block, index);
    int64_t at = index.lookup(block.findAncestorOpInBlock(*a));
    b.first = first == INT64_MAX ? at : first;
    b.last = std::max(b.first, last);
    if (options.keepOffsets)
      if (auto o = a->getAttrOfType<IntegerAttr>(kOffsetAttr)) {
        b.offset = o.getInt();
        b.kept = true;
        if (auto p = a->getAttrOfType<IntegerAttr>(kInPlaceAttr)) b.inPlaceOf = static_cast<int>(p.getInt());
      }
    ids[a] = b.id;
    buffers.push_back(b);
  });
  if (bad) return failure();

  // Names for printing, as the module prints them.
  {
    AsmState state(fn);
    for (BufferAssignment::Buffer& b : buffers) {
      llvm::raw_string_ostream os(b.value);
      b.alloc->getResult(0).printAsOperand(os, state);
      os << " : " << b.alloc->getResult(0).getType();
      b.writer = schedule[b.first]->getName().getStringRef().str();
    }
  }

  // 2. In place: B over A where A dies at B's first use.
  SmallVector<int> slotOf(buffers.size());
  for (size_t k = 0; k < buffers.size(); ++k) slotOf[k] = static_cast<int>(k);
  if (options.share && options.inPlace) {
    DenseSet<int> taken;
    for (BufferAssignment::Buffer& b : buffers) {
      if (b.kept) continue;
      Operation* src = inPlaceSource(schedule[b.first], b.alloc->getResult(0), ids);
      if (!src) continue;
      BufferAssignment::Buffer& a = buffers[ids[src]];
      if (a.id == b.id || a.last != b.first || a.size != b.size || a.kept || taken.contains(a.id)) continue;
      taken.insert(a.id);
      b.inPlaceOf = a.id;
      slotOf[b.id] = slotOf[a.id];
    }
  }

  // 3. Offsets, per slot.
  struct Slot {
    int64_t size = 0, offset = 0;
    SmallVector<std::pair<int64_t, int64_t>> ranges;
    SmallVector<int> members;
    bool kept = false, placed = false;
    int64_t first = INT64_MAX;
  };
  std::vector<Slot> slots(buffers.size());
  for (BufferAssignment::Buffer& b : buffers) {
    Slot& s = slots[slotOf[b.id]];
    s.size = std::max(s.size, b.size);
    s.ranges.push_back({b.first, b.last});
    s.members.push_back(b.id);
    s.first = std::min(s.first, b.first);
    if (b.kept) {
      s.kept = s.placed = true;
      s.offset = b.offset;
    }
  }
  auto overlap = [](const Slot& x, const Slot& y) {
    for (auto [a0, a1] : x.ranges)
      for (auto [b0, b1] : y.ranges)
        if (a0 <= b1 && b0 <= a1) return true;
    return false;
  };
  SmallVector<int> order;
  for (size_t k = 0; k < slots.size(); ++k)
    if (!slots[k].members.empty() && !slots[k].kept) order.push_back(static_cast<int>(k));
  // Total orders (ties by slot number), so that sort is as deterministic as a stable sort.
  if (options.share) {
    llvm::sort(order, [&](int x, int y) {
      if (slots[x].size != slots[y].size) return slots[x].size > slots[y].size;
      if (slots[x].first != slots[y].first) return slots[x].first < slots[y].first;
      return x < y;
    });
  } else {
    llvm::sort(order, [&](int x, int y) { return std::make_pair(slots[x].first, x) < std::make_pair(slots[y].first, y); });
  }
  int64_t end = 0;
  for (const Slot& s : slots)
    if (s.kept) end = std::max(end, s.offset + s.size);
  for (int k : order) {
    Slot& s = slots[k];
    if (!options.share) {
      s.offset = alignUp(end, options.alignment);
      end = s.offset + s.size;
      s.placed = true;
      continue;
    }
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (const Slot& p : slots)
      if (p.placed && overlap(p, s)) busy.push_back({p.offset, p.offset + p.size});
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + s.size <= lo) break;
      offset = std::max(offset, alignUp(hi, options.alignment));
    }
    s.offset = offset;
    s.placed = true;
    end = std::max(end, offset + s.size);
  }
  for (BufferAssignment::Buffer& b : buffers) {
    if (!b.kept) b.offset = slots[slotOf[b.id]].offset;
    result.temporaries_ += b.size;
    result.arena_ = std::max(result.arena_, b.offset + b.size);
  }
  return result;
}

FailureOr<BufferAssignment> assignBuffers(ModuleOp module, const BufferAssignmentOptions& options) {
  func::FuncOp fn = entryFunction(module);
  if (!fn) {
    module.emitError("buffer assignment: expects a function @main (or one public function)");
    return failure();
  }
  return assignBuffers(fn, options);
}

}  // namespace mlir::strata
