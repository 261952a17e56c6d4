// jaxpr → `strata`: one lowering entry per primitive, keyed by the primitive's name.
//
// Every primitive of tracer/primitive_list.def has exactly one lowering (tests/lowering walks
// the list): most are the dialect op that names the primitive in its ODS record
// (`jaxprPrimitive`, StrataOps.td), applied to the equation's operands; the rest are the rows of
// kLowerings below.
// Elementwise primitives accept 0-d operands mixed with full-shape ones (`max b 0.0:f32[]`);
// the dialect's ops do not, so those operands get an explicit broadcast_in_dim, as JAX does.
#include "lowering/JaxprToStrata.h"
#include "lowering/SortComparator.h"

#include <optional>
#include <variant>

#include "array_impl.h"
#include "dialect/StablehloCompat.h"
#include "dialect/StrataOps.h"
#include "jaxpr.h"
#include "linalg_rules.h"  // linear algebra (issue 14)
#include "collective_rules.h"  // collectives (issue 18)
#include "host_callback.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::strata;
namespace st = ::strata;

namespace mlir::strata {

RankedTensorType tensorType(MLIRContext* ctx, const st::AbstractValue& av) {
  return RankedTensorType::get(av.shape, elementType(ctx, av.dtype));
}

DenseElementsAttr denseOf(RankedTensorType type, const st::Array& a) {
  const st::AbstractValue& av = st::detail::aval_of(a);
  const char* data = static_cast<const char*>(a.data());
  if (type.getElementType().isInteger(1)) {
    SmallVector<bool> bits;
    for (size_t i = 0; i < av.nbytes(); ++i) bits.push_back(data[i] != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(data, av.nbytes()));
}

}  // namespace mlir::strata

namespace {

class Lowerer;

// One equation being lowered: its operands (already values), its results' types, its params.
struct Eqn {
  Lowerer& lowerer;
  OpBuilder& b;
  const st::Equation& e;
  const st::JaxprImpl& jaxpr;
  SmallVector<Value> operands;
  Location loc;

  MLIRContext* ctx() { return b.getContext(); }
  const st::AbstractValue& out(size_t i = 0) { return jaxpr.vars[e.outputs[i]]; }
  RankedTensorType resultType(size_t i = 0) { return tensorType(ctx(), out(i)); }

  InFlightDiagnostic error() { return emitError(loc) << "`" << e.prim->name << "`: "; }

  LogicalResult expectArity(size_t n) {
    if (operands.size() == n && e.outputs.size() >= 1) return success();
    return error() << "expects " << n << " operands, but got " << operands.size();
  }

  // Operand i, broadcast to the result's shape when it is a 0-d operand of an elementwise op.
  Value elementwise(size_t i) {
    Value v = operands[i];
    auto type = cast<RankedTensorType>(v.getType());
    const st::Shape& shape = out().shape;
    if (type.getRank() != 0 || shape.empty()) return v;
    auto to = RankedTensorType::get(shape, type.getElementType());
    return BroadcastInDimOp::create(b, loc, to, v, ArrayRef<int64_t>{});
  }

  template <class T>
  const T* param(const char* name, const char* kind) {
    const st::ParamValue* v = e.params.find(name);
    const T* p = v ? std::get_if<T>(v) : nullptr;
    if (!p) error() << "expects parameter '" << name << "' (" << kind << "), but got "
                    << (v ? "another kind" : "none");
    return p;
  }
  const st::IntList* ints(const char* name) { return param<st::IntList>(name, "an int tuple"); }
  const int64_t* integer(const char* name) { return param<int64_t>(name, "an int"); }
};

using LowerFn = LogicalResult (*)(Eqn&, SmallVectorImpl<Value>& results);

// Lowers jaxprs into functions of one module.
class Lowerer {
 public:
  Lowerer(ModuleOp module, Location fallback) : module_(module), fallback_(fallback) {}

  // A new function `name` computing `jaxpr`, or null after a diagnostic. Constvars become
  // leading arguments (@main), or, for a private function of a sub-jaxpr (`embedConsts`),
  // constants holding the jaxpr's captured values.
  func::FuncOp lowerFunction(const st::JaxprImpl& jaxpr, StringRef name, bool embedConsts);

  std::string uniqueName(StringRef base) { return (base + "_" + Twine(counter_++)).str(); }

  // Emits `jaxpr`'s equations at b's insertion point, its invars bound to `args` (an open
  // sub-program: control-flow bodies), and appends its outputs to `outs`; false after a
  // diagnostic.
  bool emitBody(OpBuilder& b, const st::JaxprImpl& jaxpr, ValueRange args, SmallVectorImpl<Value>& outs);

 private:
  // Emits the equations with `values` (indexed by variable) holding what is bound so far.
  bool emitEquations(OpBuilder& b, const st::JaxprImpl& jaxpr, std::vector<Value>& values,
                     SmallVectorImpl<Value>& outs);

  Location locationOf(const st::SourceLoc& l) {
    if (!l.file || !*l.file) return fallback_;
    return FileLineColLoc::get(fallback_.getContext(), l.file, l.line, l.column);
  }

  ModuleOp module_;
  Location fallback_;
  int counter_ = 0;
};

// --- Entries ----------------------------------------------------------------------------

// The number of operands of an elementwise op (one, two or three: none is variadic).
template <class Op>
constexpr size_t arityOf() {
  if constexpr (Op::template hasTrait<OpTrait::OneOperand>()) return 1;
  else if constexpr (Op::template hasTrait<OpTrait::NOperands<2>::Impl>()) return 2;
  else return 3;
}

// An op that names its jaxpr primitive in ODS (`jaxprPrimitive`, StrataOps.td): the op applied
// to the equation's operands, 0-d ones broadcast; the result type says the rest (convert).
template <class Op>
LogicalResult sameOp(Eqn& q, SmallVectorImpl<Value>& r) {
  constexpr size_t n = arityOf<Op>();
  if (failed(q.expectArity(n))) return failure();
  SmallVector<Value, 3> operands;
  for (size_t i = 0; i < n; ++i) operands.push_back(q.elementwise(i));
  r.push_back(Op::create(q.b, q.loc, TypeRange{q.resultType()}, operands)->getResult(0));
  return success();
}

template <ComparisonDirection kDirection>
LogicalResult compare(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(2))) return failure();
  r.push_back(CompareOp::create(q.b, q.loc, q.resultType(), kDirection, q.elementwise(0),
                                q.elementwise(1)));
  return success();
}

// round[rounding_method]: 0 away from zero, 1 to nearest even (jax.lax.RoundingMethod).
LogicalResult round(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* method = q.integer("rounding_method");
  if (failed(q.expectArity(1)) || !method) return failure();
  if (*method != 0 && *method != 1)
    return q.error() << "expects rounding_method 0 or 1, but got " << *method;
  r.push_back(RoundOp::create(q.b, q.loc, q.resultType(), static_cast<RoundingMethod>(*method),
                              q.operands[0]));
  return success();
}

// bitcast_convert_type[new_dtype]: strata.bitcast_convert when the widths agree; between widths
// (a last dimension of the ratio added or removed) StableHLO's shifts and masks.
LogicalResult bitcastConvertType(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(1))) return failure();
  FailureOr<Value> v =
      bitcastConvert(q.b, q.loc, q.operands[0], cast<RankedTensorType>(q.resultType()), [&] { return q.error(); });
  if (failed(v)) return failure();
  r.push_back(*v);
  return success();
}

