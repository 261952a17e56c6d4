// --strata-fuse: the ops of each function grouped into strata.fusion regions, each of which the
// CPU pipeline lowers to one loop nest (lowering/FusionToLinalg.cpp). See Passes.td.
//
// 1. Every top-level op is classified from its traits and interfaces: elementwise (the
//    Elementwise trait), index maps (IndexMapOpInterface with a map: broadcast_in_dim,
//    transpose, slice, reshapes that only add or drop size-1 dimensions; and pad without
//    interior padding and concatenate, read piecewise), splat constants,
//    reductions whose body is elementwise, dot_general, and opaque ops (everything else: they
//    are never fused).
// 2. Dot epilogues: from each f32/f64 2-D dot_general, the elementwise ops of its shape and type
//    that read only the dot, each other, or values independent of the dot form its epilogue;
//    the set is cut back until exactly one of its values is used outside it (the region's
//    result), so that the epilogue can run in place on each output block of the GEMM.
// 3. From the last op to the first, each elementwise or map op is either inlined into all of its
//    consumers' regions (computed again in each) or materialized (stored once, read from
//    memory). It is materialized when a consumer cannot fuse it (an opaque op, a dot operand, a
//    function result), when it is expensive (Expensive trait) and would be computed more than
//    once per element (several consumers, or a broadcast that reuses each element), or when a
//    cheap op would be copied into more than max-duplicates regions.
// 4. Each materialized op, each reduction and each dot with an epilogue roots a group: itself
//    and the inlined ops it reads, transitively. A reduction is always a root: nothing that
//    depends on it joins its group, so no reduction is ever recomputed or fused into its own
//    input.
// 5. Merges, while any applies: a loop group over a reduction's kept shape that reads its
//    result joins the reduction's group (its epilogue, a second small nest); a loop group whose
//    result another group of the same iteration space also reads joins that group (the value
//    is stored by the loop that reads it: multi-output); two groups of one iteration space that
//    read the same input become one (siblings). A merge that would create a cycle between
//    groups is refused.
// 6. Groups of two or more ops become strata.fusion regions, placed by a topological sort of
//    the groups and the remaining ops (original order wherever the dependencies allow).
// REQUIRES: static shapes; runs after canonicalization and CSE.
#include <optional>
#include <queue>

#include "dialect/StrataOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "transforms/Passes.h"

