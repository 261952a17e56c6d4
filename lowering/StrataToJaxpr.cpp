// `strata` → jaxpr: the inverse of JaxprToStrata's table, so that an imported StableHLO function
// traces (st::Module inside jit, grad, vmap, make_jaxpr).
//
// Ops that name their primitive in ODS (`jaxprPrimitive`, StrataOps.td) map automatically; the
// structural ops that programs from JAX use have their inverse below (constants, broadcasts,
// reshapes, reductions with a one-op body, compare, dot_general, indexing, while/if/case, calls).
// Each equation's result types come from the primitive's shape rule and must equal the op's:
// a mismatch is a diagnostic, never a wrong program.
#include "lowering/StrataToJaxpr.h"

#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "array_impl.h"
#include "dialect/StrataOps.h"
#include "jaxpr.h"
#include "lowering/JaxprToStrata.h"
#include "lowering/SortComparator.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::strata;
namespace st = ::strata;

namespace {

// The primitive each dialect op names in ODS (`jaxprPrimitive`), keyed by the op's name.
template <class... Ops>
llvm::StringMap<std::string> namedPrimitives() {
  llvm::StringMap<std::string> m;
  auto add = [&]<class Op>() {
    if constexpr (requires { Op::kJaxprPrimitive; })
      if (!Op::kJaxprPrimitive.empty()) m[Op::getOperationName()] = Op::kJaxprPrimitive.str();
  };
  (add.template operator()<Ops>(), ...);
  return m;
}

const std::string* namedPrimitive(StringRef opName) {
  static const llvm::StringMap<std::string> table = namedPrimitives<
#define GET_OP_LIST
#include "StrataOps.cpp.inc"
      >();
  auto it = table.find(opName);
  return it == table.end() ? nullptr : &it->second;
}

// SourceLoc keeps a `const char*`: file names live as long as the process.
const char* internFile(StringRef name) {
  static std::mutex mu;
  static std::set<std::string>* files = new std::set<std::string>;
  std::lock_guard<std::mutex> lock(mu);
  return files->insert(name.str()).first->c_str();
}

std::optional<FileLineColLoc> fileLoc(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc)) return f;
  if (auto n = dyn_cast<NameLoc>(loc)) return fileLoc(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc)) return fileLoc(c.getCallee());
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations())
      if (auto r = fileLoc(l)) return r;
  return std::nullopt;
}

st::SourceLoc sourceLoc(Location loc) {
  st::SourceLoc s;
  if (auto f = fileLoc(loc)) {
    s.file = internFile(f->getFilename().getValue());
    s.line = f->getLine();
    s.column = f->getColumn();
  }
  return s;
}

st::IntList ints(ArrayRef<int64_t> a) { return st::IntList(a.begin(), a.end()); }

// One jaxpr being built: the top-level function's, or a region's (a sub-jaxpr). Values a
// region reads from above become its leading inputs (`captures`, atoms of the parent).
struct Scope {
  Scope* parent = nullptr;
  std::shared_ptr<st::JaxprImpl> j = std::make_shared<st::JaxprImpl>();
  llvm::DenseMap<Value, st::Atom> env;
  std::vector<st::Atom> captures;  // in the parent
  std::vector<int> captureVars;     // here

  Scope* root() { return parent ? parent->root() : this; }
  int newVar(const st::AbstractValue& av) {
    j->vars.push_back(av);
    return static_cast<int>(j->vars.size() - 1);
  }
};

enum class Combiner { kAdd, kMul, kMax, kMin, kAnd, kOr };

class Converter {
 public:
  explicit Converter(ModuleOp module) : module_(module) {}