// conj: real(x) - i·imag(x), as JAX lowers it (StableHLO has no conjugate); a real operand
// becomes complex with 0i.
LogicalResult conj(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(1))) return failure();
  Value x = q.operands[0];
  auto type = cast<RankedTensorType>(q.resultType());
  if (!isa<ComplexType>(cast<RankedTensorType>(x.getType()).getElementType())) {
    r.push_back(ConvertOp::create(q.b, q.loc, type, x));
    return success();
  }
  auto parts = type.clone(cast<ComplexType>(type.getElementType()).getElementType());
  Value re = RealOp::create(q.b, q.loc, parts, x), im = ImagOp::create(q.b, q.loc, parts, x);
  r.push_back(ComplexOp::create(q.b, q.loc, type, re, NegateOp::create(q.b, q.loc, im)));
  return success();
}

// integer_pow[y]: the static exponent as an attribute.
LogicalResult integerPow(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* y = q.integer("y");
  if (failed(q.expectArity(1)) || !y) return failure();
  r.push_back(IntegerPowOp::create(q.b, q.loc, q.resultType(), q.operands[0], *y));
  return success();
}

// reduce_precision[exponent_bits, mantissa_bits]: the format as attributes (issue 15).
LogicalResult reducePrecision(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* e = q.integer("exponent_bits");
  const int64_t* m = q.integer("mantissa_bits");
  if (failed(q.expectArity(1)) || !e || !m) return failure();
  r.push_back(ReducePrecisionOp::create(q.b, q.loc, q.resultType(), q.operands[0], static_cast<int32_t>(*e),
                                        static_cast<int32_t>(*m)));
  return success();
}

// fft[fft_type, fft_lengths]: JAX's type number as the enum, the lengths as fft_length.
LogicalResult fft(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* type = q.integer("fft_type");
  const st::IntList* lengths = q.ints("fft_lengths");
  if (failed(q.expectArity(1)) || !type || !lengths) return failure();
  std::optional<FftType> t = symbolizeFftType(static_cast<uint32_t>(*type));
  if (!t) return emitError(q.loc) << "fft: expects fft_type 0 to 3, but got " << *type;
  r.push_back(FftOp::create(q.b, q.loc, q.resultType(), q.operands[0], *t, *lengths));
  return success();
}

// pure_callback / io_callback / debug_callback[callback ...]: strata.host_callback of the
// callback's id; io and debug callbacks have a side effect.
LogicalResult hostCallback(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::HostCallbackPtr* cb = q.param<st::HostCallbackPtr>("callback", "a host callback");
  if (!cb || !*cb) return failure();
  SmallVector<Type> types;
  for (size_t i = 0; i < q.e.outputs.size(); ++i) types.push_back(q.resultType(i));
  auto op = HostCallbackOp::create(q.b, q.loc, types, q.operands, static_cast<int64_t>((*cb)->id()), (*cb)->name(),
                                   q.e.prim->has(st::kEffect));
  r.append(op->result_begin(), op->result_end());
  return success();
}

LogicalResult identity(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(1))) return failure();
  r.push_back(q.operands[0]);
  return success();
}

LogicalResult broadcastInDim(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* dims = q.ints("broadcast_dimensions");
  if (failed(q.expectArity(1)) || !dims) return failure();
  r.push_back(BroadcastInDimOp::create(q.b, q.loc, q.resultType(), q.operands[0], *dims));
  return success();
}

LogicalResult reshape(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(1))) return failure();
  r.push_back(ReshapeOp::create(q.b, q.loc, q.resultType(), q.operands[0]));
  return success();
}

LogicalResult transpose(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* perm = q.ints("permutation");
  if (failed(q.expectArity(1)) || !perm) return failure();
  r.push_back(TransposeOp::create(q.b, q.loc, q.resultType(), q.operands[0], *perm));
  return success();
}

LogicalResult slice(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* start = q.ints("start_indices");
  const st::IntList* limit = q.ints("limit_indices");
  const st::IntList* strides = q.ints("strides");
  if (failed(q.expectArity(1)) || !start || !limit || !strides) return failure();
  r.push_back(
      SliceOp::create(q.b, q.loc, q.resultType(), q.operands[0], *start, *limit, *strides));
  return success();
}

LogicalResult optimizationBarrier(Eqn& q, SmallVectorImpl<Value>& r) {
  auto op = OptimizationBarrierOp::create(q.b, q.loc, q.operands);
  r.append(op.getResults().begin(), op.getResults().end());
  return success();
}

LogicalResult concatenate(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* dim = q.integer("dimension");
  if (!dim) return failure();
  r.push_back(ConcatenateOp::create(q.b, q.loc, q.resultType(), q.operands, *dim));
  return success();
}

LogicalResult pad(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* low = q.ints("padding_low");
  const st::IntList* high = q.ints("padding_high");
  const st::IntList* interior = q.ints("padding_interior");
  if (failed(q.expectArity(2)) || !low || !high || !interior) return failure();
  r.push_back(PadOp::create(q.b, q.loc, q.resultType(), q.operands[0], q.operands[1], *low, *high,
                            *interior));
  return success();
}

LogicalResult iota(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* dim = q.integer("dimension");
  if (failed(q.expectArity(0)) || !dim) return failure();
  r.push_back(IotaOp::create(q.b, q.loc, q.resultType(), *dim));
  return success();
}

LogicalResult dotGeneral(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* lb = q.ints("lhs_batch");
  const st::IntList* rb = q.ints("rhs_batch");
  const st::IntList* lc = q.ints("lhs_contract");
  const st::IntList* rc = q.ints("rhs_contract");
  if (failed(q.expectArity(2)) || !lb || !rb || !lc || !rc) return failure();
  r.push_back(DotGeneralOp::create(q.b, q.loc, q.resultType(), q.operands[0], q.operands[1], *lb,
                                   *rb, *lc, *rc));
  return success();
}

LogicalResult threefry(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(4))) return failure();
  auto op = Threefry2x32Op::create(q.b, q.loc, TypeRange{q.resultType(0), q.resultType(1)},
                                   q.operands, ArrayRef<NamedAttribute>{});
  r.append(op->result_begin(), op->result_end());
  return success();
}

// rng_bit_generator[shape, dtype, algorithm]: strata.rng_bit_generator on the key's 64-bit
// words; a u32[4] key is bitcast to u64[2] and back around it, as JAX lowers it.
LogicalResult rngBitGenerator(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* algorithm = q.integer("algorithm");
  if (failed(q.expectArity(1)) || !algorithm) return failure();
  std::optional<RngAlgorithm> a = symbolizeRngAlgorithm(static_cast<uint32_t>(*algorithm));
  if (!a) return emitError(q.loc) << "rng_bit_generator: expects algorithm 0 to 2, but got " << *algorithm;
  Value key = q.operands[0];
  auto keyType = cast<RankedTensorType>(key.getType());
  Type u64 = IntegerType::get(q.ctx(), 64, IntegerType::Unsigned);
  const bool words32 = keyType.getElementType().getIntOrFloatBitWidth() == 32;
  auto error = [&] { return q.error(); };
  if (words32) {
    Type u32 = keyType.getElementType();
    key = ReshapeOp::create(q.b, q.loc, RankedTensorType::get({2, 2}, u32), key);
    FailureOr<Value> k = bitcastConvert(q.b, q.loc, key, RankedTensorType::get({2}, u64), error);
    if (failed(k)) return failure();
    key = *k;
  }
  auto op = RngBitGeneratorOp::create(q.b, q.loc, TypeRange{key.getType(), q.resultType(1)}, key, *a);
  Value state = op.getOutputState();
  if (words32) {
    FailureOr<Value> s = bitcastConvert(q.b, q.loc, state, RankedTensorType::get({2, 2}, keyType.getElementType()), error);
    if (failed(s)) return failure();
    state = ReshapeOp::create(q.b, q.loc, keyType, *s);
  }
  r.push_back(state);
  r.push_back(op.getOutput());
  return success();
}

