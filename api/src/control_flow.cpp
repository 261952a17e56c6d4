// The non-template half of strata/control_flow.h: checks, and binding cond, while and scan
// with each sub-program's captured values hoisted into operands.
#include "strata/control_flow.h"

#include "op_helpers.h"
#include "primitives/control_flow.h"

namespace strata::detail {

using control_flow::open;
using control_flow::Traced;

namespace {
SourceLoc loc_of(const SourceLocation& l) { return SourceLoc{l.file_name(), l.line(), l.column()}; }

std::string strip_weak(const std::string& t) { return t.rfind("weak ", 0) == 0 ? t.substr(5) : t; }
}  // namespace

Array cond_index(const Array& pred, const char* who) {
  const AbstractValue& av = api::aval(pred, who);
  if (!av.shape.empty())
    throw ShapeError(std::string(who) + ": the predicate must be a 0-d (scalar) array, but got " + av.str());
  Array p = av.dtype == DType::bool_ ? pred : lax::ne(pred, lax::scalar(0, av.dtype));
  return lax::convert_element_type(p, DType::i32);
}

Array switch_index(const Array& index) {
  const AbstractValue& av = api::aval(index, "switch_");
  if (!av.shape.empty())
    throw ShapeError("switch_: the index must be a 0-d (scalar) array, but got " + av.str());
  if (!is_integer(av.dtype) && av.dtype != DType::bool_)
    throw DTypeError("switch_: the index must be an integer, but got " + av.str());
  return av.dtype == DType::i32 ? index : lax::convert_element_type(index, DType::i32);
}

void check_same_tree(const char* who, const char* got_what, const tree::Description& got, const char* want_what,
                     const tree::Description& want) {
  std::size_t n = std::min(got.size(), want.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i].first != want[i].first)
      throw ShapeError(std::string(who) + ": " + got_what + " has a different structure than the " + want_what +
                       ": it has " + got[i].first + " where the " + want_what + " has " + want[i].first);
    if (strip_weak(got[i].second) != strip_weak(want[i].second))
      throw ShapeError(std::string(who) + ": " + got_what + " " + got[i].first + " is " + strip_weak(got[i].second) +
                       ", " + want_what + " was " + strip_weak(want[i].second));
  }
  if (got.size() != want.size())
    throw ShapeError(std::string(who) + ": " + got_what + " has " + std::to_string(got.size()) + " leaves, but the " +
                     want_what + " has " + std::to_string(want.size()));
}

std::vector<Array> cond_call(const Array& index, const std::vector<Jaxpr>& branches, const std::vector<Array>& operands,
                             SourceLocation loc) {
  std::vector<Traced> ts;
  for (const Jaxpr& b : branches) ts.push_back(open(*b.impl()));
  auto [joined, consts] = control_flow::join_branches(ts);
  std::vector<Array> in{index};
  in.insert(in.end(), consts.begin(), consts.end());
  in.insert(in.end(), operands.begin(), operands.end());
  return strata::bind(prim::kCond, in, Params{{"branches", joined}}, loc_of(loc));
}

std::vector<Array> while_call(const Jaxpr& cond, const Jaxpr& body, const std::vector<Array>& init, SourceLocation loc) {
  const JaxprImpl& c = *cond.impl();
  if (c.outvars.size() != 1 || c.aval(c.outvars[0]).dtype != DType::bool_ || !c.aval(c.outvars[0]).shape.empty())
    throw DTypeError("while_loop: cond_fn must return a 0-d bool Array, but returns " +
                     (c.outvars.size() == 1 ? c.aval(c.outvars[0]).str() : std::to_string(c.outvars.size()) + " arrays"));
  Traced ct = open(c), bt = open(*body.impl());
  Params p{{"cond_jaxpr", ct.jaxpr},
           {"cond_nconsts", static_cast<int64_t>(ct.consts.size())},
           {"body_jaxpr", bt.jaxpr},
           {"body_nconsts", static_cast<int64_t>(bt.consts.size())}};
  std::vector<Array> in = control_flow::cat<Array>({ct.consts, bt.consts, init});
  return strata::bind(prim::kWhile, in, p, loc_of(loc));
}

std::vector<Array> scan_call(const Jaxpr& body, std::size_t num_carry, const std::vector<Array>& init,
                             const std::vector<Array>& xs, int64_t length, const ScanOptions& options, bool remat,
                             SourceLocation loc) {
  if (options.unroll < 1) throw ValueError("scan: unroll must be at least 1, but got " + std::to_string(options.unroll));
  Traced bt = open(*body.impl());
  Params p{{"jaxpr", bt.jaxpr},
           {"length", length},
           {"num_consts", static_cast<int64_t>(bt.consts.size())},
           {"num_carry", static_cast<int64_t>(num_carry)},
           {"reverse", options.reverse},
           {"unroll", static_cast<int64_t>(options.unroll)}};
  if (remat) p.set("remat", true);
  std::vector<Array> in = control_flow::cat<Array>({bt.consts, init, xs});
  return strata::bind(prim::kScan, in, p, loc_of(loc));
}

std::vector<Array> scan_slices(const std::vector<Array>& xs, std::optional<int64_t> length, int64_t& out_length) {
  std::vector<Array> slices;
  int64_t n = length ? *length : -1;
  if (length && *length < 0) throw ValueError("scan: length must be non-negative, but got " + std::to_string(*length));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const AbstractValue& av = api::aval(xs[i], "scan");
    if (av.shape.empty()) throw ShapeError("scan: xs leaf " + std::to_string(i) + " is 0-d (" + av.str() + "); scanned arrays need a leading axis");
    if (n >= 0 && av.shape[0] != n)
      throw ShapeError("scan: xs leaf " + std::to_string(i) + " is " + av.str() + ", but the length is " + std::to_string(n) +
                       (length ? " (options.length)" : " (from leaf 0)"));
    n = av.shape[0];
    AbstractValue s = av;
    s.shape.erase(s.shape.begin());
    slices.push_back(make_concrete(s));
  }
  if (n < 0) throw ValueError("scan: xs has no Array leaves, so options.length must be given");
  out_length = n;
  return slices;
}

}  // namespace strata::detail