namespace mlir::strata {

#define GEN_PASS_DEF_STRATAFUSE
#include "transforms/Passes.h.inc"

namespace {

enum class Kind { Elementwise, Map, Constant, Reduce, Dot, Opaque };
enum class GroupKind { Loop, Input, Output };

const char* kindName(GroupKind k) {
  return k == GroupKind::Loop ? "loop" : k == GroupKind::Input ? "input" : "output";
}

bool isStrata(Operation* op) { return isa_and_nonnull<StrataDialect>(op->getDialect()); }

RankedTensorType tensorType(Value v) { return dyn_cast<RankedTensorType>(v.getType()); }

SmallVector<int64_t> nonUnit(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> r;
  for (int64_t d : shape)
    if (d != 1) r.push_back(d);
  return r;
}

// An op computing each element from its operands' elements at the same index.
bool isElementwise(Operation* op) {
  if (!isStrata(op) || op->getNumResults() != 1 || !tensorType(op->getResult(0))) return false;
  return op->hasTrait<OpTrait::Elementwise>();
}

// An op moving elements at an affine index map (not a reshape that reorders them).
bool isIndexMap(Operation* op) {
  auto map = dyn_cast<IndexMapOpInterface>(op);
  return map && map.getOperandIndexMap();
}

bool isExpensive(Operation* op) { return op->hasTrait<OpTrait::strata::Expensive>(); }

// A reduction the loop emitter can compute: an elementwise body on 0-d values, using nothing
// from outside it.
bool isFusibleReduce(ReduceOp r) {
  Block& body = r.getBody().front();
  for (Operation& op : body.without_terminator())
    if (!isElementwise(&op) && !isa<ConstantOp>(op)) return false;
  SetVector<Value> above;
  getUsedValuesDefinedAbove(r.getBody(), above);
  return above.empty();
}

// A dot whose output blocks the target's GEMM can hand to an epilogue: unbatched, [M, N], its
// operands and result of one element type among `epilogueTypes` (the target says which: the
// CPU's runtime GEMM takes f32 and f64).
bool isEpilogueDot(DotGeneralOp d, ArrayRef<std::string> epilogueTypes) {
  Type t = d.getType().getElementType();
  std::string name;
  llvm::raw_string_ostream(name) << t;
  return llvm::is_contained(epilogueTypes, name) && d.getType().getRank() == 2 &&
         d.getLhsBatchingDimensions().empty() && d.getLhs().getType().getElementType() == t &&
         d.getRhs().getType().getElementType() == t;
}

bool isSplatConstant(Operation* op) {
  auto c = dyn_cast_or_null<ConstantOp>(op);
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  return dense && dense.isSplat();
}

Kind classify(Operation* op, ArrayRef<std::string> epilogueTypes) {
  if (!isStrata(op)) return Kind::Opaque;
  if (isElementwise(op)) return Kind::Elementwise;
  if (isIndexMap(op)) return Kind::Map;
  // Pad (no interior padding) and concatenate read each operand element once, at an index
  // chosen by the result's index: fused like index maps (FusionToLinalg computes them with a
  // select of in-bounds reads), so a stencil of slices and concatenates is one loop.
  // Float values only: the stencils of numerical code; integer concatenates (random bits'
  // halves) gain little and cost compile time.
  if (isa<PadOp, ConcatenateOp>(op) && !isa<FloatType>(tensorType(op->getResult(0)).getElementType()))
    return Kind::Opaque;
  if (auto pad = dyn_cast<PadOp>(op))
    return llvm::all_of(pad.getInteriorPadding(), [](int64_t x) { return x == 0; }) ? Kind::Map : Kind::Opaque;
  if (isa<ConcatenateOp>(op)) return Kind::Map;
  if (isa<ConstantOp>(op)) return isSplatConstant(op) ? Kind::Constant : Kind::Opaque;
  if (auto r = dyn_cast<ReduceOp>(op)) return isFusibleReduce(r) ? Kind::Reduce : Kind::Opaque;
  if (auto d = dyn_cast<DotGeneralOp>(op)) return isEpilogueDot(d, epilogueTypes) ? Kind::Dot : Kind::Opaque;
  return Kind::Opaque;
}

// Pad (no interior padding) and concatenate of floats: read piecewise (see classify).
bool isPiecewise(Operation* op) {
  return isa<PadOp, ConcatenateOp>(op) && isa<FloatType>(tensorType(op->getResult(0)).getElementType());
}

// Each element of the operand is read more than once (an index map that adds elements: a
// broadcast).
bool expands(Operation* op) {
  if (!isIndexMap(op)) return false;
  return tensorType(op->getResult(0)).getNumElements() > tensorType(op->getOperand(0)).getNumElements();
}

struct OpInfo {
  Kind kind = Kind::Opaque;
  int64_t index = 0;
  bool inlined = false;    // computed again inside each consumer's region
  int64_t copies = 0;      // regions it is computed in (inlined ops)
  bool reused = false;     // recomputed per element of a broadcast
  int group = -1;          // the group it roots or belongs to exclusively
};

struct Group {
  GroupKind kind = GroupKind::Loop;
  SmallVector<Operation*> roots;  // materialized ops: their values may leave the region
  SetVector<Operation*> members;  // roots and the inlined ops they read
  bool alive = true;
  // The iteration space: the roots' shape (loop), the reduction's operand shape and
  // dimensions (input).
  SmallVector<int64_t> shape, dims;
};

class Fuser {
 public:
  // Fuses the ops of `block`: the function's body, or the block of a control-flow region in it
  // (a loop body fuses as a function body does).
  Fuser(func::FuncOp fn, Block& block, int64_t maxDuplicates, ArrayRef<std::string> epilogueTypes, bool log)
      : fn_(fn), block_(block), maxDuplicates_(maxDuplicates), epilogueTypes_(epilogueTypes), log_(log) {
    if (log_) state_.emplace(fn);
  }

  struct Stats {
    int64_t fusions = 0, fusedOps = 0, duplicated = 0, materialized = 0, epilogues = 0, merges = 0;
  };

  LogicalResult run(Stats& stats) {
    for (Operation& op : block_.without_terminator()) {
      ops_.push_back(&op);
      OpInfo& i = info_[&op];
      i.index = static_cast<int64_t>(ops_.size()) - 1;
      i.kind = classify(&op, epilogueTypes_);
    }
    findEpilogues(stats);
    decideInlining(stats);
    formGroups();
    mergeGroups(stats);
    LogicalResult built = build(stats);
    if (log_ && !decisions_.empty())
      llvm::errs() << "strata-fuse: @" << fn_.getName() << "\n" << decisions_;
    return built;
  }