// --- Reductions: strata.reduce with a body, as JAX lowers reduce_* and argmax. ----------

enum class Combiner { kAdd, kMul, kMax, kMin };

// The identity of `c` as a 0-d constant: 0, 1, the lowest value, the highest value (±inf, or the
// largest finite numbers of a float type without infinities).
Value identityOf(OpBuilder& b, Location loc, Type element, Combiner c) {
  auto type = RankedTensorType::get({}, element);
  Attribute value;
  if (auto ct = dyn_cast<ComplexType>(element)) {  // max and min: (-inf, 0) and (inf, 0), as JAX
    const llvm::fltSemantics& sem = cast<FloatType>(ct.getElementType()).getFloatSemantics();
    APFloat re = c == Combiner::kAdd   ? APFloat::getZero(sem)
                 : c == Combiner::kMul ? APFloat::getOne(sem)
                                       : APFloat::getInf(sem, /*Negative=*/c == Combiner::kMax);
    std::complex<APFloat> v(re, APFloat::getZero(sem));
    value = DenseElementsAttr::get(type, ArrayRef<std::complex<APFloat>>(v));
  } else if (auto f = dyn_cast<FloatType>(element)) {
    const llvm::fltSemantics& sem = f.getFloatSemantics();
    APFloat v = c == Combiner::kAdd   ? APFloat::getZero(sem)
                : c == Combiner::kMul ? APFloat::getOne(sem)
                                      : floatExtreme(sem, /*negative=*/c == Combiner::kMax);  // e4m3fn: ±448, as JAX
    value = DenseElementsAttr::get(type, v);
  } else {
    unsigned w = element.getIntOrFloatBitWidth();
    bool u = w == 1 || element.isUnsignedInteger();  // bool: false < true
    APInt v = c == Combiner::kAdd   ? APInt(w, 0)
              : c == Combiner::kMul ? APInt(w, 1)
              : c == Combiner::kMax ? (u ? APInt::getMinValue(w) : APInt::getSignedMinValue(w))
                                    : (u ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w));
    value = DenseElementsAttr::get(type, v);
  }
  return ConstantOp::create(b, loc, cast<ElementsAttr>(value));
}

Value combine(OpBuilder& b, Location loc, Combiner c, Value x, Value y) {
  switch (c) {
    case Combiner::kAdd: return AddOp::create(b, loc, x, y);
    case Combiner::kMul: return MultiplyOp::create(b, loc, x, y);
    case Combiner::kMax: return MaximumOp::create(b, loc, x, y);
    case Combiner::kMin: return MinimumOp::create(b, loc, x, y);
  }
  return x;
}

template <Combiner kCombiner>
LogicalResult reduce(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* axes = q.ints("axes");
  if (failed(q.expectArity(1)) || !axes) return failure();
  Type element = q.resultType().getElementType();
  auto scalar = RankedTensorType::get({}, element);
  Value init = identityOf(q.b, q.loc, element, kCombiner);
  auto op = ReduceOp::create(q.b, q.loc, TypeRange{q.resultType()}, ValueRange{q.operands[0]},
                             ValueRange{init}, *axes);
  OpBuilder::InsertionGuard guard(q.b);
  Block* body = q.b.createBlock(&op.getBody(), {}, {scalar, scalar}, {q.loc, q.loc});
  Value v = combine(q.b, q.loc, kCombiner, body->getArgument(0), body->getArgument(1));
  ReturnOp::create(q.b, q.loc, ValueRange{v});
  r.push_back(op.getResult(0));
  return success();
}

// argmax (argmin): a variadic reduce over (values, iota indices) that keeps the larger
// (smaller) value, a nan over anything, and the smaller index on ties — JAX's
// _compute_argminmax.
template <bool kMax>
LogicalResult argExtremum(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* axes = q.ints("axes");
  if (failed(q.expectArity(1)) || !axes) return failure();
  if (axes->size() != 1) return q.error() << "expects one axis, but got " << axes->size();
  OpBuilder& b = q.b;
  Location loc = q.loc;
  Value x = q.operands[0];
  auto xType = cast<RankedTensorType>(x.getType());
  Type valueElem = xType.getElementType(), indexElem = q.resultType().getElementType();
  auto indicesType = RankedTensorType::get(xType.getShape(), indexElem);
  Value indices = IotaOp::create(b, loc, indicesType, (*axes)[0]);
  Value initValue = identityOf(b, loc, valueElem, kMax ? Combiner::kMax : Combiner::kMin);
  Value initIndex = identityOf(b, loc, indexElem, Combiner::kAdd);
  auto valuesType = RankedTensorType::get(q.out().shape, valueElem);
  auto op = ReduceOp::create(b, loc, TypeRange{valuesType, q.resultType()},
                             ValueRange{x, indices}, ValueRange{initValue, initIndex}, *axes);
  OpBuilder::InsertionGuard guard(b);
  auto sv = RankedTensorType::get({}, valueElem), si = RankedTensorType::get({}, indexElem);
  Block* body = b.createBlock(&op.getBody(), {}, {sv, si, sv, si}, {loc, loc, loc, loc});
  Value xv = body->getArgument(0), xi = body->getArgument(1);
  Value yv = body->getArgument(2), yi = body->getArgument(3);
  auto pred = RankedTensorType::get({}, b.getI1Type());
  auto cmp = [&](ComparisonDirection d, Value l, Value rr) -> Value {
    return CompareOp::create(b, loc, pred, d, l, rr);
  };
  Value pickX = OrOp::create(b, loc, cmp(kMax ? ComparisonDirection::GT : ComparisonDirection::LT, xv, yv),
                             cmp(ComparisonDirection::NE, xv, xv));
  Value tieX = AndOp::create(b, loc, cmp(ComparisonDirection::EQ, xv, yv),
                             cmp(ComparisonDirection::LT, xi, yi));
  Value pickXIndex = OrOp::create(b, loc, pickX, tieX);
  Value v = SelectOp::create(b, loc, sv, pickX, xv, yv);
  Value i = SelectOp::create(b, loc, si, pickXIndex, xi, yi);
  ReturnOp::create(b, loc, ValueRange{v, i});
  r.push_back(op.getResult(1));
  return success();
}

// `program` lowered as a private function named after `name`, called on `args`.
LogicalResult callProgram(Eqn& q, const st::JaxprImpl& program, StringRef name, ValueRange args,
                          SmallVectorImpl<Value>& r) {
  func::FuncOp callee = q.lowerer.lowerFunction(program, q.lowerer.uniqueName(name), /*embedConsts=*/true);
  if (!callee) return failure();
  auto call = func::CallOp::create(q.b, q.loc, callee, args);
  r.append(call.result_begin(), call.result_end());
  return success();
}

// custom_vjp_call, custom_jvp_call: their `fun` becomes a private function that the caller calls
// (the derivative rules are the tracer's business).
LogicalResult customCall(Eqn& q, SmallVectorImpl<Value>& r) {
  using JaxprPtr = std::shared_ptr<const st::JaxprImpl>;
  const JaxprPtr* fun = q.param<JaxprPtr>("fun", "a jaxpr");
  if (!fun || !*fun) return failure();
  return callProgram(q, **fun, q.e.prim->name == "custom_jvp_call" ? "custom_jvp_fun" : "custom_vjp_fun", q.operands, r);
}