  std::shared_ptr<const st::JaxprImpl> function(func::FuncOp fn) {
    Scope s;
    Block& entry = fn.getBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      auto av = aval(arg.getType(), fn.getLoc());
      if (!av) return nullptr;
      int v = s.newVar(*av);
      s.j->invars.push_back(v);
      s.env[arg] = st::Atom{v, {}};
    }
    std::vector<st::Atom> outs;
    if (!block(s, entry, outs)) return nullptr;
    s.j->outvars = std::move(outs);
    return s.j;
  }

 private:
  std::optional<st::AbstractValue> aval(Type t, Location loc) {
    auto rt = dyn_cast<RankedTensorType>(t);
    std::optional<st::DType> d = rt ? dtypeOf(rt.getElementType()) : std::nullopt;
    if (!d) {
      emitError(loc) << "grad/jit of a StableHLO module: type " << t << " has no strata dtype";
      return std::nullopt;
    }
    return st::AbstractValue{st::Shape(rt.getShape().begin(), rt.getShape().end()), *d, false};
  }

  // The atom of `v` in `s`, capturing it from the enclosing scopes when it was defined there.
  std::optional<st::Atom> lookup(Scope& s, Value v) {
    auto it = s.env.find(v);
    if (it != s.env.end()) return it->second;
    if (!s.parent) {
      emitError(v.getLoc()) << "grad/jit of a StableHLO module: internal: a value is used before it is defined";
      return std::nullopt;
    }
    std::optional<st::Atom> outer = lookup(*s.parent, v);
    if (!outer) return std::nullopt;
    if (outer->is_literal()) return s.env[v] = *outer;
    int var = s.newVar(s.parent->j->aval(*outer));
    s.captures.push_back(*outer);
    s.captureVars.push_back(var);
    return s.env[v] = st::Atom{var, {}};
  }

  bool lookupAll(Scope& s, ValueRange vs, std::vector<st::Atom>& out) {
    for (Value v : vs) {
      auto a = lookup(s, v);
      if (!a) return false;
      out.push_back(*a);
    }
    return true;
  }

  // Binds `p` in `s` as one equation; the results' types (from the shape rule) must be
  // `expected` when given. The result atoms are appended to `outs`.
  bool equation(Scope& s, Location loc, const st::Primitive& p, std::vector<st::Atom> in, st::Params params,
                TypeRange expected, std::vector<st::Atom>& outs) {
    if (p.arity >= 0 && static_cast<size_t>(p.arity) != in.size()) {
      emitError(loc) << "grad/jit of a StableHLO module: `" << p.name << "` expects " << p.arity << " operands, but got "
                     << in.size();
      return false;
    }
    std::vector<st::AbstractValue> inAvals;
    for (const st::Atom& a : in) inAvals.push_back(s.j->aval(a));
    std::vector<st::AbstractValue> outAvals;
    try {
      outAvals = p.shape_rule(inAvals, params);
    } catch (const std::exception& e) {
      emitError(loc) << "grad/jit of a StableHLO module: " << e.what();
      return false;
    }
    if (!expected.empty()) {
      bool same = expected.size() == outAvals.size();
      for (size_t i = 0; same && i < outAvals.size(); ++i) {
        auto want = aval(expected[i], loc);
        if (!want) return false;
        same = want->shape == outAvals[i].shape && want->dtype == outAvals[i].dtype;
      }
      if (!same) {
        InFlightDiagnostic d = emitError(loc) << "grad/jit of a StableHLO module: `" << p.name << "` gives ";
        for (size_t i = 0; i < outAvals.size(); ++i) d << (i ? ", " : "") << outAvals[i].str();
        d << " where the op has " << expected;
        return false;
      }
    }
    st::Equation e;
    e.prim = &p;
    e.inputs = std::move(in);
    e.params = std::move(params);
    e.loc = sourceLoc(loc);
    for (const st::AbstractValue& av : outAvals) {
      int v = s.newVar(av);
      e.outputs.push_back(v);
      outs.push_back(st::Atom{v, {}});
    }
    s.j->eqns.push_back(std::move(e));
    return true;
  }

  // An equation whose results are `op`'s.
  bool bindOp(Scope& s, Operation* op, std::string_view prim, std::vector<st::Atom> in, st::Params params = {}) {
    const st::Primitive* p = st::find_primitive(prim);
    if (!p) return noForm(op);
    std::vector<st::Atom> outs;
    if (!equation(s, op->getLoc(), *p, std::move(in), std::move(params), op->getResultTypes(), outs)) return false;
    for (auto [r, a] : llvm::zip(op->getResults(), outs)) s.env[r] = a;
    return true;
  }

  bool bindOp(Scope& s, Operation* op, std::string_view prim, st::Params params = {}) {
    std::vector<st::Atom> in;
    return lookupAll(s, op->getOperands(), in) && bindOp(s, op, prim, std::move(in), std::move(params));
  }

  bool noForm(Operation* op, StringRef why = {}) {
    InFlightDiagnostic d = emitError(op->getLoc()) << "grad/jit of a StableHLO module: op `" << op->getName()
                                                   << "` has no jaxpr form yet";
    if (!why.empty()) d << " (" << why << ")";
    return false;
  }

  // A constant's elements as a concrete array (bools one byte each; splats repeated).
  std::optional<st::Array> constantArray(ConstantOp op) {
    auto av = aval(op.getType(), op.getLoc());
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!av) return std::nullopt;
    if (!dense) {
      noForm(op, "its value is not dense elements");
      return std::nullopt;
    }
    st::Array a = st::detail::make_concrete(*av);
    char* out = static_cast<char*>(st::detail::mutable_data(a));
    const size_t n = static_cast<size_t>(av->size()), item = st::itemsize(av->dtype);
    if (av->dtype == st::DType::bool_) {
      size_t i = 0;
      for (bool b : dense.getValues<bool>()) out[i++] = b ? 1 : 0;
      for (; i < n; ++i) out[i] = out[0];  // a splat yields one value
    } else {
      ArrayRef<char> raw = dense.getRawData();
      if (dense.isSplat())
        for (size_t i = 0; i < n; ++i) std::memcpy(out + i * item, raw.data(), item);
      else if (raw.size() == n * item)
        std::memcpy(out, raw.data(), n * item);
      else {
        noForm(op, "its elements are not stored densely");
        return std::nullopt;
      }
    }
    return a;
  }

  // Scalars become literals; other constants constvars of the top-level jaxpr (read from a
  // region as captures).
  bool constant(Scope& s, ConstantOp op) {
    std::optional<st::Array> a = constantArray(op);
    if (!a) return false;
    if (a->shape().empty()) {
      s.env[op.getResult()] = st::Atom{-1, *a};
      return true;
    }
    Scope& r = *s.root();
    int v = r.newVar(st::detail::aval_of(*a));
    r.j->constvars.push_back(v);
    r.j->consts.push_back(*a);
    r.env[op.getResult()] = st::Atom{v, {}};
    return static_cast<bool>(lookup(s, op.getResult()));
  }

  // The combiner of a reduce body `(a, b) { return a OP b }`, if it is one strata has a
  // reduction primitive for.
  std::optional<Combiner> combinerOf(Region& body) {
    if (!body.hasOneBlock()) return std::nullopt;
    Block& b = body.front();
    if (b.getNumArguments() != 2 || b.getOperations().size() != 2) return std::nullopt;
    Operation& op = b.front();
    auto ret = dyn_cast<ReturnOp>(b.back());
    if (!ret || ret->getNumOperands() != 1 || ret->getOperand(0) != op.getResult(0) || op.getNumOperands() != 2)
      return std::nullopt;
    bool onArgs = (op.getOperand(0) == b.getArgument(0) && op.getOperand(1) == b.getArgument(1)) ||
                  (op.getOperand(0) == b.getArgument(1) && op.getOperand(1) == b.getArgument(0));
    if (!onArgs) return std::nullopt;
    bool isBool = cast<RankedTensorType>(b.getArgument(0).getType()).getElementType().isInteger(1);
    if (isa<AddOp>(op)) return Combiner::kAdd;
    if (isa<MultiplyOp>(op)) return Combiner::kMul;
    if (isa<MaximumOp>(op)) return Combiner::kMax;
    if (isa<MinimumOp>(op)) return Combiner::kMin;
    if (isa<AndOp>(op) && isBool) return Combiner::kAnd;
    if (isa<OrOp>(op) && isBool) return Combiner::kOr;
    return std::nullopt;
  }

  // Whether `v` is a constant holding c's identity (then the reduction needs no extra combine).
  static bool isIdentity(Value v, Combiner c) {
    // JAX writes some inits as a 0-d broadcast of the constant.
    while (Operation* def = v.getDefiningOp()) {
      if (!isa<BroadcastInDimOp, ReshapeOp>(def)) break;
      v = def->getOperand(0);
    }
    auto cst = v.getDefiningOp<ConstantOp>();
    auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : DenseElementsAttr();
    if (!dense || !dense.isSplat()) return false;
    Type t = dense.getElementType();
    if (auto f = dyn_cast<FloatType>(t)) {
      APFloat x = dense.getSplatValue<APFloat>();
      switch (c) {
        case Combiner::kAdd: return x.isZero();
        case Combiner::kMul: return x.isExactlyValue(1.0);
        case Combiner::kMax: return x.isInfinity() && x.isNegative();
        case Combiner::kMin: return x.isInfinity() && !x.isNegative();
        default: return false;
      }
    }
    APInt x = dense.getSplatValue<APInt>();
    bool u = t.isInteger(1) || t.isUnsignedInteger();
    unsigned w = x.getBitWidth();
    switch (c) {
      case Combiner::kAdd: return x.isZero();
      case Combiner::kMul: return x.isOne();
      case Combiner::kMax: return x == (u ? APInt::getMinValue(w) : APInt::getSignedMinValue(w));
      case Combiner::kMin: return x == (u ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w));
      case Combiner::kAnd: return x.isAllOnes();
      case Combiner::kOr: return x.isZero();
    }
    return false;
  }

  // reduce with a one-op body → reduce_sum/prod/max/min/and/or, combined with the init when
  // that is not the combiner's identity.
  bool reduce(Scope& s, ReduceOp op) {
    if (op.getInputs().size() != 1) return noForm(op, "a reduction of several operands (argmax-like)");
    std::optional<Combiner> c = combinerOf(op.getBody());
    if (!c) return noForm(op, "its body is not one add, mul, max, min, and or or of its arguments");
    static const char* kReduce[] = {"reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"};
    static const char* kCombine[] = {"add", "mul", "max", "min", "and", "or"};
    const int k = static_cast<int>(*c);
    std::vector<st::Atom> in;
    if (!lookupAll(s, op.getInputs(), in)) return false;
    st::Params params{{"axes", ints(op.getDimensions())}};
    if (isIdentity(op.getInitValues()[0], *c)) return bindOp(s, op, kReduce[k], std::move(in), std::move(params));
    std::vector<st::Atom> reduced, init;
    if (!equation(s, op.getLoc(), *st::find_primitive(kReduce[k]), std::move(in), std::move(params), op->getResultTypes(),
                  reduced) ||
        !lookupAll(s, op.getInitValues(), init))
      return false;
    return bindOp(s, op, kCombine[k], {reduced[0], init[0]});
  }

  // reduce_window with a one-op add/max/min body → reduce_window_sum/max/min (combined with an
  // init that is not the combiner's identity, when there is no padding to read it).
  bool reduceWindow(Scope& s, ReduceWindowOp op) {
    if (op.getInputs().size() != 1) return noForm(op, "a window reduction of several operands");
    std::optional<Combiner> c = combinerOf(op.getBody());
    const char* prim = !c                        ? nullptr
                       : *c == Combiner::kAdd ? "reduce_window_sum"
                       : *c == Combiner::kMax ? "reduce_window_max"
                       : *c == Combiner::kMin ? "reduce_window_min"
                                              : nullptr;
    if (!prim) return noForm(op, "its body is not one add, max or min of its arguments");
    const size_t rank = op.getWindowDimensions().size();
    auto orOnes = [&](std::optional<ArrayRef<int64_t>> a) { return a ? ints(*a) : st::IntList(rank, 1); };
    st::IntList lo(rank, 0), hi(rank, 0);
    if (auto pad = op.getPadding()) {
      std::vector<int64_t> flat(pad->getValues<int64_t>().begin(), pad->getValues<int64_t>().end());
      if (flat.size() != 2 * rank) return noForm(op, "its padding is not [rank, 2]");
      for (size_t i = 0; i < rank; ++i) lo[i] = flat[2 * i], hi[i] = flat[2 * i + 1];
    }
    std::vector<st::Atom> in;
    if (!lookupAll(s, op.getInputs(), in)) return false;
    st::Params params{{"window_dimensions", ints(op.getWindowDimensions())},
                      {"window_strides", orOnes(op.getWindowStrides())},
                      {"padding_low", lo},
                      {"padding_high", hi},
                      {"base_dilation", orOnes(op.getBaseDilations())},
                      {"window_dilation", orOnes(op.getWindowDilations())}};
    if (isIdentity(op.getInitValues()[0], *c)) return bindOp(s, op, prim, std::move(in), std::move(params));
    // Another init is one more operand of each window's combine, unless padding reads it.
    bool padded = std::any_of(lo.begin(), lo.end(), [](int64_t v) { return v != 0; }) ||
                  std::any_of(hi.begin(), hi.end(), [](int64_t v) { return v != 0; });
    if (padded) return noForm(op, "a padded window reduction whose init is not its combiner's identity");
    std::vector<st::Atom> reduced, init;
    if (!equation(s, op.getLoc(), *st::find_primitive(prim), std::move(in), std::move(params), op->getResultTypes(),
                  reduced) ||
        !lookupAll(s, op.getInitValues(), init))
      return false;
    return bindOp(s, op, *c == Combiner::kAdd ? "add" : *c == Combiner::kMax ? "max" : "min", {reduced[0], init[0]});
  }

  // convolution → conv_general_dilated (padding as two lists).
  bool convolution(Scope& s, ConvolutionOp op) {
    ArrayRef<int64_t> pad = op.getPadding();
    st::IntList lo, hi;
    for (size_t i = 0; i + 1 < pad.size(); i += 2) lo.push_back(pad[i]), hi.push_back(pad[i + 1]);
    return bindOp(s, op, "conv_general_dilated",
                  st::Params{{"window_strides", ints(op.getWindowStrides())},
                             {"padding_low", lo},
                             {"padding_high", hi},
                             {"lhs_dilation", ints(op.getLhsDilation())},
                             {"rhs_dilation", ints(op.getRhsDilation())},
                             {"lhs_spec", ints(op.getLhsSpec())},
                             {"rhs_spec", ints(op.getRhsSpec())},
                             {"out_spec", ints(op.getOutSpec())},
                             {"feature_group_count", static_cast<int64_t>(op.getFeatureGroupCount())},
                             {"batch_group_count", static_cast<int64_t>(op.getBatchGroupCount())}});
  }

  // sort whose comparator is jax.lax.sort's (lexicographic LT over the leading operands,
  // floats canonicalised as JAX does, integers by their own signedness) → sort; the same with
  // GT and no stability asked → sort, then rev (a valid order for an unstable descending sort).
  bool sort(Scope& s, SortOp op) {
    std::optional<StandardSort> cmp = recognizeComparator(op);
    if (!cmp) return noForm(op, "its comparator is not jax.lax.sort's: a lexicographic LT or GT over leading operands");
    for (int64_t k = 0; k < cmp->numKeys; ++k) {
      Type t = cast<RankedTensorType>(op.getInputs()[k].getType()).getElementType();
      if (isa<FloatType>(t) && !cmp->canonical)
        return noForm(op, "a float key compared without JAX's canonicalisation of -0.0 and nan");
      if (!isa<FloatType>(t) && cmp->codes[k] != sortKeyCode(t))
        return noForm(op, "an integer key compared with the other signedness");
    }
    if (cmp->descending && op.getIsStable()) return noForm(op, "a stable descending sort");
    int64_t rank = cast<RankedTensorType>(op.getInputs()[0].getType()).getRank();
    int64_t dim = op.getDimension() < 0 ? op.getDimension() + rank : op.getDimension();
    st::Params params{{"dimension", dim}, {"is_stable", static_cast<bool>(op.getIsStable())}, {"num_keys", cmp->numKeys}};
    if (!cmp->descending) return bindOp(s, op, "sort", std::move(params));
    std::vector<st::Atom> in, sorted;
    if (!lookupAll(s, op.getInputs(), in) ||
        !equation(s, op.getLoc(), *st::find_primitive("sort"), std::move(in), std::move(params), op->getResultTypes(), sorted))
      return false;
    for (auto [r, a] : llvm::zip(op.getResults(), sorted)) {
      std::vector<st::Atom> reversed;
      if (!equation(s, op.getLoc(), *st::find_primitive("rev"), {a}, st::Params{{"dimensions", st::IntList{dim}}},
                    TypeRange{r.getType()}, reversed))
        return false;
      s.env[r] = reversed[0];
    }
    return true;
  }

  // dynamic_slice / dynamic_update_slice start indices as the 0-d i32 the primitives take.
  bool indices(Scope& s, Operation* op, ValueRange starts, std::vector<st::Atom>& out) {
    for (Value v : starts) {
      auto a = lookup(s, v);
      if (!a) return false;
      if (s.j->aval(*a).dtype == st::DType::i32) {
        out.push_back(*a);
        continue;
      }
      std::vector<st::Atom> converted;
      if (!equation(s, op->getLoc(), st::prim::kConvertElementType, {*a},
                    st::Params{{"new_dtype", st::DType::i32}, {"weak_type", false}}, {}, converted))
        return false;
      out.push_back(converted[0]);
    }
    return true;
  }

  // A region as a sub-jaxpr of `parent`: its block arguments (of `argTypes`) its inputs after
  // what it captures.
  std::unique_ptr<Scope> region(Scope& parent, Region& r) {
    auto sub = std::make_unique<Scope>();
    sub->parent = &parent;
    Block& b = r.front();
    std::vector<int> args;
    for (BlockArgument arg : b.getArguments()) {
      auto av = aval(arg.getType(), arg.getLoc());
      if (!av) return nullptr;
      args.push_back(sub->newVar(*av));
      sub->env[arg] = st::Atom{args.back(), {}};
    }
    std::vector<st::Atom> outs;
    if (!block(*sub, b, outs)) return nullptr;
    sub->j->outvars = std::move(outs);
    sub->j->invars = sub->captureVars;
    sub->j->invars.insert(sub->j->invars.end(), args.begin(), args.end());
    return sub;
  }

  // A 0-d integer constant's value (JAX's loop bounds and counters).
  static std::optional<int64_t> intConstant(Value v) {
    auto c = v.getDefiningOp<ConstantOp>();
    auto dense = c ? dyn_cast<DenseIntElementsAttr>(c.getValue()) : DenseIntElementsAttr();
    if (!dense || !dense.isSplat() || dense.getElementType().isInteger(1)) return std::nullopt;
    APInt x = dense.getSplatValue<APInt>();
    return dense.getElementType().isUnsignedInteger() ? static_cast<int64_t>(x.getZExtValue()) : x.getSExtValue();
  }

  // The trip count of a while loop as JAX exports fori_loop and scan: a counter starting at a
  // constant, compared LT with a constant bound in `cond`, incremented by 1 in `body`.
  static std::optional<int64_t> staticTripCount(WhileOp op) {
    Block& cond = op.getCond().front();
    Block& body = op.getBody().front();
    auto ret = dyn_cast<ReturnOp>(cond.getTerminator());
    auto cmp = ret && ret->getNumOperands() == 1 ? ret->getOperand(0).getDefiningOp<CompareOp>() : CompareOp();
    if (!cmp || cmp.getComparisonDirection() != ComparisonDirection::LT) return std::nullopt;
    auto counter = dyn_cast<BlockArgument>(cmp.getLhs());
    if (!counter || counter.getOwner() != &cond) return std::nullopt;
    unsigned k = counter.getArgNumber();
    std::optional<int64_t> bound = intConstant(cmp.getRhs()), start = intConstant(op->getOperand(k));
    auto next = dyn_cast<ReturnOp>(body.getTerminator());
    auto add = next && next->getNumOperands() == op->getNumOperands() ? next->getOperand(k).getDefiningOp<AddOp>() : AddOp();
    if (!bound || !start || !add) return std::nullopt;
    Value arg = body.getArgument(k);
    bool plusOne = (add.getLhs() == arg && intConstant(add.getRhs()) == 1) || (add.getRhs() == arg && intConstant(add.getLhs()) == 1);
    if (!plusOne) return std::nullopt;
    return std::max<int64_t>(0, *bound - *start);
  }

  // while → scan (of `length` steps, every loop value a carry, no xs) when the trip count is
  // static, so that reverse mode differentiates it as JAX's fori_loop; else while (forward mode
  // only, as in JAX).
  bool whileLoop(Scope& s, WhileOp op) {
    if (std::optional<int64_t> length = staticTripCount(op)) {
      std::unique_ptr<Scope> body = region(s, op.getBody());
      if (!body) return false;
      std::vector<st::Atom> in = body->captures;
      if (!lookupAll(s, op->getOperands(), in)) return false;
      st::Params params{{"jaxpr", st::JaxprPtr(body->j)},
                        {"length", *length},
                        {"num_consts", static_cast<int64_t>(body->captures.size())},
                        {"num_carry", static_cast<int64_t>(op->getNumOperands())},
                        {"reverse", false},
                        {"unroll", int64_t{1}}};
      return bindOp(s, op, "scan", std::move(in), std::move(params));
    }
    std::unique_ptr<Scope> cond = region(s, op.getCond());
    if (!cond) return false;
    std::unique_ptr<Scope> body = region(s, op.getBody());
    if (!body) return false;
    std::vector<st::Atom> in = cond->captures;
    in.insert(in.end(), body->captures.begin(), body->captures.end());
    if (!lookupAll(s, op->getOperands(), in)) return false;
    st::Params params{{"cond_jaxpr", st::JaxprPtr(cond->j)},
                      {"cond_nconsts", static_cast<int64_t>(cond->captures.size())},
                      {"body_jaxpr", st::JaxprPtr(body->j)},
                      {"body_nconsts", static_cast<int64_t>(body->captures.size())}};
    return bindOp(s, op, "while", std::move(in), std::move(params));
  }

  bool ifOp(Scope& s, IfOp op) {
    auto pred = lookup(s, op.getPred());
    if (!pred) return false;
    std::vector<st::Atom> index;
    if (!equation(s, op.getLoc(), st::prim::kConvertElementType, {*pred},
                  st::Params{{"new_dtype", st::DType::i32}, {"weak_type", false}}, {}, index))
      return false;
    // cond's branches are indexed: 0 is false, 1 true.
    for (Region* r : {&op.getTrueBranch(), &op.getFalseBranch()})
      if (!r->hasOneBlock() || r->front().getNumArguments() != 0) return noForm(op, "a branch with block arguments");
    SmallVector<Region*> order{&op.getFalseBranch(), &op.getTrueBranch()};
    return branchesOf(s, op, index[0], order);
  }

  // if / case → cond: every branch takes everything any branch captured (its own first use
  // or an unused input), the index an i32.
  bool branchesOf(Scope& s, Operation* op, st::Atom index, ArrayRef<Region*> regions) {
    std::vector<std::unique_ptr<Scope>> subs;
    for (Region* r : regions) {
      subs.push_back(region(s, *r));
      if (!subs.back()) return false;
    }
    std::vector<st::Atom> joined;
    for (auto& sub : subs)
      for (const st::Atom& a : sub->captures)
        if (std::none_of(joined.begin(), joined.end(), [&](const st::Atom& b) { return b.var == a.var; })) joined.push_back(a);
    st::JaxprList list;
    for (auto& sub : subs) {
      std::vector<int> invars;
      for (const st::Atom& a : joined) {
        auto it = std::find_if(sub->captures.begin(), sub->captures.end(), [&](const st::Atom& b) { return b.var == a.var; });
        invars.push_back(it != sub->captures.end() ? sub->captureVars[it - sub->captures.begin()]
                                                   : sub->newVar(s.j->aval(a)));
      }
      sub->j->invars = std::move(invars);
      list.push_back(sub->j);
    }
    std::vector<st::Atom> in{index};
    in.insert(in.end(), joined.begin(), joined.end());
    return bindOp(s, op, "cond", std::move(in), st::Params{{"branches", list}});
  }

  // A call to another function of the module: its body inlined here.
  bool call(Scope& s, func::CallOp op) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, op.getCalleeAttr());
    if (!callee || callee.isExternal()) return noForm(op, "its callee has no body in the module");
    if (++depth_ > 64) return noForm(op, "calls nest more than 64 deep");
    Block& entry = callee.getBody().front();
    for (auto [arg, v] : llvm::zip(entry.getArguments(), op.getOperands())) {
      auto a = lookup(s, v);
      if (!a) return false;
      s.env[arg] = *a;
    }
    std::vector<st::Atom> outs;
    bool ok = block(s, entry, outs);
    --depth_;
    if (!ok) return false;
    for (auto [r, a] : llvm::zip(op.getResults(), outs)) s.env[r] = a;
    return true;
  }

  bool block(Scope& s, Block& b, std::vector<st::Atom>& outs) {
    for (Operation& op : b) {
      if (op.hasTrait<OpTrait::IsTerminator>()) return lookupAll(s, op.getOperands(), outs);
      if (!convert(s, &op)) return false;
    }
    emitError(b.getParent()->getLoc()) << "grad/jit of a StableHLO module: a block without a terminator";
    return false;
  }

  static const char* comparison(ComparisonDirection d) {
    switch (d) {
      case ComparisonDirection::EQ: return "eq";
      case ComparisonDirection::NE: return "ne";
      case ComparisonDirection::LT: return "lt";
      case ComparisonDirection::LE: return "le";
      case ComparisonDirection::GT: return "gt";
      case ComparisonDirection::GE: return "ge";
    }
    return "eq";
  }

  // rng_bit_generator: the primitive draws unsigned bits of the output's width (its dtypes are
  // JAX's); another element type of that width is their bitcast.
  bool rngBitGenerator(Scope& s, RngBitGeneratorOp op) {
    auto out = cast<RankedTensorType>(op.getOutput().getType());
    auto want = aval(out, op.getLoc());
    if (!want) return false;
    const unsigned width = out.getElementType().getIntOrFloatBitWidth();
    const st::DType unsignedOf = st::integer_dtype(static_cast<int>(width), false);
    st::Params params{{"shape", ints(out.getShape())},
                      {"dtype", unsignedOf},
                      {"algorithm", static_cast<int64_t>(op.getRngAlgorithm())}};
    if (want->dtype == unsignedOf) return bindOp(s, op, "rng_bit_generator", std::move(params));
    std::vector<st::Atom> in, drawn, bits;
    if (!lookupAll(s, op->getOperands(), in)) return false;
    Type types[] = {op.getOutputState().getType(),
                    RankedTensorType::get(out.getShape(), IntegerType::get(op.getContext(), width, IntegerType::Unsigned))};
    const st::Primitive* rng = st::find_primitive("rng_bit_generator");
    const st::Primitive* bitcast = st::find_primitive("bitcast_convert_type");
    if (!rng || !bitcast || !equation(s, op.getLoc(), *rng, std::move(in), std::move(params), types, drawn) ||
        !equation(s, op.getLoc(), *bitcast, {drawn[1]}, st::Params{{"new_dtype", want->dtype}}, TypeRange{out}, bits))
      return false;
    s.env[op.getOutputState()] = drawn[0];
    s.env[op.getOutput()] = bits[0];
    return true;
  }

  std::optional<st::DType> resultDType(Operation* op) {
    auto av = aval(op->getResult(0).getType(), op->getLoc());
    return av ? std::optional<st::DType>(av->dtype) : std::nullopt;
  }

  bool convert(Scope& s, Operation* op) {
    using P = st::Params;
    if (auto c = dyn_cast<ConstantOp>(op)) return constant(s, c);
    if (auto c = dyn_cast<func::CallOp>(op)) return call(s, c);
    if (auto c = dyn_cast<ConvertOp>(op)) {
      auto d = resultDType(op);
      return d && bindOp(s, op, "convert_element_type", P{{"new_dtype", *d}, {"weak_type", false}});
    }
    if (auto c = dyn_cast<BitcastConvertOp>(op)) {
      auto d = resultDType(op);
      return d && bindOp(s, op, "bitcast_convert_type", P{{"new_dtype", *d}});
    }
    if (auto c = dyn_cast<CompareOp>(op)) {
      // eq/lt/... order floats as IEEE does; a total order (-0 < +0, nans ordered) is another op.
      bool isFloat = isa<FloatType>(cast<RankedTensorType>(c.getLhs().getType()).getElementType());
      if (isFloat && c.getCompareType() == ComparisonType::TOTALORDER) return noForm(op, "a TOTALORDER float comparison");
      // jaxpr comparisons order integers by their dtype's signedness: an UNSIGNED comparison of
      // signed integers (or SIGNED of unsigned ones, as StableHLO allows) compares their bits
      // reinterpreted in the other signedness.
      std::vector<st::Atom> in;
      if (!lookupAll(s, op->getOperands(), in)) return false;
      st::DType t = s.j->aval(in[0]).dtype;
      bool other = c.getCompareType() && st::is_integer(t) && t != st::DType::bool_ &&
                   ((*c.getCompareType() == ComparisonType::UNSIGNED) != st::is_unsigned_integer(t));
      if (other) {
        static const std::pair<st::DType, st::DType> kPairs[] = {
            {st::DType::i8, st::DType::u8}, {st::DType::i16, st::DType::u16}, {st::DType::i32, st::DType::u32}, {st::DType::i64, st::DType::u64}};
        st::DType flipped = t;
        for (auto [a, b] : kPairs) flipped = t == a ? b : t == b ? a : flipped;
        const st::Primitive* bitcast = st::find_primitive("bitcast_convert_type");
        for (st::Atom& a : in) {
          std::vector<st::Atom> out;
          if (!bitcast || !equation(s, op->getLoc(), *bitcast, {a}, st::Params{{"new_dtype", flipped}}, {}, out)) return false;
          a = out[0];
        }
      }
      return bindOp(s, op, comparison(c.getComparisonDirection()), std::move(in));
    }
    if (auto c = dyn_cast<RoundOp>(op))
      return bindOp(s, op, "round", P{{"rounding_method", static_cast<int64_t>(c.getRoundingMethod())}});
    if (auto c = dyn_cast<IntegerPowOp>(op)) return bindOp(s, op, "integer_pow", P{{"y", static_cast<int64_t>(c.getY())}});
    if (auto c = dyn_cast<ReducePrecisionOp>(op))
      return bindOp(s, op, "reduce_precision",
                    P{{"exponent_bits", static_cast<int64_t>(c.getExponentBits())},
                      {"mantissa_bits", static_cast<int64_t>(c.getMantissaBits())}});
    if (auto c = dyn_cast<BroadcastInDimOp>(op))
      return bindOp(s, op, "broadcast_in_dim",
                    P{{"shape", ints(c.getType().getShape())}, {"broadcast_dimensions", ints(c.getBroadcastDimensions())}});
    if (auto c = dyn_cast<ReshapeOp>(op)) return bindOp(s, op, "reshape", P{{"new_sizes", ints(c.getType().getShape())}});
    if (auto c = dyn_cast<TransposeOp>(op)) return bindOp(s, op, "transpose", P{{"permutation", ints(c.getPermutation())}});
    if (auto c = dyn_cast<SliceOp>(op))
      return bindOp(s, op, "slice",
                    P{{"start_indices", ints(c.getStartIndices())}, {"limit_indices", ints(c.getLimitIndices())},
                      {"strides", ints(c.getStrides())}});
    if (auto c = dyn_cast<PadOp>(op))
      return bindOp(s, op, "pad",
                    P{{"padding_low", ints(c.getEdgePaddingLow())}, {"padding_high", ints(c.getEdgePaddingHigh())},
                      {"padding_interior", ints(c.getInteriorPadding())}});
    if (auto c = dyn_cast<ConcatenateOp>(op))
      return bindOp(s, op, "concatenate", P{{"dimension", static_cast<int64_t>(c.getDimension())}});
    if (auto c = dyn_cast<IotaOp>(op)) {
      auto d = resultDType(op);
      return d && bindOp(s, op, "iota",
                         P{{"dtype", *d}, {"shape", ints(c.getType().getShape())},
                           {"dimension", static_cast<int64_t>(c.getIotaDimension())}});
    }
    if (auto c = dyn_cast<ReverseOp>(op)) return bindOp(s, op, "rev", P{{"dimensions", ints(c.getDimensions())}});
    if (isa<OptimizationBarrierOp>(op)) return bindOp(s, op, "optimization_barrier");
    if (auto c = dyn_cast<RngBitGeneratorOp>(op)) return rngBitGenerator(s, c);
    if (auto c = dyn_cast<DotGeneralOp>(op))
      return bindOp(s, op, "dot_general",
                    P{{"lhs_batch", ints(c.getLhsBatchingDimensions())}, {"rhs_batch", ints(c.getRhsBatchingDimensions())},
                      {"lhs_contract", ints(c.getLhsContractingDimensions())},
                      {"rhs_contract", ints(c.getRhsContractingDimensions())}});
    if (auto c = dyn_cast<ReduceOp>(op)) return reduce(s, c);
    if (auto c = dyn_cast<DynamicSliceOp>(op)) {
      std::vector<st::Atom> in;
      auto x = lookup(s, c.getOperand());
      if (!x) return false;
      in.push_back(*x);
      return indices(s, op, c.getStartIndices(), in) &&
             bindOp(s, op, "dynamic_slice", std::move(in), P{{"slice_sizes", ints(c.getSliceSizes())}});
    }
    if (auto c = dyn_cast<DynamicUpdateSliceOp>(op)) {
      std::vector<st::Atom> in;
      return lookupAll(s, ValueRange{c.getOperand(), c.getUpdate()}, in) && indices(s, op, c.getStartIndices(), in) &&
             bindOp(s, op, "dynamic_update_slice", std::move(in));
    }
    if (auto c = dyn_cast<GatherOp>(op))
      return bindOp(s, op, "gather",
                    P{{"offset_dims", ints(c.getOffsetDims())}, {"collapsed_slice_dims", ints(c.getCollapsedSliceDims())},
                      {"start_index_map", ints(c.getStartIndexMap())},
                      {"index_vector_dim", static_cast<int64_t>(c.getIndexVectorDim())},
                      {"slice_sizes", ints(c.getSliceSizes())}, {"mode", static_cast<int64_t>(c.getMode())}});
    if (auto c = dyn_cast<ScatterOp>(op)) {
      static const char* kScatter[] = {"scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max"};
      auto k = static_cast<size_t>(c.getCombiner());
      if (k >= std::size(kScatter)) return noForm(op, "its combiner");
      return bindOp(s, op, kScatter[k],
                    P{{"update_window_dims", ints(c.getUpdateWindowDims())},
                      {"inserted_window_dims", ints(c.getInsertedWindowDims())},
                      {"scatter_dims_to_operand_dims", ints(c.getScatterDimsToOperandDims())},
                      {"index_vector_dim", static_cast<int64_t>(c.getIndexVectorDim())}});
    }
    if (auto c = dyn_cast<ReduceWindowOp>(op)) return reduceWindow(s, c);
    if (auto c = dyn_cast<ConvolutionOp>(op)) return convolution(s, c);
    if (auto c = dyn_cast<SortOp>(op)) return sort(s, c);
    if (auto c = dyn_cast<WhileOp>(op)) return whileLoop(s, c);
    if (auto c = dyn_cast<IfOp>(op)) return ifOp(s, c);
    if (auto c = dyn_cast<CaseOp>(op)) {
      auto index = lookup(s, c.getIndex());
      if (!index) return false;
      SmallVector<Region*> regions;
      for (Region& r : c.getBranches()) {
        if (!r.hasOneBlock() || r.front().getNumArguments() != 0) return noForm(op, "a branch with block arguments");
        regions.push_back(&r);
      }
      return branchesOf(s, op, *index, regions);
    }
    if (op->getNumRegions() == 0)
      if (const std::string* prim = namedPrimitive(op->getName().getStringRef())) return bindOp(s, op, *prim);
    return noForm(op);
  }

  ModuleOp module_;
  int depth_ = 0;
};

}  // namespace

namespace mlir::strata {

std::shared_ptr<const ::strata::JaxprImpl> convertStrataToJaxpr(func::FuncOp fn) {
  if (fn.isExternal()) {
    emitError(fn.getLoc()) << "grad/jit of a StableHLO module: @" << fn.getSymName() << " has no body";
    return nullptr;
  }
  try {
    return Converter(fn->getParentOfType<ModuleOp>()).function(fn);
  } catch (const std::exception& e) {
    emitError(fn.getLoc()) << "grad/jit of a StableHLO module: internal: " << e.what();
    return nullptr;
  }
}

}  // namespace mlir::strata