 private:
  // ---- Naming, for the decision log ----

  std::string name(Value v) {
    if (!state_) return "";
    std::string s;
    llvm::raw_string_ostream os(s);
    v.printAsOperand(os, *state_);
    return s;
  }
  std::string describe(Operation* op) {
    if (!state_) return "";
    return (op->getNumResults() ? name(op->getResult(0)) + " (" : std::string("(")) +
           op->getName().getStringRef().str() + ")";
  }
  void note(const Twine& line) {
    if (log_) decisions_ += ("  " + line + "\n").str();
  }

  bool inBlock(Operation* op) { return op && op->getBlock() == &block_; }

  // ---- 2. Dot epilogues ----

  void findEpilogues(Stats& stats) {
    for (Operation* op : ops_) {
      auto dot = dyn_cast<DotGeneralOp>(op);
      if (!dot || info_[op].kind != Kind::Dot) continue;
      // Ops that depend on the dot (forward reachability in program order).
      DenseSet<Operation*> depends{op};
      for (Operation* o : ArrayRef(ops_).drop_front(info_[op].index + 1))
        for (Value v : o->getOperands())
          if (depends.contains(v.getDefiningOp())) {
            depends.insert(o);
            break;
          }
      SetVector<Operation*> set;
      for (Operation* o : ArrayRef(ops_).drop_front(info_[op].index + 1)) {
        if (!depends.contains(o) || info_[o].kind != Kind::Elementwise || info_[o].group >= 0 ||
            o->getResult(0).getType() != dot.getType())
          continue;
        bool ok = true;
        for (Value v : o->getOperands()) {
          Operation* d = v.getDefiningOp();
          if (d != op && !set.contains(d) && depends.contains(d)) ok = false;
        }
        if (ok) set.insert(o);
      }
      // Cut back to the values that the earliest escaping one needs, until one value escapes.
      while (!set.empty()) {
        auto escapes = [&](Operation* o) {
          for (Operation* u : o->getUsers())
            if (!set.contains(u)) return true;
          return false;
        };
        SmallVector<Operation*> out;
        if (escapes(op)) out.push_back(op);
        for (Operation* o : set)
          if (escapes(o)) out.push_back(o);
        if (out.size() == 1 && out[0] != op) break;
        Operation* first = out.front();
        if (first == op) {
          set.clear();
          break;
        }
        SetVector<Operation*> kept;
        SmallVector<Operation*> work{first};
        while (!work.empty()) {
          Operation* o = work.pop_back_val();
          if (!set.contains(o) || !kept.insert(o)) continue;
          for (Value v : o->getOperands())
            if (Operation* d = v.getDefiningOp()) work.push_back(d);
        }
        SetVector<Operation*> ordered;
        for (Operation* o : set)
          if (kept.contains(o)) ordered.insert(o);
        set = ordered;
      }
      if (set.empty()) {
        note("dot " + describe(op) + ": no epilogue (its result is needed elsewhere)");
        continue;
      }
      Group g;
      g.kind = GroupKind::Output;
      g.roots.push_back(set.back());
      g.members.insert(op);
      for (Operation* o : set) g.members.insert(o);
      int id = static_cast<int>(groups_.size());
      std::string chain;
      for (Operation* o : g.members) {
        info_[o].group = id;
        if (o != op) chain += (chain.empty() ? "" : ", ") + o->getName().getStringRef().str();
      }
      groups_.push_back(std::move(g));
      ++stats.epilogues;
      note("dot " + describe(op) + ": epilogue " + chain + " runs on each output block");
    }
  }

  // ---- 3. Inline or materialize ----

  // Whether `op` reads a piecewise op of this block through elementwise ops and index maps
  // (what inlining it would carry into each consumer's region). Looks at most 64 ops back, so
  // that long chains stay linear.
  bool readsPiecewise(Operation* op) {
    SmallVector<Operation*> work{op};
    DenseSet<Operation*> seen;
    while (!work.empty() && seen.size() < 64) {
      Operation* o = work.pop_back_val();
      for (Value v : o->getOperands()) {
        Operation* d = v.getDefiningOp();
        if (!inBlock(d) || !seen.insert(d).second) continue;
        if (isPiecewise(d)) return true;
        if (info_[d].kind == Kind::Elementwise || info_[d].kind == Kind::Map) work.push_back(d);
      }
    }
    return false;
  }