// custom_linear_solve: its `solve` program becomes a private function called on solve's captured
// values and the right-hand side (the other programs are the tracer's, for derivatives).
LogicalResult customLinearSolve(Eqn& q, SmallVectorImpl<Value>& r) {
  using JaxprPtr = std::shared_ptr<const st::JaxprImpl>;
  const JaxprPtr* solve = q.param<JaxprPtr>("solve", "a jaxpr");
  const std::vector<int64_t>* lengths = q.param<std::vector<int64_t>>("const_lengths", "four counts");
  if (!solve || !*solve || !lengths || lengths->size() != 4) return failure();
  size_t begin = static_cast<size_t>((*lengths)[0] + (*lengths)[1]), count = static_cast<size_t>((*lengths)[2]);
  size_t b = begin + count + static_cast<size_t>((*lengths)[3]);
  if (b > q.operands.size()) return failure();
  SmallVector<Value> args(q.operands.begin() + begin, q.operands.begin() + begin + count);
  args.append(q.operands.begin() + b, q.operands.end());
  return callProgram(q, **solve, "custom_linear_solve", args, r);
}

// --- Control flow: strata.if / strata.case / strata.while with regions (StableHLO's). -----

// Fills the one block of `region` with `jaxpr` applied to `args` and a strata.return.
bool bodyRegion(Eqn& q, Region& region, const st::JaxprImpl& jaxpr, ValueRange args, TypeRange blockArgs = {}) {
  OpBuilder::InsertionGuard guard(q.b);
  SmallVector<Location> locs(blockArgs.size(), q.loc);
  Block* block = q.b.createBlock(&region, {}, blockArgs, locs);
  SmallVector<Value> in(args.begin(), args.end());
  in.append(block->args_begin(), block->args_end());
  SmallVector<Value> outs;
  if (!q.lowerer.emitBody(q.b, jaxpr, in, outs)) return false;
  ReturnOp::create(q.b, q.loc, outs);
  return true;
}

Value i32Constant(OpBuilder& b, Location loc, int64_t v) {
  auto type = RankedTensorType::get({}, b.getI32Type());
  return ConstantOp::create(b, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, APInt(32, static_cast<uint64_t>(v), true))));
}

SmallVector<Type> typesOf(Eqn& q) {
  SmallVector<Type> t;
  for (size_t i = 0; i < q.e.outputs.size(); ++i) t.push_back(q.resultType(i));
  return t;
}

// cond[branches] index operands: two branches are strata.if on index != 0, more strata.case.
LogicalResult cond(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::JaxprList* branches = q.param<st::JaxprList>("branches", "a list of jaxprs");
  if (!branches || branches->empty() || q.operands.empty()) return failure();
  ValueRange ops = ValueRange(q.operands).drop_front();
  SmallVector<Type> types = typesOf(q);
  if (branches->size() == 1) return success(q.lowerer.emitBody(q.b, *(*branches)[0], ops, r));
  Operation* op;
  if (branches->size() == 2) {
    auto pred = RankedTensorType::get({}, q.b.getI1Type());
    Value p = CompareOp::create(q.b, q.loc, pred, ComparisonDirection::NE, q.operands[0], i32Constant(q.b, q.loc, 0));
    auto ifOp = IfOp::create(q.b, q.loc, types, p);
    if (!bodyRegion(q, ifOp.getTrueBranch(), *(*branches)[1], ops) ||
        !bodyRegion(q, ifOp.getFalseBranch(), *(*branches)[0], ops))
      return failure();
    op = ifOp;
  } else {
    auto caseOp = CaseOp::create(q.b, q.loc, types, q.operands[0], static_cast<unsigned>(branches->size()));
    for (size_t k = 0; k < branches->size(); ++k)
      if (!bodyRegion(q, caseOp.getBranches()[k], *(*branches)[k], ops)) return failure();
    op = caseOp;
  }
  r.append(op->result_begin(), op->result_end());
  return success();
}

// while[cond_jaxpr cond_nconsts body_jaxpr body_nconsts]: the constants are read from above.
LogicalResult whileLoop(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::JaxprPtr* cj = q.param<st::JaxprPtr>("cond_jaxpr", "a jaxpr");
  const st::JaxprPtr* bj = q.param<st::JaxprPtr>("body_jaxpr", "a jaxpr");
  const int64_t* cn = q.integer("cond_nconsts");
  const int64_t* bn = q.integer("body_nconsts");
  if (!cj || !bj || !cn || !bn) return failure();
  ValueRange all(q.operands);
  ValueRange cc = all.take_front(*cn), bc = all.drop_front(*cn).take_front(*bn), init = all.drop_front(*cn + *bn);
  auto loop = WhileOp::create(q.b, q.loc, init.getTypes(), init);
  if (!bodyRegion(q, loop.getCond(), **cj, cc, init.getTypes()) || !bodyRegion(q, loop.getBody(), **bj, bc, init.getTypes()))
    return failure();
  r.append(loop->result_begin(), loop->result_end());
  return success();
}

