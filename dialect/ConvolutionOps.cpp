// Verifiers and type inference of the convolution and pooling ops: the tracer's shape rules
// (tracer/shape_rules.h), as every structural op's verifier.
#include "dialect/StrataOps.h"
#include "shape_rules.h"

using namespace mlir;
using namespace mlir::strata;
namespace rules = ::strata::shape_rules;

namespace {

rules::IntList listOf(ArrayRef<int64_t> a) { return rules::IntList(a.begin(), a.end()); }

// The result type of a convolution, or the reason there is none.
FailureOr<RankedTensorType> convolutionType(Type lhsType, Type rhsType, ArrayRef<int64_t> strides,
                                            ArrayRef<int64_t> padding, ArrayRef<int64_t> lhsDilation,
                                            ArrayRef<int64_t> rhsDilation, ArrayRef<int64_t> lhsSpec,
                                            ArrayRef<int64_t> rhsSpec, ArrayRef<int64_t> outSpec, int64_t groups,
                                            int64_t batchGroups, std::string& error) {
  auto lhs = cast<RankedTensorType>(lhsType), rhs = cast<RankedTensorType>(rhsType);
  if (lhs.getElementType() != rhs.getElementType()) {
    error = "expects operands of one element type";
    return failure();
  }
  if (padding.size() % 2 != 0) {
    error = "expects (low, high) padding pairs, but got " + rules::list_string(listOf(padding));
    return failure();
  }
  rules::ConvParams p;
  p.window_strides = listOf(strides);
  for (size_t i = 0; i + 1 < padding.size(); i += 2) {
    p.padding_low.push_back(padding[i]);
    p.padding_high.push_back(padding[i + 1]);
  }
  p.lhs_dilation = listOf(lhsDilation);
  p.rhs_dilation = listOf(rhsDilation);
  p.lhs_spec = listOf(lhsSpec);
  p.rhs_spec = listOf(rhsSpec);
  p.out_spec = listOf(outSpec);
  p.feature_group_count = groups;
  p.batch_group_count = batchGroups;
  rules::Result r = rules::conv_general_dilated(::strata::Shape(lhs.getShape().begin(), lhs.getShape().end()),
                                                ::strata::Shape(rhs.getShape().begin(), rhs.getShape().end()), p);
  if (!r.ok()) {
    error = r.error;
    return failure();
  }
  return RankedTensorType::get(r.shape, lhs.getElementType());
}

}  // namespace

LogicalResult ConvolutionOp::verify() {
  std::string error;
  FailureOr<RankedTensorType> t = convolutionType(
      getLhs().getType(), getRhs().getType(), getWindowStrides(), getPadding(), getLhsDilation(), getRhsDilation(),
      getLhsSpec(), getRhsSpec(), getOutSpec(), getFeatureGroupCount(), getBatchGroupCount(), error);
  if (failed(t)) return emitOpError(error);
  return success();
}

LogicalResult ConvolutionOp::inferReturnTypes(MLIRContext*, std::optional<Location> loc, Adaptor a,
                                              SmallVectorImpl<Type>& inferred) {
  if (!isa<RankedTensorType>(a.getLhs().getType()) || !isa<RankedTensorType>(a.getRhs().getType())) return failure();
  std::string error;
  FailureOr<RankedTensorType> t = convolutionType(
      a.getLhs().getType(), a.getRhs().getType(), a.getWindowStrides(), a.getPadding(), a.getLhsDilation(),
      a.getRhsDilation(), a.getLhsSpec(), a.getRhsSpec(), a.getOutSpec(), a.getFeatureGroupCount(),
      a.getBatchGroupCount(), error);
  if (failed(t)) {
    if (loc) mlir::emitError(*loc) << "'strata.convolution' op " << error;
    return failure();
  }
  inferred.push_back(*t);
  return success();
}

LogicalResult ReverseOp::verify() {
  auto type = cast<RankedTensorType>(getOperand().getType());
  rules::Result r = rules::rev(::strata::Shape(type.getShape().begin(), type.getShape().end()),
                                  listOf(getDimensions()));
  if (!r.ok()) return emitOpError(r.error);
  return success();
}