  void decideInlining(Stats& stats) {
    for (Operation* op : llvm::reverse(ops_)) {
      OpInfo& in = info_[op];
      if ((in.kind != Kind::Elementwise && in.kind != Kind::Map) || in.group >= 0) continue;
      if (op->use_empty()) continue;
      std::string opaque;
      int64_t copies = 0;
      bool reused = false;
      DenseSet<Operation*> seen;
      for (OpOperand& use : op->getResult(0).getUses()) {
        Operation* u = use.getOwner();
        bool fusible = false;
        if (inBlock(u)) {
          const OpInfo& ui = info_[u];
          fusible = ui.kind == Kind::Elementwise || ui.kind == Kind::Map ||
                    (ui.kind == Kind::Reduce &&
                     use.getOperandNumber() < cast<ReduceOp>(u).getInputs().size());
          // A piecewise op (pad, concatenate) computes every piece of its operands for each
          // element: only index maps (which cost an index computation) are read through it, so
          // nested pieces never multiply.
          if (isPiecewise(u) && !isIndexMap(op)) fusible = false;
        }
        if (!fusible) {
          if (opaque.empty()) opaque = u->getName().getStringRef().str();
          continue;
        }
        if (!seen.insert(u).second) continue;
        const OpInfo& ui = info_[u];
        copies += ui.inlined ? ui.copies : 1;
        if ((ui.inlined && ui.reused) || expands(u)) reused = true;
      }
      std::string why;
      if (!opaque.empty()) why = "read by " + opaque;
      else if (isExpensive(op) && copies > 1) why = "expensive, " + std::to_string(copies) + " consumers";
      else if (isExpensive(op) && reused) why = "expensive, each element broadcast";
      else if (copies > maxDuplicates_) why = std::to_string(copies) + " consumers";
      // A piecewise op inlined in several regions would read its pieces again in each, through
      // a select per element: stored once instead.
      else if (isPiecewise(op) && copies > 1) why = "piecewise, " + std::to_string(copies) + " consumers";
      // So would one that reads piecewise values (a stencil read by two regions): storing it
      // once costs one write and a read per region, storing its pieces one of each per piece.
      else if (copies > 1 && readsPiecewise(op)) why = "reads piecewise values, " + std::to_string(copies) + " consumers";
      if (!why.empty()) {
        ++stats.materialized;
        note("materialize " + describe(op) + ": " + why);
        continue;
      }
      in.inlined = true;
      in.copies = copies;
      in.reused = reused;
      if (copies > 1) {
        ++stats.duplicated;
        note("inline " + describe(op) + " into " + std::to_string(copies) + " regions (cheap)");
      }
    }
  }

  // ---- 4. Groups ----

  void addInlinedProducers(Group& g, Operation* op) {
    SmallVector<Value> operands;
    if (auto r = dyn_cast<ReduceOp>(op)) operands.append(r.getInputs().begin(), r.getInputs().end());
    else if (!isa<DotGeneralOp>(op)) operands.append(op->getOperands().begin(), op->getOperands().end());
    for (Value v : operands) {
      Operation* d = v.getDefiningOp();
      if (!inBlock(d) || !info_[d].inlined) continue;
      if (g.members.insert(d)) addInlinedProducers(g, d);
    }
  }

  // What a dot epilogue may recompute: the GEMM hands it one block of output rows and columns
  // at a time, and its inputs are read at the block's (row, column) or broadcast along one of
  // them. Elementwise ops, splat constants and broadcasts that only add dimensions keep to
  // that; a slice (s[0:1] read from every row), a size-1 dimension stretched, a transpose and
  // the other index maps do not (outlined per block, they read the wrong elements), so they are
  // materialized before the GEMM instead.
  static bool epilogueSafe(Operation* op, Kind kind) {
    if (kind == Kind::Elementwise || kind == Kind::Constant) return true;
    auto bc = dyn_cast<BroadcastInDimOp>(op);
    if (!bc) return false;
    auto in = tensorType(bc.getOperand()), out = tensorType(bc.getResult());
    for (auto [i, d] : llvm::enumerate(bc.getBroadcastDimensions()))
      if (in.getDimSize(static_cast<unsigned>(i)) != out.getDimSize(static_cast<unsigned>(d))) return false;
    return true;
  }