// scan[jaxpr length num_consts num_carry reverse]: a strata.while over (step, carry..., ys...)
// that reads step i's slice of each xs with dynamic_slice and writes its ys with
// dynamic_update_slice into the carried ys (one buffer each, updated in place).
LogicalResult scan(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::JaxprPtr* body = q.param<st::JaxprPtr>("jaxpr", "a jaxpr");
  const int64_t* length = q.integer("length");
  const int64_t* k = q.integer("num_consts");
  const int64_t* c = q.integer("num_carry");
  const bool* reverse = q.param<bool>("reverse", "a bool");
  if (!body || !length || !k || !c || !reverse) return failure();
  // unroll: the loop's body holds that many steps (JAX's lax.scan unroll); the steps left over
  // (length % unroll) follow the loop, straight-line. Absent in older jaxpr text: 1.
  const int64_t* unrollParam = q.e.params.has("unroll") ? q.integer("unroll") : nullptr;
  const int64_t unroll = std::clamp<int64_t>(unrollParam ? *unrollParam : 1, 1, std::max<int64_t>(*length, 1));
  OpBuilder& b = q.b;
  Location loc = q.loc;
  ValueRange all(q.operands);
  ValueRange consts = all.take_front(*k), init = all.drop_front(*k).take_front(*c), xs = all.drop_front(*k + *c);
  SmallVector<Type> types = typesOf(q);
  SmallVector<Value> ysInit;
  for (size_t i = static_cast<size_t>(*c); i < types.size(); ++i) {
    auto type = cast<RankedTensorType>(types[i]);
    Value zero = identityOf(b, loc, type.getElementType(), Combiner::kAdd);
    ysInit.push_back(type.getNumElements() == 0 ? ConstantOp::create(b, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, ArrayRef<Attribute>{})))
                                                : BroadcastInDimOp::create(b, loc, type, zero, ArrayRef<int64_t>{}).getResult());
  }
  if (*length == 0) {
    r.append(init.begin(), init.end());
    r.append(ysInit.begin(), ysInit.end());
    return success();
  }
  Value zeroIndex = i32Constant(b, loc, 0);
  // One step at `step` (a 0-d i32): the carry and the stacked ys after it, from those before.
  auto emitStep = [&](Value step, ValueRange carry, ValueRange ys, SmallVectorImpl<Value>& next) -> bool {
    Value index = *reverse ? SubtractOp::create(b, loc, i32Constant(b, loc, *length - 1), step).getResult() : step;
    auto starts = [&](int64_t rank) {
      SmallVector<Value> v{index};
      v.append(static_cast<size_t>(rank - 1), zeroIndex);
      return v;
    };
    SmallVector<Value> args(consts.begin(), consts.end());
    args.append(carry.begin(), carry.end());
    for (Value x : xs) {
      auto type = cast<RankedTensorType>(x.getType());
      SmallVector<int64_t> sizes(type.getShape());
      sizes[0] = 1;
      auto sliceType = RankedTensorType::get(sizes, type.getElementType());
      Value slice = DynamicSliceOp::create(b, loc, sliceType, x, starts(type.getRank()), sizes);
      args.push_back(ReshapeOp::create(b, loc, RankedTensorType::get(type.getShape().drop_front(), type.getElementType()), slice));
    }
    SmallVector<Value> outs;
    if (!q.lowerer.emitBody(b, **body, args, outs)) return false;
    next.assign(outs.begin(), outs.begin() + *c);
    for (size_t i = static_cast<size_t>(*c); i < outs.size(); ++i) {
      Value stacked = ys[i - static_cast<size_t>(*c)];
      auto type = cast<RankedTensorType>(stacked.getType());
      SmallVector<int64_t> sizes(type.getShape());
      sizes[0] = 1;
      Value y = ReshapeOp::create(b, loc, RankedTensorType::get(sizes, type.getElementType()), outs[i]);
      next.push_back(DynamicUpdateSliceOp::create(b, loc, type, stacked, y, starts(type.getRank())));
    }
    return true;
  };
  const int64_t trips = *length / unroll, rest = *length % unroll;
  SmallVector<Value> state(init.begin(), init.end());  // carry, then ys
  state.append(ysInit);
  const size_t numCarry = static_cast<size_t>(*c);
  if (trips > 0) {
    SmallVector<Value> carry0{zeroIndex};
    carry0.append(state);
    auto loop = WhileOp::create(b, loc, ValueRange(carry0).getTypes(), carry0);
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Location> locs(carry0.size(), loc);
    auto pred = RankedTensorType::get({}, b.getI1Type());
    Block* condBlock = b.createBlock(&loop.getCond(), {}, ValueRange(carry0).getTypes(), locs);
    ReturnOp::create(b, loc, ValueRange{CompareOp::create(b, loc, pred, ComparisonDirection::LT, condBlock->getArgument(0),
                                                          i32Constant(b, loc, trips * unroll))});
    Block* bodyBlock = b.createBlock(&loop.getBody(), {}, ValueRange(carry0).getTypes(), locs);
    Value step = bodyBlock->getArgument(0);
    SmallVector<Value> cur(bodyBlock->getArguments().begin() + 1, bodyBlock->getArguments().end());
    for (int64_t j = 0; j < unroll; ++j) {
      Value at = j == 0 ? step : AddOp::create(b, loc, step, i32Constant(b, loc, j)).getResult();
      SmallVector<Value> next;
      if (!emitStep(at, ValueRange(cur).take_front(numCarry), ValueRange(cur).drop_front(numCarry), next)) return failure();
      cur = std::move(next);
    }
    SmallVector<Value> yielded{AddOp::create(b, loc, step, i32Constant(b, loc, unroll))};
    yielded.append(cur);
    ReturnOp::create(b, loc, yielded);
    state.assign(loop->result_begin() + 1, loop->result_end());
  }
  for (int64_t j = 0; j < rest; ++j) {
    SmallVector<Value> next;
    if (!emitStep(i32Constant(b, loc, trips * unroll + j), ValueRange(state).take_front(numCarry),
                  ValueRange(state).drop_front(numCarry), next))
      return failure();
    state = std::move(next);
  }
  r.append(state.begin(), state.end());
  return success();
}

// --- Indexing: run-time slices (StableHLO's dynamic_slice/dynamic_update_slice). ---------

LogicalResult dynamicSlice(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* sizes = q.ints("slice_sizes");
  if (!sizes || q.operands.empty()) return failure();
  r.push_back(DynamicSliceOp::create(q.b, q.loc, q.resultType(), q.operands[0], ValueRange(q.operands).drop_front(), *sizes));
  return success();
}

LogicalResult dynamicUpdateSlice(Eqn& q, SmallVectorImpl<Value>& r) {
  if (q.operands.size() < 2) return q.error() << "expects an operand and an update, but got " << q.operands.size() << " operands";
  r.push_back(DynamicUpdateSliceOp::create(q.b, q.loc, q.resultType(), q.operands[0], q.operands[1],
                                           ValueRange(q.operands).drop_front(2)));
  return success();
}

// gather / scatter_*: the dimension numbers as attributes; the scatter's kind as its combiner.
LogicalResult gather(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* offset = q.ints("offset_dims");
  const st::IntList* collapsed = q.ints("collapsed_slice_dims");
  const st::IntList* map = q.ints("start_index_map");
  const int64_t* ivd = q.integer("index_vector_dim");
  const st::IntList* sizes = q.ints("slice_sizes");
  const int64_t* mode = q.integer("mode");
  if (failed(q.expectArity(2)) || !offset || !collapsed || !map || !ivd || !sizes || !mode) return failure();
  if (*mode != 0 && *mode != 1) return q.error() << "expects mode 0 or 1, but got " << *mode;
  r.push_back(GatherOp::create(q.b, q.loc, q.resultType(), static_cast<GatherMode>(*mode), q.operands[0], q.operands[1],
                               *offset, *collapsed, *map, *ivd, *sizes));
  return success();
}

template <ScatterCombiner kCombiner>
LogicalResult scatter(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* window = q.ints("update_window_dims");
  const st::IntList* inserted = q.ints("inserted_window_dims");
  const st::IntList* map = q.ints("scatter_dims_to_operand_dims");
  const int64_t* ivd = q.integer("index_vector_dim");
  if (failed(q.expectArity(3)) || !window || !inserted || !map || !ivd) return failure();
  r.push_back(ScatterOp::create(q.b, q.loc, q.resultType(), kCombiner, q.operands[0], q.operands[1], q.operands[2],
                                *window, *inserted, *map, *ivd));
  return success();
}

// ---- Convolution and pooling (issue 13) ----

LogicalResult convGeneralDilated(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* strides = q.ints("window_strides");
  const st::IntList* lo = q.ints("padding_low");
  const st::IntList* hi = q.ints("padding_high");
  const st::IntList* ld = q.ints("lhs_dilation");
  const st::IntList* rd = q.ints("rhs_dilation");
  const st::IntList* ls = q.ints("lhs_spec");
  const st::IntList* rs = q.ints("rhs_spec");
  const st::IntList* os = q.ints("out_spec");
  const int64_t* groups = q.integer("feature_group_count");
  const int64_t* batchGroups = q.integer("batch_group_count");
  if (failed(q.expectArity(2)) || !strides || !lo || !hi || !ld || !rd || !ls || !rs || !os || !groups ||
      !batchGroups || lo->size() != hi->size())
    return failure();
  SmallVector<int64_t> padding;
  for (size_t i = 0; i < lo->size(); ++i) padding.append({(*lo)[i], (*hi)[i]});
  auto conv = ConvolutionOp::create(q.b, q.loc, q.resultType(), q.operands[0], q.operands[1], *strides, padding, *ld,
                                   *rd, *ls, *rs, *os, *groups, *batchGroups);
  r.push_back(convolutionOfComplexParts(conv, q.b));  // complex numbers as four real convolutions
  return success();
}

LogicalResult rev(Eqn& q, SmallVectorImpl<Value>& r) {
  const st::IntList* dims = q.ints("dimensions");
  if (failed(q.expectArity(1)) || !dims) return failure();
  r.push_back(ReverseOp::create(q.b, q.loc, q.resultType(), q.operands[0], *dims));
  return success();
}

