// --strata-carries-in-place: a loop carry that a reduction nest reads and rewrites element by
// element (an iterative solver's x += alpha·p fused with a dot product) is updated in its own
// buffer, read through the nest's output instead of an input (Passes.td).
#include "lowering/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::strata {

#define GEN_PASS_DEF_CARRIESINPLACEPASS
#include "lowering/Passes.h.inc"

namespace {

// An output map that visits each element exactly once: a permutation of all the loops.
bool writesEachElementOnce(AffineMap m) { return m.isPermutation(); }

// The input of `g` to read through output `k` instead: the destination its result is
// materialized in, read by `g` once, at the output's own map, and by nothing else at or after `g`.
std::optional<unsigned> inputToReuse(linalg::GenericOp g, unsigned k) {
  OpOperand* out = g.getDpsInitOperand(k);
  if (!out->get().getDefiningOp<tensor::EmptyOp>() || !g.getMatchingBlockArgument(out).use_empty()) return std::nullopt;
  AffineMap outMap = g.getMatchingIndexingMap(out);
  if (!writesEachElementOnce(outMap)) return std::nullopt;
  // The result is materialized into one destination (other ops may read it too: the new value).
  bufferization::MaterializeInDestinationOp materialize;
  for (Operation* user : g->getResult(k).getUsers())
    if (auto m = dyn_cast<bufferization::MaterializeInDestinationOp>(user)) {
      if (materialize) return std::nullopt;
      materialize = m;
    }
  if (!materialize || materialize.getSource() != g->getResult(k)) return std::nullopt;
  Value dest = materialize.getDest();
  std::optional<unsigned> input;
  for (OpOperand* in : g.getDpsInputOperands()) {
    if (in->get() != dest) continue;
    if (input || g.getMatchingIndexingMap(in) != outMap) return std::nullopt;
    input = in->getOperandNumber();
  }
  if (!input) return std::nullopt;
  // Nothing else reads the old value at or after g (a use inside g's body, a later op).
  for (Operation* user : dest.getUsers()) {
    if (user == g || user == materialize) continue;
    if (user->getBlock() != g->getBlock() || !user->isBeforeInBlock(g)) return std::nullopt;
  }
  return input;
}

struct CarriesInPlacePass : impl::CarriesInPlacePassBase<CarriesInPlacePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp g) {
      // All-parallel nests bufferize in place already (elementwise access); reductions do not.
      if (g.hasPureTensorSemantics() && g.getNumReductionLoops() > 0) generics.push_back(g);
    });
    for (linalg::GenericOp g : generics) {
      for (unsigned k = 0; k < g.getNumDpsInits(); ++k) {
        std::optional<unsigned> input = inputToReuse(g, k);
        if (!input) continue;
        g = reuse(g, *input, k);
        ++numInPlace;
      }
    }
  }

  // g with input operand `input` dropped and output k's init replaced by it; the body reads
  // the output's block argument where it read the input's.
  static linalg::GenericOp reuse(linalg::GenericOp g, unsigned input, unsigned k) {
    OpBuilder b(g);
    Value dest = g->getOperand(input);
    SmallVector<Value> ins, outs(g.getDpsInits());
    SmallVector<AffineMap> maps;
    for (OpOperand* in : g.getDpsInputOperands()) {
      if (in->getOperandNumber() == input) continue;
      ins.push_back(in->get());
      maps.push_back(g.getMatchingIndexingMap(in));
    }
    for (OpOperand& out : g.getDpsInitsMutable()) maps.push_back(g.getMatchingIndexingMap(&out));
    outs[k] = dest;
    auto n = linalg::GenericOp::create(b, g.getLoc(), g->getResultTypes(), ins, outs, maps, g.getIteratorTypesArray());
    n->setDiscardableAttrs(g->getDiscardableAttrDictionary());
    Region& body = n.getRegion();
    body.takeBody(g.getRegion());
    Block& block = body.front();
    BlockArgument inArg = block.getArgument(input);
    inArg.replaceAllUsesWith(block.getArgument(g.getNumDpsInputs() + k));
    block.eraseArgument(input);
    g->replaceAllUsesWith(n->getResults());
    g.erase();
    return n;
  }
};

}  // namespace
}  // namespace mlir::strata