  void addEpilogueProducers(Group& g, Operation* op) {
    for (Value v : op->getOperands()) {
      Operation* d = v.getDefiningOp();
      if (isa<DotGeneralOp>(op) || !inBlock(d) || !info_[d].inlined || g.members.contains(d)) continue;
      if (!epilogueSafe(d, info_[d].kind)) {
        info_[d].inlined = false;  // roots a loop group of its own (formGroups)
        continue;
      }
      g.members.insert(d);
      addEpilogueProducers(g, d);
    }
  }

  void formGroups() {
    for (Group& g : groups_)  // dot epilogues
      for (Operation* m : SmallVector<Operation*>(g.members.begin(), g.members.end()))
        addEpilogueProducers(g, m);
    for (Operation* op : ops_) {
      OpInfo& in = info_[op];
      bool root = in.kind == Kind::Reduce ||
                  ((in.kind == Kind::Elementwise || in.kind == Kind::Map) && !in.inlined &&
                   in.group < 0 && !op->use_empty());
      if (!root) continue;
      Group g;
      g.kind = in.kind == Kind::Reduce ? GroupKind::Input : GroupKind::Loop;
      g.roots.push_back(op);
      g.members.insert(op);
      if (auto r = dyn_cast<ReduceOp>(op)) {
        g.shape = llvm::to_vector(tensorType(r.getInputs()[0]).getShape());
        g.dims = llvm::to_vector(r.getDimensions());
      } else {
        g.shape = llvm::to_vector(tensorType(op->getResult(0)).getShape());
      }
      addInlinedProducers(g, op);
      in.group = static_cast<int>(groups_.size());
      groups_.push_back(std::move(g));
    }
  }

  // ---- 5. Multi-output merges ----

  // The values `ops` read from outside themselves; splat constants only when `constants` (a
  // region copies them in). Splats from enclosing blocks too: the canonicalizer hoists a loop
  // body's constants to the function's entry, and a region reading a splat from memory would
  // stream a whole tensor of one value.
  SetVector<Value> inputsOf(const SetVector<Operation*>& ops, bool constants = false) {
    SetVector<Value> in;
    for (Operation* m : ops) {
      SetVector<Value> used(m->getOperands().begin(), m->getOperands().end());
      for (Region& r : m->getRegions()) getUsedValuesDefinedAbove(r, used);
      for (Value v : used) {
        Operation* d = v.getDefiningOp();
        if (ops.contains(d)) continue;
        if (!constants && isSplatConstant(d)) continue;
        in.insert(v);
      }
    }
    return in;
  }

  // Successors in the graph of groups and unfused ops.
  SmallVector<int64_t> successors(int64_t node) {
    SmallVector<int64_t> out;
    auto add = [&](Operation* user) {
      // A use inside a region (a strata.if branch reading the value) is a use by the region
      // op of this block that holds it.
      user = block_.findAncestorOpInBlock(*user);
      if (!inBlock(user)) return;
      const OpInfo& i = info_[user];
      if (i.group >= 0) {
        if (groups_[i.group].alive) out.push_back(i.group);
      } else if (i.inlined) {
        for (auto [gi, g] : llvm::enumerate(groups_))
          if (g.alive && g.members.contains(user)) out.push_back(static_cast<int64_t>(gi));
      } else if (user->hasTrait<OpTrait::IsTerminator>()) {
      } else {
        out.push_back(-1 - i.index);
      }
    };
    if (node >= 0) {
      for (Operation* r : groups_[node].roots)
        for (Operation* u : r->getUsers()) add(u);
    } else {
      for (Operation* u : ops_[-1 - node]->getUsers()) add(u);
    }
    return out;
  }

  // Whether `to` is reachable from `from` by a path that does not take the edge from → to
  // directly (so that merging the two would not create a cycle through a third node).
  bool reachesIndirectly(int64_t from, int64_t to) {
    DenseSet<int64_t> seen;
    SmallVector<int64_t> work;
    for (int64_t s : successors(from))
      if (s != to && s != from) work.push_back(s);
    while (!work.empty()) {
      int64_t n = work.pop_back_val();
      if (n == to) return true;
      if (!seen.insert(n).second) continue;
      for (int64_t s : successors(n))
        if (s != from) work.push_back(s);
    }
    return false;
  }