// cumsum, cumprod, …: strata.cumulative with the kind as an attribute.
template <const char* kKind>
LogicalResult cumulative(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* axis = q.integer("axis");
  const bool* reverse = q.param<bool>("reverse", "a bool");
  if (failed(q.expectArity(1)) || !axis || !reverse) return failure();
  r.push_back(CumulativeOp::create(q.b, q.loc, q.resultType(), q.operands[0], kKind, *axis, *reverse));
  return success();
}
constexpr char kSumKind[] = "sum", kProdKind[] = "prod", kMaxKind[] = "max", kMinKind[] = "min",
               kLogSumExpKind[] = "logsumexp";

// sort: strata.sort with jax.lax.sort's lexicographic comparator (SortComparator.h).
LogicalResult sort(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* dimension = q.integer("dimension");
  const int64_t* numKeys = q.integer("num_keys");
  const bool* stable = q.param<bool>("is_stable", "a bool");
  if (!dimension || !numKeys || !stable) return failure();
  if (q.operands.empty() || *numKeys < 1 || *numKeys > static_cast<int64_t>(q.operands.size()))
    return q.error() << "expects num_keys in [1, " << q.operands.size() << "], but got " << *numKeys;
  SmallVector<Type> types, elements;
  for (Value v : q.operands) {
    types.push_back(v.getType());
    elements.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  }
  auto op = SortOp::create(q.b, q.loc, types, q.operands, *dimension, *stable);
  buildLexicographicComparator(q.b, q.loc, op.getComparator(), elements, *numKeys);
  r.append(op.getResults().begin(), op.getResults().end());
  return success();
}

// ---- Linear algebra (issue 14) ----

// cholesky, triangular_solve, lu, qr, eigh, svd, eig, schur, hessenberg: strata.linalg of the kind, its bool params as flags.
template <st::linalg_rules::Kind K>
LogicalResult linalgCall(Eqn& q, SmallVectorImpl<Value>& r) {
  if (failed(q.expectArity(st::linalg_rules::num_operands(K)))) return failure();
  int64_t flags = 0;
  for (const st::linalg_rules::FlagParam& fp : st::linalg_rules::flag_params(K)) {
    const bool* v = q.param<bool>(fp.name, "a bool");
    if (!v) return failure();
    if (*v) flags |= fp.bit;
  }
  SmallVector<Type> types;
  for (size_t i = 0; i < q.e.outputs.size(); ++i) types.push_back(q.resultType(i));
  auto op = LinalgOp::create(q.b, q.loc, types, q.operands, st::linalg_rules::kind_name(K), flags);
  r.append(op.getResults().begin(), op.getResults().end());
  return success();
}

// ---- Collectives (issue 18) ----

// psum, all_gather, ...: strata.collective of the kind, its process group as attributes.
template <st::collective_rules::Kind K>
LogicalResult collective(Eqn& q, SmallVectorImpl<Value>& r) {
  const int64_t* size = q.integer("axis_size");
  const st::IntList* mesh = q.ints("mesh");
  const st::IntList* dims = q.ints("mesh_dims");
  if (failed(q.expectArity(st::collective_rules::num_operands(K))) || !size || !mesh || !dims) return failure();
  if (mesh->empty())
    return q.error() << "runs over an axis bound by vmap, which only the vmap itself computes (no process group)";
  st::IntList perm;
  if (K == st::collective_rules::Kind::kPpermute) {
    const st::IntList* p = q.ints("perm");
    if (!p) return failure();
    perm = *p;
  }
  r.push_back(CollectiveOp::create(q.b, q.loc, q.resultType(), q.operands, st::collective_rules::kind_name(K), *size,
                                   *mesh, *dims, perm));
  return success();
}

// ---- Window reductions (issue 13) ----

// JAX's window params (padding as two lists) as strata.reduce_window's attributes.
struct WindowAttrs {
  DenseI64ArrayAttr window, strides, base, dilation;
  DenseIntElementsAttr padding;
};
std::optional<WindowAttrs> windowAttrs(Eqn& q, bool dilations) {
  const st::IntList* window = q.ints("window_dimensions");
  const st::IntList* strides = q.ints("window_strides");
  const st::IntList* lo = q.ints("padding_low");
  const st::IntList* hi = q.ints("padding_high");
  const st::IntList* base = dilations ? q.ints("base_dilation") : nullptr;
  const st::IntList* dil = dilations ? q.ints("window_dilation") : nullptr;
  if (!window || !strides || !lo || !hi || lo->size() != hi->size() || (dilations && (!base || !dil)))
    return std::nullopt;
  SmallVector<int64_t> pads;
  for (size_t i = 0; i < lo->size(); ++i) pads.append({(*lo)[i], (*hi)[i]});
  auto padType = RankedTensorType::get({static_cast<int64_t>(lo->size()), 2}, q.b.getI64Type());
  WindowAttrs a{q.b.getDenseI64ArrayAttr(*window), q.b.getDenseI64ArrayAttr(*strides),
                dilations ? q.b.getDenseI64ArrayAttr(*base) : DenseI64ArrayAttr(),
                dilations ? q.b.getDenseI64ArrayAttr(*dil) : DenseI64ArrayAttr(),
                DenseIntElementsAttr::get(padType, ArrayRef<int64_t>(pads))};
  return a;
}

// reduce_window_sum/max/min: strata.reduce_window of one input from the combiner's identity.
template <Combiner kCombiner>
LogicalResult reduceWindow(Eqn& q, SmallVectorImpl<Value>& r) {
  std::optional<WindowAttrs> a = windowAttrs(q, true);
  if (failed(q.expectArity(1)) || !a) return failure();
  Type element = q.resultType().getElementType();
  auto scalar = RankedTensorType::get({}, element);
  Value init = identityOf(q.b, q.loc, element, kCombiner);
  auto op = ReduceWindowOp::create(q.b, q.loc, TypeRange{q.resultType()}, ValueRange{q.operands[0]}, ValueRange{init},
                                   a->window, a->strides, a->base, a->dilation, a->padding);
  OpBuilder::InsertionGuard guard(q.b);
  Block* body = q.b.createBlock(&op.getBody(), {}, {scalar, scalar}, {q.loc, q.loc});
  ReturnOp::create(q.b, q.loc, ValueRange{combine(q.b, q.loc, kCombiner, body->getArgument(0), body->getArgument(1))});
  r.push_back(op.getResult(0));
  return success();
}

ComparisonDirection selectDirection(Eqn& q, bool& ok) {
  const std::string* s = q.param<std::string>("select_prim", "ge or le");
  ok = s && (*s == "ge" || *s == "le");
  if (s && !ok) q.error() << "expects select_prim ge or le, but got " << *s;
  return s && *s == "le" ? ComparisonDirection::LE : ComparisonDirection::GE;
}

// select_and_scatter_add source operand: strata.select_and_scatter (compare, add) from 0.
LogicalResult selectAndScatterAdd(Eqn& q, SmallVectorImpl<Value>& r) {
  bool ok = false;
  ComparisonDirection dir = selectDirection(q, ok);
  std::optional<WindowAttrs> a = windowAttrs(q, false);
  if (failed(q.expectArity(2)) || !a || !ok) return failure();
  OpBuilder& b = q.b;
  Location loc = q.loc;
  Type element = q.resultType().getElementType();
  auto scalar = RankedTensorType::get({}, element);
  Value zero = identityOf(b, loc, element, Combiner::kAdd);
  auto op = SelectAndScatterOp::create(b, loc, q.resultType(), q.operands[1], q.operands[0], zero, a->window,
                                       a->strides, a->padding);
  OpBuilder::InsertionGuard guard(b);
  Block* sel = b.createBlock(&op.getSelect(), {}, {scalar, scalar}, {loc, loc});
  auto pred = RankedTensorType::get({}, b.getI1Type());
  ReturnOp::create(b, loc, ValueRange{CompareOp::create(b, loc, pred, dir, sel->getArgument(0), sel->getArgument(1))});
  Block* sc = b.createBlock(&op.getScatter(), {}, {scalar, scalar}, {loc, loc});
  ReturnOp::create(b, loc, ValueRange{AddOp::create(b, loc, sc->getArgument(0), sc->getArgument(1))});
  r.push_back(op.getResult());
  return success();
}

