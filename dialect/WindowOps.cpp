// Verifiers of the window ops (reduce_window, select_and_scatter): the tracer's window geometry
// (tracer/window_rules.h) and StableHLO's constraints on their regions.
#include "dialect/RegionReturn.h"
#include "dialect/StrataOps.h"
#include "window_rules.h"

using namespace mlir;
using namespace mlir::strata;
namespace rules = ::strata::shape_rules;

namespace {

rules::IntList listOf(ArrayRef<int64_t> a) { return rules::IntList(a.begin(), a.end()); }

SmallVector<int64_t> orFill(std::optional<ArrayRef<int64_t>> a, size_t rank, int64_t fill) {
  if (a) return SmallVector<int64_t>(a->begin(), a->end());
  return SmallVector<int64_t>(rank, fill);
}

WindowGeometry geometryOf(size_t rank, std::optional<ArrayRef<int64_t>> window, std::optional<ArrayRef<int64_t>> strides,
                          std::optional<ArrayRef<int64_t>> base, std::optional<ArrayRef<int64_t>> dil,
                          std::optional<DenseIntElementsAttr> padding) {
  WindowGeometry g{orFill(window, rank, 1), orFill(strides, rank, 1), orFill(base, rank, 1), orFill(dil, rank, 1), {}, {}};
  if (padding) {
    SmallVector<int64_t> flat(padding->getValues<int64_t>());
    for (size_t i = 0; i + 1 < flat.size(); i += 2) {
      g.paddingLow.push_back(flat[i]);
      g.paddingHigh.push_back(flat[i + 1]);
    }
  } else {
    g.paddingLow.assign(rank, 0);
    g.paddingHigh.assign(rank, 0);
  }
  return g;
}

// The result shape of the window over `operand`, or an op error.
FailureOr<SmallVector<int64_t>> windowShape(Operation* op, RankedTensorType operand, const WindowGeometry& g,
                                            std::optional<DenseIntElementsAttr> padding) {
  int64_t rank = operand.getRank();
  if (padding) {
    auto t = padding->getType();
    if (t.getRank() != 2 || t.getDimSize(0) != rank || t.getDimSize(1) != 2)
      return op->emitOpError("expects padding of shape [") << rank << ", 2], but got " << t;
  }
  rules::WindowParams w{listOf(g.window), listOf(g.strides), listOf(g.paddingLow), listOf(g.paddingHigh),
                        listOf(g.baseDilations), listOf(g.windowDilations)};
  rules::Result r = rules::reduce_window(listOf(operand.getShape()), w);
  if (!r.ok()) return op->emitOpError(r.error);
  return SmallVector<int64_t>(r.shape.begin(), r.shape.end());
}

// A region of one block taking `args` and returning `results` (0-d tensors).
LogicalResult verifyScalarRegion(Operation* op, Region& region, StringRef what, TypeRange args, TypeRange results) {
  Block& body = region.front();
  if (TypeRange(body.getArgumentTypes()) != args) {
    std::string s;
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(args, os);
    return op->emitOpError("expects the ") << what << " to take (" << s << "), but got " << body.getNumArguments()
                                           << " arguments";
  }
  auto ret = returnOf(body);
  if (!ret)
    return op->emitOpError("expects the ") << what << " to end in strata.return, but got "
                                           << endOf(body);
  if (TypeRange(ret.getResults().getTypes()) != results) {
    std::string s;
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(results, os);
    return op->emitOpError("expects the ") << what << " to return (" << s << ")";
  }
  return success();
}

}  // namespace

WindowGeometry ReduceWindowOp::getGeometry() {
  size_t rank = static_cast<size_t>(cast<RankedTensorType>(getInputs()[0].getType()).getRank());
  return geometryOf(rank, getWindowDimensions(), getWindowStrides(), getBaseDilations(), getWindowDilations(),
                    getPadding());
}

LogicalResult ReduceWindowOp::verify() {
  size_t n = getInputs().size();
  if (n == 0 || getInitValues().size() != n)
    return emitOpError("expects one init value per input and at least one input, but got ")
           << n << " inputs and " << getInitValues().size() << " init values";
  if (getResults().size() != n) return emitOpError("expects ") << n << " results, but got " << getResults().size();
  auto first = cast<RankedTensorType>(getInputs()[0].getType());
  SmallVector<Type> scalars;
  for (size_t i = 0; i < n; ++i) {
    auto in = cast<RankedTensorType>(getInputs()[i].getType());
    auto init = cast<RankedTensorType>(getInitValues()[i].getType());
    if (in.getShape() != first.getShape())
      return emitOpError("expects inputs of one shape, but got ") << first << " and " << in;
    if (init.getRank() != 0 || init.getElementType() != in.getElementType())
      return emitOpError("expects init value #") << i << " of type " << RankedTensorType::get({}, in.getElementType())
                                                 << ", but got " << init;
    scalars.push_back(init);
  }
  WindowGeometry g = getGeometry();
  FailureOr<SmallVector<int64_t>> shape = windowShape(*this, first, g, getPadding());
  if (failed(shape)) return failure();
  for (size_t i = 0; i < n; ++i) {
    auto want = RankedTensorType::get(*shape, cast<RankedTensorType>(scalars[i]).getElementType());
    if (getResults()[i].getType() != want)
      return emitOpError("expects result #") << i << " of type " << want << ", but got " << getResults()[i].getType();
  }
  SmallVector<Type> args(scalars);
  args.append(scalars);
  return verifyScalarRegion(*this, getBody(), "body", args, scalars);
}

WindowGeometry SelectAndScatterOp::getGeometry() {
  size_t rank = static_cast<size_t>(getOperand().getType().getRank());
  return geometryOf(rank, getWindowDimensions(), getWindowStrides(), std::nullopt, std::nullopt, getPadding());
}

LogicalResult SelectAndScatterOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto source = cast<RankedTensorType>(getSource().getType());
  auto init = cast<RankedTensorType>(getInitValue().getType());
  Type e = operand.getElementType();
  if (source.getElementType() != e || init.getRank() != 0 || init.getElementType() != e)
    return emitOpError("expects a source and a 0-d init value of the operand's element type, but got ")
           << source << " and " << init << " for " << operand;
  WindowGeometry g = getGeometry();
  FailureOr<SmallVector<int64_t>> shape = windowShape(*this, operand, g, getPadding());
  if (failed(shape)) return failure();
  if (source.getShape() != ArrayRef<int64_t>(*shape))
    return emitOpError("expects a source of shape ")
           << rules::list_string(listOf(*shape)) << " (one element per window), but got " << source;
  if (getType() != operand) return emitOpError("expects the result type ") << operand << ", but got " << getType();
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyScalarRegion(*this, getSelect(), "select region", {init, init}, {pred}))) return failure();
  return verifyScalarRegion(*this, getScatter(), "scatter region", {init, init}, {init});
}