  bool dependent(int64_t a, int64_t b) {
    for (int64_t s : successors(a))
      if (s == b) return true;
    for (int64_t s : successors(b))
      if (s == a) return true;
    return reachesIndirectly(a, b) || reachesIndirectly(b, a);
  }

  // The full iteration space of a loop or input group, as (shape, reduced dims).
  bool sameSpace(const Group& a, const Group& b) {
    if (a.shape != b.shape) return false;
    if (a.kind == GroupKind::Input && b.kind == GroupKind::Input) return a.dims == b.dims;
    return true;
  }

  SmallVector<int64_t> keptShape(const Group& g) {
    SmallVector<int64_t> kept;
    for (size_t d = 0; d < g.shape.size(); ++d)
      if (!llvm::is_contained(g.dims, static_cast<int64_t>(d))) kept.push_back(g.shape[d]);
    return kept;
  }

  // Whether `b` reads a result of one of `a`'s reductions.
  bool readsReduction(const Group& a, const Group& b) {
    for (Operation* r : a.roots)
      if (isa<ReduceOp>(r))
        for (Operation* u : r->getUsers())
          if (b.members.contains(u)) return true;
    return false;
  }

  void merge(int into, int from) {
    Group& a = groups_[into];
    Group& b = groups_[from];
    for (Operation* r : b.roots) a.roots.push_back(r);
    for (Operation* m : b.members) a.members.insert(m);
    if (b.kind == GroupKind::Input) {
      a.kind = GroupKind::Input;
      a.dims = b.dims;
    }
    for (Operation* m : b.members)
      if (info_[m].group == from) info_[m].group = into;
    b.alive = false;
  }

  void mergeGroups(Stats& stats) {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < groups_.size() && !changed; ++i) {
        for (size_t j = 0; j < groups_.size() && !changed; ++j) {
          if (i == j) continue;
          Group& a = groups_[i];
          Group& b = groups_[j];
          if (!a.alive || !b.alive || a.kind == GroupKind::Output || b.kind == GroupKind::Output) continue;
          // A reduction's epilogue: b computes on a's reduced values, over the kept shape; it
          // runs as a second, small nest of a's region.
          if (a.kind == GroupKind::Input && b.kind == GroupKind::Loop && nonUnit(keptShape(a)) == nonUnit(b.shape) &&
              readsReduction(a, b)) {
            if (reachesIndirectly(static_cast<int64_t>(i), static_cast<int64_t>(j))) continue;
            note("merge group of " + describe(b.roots.front()) + " into the group of " +
                 describe(a.roots.front()) + ": it computes on the reduced values (reduction epilogue)");
            merge(static_cast<int>(i), static_cast<int>(j));
            ++stats.merges;
            changed = true;
            continue;
          }
          if (!sameSpace(a, b)) continue;
          // Producer and consumer: b reads a root of a (loop group), in a's iteration space.
          bool consumes = false;
          if (a.kind == GroupKind::Loop)
            for (Operation* r : a.roots)
              for (Operation* u : r->getUsers())
                if (b.members.contains(u)) consumes = true;
          if (consumes) {
            if (reachesIndirectly(static_cast<int64_t>(i), static_cast<int64_t>(j))) continue;
            note("merge group of " + describe(a.roots.front()) + " into the group of " +
                 describe(b.roots.front()) + ": it reads the value in the same loop (multi-output)");
            merge(static_cast<int>(j), static_cast<int>(i));
            ++stats.merges;
            changed = true;
            continue;
          }
          // Siblings: one iteration space, a common input, no path between them.
          if (j < i) continue;
          SetVector<Value> ia = inputsOf(a.members), ib = inputsOf(b.members);
          Value shared;
          for (Value v : ia)
            if (ib.contains(v)) {
              shared = v;
              break;
            }
          if (!shared || dependent(static_cast<int64_t>(i), static_cast<int64_t>(j))) continue;
          note("merge sibling groups of " + describe(a.roots.front()) + " and " +
               describe(b.roots.front()) + ": both read " + name(shared) + " (multi-output)");
          merge(static_cast<int>(i), static_cast<int>(j));
          ++stats.merges;
          changed = true;
        }
      }
    }
  }

  // ---- 6. Regions ----