// select_and_gather_add tangents operand: JAX's variadic reduce_window over (operand, tangent)
// pairs from (identity, 0), keeping the accumulated pair when compare(acc, x) holds.
LogicalResult selectAndGatherAdd(Eqn& q, SmallVectorImpl<Value>& r) {
  bool ok = false;
  ComparisonDirection dir = selectDirection(q, ok);
  std::optional<WindowAttrs> a = windowAttrs(q, true);
  if (failed(q.expectArity(2)) || !a || !ok) return failure();
  OpBuilder& b = q.b;
  Location loc = q.loc;
  Type element = q.resultType().getElementType();
  auto scalar = RankedTensorType::get({}, element);
  Value initValue = identityOf(b, loc, element, dir == ComparisonDirection::GE ? Combiner::kMax : Combiner::kMin);
  Value initTangent = identityOf(b, loc, element, Combiner::kAdd);
  auto op = ReduceWindowOp::create(b, loc, TypeRange{q.resultType(), q.resultType()},
                                   ValueRange{q.operands[1], q.operands[0]}, ValueRange{initValue, initTangent},
                                   a->window, a->strides, a->base, a->dilation, a->padding);
  OpBuilder::InsertionGuard guard(b);
  Block* body = b.createBlock(&op.getBody(), {}, {scalar, scalar, scalar, scalar}, {loc, loc, loc, loc});
  auto pred = RankedTensorType::get({}, b.getI1Type());
  Value keep = CompareOp::create(b, loc, pred, dir, body->getArgument(0), body->getArgument(2));
  Value v = SelectOp::create(b, loc, scalar, keep, body->getArgument(0), body->getArgument(2));
  Value t = SelectOp::create(b, loc, scalar, keep, body->getArgument(1), body->getArgument(3));
  ReturnOp::create(b, loc, ValueRange{v, t});
  r.push_back(op.getResult(1));
  return success();
}

struct Entry {
  const char* primitive;
  LowerFn lower;
  const char* op;  // the dialect op it makes, or null when none or several
};

// The primitives whose lowering is more than their op applied to their operands; the others
// come from the ops' `jaxprPrimitive` in StrataOps.td (sameOp).
using CD = ComparisonDirection;
const Entry kLowerings[] = {
    {"eq", compare<CD::EQ>, "strata.compare"},
    {"ne", compare<CD::NE>, "strata.compare"},
    {"lt", compare<CD::LT>, "strata.compare"},
    {"le", compare<CD::LE>, "strata.compare"},
    {"gt", compare<CD::GT>, "strata.compare"},
    {"ge", compare<CD::GE>, "strata.compare"},
    {"round", round, "strata.round"},
    {"integer_pow", integerPow, "strata.integer_pow"},
    {"conj", conj, "strata.complex"},
    {"bitcast_convert_type", bitcastConvertType, "strata.bitcast_convert"},
    {"broadcast_in_dim", broadcastInDim, "strata.broadcast_in_dim"},
    {"reshape", reshape, "strata.reshape"},
    {"transpose", transpose, "strata.transpose"},
    {"slice", slice, "strata.slice"},
    {"concatenate", concatenate, "strata.concatenate"},
    {"pad", pad, "strata.pad"},
    {"iota", iota, "strata.iota"},
    {"reduce_sum", reduce<Combiner::kAdd>, "strata.reduce"},
    {"reduce_max", reduce<Combiner::kMax>, "strata.reduce"},
    {"reduce_min", reduce<Combiner::kMin>, "strata.reduce"},
    {"reduce_prod", reduce<Combiner::kMul>, "strata.reduce"},
    {"argmax", argExtremum<true>, "strata.reduce"},
    {"dot_general", dotGeneral, "strata.dot_general"},
    {"stop_gradient", identity, nullptr},
    {"optimization_barrier", optimizationBarrier, "strata.optimization_barrier"},
    {"custom_vjp_call", customCall, nullptr},
    {"custom_jvp_call", customCall, nullptr},
    {"custom_linear_solve", customLinearSolve, nullptr},
    {"cond", cond, nullptr},
    {"while", whileLoop, "strata.while"},
    {"scan", scan, "strata.while"},
    {"threefry2x32", threefry, "strata.threefry2x32"},
    {"rng_bit_generator", rngBitGenerator, "strata.rng_bit_generator"},
    // Indexing.
    {"dynamic_slice", dynamicSlice, "strata.dynamic_slice"},
    {"dynamic_update_slice", dynamicUpdateSlice, "strata.dynamic_update_slice"},
    {"gather", gather, "strata.gather"},
    {"scatter", scatter<ScatterCombiner::REPLACE>, "strata.scatter"},
    {"scatter_add", scatter<ScatterCombiner::ADD>, "strata.scatter"},
    {"scatter_mul", scatter<ScatterCombiner::MUL>, "strata.scatter"},
    {"scatter_min", scatter<ScatterCombiner::MIN>, "strata.scatter"},
    {"scatter_max", scatter<ScatterCombiner::MAX>, "strata.scatter"},
    // Convolution and pooling (issue 13).
    {"conv_general_dilated", convGeneralDilated, "strata.convolution"},
    {"rev", rev, "strata.reverse"},
    // Sorting, cumulative ops and their relatives (sortscan group). On bools `and` is the
    // minimum and `or` the maximum, whose identities are true and false.
    {"argmin", argExtremum<false>, "strata.reduce"},
    {"reduce_and", reduce<Combiner::kMin>, "strata.reduce"},
    {"reduce_or", reduce<Combiner::kMax>, "strata.reduce"},
    {"cumsum", cumulative<kSumKind>, "strata.cumulative"},
    {"cumprod", cumulative<kProdKind>, "strata.cumulative"},
    {"cummax", cumulative<kMaxKind>, "strata.cumulative"},
    {"cummin", cumulative<kMinKind>, "strata.cumulative"},
    {"cumlogsumexp", cumulative<kLogSumExpKind>, "strata.cumulative"},
    // Window reductions and their derivatives (issue 13).
    {"reduce_window_sum", reduceWindow<Combiner::kAdd>, "strata.reduce_window"},
    {"reduce_window_max", reduceWindow<Combiner::kMax>, "strata.reduce_window"},
    {"reduce_window_min", reduceWindow<Combiner::kMin>, "strata.reduce_window"},
    {"select_and_scatter_add", selectAndScatterAdd, "strata.select_and_scatter"},
    {"select_and_gather_add", selectAndGatherAdd, "strata.reduce_window"},
    {"sort", sort, "strata.sort"},  // sort (issue 13)
    // Linear algebra (issue 14).
    {"cholesky", linalgCall<st::linalg_rules::Kind::kCholesky>, "strata.linalg"},
    {"triangular_solve", linalgCall<st::linalg_rules::Kind::kTriangularSolve>, "strata.linalg"},
    {"lu", linalgCall<st::linalg_rules::Kind::kLu>, "strata.linalg"},
    {"qr", linalgCall<st::linalg_rules::Kind::kQr>, "strata.linalg"},
    {"eigh", linalgCall<st::linalg_rules::Kind::kEigh>, "strata.linalg"},
    {"svd", linalgCall<st::linalg_rules::Kind::kSvd>, "strata.linalg"},
    {"eig", linalgCall<st::linalg_rules::Kind::kEig>, "strata.linalg"},
    {"schur", linalgCall<st::linalg_rules::Kind::kSchur>, "strata.linalg"},
    {"hessenberg", linalgCall<st::linalg_rules::Kind::kHessenberg>, "strata.linalg"},
    // Collectives (issue 18).
    {"psum", collective<st::collective_rules::Kind::kPsum>, "strata.collective"},
    {"pmax", collective<st::collective_rules::Kind::kPmax>, "strata.collective"},
    {"pmin", collective<st::collective_rules::Kind::kPmin>, "strata.collective"},
    {"all_gather", collective<st::collective_rules::Kind::kAllGather>, "strata.collective"},
    {"psum_scatter", collective<st::collective_rules::Kind::kPsumScatter>, "strata.collective"},
    {"all_to_all", collective<st::collective_rules::Kind::kAllToAll>, "strata.collective"},
    {"ppermute", collective<st::collective_rules::Kind::kPpermute>, "strata.collective"},
    {"axis_index", collective<st::collective_rules::Kind::kAxisIndex>, "strata.collective"},
    // StableHLO ops JAX programs use (issue 15).
    {"reduce_precision", reducePrecision, "strata.reduce_precision"},
    {"fft", fft, "strata.fft"},
    // Host callbacks.
    {"pure_callback", hostCallback, "strata.host_callback"},
    {"io_callback", hostCallback, "strata.host_callback"},
    {"debug_callback", hostCallback, "strata.host_callback"},
};