  LogicalResult build(Stats& stats) {
    // Nodes: groups of two or more ops (regions), and every other op not inlined.
    struct Node {
      int group = -1;
      Operation* op = nullptr;
      int64_t order = 0;
    };
    SmallVector<Node> nodes;
    DenseMap<Operation*, size_t> nodeOf;
    SmallVector<int> regionGroups;
    for (auto [gi, g] : llvm::enumerate(groups_)) {
      if (!g.alive) continue;
      if (g.members.size() < 2) {
        info_[g.roots.front()].group = -1;  // a single op: left as it is
        continue;
      }
      int64_t order = INT64_MAX;
      for (Operation* r : g.roots) order = std::min(order, info_[r].index);
      for (Operation* m : g.members)
        if (!info_[m].inlined) nodeOf[m] = nodes.size();
      nodes.push_back({static_cast<int>(gi), nullptr, order});
      regionGroups.push_back(static_cast<int>(gi));
    }
    for (Operation* op : ops_) {
      if (nodeOf.count(op) || info_[op].inlined) continue;
      nodeOf[op] = nodes.size();
      nodes.push_back({-1, op, info_[op].index});
    }
    if (regionGroups.empty()) return success();

    // Edges from the producer of each value a node reads.
    auto membersOf = [&](const Node& n) {
      return n.group >= 0 ? groups_[n.group].members : SetVector<Operation*>(&n.op, &n.op + 1);
    };
    SmallVector<SmallVector<size_t>> succ(nodes.size());
    SmallVector<int64_t> indegree(nodes.size(), 0);
    for (size_t n = 0; n < nodes.size(); ++n) {
      DenseSet<size_t> preds;
      for (Value v : inputsOf(membersOf(nodes[n]), /*constants=*/nodes[n].op != nullptr)) {
        Operation* d = v.getDefiningOp();
        if (!inBlock(d)) continue;
        auto it = nodeOf.find(d);
        if (it == nodeOf.end()) {
          fn_.emitError("strata-fuse: an inlined op is read outside its consumers' regions");
          return failure();
        }
        if (it->second != n && preds.insert(it->second).second) {
          succ[it->second].push_back(n);
          ++indegree[n];
        }
      }
    }
    auto cmp = [&](size_t a, size_t b) { return nodes[a].order > nodes[b].order; };
    std::priority_queue<size_t, std::vector<size_t>, decltype(cmp)> ready(cmp);
    for (size_t n = 0; n < nodes.size(); ++n)
      if (indegree[n] == 0) ready.push(n);
    SmallVector<size_t> order;
    while (!ready.empty()) {
      size_t n = ready.top();
      ready.pop();
      order.push_back(n);
      for (size_t s : succ[n])
        if (--indegree[s] == 0) ready.push(s);
    }
    if (order.size() != nodes.size()) {
      fn_.emitError("strata-fuse: the groups depend on each other in a cycle");
      return failure();
    }

    // Regions in that order. A region's operands are the values its members read, or the
    // region results that replaced them; an op inlined into several regions is cloned into
    // each, so a root it reads leaves its own region as a result.
    DenseSet<Operation*> inRegion;  // members of regions, inlined or not
    for (int gi : regionGroups)
      for (Operation* m : groups_[gi].members) inRegion.insert(m);
    auto memberOfOther = [&](Operation* u, int self) {
      if (!info_[u].inlined) return false;
      for (int gi : regionGroups)
        if (gi != self && groups_[gi].members.contains(u)) return true;
      return false;
    };
    DenseMap<Value, Value> replaced;
    Operation* terminator = block_.getTerminator();
    OpBuilder b(fn_.getContext());
    DenseSet<Operation*> fused;
    for (size_t n : order) {
      Node& node = nodes[n];
      if (node.op) {
        node.op->moveBefore(terminator);
        continue;
      }
      Group& g = groups_[node.group];
      llvm::sort(g.roots, [&](Operation* x, Operation* y) { return info_[x].index < info_[y].index; });
      SetVector<Operation*>& members = g.members;
      SmallVector<Operation*> sorted(members.begin(), members.end());
      llvm::sort(sorted, [&](Operation* x, Operation* y) { return info_[x].index < info_[y].index; });
      SetVector<Value> inputs = inputsOf(members);
      SmallVector<Value> results;
      SmallVector<Location> locs;
      for (Operation* r : g.roots) {
        locs.push_back(r->getLoc());
        for (Value v : r->getResults())
          for (Operation* u : v.getUsers())
            if (!members.contains(u) || memberOfOther(u, node.group)) {
              results.push_back(v);
              break;
            }
      }
      SmallVector<Value> operands;
      for (Value v : inputs) operands.push_back(replaced.lookup(v) ? replaced.lookup(v) : v);
      b.setInsertionPoint(terminator);
      auto fusion = FusionOp::create(b, FusedLoc::get(fn_.getContext(), locs),
                                     TypeRange(ValueRange(results)), operands);
      fusion->setAttr("kind", b.getStringAttr(kindName(g.kind)));
      SmallVector<Type> types;
      SmallVector<Location> argLocs;
      for (Value v : inputs) {
        types.push_back(v.getType());
        argLocs.push_back(v.getLoc());
      }
      Block* body = b.createBlock(&fusion.getBody(), {}, types, argLocs);
      IRMapping map;
      for (auto [v, arg] : llvm::zip(inputs, body->getArguments())) map.map(v, arg);
      b.setInsertionPointToStart(body);
      for (Operation* m : sorted) {
        SetVector<Value> used(m->getOperands().begin(), m->getOperands().end());
        for (Region& r : m->getRegions()) getUsedValuesDefinedAbove(r, used);
        for (Value v : used)
          if (!map.contains(v))
            if (auto c = v.getDefiningOp<ConstantOp>()) map.map(v, b.clone(*c)->getResult(0));
        b.clone(*m, map);
      }
      SmallVector<Value> yields;
      for (Value r : results) yields.push_back(map.lookup(r));
      ReturnOp::create(b, fusion.getLoc(), yields);
      // Ops outside every region read the results directly; regions built later through
      // `replaced`.
      for (auto [r, f] : llvm::zip(results, fusion.getResults())) {
        replaced[r] = f;
        r.replaceUsesWithIf(f, [&](OpOperand& use) { return !inRegion.contains(use.getOwner()); });
      }
      for (Operation* m : members)
        if (!info_[m].inlined) fused.insert(m);
      ++stats.fusions;
      stats.fusedOps += static_cast<int64_t>(members.size());
      std::string rootNames;
      for (Operation* r : g.roots) rootNames += (rootNames.empty() ? "" : ", ") + describe(r);
      note("fusion (" + Twine(kindName(g.kind)) + ", " + Twine(members.size()) + " ops): " + rootNames);
    }
    // The originals, users before producers: fused roots and members (now unused), inlined
    // ops and constants left unused.
    for (Operation* op : llvm::reverse(ops_)) {
      const OpInfo& i = info_[op];
      bool isFused = fused.contains(op);
      if (!isFused && !i.inlined && i.kind != Kind::Constant) continue;
      if (!op->use_empty()) {
        if (isFused) return op->emitError("strata-fuse: a fused op is still used outside its region");
        continue;
      }
      op->erase();
    }
    info_.clear();
    return success();
  }

  func::FuncOp fn_;
  Block& block_;
  std::optional<AsmState> state_;  // value names, when logging
  int64_t maxDuplicates_;
  ArrayRef<std::string> epilogueTypes_;
  bool log_;
  std::string decisions_;
  SmallVector<Operation*> ops_;
  DenseMap<Operation*, OpInfo> info_;
  SmallVector<Group> groups_;
};

struct StrataFusePass : impl::StrataFuseBase<StrataFusePass> {
  using StrataFuseBase::StrataFuseBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> fns;
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.getBody().hasOneBlock()) fns.push_back(fn);
    for (func::FuncOp fn : fns) {
      // The blocks of control-flow regions (innermost first), then the function's body.
      SmallVector<Block*> blocks;
      fn.walk<WalkOrder::PostOrder>([&](Operation* op) {
        if (isa<IfOp, CaseOp, WhileOp>(op))
          for (Region& r : op->getRegions()) blocks.push_back(&r.front());
      });
      blocks.push_back(&fn.getBody().front());
      for (Block* block : blocks) {
        Fuser::Stats s;
        Fuser fuser(fn, *block, maxDuplicates, dotEpilogueTypes, printDecisions);
        if (failed(fuser.run(s))) return signalPassFailure();
        numFusions += s.fusions;
        numFusedOps += s.fusedOps;
        numDuplicated += s.duplicated;
        numMaterialized += s.materialized;
        numEpilogues += s.epilogues;
        numMultiOutput += s.merges;
      }
    }
  }
};

}  // namespace
}  // namespace mlir::strata