struct Lowering {
  LowerFn lower;
  StringRef op;
};

// Adds sameOp<Op> under Op's jaxpr primitive for each op of the dialect that names one.
template <class... Ops>
void addSameOpLowerings(llvm::StringMap<Lowering>& m) {
  auto add = [&]<class Op>() {
    if constexpr (requires { Op::kJaxprPrimitive; })
      if (!Op::kJaxprPrimitive.empty()) m[Op::kJaxprPrimitive] = {sameOp<Op>, Op::getOperationName()};
  };
  (add.template operator()<Ops>(), ...);
}

const Lowering* findLowering(llvm::StringRef name) {
  static const llvm::StringMap<Lowering> table = [] {
    llvm::StringMap<Lowering> m;
    addSameOpLowerings<
#define GET_OP_LIST
#include "StrataOps.cpp.inc"
        >(m);
    for (const Entry& e : kLowerings) m[e.primitive] = {e.lower, e.op ? e.op : ""};
    return m;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

bool Lowerer::emitEquations(OpBuilder& b, const st::JaxprImpl& jaxpr, std::vector<Value>& values,
                             SmallVectorImpl<Value>& outs) {
  MLIRContext* ctx = b.getContext();
  auto atom = [&](const st::Atom& a, Location loc) -> Value {
    if (!a.is_literal()) return values[a.var];
    auto type = tensorType(ctx, st::detail::aval_of(a.literal));
    return ConstantOp::create(b, loc, cast<ElementsAttr>(denseOf(type, a.literal)));
  };

  for (const st::Equation& e : jaxpr.eqns) {
    Location loc = locationOf(e.loc);
    const Lowering* lowering = findLowering(e.prim->name);
    if (!lowering) {
      emitError(loc) << "no lowering for primitive `" << e.prim->name << "`";
      return false;
    }
    Eqn q{*this, b, e, jaxpr, {}, loc};
    for (const st::Atom& a : e.inputs) {
      Value v = atom(a, loc);
      if (!v) {
        emitError(loc) << "`" << e.prim->name << "`: an operand is used before it is defined";
        return false;
      }
      q.operands.push_back(v);
    }
    SmallVector<Value> results;
    if (failed(lowering->lower(q, results)) || results.size() != e.outputs.size()) {
      if (results.size() != e.outputs.size())
        emitError(loc) << "`" << e.prim->name << "`: expects " << e.outputs.size()
                       << " results, but got " << results.size();
      return false;
    }
    for (size_t i = 0; i < results.size(); ++i) values[e.outputs[i]] = results[i];
  }

  for (const st::Atom& a : jaxpr.outvars) outs.push_back(atom(a, fallback_));
  return true;
}

bool Lowerer::emitBody(OpBuilder& b, const st::JaxprImpl& jaxpr, ValueRange args, SmallVectorImpl<Value>& outs) {
  if (!jaxpr.constvars.empty() || args.size() != jaxpr.invars.size()) {
    emitError(fallback_) << "internal: a control-flow body expects " << jaxpr.invars.size()
                         << " inputs and no constants, but got " << args.size() << " and "
                         << jaxpr.constvars.size();
    return false;
  }
  std::vector<Value> values(jaxpr.vars.size());
  for (size_t i = 0; i < args.size(); ++i) values[jaxpr.invars[i]] = args[i];
  return emitEquations(b, jaxpr, values, outs);
}

func::FuncOp Lowerer::lowerFunction(const st::JaxprImpl& jaxpr, StringRef name,
                                    bool embedConsts) {
  MLIRContext* ctx = module_.getContext();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module_.getBody());

  SmallVector<Type> argTypes, resultTypes;
  if (!embedConsts)
    for (int v : jaxpr.constvars) argTypes.push_back(tensorType(ctx, jaxpr.vars[v]));
  for (int v : jaxpr.invars) argTypes.push_back(tensorType(ctx, jaxpr.vars[v]));
  for (const st::Atom& a : jaxpr.outvars) resultTypes.push_back(tensorType(ctx, jaxpr.aval(a)));
  auto fn = func::FuncOp::create(b, fallback_, name, b.getFunctionType(argTypes, resultTypes));
  if (embedConsts) fn.setPrivate();  // a sub-jaxpr: only this module calls it
  Block* entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);

  std::vector<Value> values(jaxpr.vars.size());
  unsigned arg = 0;
  for (size_t i = 0; i < jaxpr.constvars.size(); ++i) {
    int v = jaxpr.constvars[i];
    if (!embedConsts) {
      fn.setArgAttr(arg, "strata.constvar", b.getUnitAttr());
      values[v] = entry->getArgument(arg++);
      continue;
    }
    if (i >= jaxpr.consts.size() || !jaxpr.consts[i].data()) {
      emitError(fallback_) << "cannot lower a sub-jaxpr whose constant " << i
                           << " has no value (a tracer of an enclosing trace)";
      fn.erase();
      return {};
    }
    auto type = tensorType(ctx, jaxpr.vars[v]);
    values[v] = ConstantOp::create(b, fallback_, cast<ElementsAttr>(denseOf(type, jaxpr.consts[i])));
  }
  for (int v : jaxpr.invars) values[v] = entry->getArgument(arg++);

  SmallVector<Value> outs;
  if (!emitEquations(b, jaxpr, values, outs)) {
    fn.erase();
    return {};
  }
  func::ReturnOp::create(b, fallback_, outs);
  return fn;
}

}  // namespace

namespace mlir::strata {

OwningOpRef<ModuleOp> lowerJaxprToStrata(MLIRContext& context, const ::strata::JaxprImpl& jaxpr,
                                         Location fallback) {
  context.loadDialect<StrataDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fallback);
  Lowerer lowerer(*module, fallback);
  if (!lowerer.lowerFunction(jaxpr, "main", /*embedConsts=*/false)) return {};
  return module;
}

}  // namespace mlir::strata

bool ::strata::has_lowering(std::string_view primitive_name) {
  return findLowering(llvm::StringRef(primitive_name.data(), primitive_name.size())) != nullptr;
}

llvm::StringRef mlir::strata::loweredOpName(llvm::StringRef primitive) {
  const Lowering* l = findLowering(primitive);
  return l ? l->op : llvm::StringRef();
}
