// The jaxpr parser: a hand-written lexer and recursive descent over the printer's grammar, and
// over the forms JAX prints that strata's printer does not (jaxpr_jax_forms.h for params; here
// the structural ones: calls inlined, `let` bound jaxprs, JAX's primitives with no strata twin).
#include "jaxpr_parser.h"
#include "jaxpr_jax_forms.h"
#include "trace.h"

#include <charconv>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

#include "array_impl.h"
#include "kernels/types.h"

namespace strata {
namespace {

struct Token {
  enum Kind { kEnd, kPunct, kIdent, kNumber } kind = kEnd;
  std::string_view text;
  int line = 1, column = 1;
  bool newline_before = false;  // a line break separates it from the previous token
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // The next token; sets `error` (and returns kEnd) on a character no token starts with.
  Token next(std::string* error) {
    Token t;
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') {
        t.newline_before = true;
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
      ++pos_;
    }
    t.line = line_;
    t.column = col_;
    if (pos_ >= text_.size()) return t;
    size_t start = pos_;
    char c = text_[pos_];
    auto is_ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      // JAX's names hold '-' before a letter (scatter-add): a negative literal never follows a
      // name directly.
      while (pos_ < text_.size() &&
             (is_ident(text_[pos_]) || (text_[pos_] == '-' && pos_ + 1 < text_.size() &&
                                        std::isalpha(static_cast<unsigned char>(text_[pos_ + 1])))))
        ++pos_;
      t.kind = Token::kIdent;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '-' && pos_ + 1 < text_.size() &&
                (std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == 'i'))) {
      ++pos_;
      if (text_.substr(pos_, 3) == "inf") {
        pos_ += 3;
      } else {
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        if (pos_ + 1 < text_.size() && text_[pos_] == '.' &&
            std::isdigit(static_cast<unsigned char>(text_[pos_ + 1]))) {
          ++pos_;
          while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
          size_t e = pos_ + 1;
          if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
          if (e < text_.size() && std::isdigit(static_cast<unsigned char>(text_[e]))) {
            pos_ = e;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
          }
        }
      }
      t.kind = Token::kNumber;
    } else if (std::string_view("{}()[];.:=,").find(c) != std::string_view::npos) {
      ++pos_;
      t.kind = Token::kPunct;
    } else {
      *error = std::string("expects a jaxpr token, but got '") + c + "'";
      if (c == '<')  // `callback=<debug.print #3>`, JAX's `<function f at 0x...>`
        *error += " (a host callback or other C++/Python object, printed in angle brackets, cannot be read "
                  "back: it exists only in the process that traced the program)";
      return t;
    }
    t.text = text_.substr(start, pos_ - start);
    col_ += static_cast<int>(pos_ - start);
    return t;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

// Thrown inside the parser only, caught by parse_jaxpr.
struct ParseFailure {
  JaxprParseError error;
};

const char* intern(std::string_view name) {
  static std::mutex mu;
  static std::set<std::string, std::less<>> names;
  std::lock_guard<std::mutex> lock(mu);
  auto it = names.find(name);
  if (it == names.end()) it = names.emplace(name).first;
  return it->c_str();
}

class Parser {
 public:
  Parser(std::string_view text, const char* filename) : lexer_(text), filename_(filename) {
    advance();
    advance();
  }

  std::shared_ptr<JaxprImpl> parse_top() {
    while (is("let")) {
      advance();
      Token name = expect_ident("a name for the jaxpr");
      expect("=");
      JaxprPtr bound = parse_jaxpr();
      expect("in");
      named_[std::string(name.text)] = bound;
    }
    auto j = parse_jaxpr();
    if (tok_.kind != Token::kEnd) fail(tok_, "expects the end of the input, but got " + describe(tok_));
    return j;
  }

 private:
  // --- Tokens.

  void advance() {
    tok_ = next_;
    std::string error;
    next_ = lexer_.next(&error);
    if (!error.empty()) fail(next_, error);
  }

  [[noreturn]] void fail(const Token& at, std::string message) {
    throw ParseFailure{{at.line, at.column, std::move(message)}};
  }

  static std::string describe(const Token& t) {
    return t.kind == Token::kEnd ? std::string("the end of the input") : "'" + std::string(t.text) + "'";
  }

  bool is(std::string_view text) const { return tok_.kind != Token::kEnd && tok_.text == text; }

  Token expect(std::string_view text, const char* what = nullptr) {
    if (!is(text)) fail(tok_, "expects " + (what ? std::string(what) : "'" + std::string(text) + "'") + ", but got " + describe(tok_));
    Token t = tok_;
    advance();
    return t;
  }

  Token expect_ident(const char* what) {
    if (tok_.kind != Token::kIdent) fail(tok_, std::string("expects ") + what + ", but got " + describe(tok_));
    Token t = tok_;
    advance();
    return t;
  }

  int64_t parse_int(const Token& t) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || end != t.text.data() + t.text.size())
      fail(t, "expects an integer, but got " + describe(t));
    return v;
  }

  double parse_float(const Token& t) {
    if (t.text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (t.text == "inf") return std::numeric_limits<double>::infinity();
    if (t.text == "-inf") return -std::numeric_limits<double>::infinity();
    std::string s(t.text);
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (t.kind != Token::kNumber || end != s.c_str() + s.size())
      fail(t, "expects a number, but got " + describe(t));
    return v;
  }

  // --- Types and binders.

  // f32[4,16]
  AbstractValue parse_type() {
    Token name = expect_ident("a dtype (f32, i32, bool, ...)");
    AbstractValue av;
    if (!parse_dtype(name.text, &av.dtype) || short_name(av.dtype) != name.text)
      fail(name, "expects a dtype (f32, f64, bf16, f16, f8_e4m3fn, f8_e5m2 and the other f8, f6 and f4 formats, i2, i4, i8, i16, i32, i64, u2, u4, u8, u16, u32, u64, bool), but got " + describe(name));
    expect("[");
    while (!is("]")) {
      if (!av.shape.empty()) expect(",", "',' or ']'");
      if (tok_.kind != Token::kNumber) fail(tok_, "expects a dimension, but got " + describe(tok_));
      int64_t d = parse_int(tok_);
      if (d < 0) fail(tok_, "expects a non-negative dimension, but got " + describe(tok_));
      av.shape.push_back(d);
      advance();
    }
    expect("]");
    return av;
  }

  // A jaxpr's names: each a variable, or (the result of an inlined call or of `copy`) any atom.
  struct Scope {
    JaxprImpl* jaxpr;
    std::unordered_map<std::string, Atom> vars;
  };

  int parse_binder(Scope& s) {
    Token name = expect_ident("a variable name");
    expect(":");
    AbstractValue av = parse_type();
    std::string key(name.text);
    if (key != "_" && s.vars.count(key)) fail(name, "expects a new variable name, but got '" + key + "', defined before");
    int id = static_cast<int>(s.jaxpr->vars.size());
    s.jaxpr->vars.push_back(av);
    if (key != "_") s.vars.emplace(key, Atom{id, {}});
    return id;
  }

  // --- Atoms: variables and literals (`2.0:f32[]`, `True:bool[]`).

  Atom parse_atom(Scope& s) {
    Token t = tok_;
    if (t.kind == Token::kIdent && !is_literal_word(t.text)) {
      advance();
      auto it = s.vars.find(std::string(t.text));
      if (it == s.vars.end()) fail(t, "expects a defined variable, but got '" + std::string(t.text) + "'");
      return it->second;
    }
    if (t.kind != Token::kNumber && t.kind != Token::kIdent)
      fail(t, "expects a variable or a literal, but got " + describe(t));
    advance();
    expect(":", "':' and the literal's type");
    Token type_tok = tok_;
    AbstractValue av = parse_type();
    if (!av.shape.empty()) fail(type_tok, "expects a 0-d literal type, but got " + av.str());
    Array a = detail::make_concrete(av);
    void* p = detail::mutable_data(a);
    if (av.dtype == DType::bool_) {
      if (t.text != "True" && t.text != "False") fail(t, "expects True or False, but got " + describe(t));
      *static_cast<bool*>(p) = t.text == "True";
    } else if (is_integer(av.dtype)) {
      int64_t v = parse_int(t);
      kernels::convert_elements(&v, DType::i64, p, av.dtype, 1);
    } else {
      double v = parse_float(t);
      kernels::convert_elements(&v, DType::f64, p, av.dtype, 1);
    }
    return Atom{-1, a};
  }

  static bool is_literal_word(std::string_view w) {
    return w == "True" || w == "False" || w == "nan" || w == "inf";
  }

  // --- Params: [axes=(1,) new_dtype=float32 fun={ lambda ... }], and JAX's forms:
  // dimension_numbers=(([1], [0]), ([], [])), GatherDimensionNumbers(offset_dims=(1,), ...),
  // mode=GatherScatterMode.CLIP, sizes=(np.int64(4),), strides=None, jaxpr=_name (a `let`).

  using RawValue = jax_forms::RawValue;

  // A name, dotted (np.int64, GatherScatterMode.CLIP).
  std::string parse_dotted(const Token& first) {
    std::string name(first.text);
    while (is(".") && next_.kind == Token::kIdent) {
      advance();
      name += "." + std::string(tok_.text);
      advance();
    }
    return name;
  }

  RawValue parse_raw_value() {
    Token t = tok_;
    RawValue v;
    // Nesting bounded so that no text can exhaust the stack (JAX's deepest is 3).
    if (++depth_ > 64) fail(t, "expects at most 64 nested values, but got more");
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth_};
    if (is("{")) {
      v.kind = RawValue::kJaxpr;
      v.jaxprs.push_back(parse_jaxpr());
      return v;
    }
    if (is("(") || is("[")) {  // a tuple or list; a tuple of jaxprs has no commas
      const std::string close = is("(") ? ")" : "]";
      advance();
      v.kind = RawValue::kSeq;
      while (!is(close)) {
        if (tok_.kind == Token::kEnd || is(")") || is("]") || is("}") || is(","))
          fail(tok_, "expects a value or '" + close + "', but got " + describe(tok_));
        v.items.push_back({"", parse_raw_value()});
        if (is(",")) advance();
      }
      advance();
      return v;
    }
    if (t.kind == Token::kNumber) {
      advance();
      v.kind = RawValue::kNumber;
      v.text = std::string(t.text);
      return v;
    }
    if (t.kind != Token::kIdent) fail(t, "expects a parameter value, but got " + describe(t));
    advance();
    std::string name = parse_dotted(t);
    if (name == "None") return v;
    if (auto it = named_.find(name); it != named_.end()) {
      v.kind = RawValue::kJaxpr;
      v.jaxprs.push_back(it->second);
      return v;
    }
    v.text = name;
    if (!is("(")) {
      v.kind = RawValue::kWord;
      return v;
    }
    advance();  // Name(arg, key=arg, ...)
    v.kind = RawValue::kCall;
    while (!is(")")) {
      std::string key;
      if (tok_.kind == Token::kIdent && next_.kind == Token::kPunct && next_.text == "=") {
        key = std::string(tok_.text);
        advance();
        advance();
      }
      v.items.push_back({key, parse_raw_value()});
      if (!is(")")) expect(",", "',' or ')'");
    }
    advance();
    return v;
  }

  struct RawParam {
    Token key;
    RawValue value;
  };

  std::vector<RawParam> parse_params() {
    std::vector<RawParam> params;
    expect("[");
    while (!is("]")) {
      Token key = expect_ident("a parameter name or ']'");
      expect("=");
      for (const RawParam& p : params)
        if (p.key.text == key.text) fail(key, "expects each parameter once, but got '" + std::string(key.text) + "' again");
      params.push_back({key, parse_raw_value()});
    }
    expect("]");
    return params;
  }

  // --- Equations and jaxprs.

  bool at_in() const { return tok_.kind == Token::kIdent && tok_.text == "in" && next_.text == "("; }

  // What the text says an equation is; then emitted as one or more strata equations.
  struct Parsed {
    Token first, prim;
    std::string name;  // the primitive's name as printed
    std::vector<Token> binders;
    std::vector<std::pair<std::string, AbstractValue>> outs;
    std::vector<RawParam> params;
    std::vector<Atom> inputs;
    std::vector<AbstractValue> in;  // the inputs' types
  };

  const RawValue* raw_param(const Parsed& q, std::string_view key) const {
    for (const RawParam& p : q.params)
      if (p.key.text == key) return &p.value;
    return nullptr;
  }

  // Binds the equation's result names to `atoms`, after checking their types.
  void bind_results(Scope& s, const Parsed& q, const std::vector<Atom>& atoms, const std::string& what) {
    if (atoms.size() != q.outs.size())
      fail(q.first, "expects " + std::to_string(atoms.size()) + " result(s) of `" + what + "`, but got " +
                        std::to_string(q.outs.size()));
    for (size_t i = 0; i < atoms.size(); ++i) {
      const AbstractValue& want = s.jaxpr->aval(atoms[i]);
      const AbstractValue& got = q.outs[i].second;
      if (got.shape != want.shape || got.dtype != want.dtype)
        fail(q.binders[i], "expects " + q.outs[i].first + " to have type " + want.str() + " (from `" + what +
                               "`), but got " + got.str());
    }
    for (size_t i = 0; i < atoms.size(); ++i) {
      if (q.outs[i].first == "_") continue;  // JAX's name for a result nothing reads
      if (s.vars.count(q.outs[i].first))
        fail(q.binders[i], "expects a new variable name, but got '" + q.outs[i].first + "', defined before");
      s.vars.emplace(q.outs[i].first, atoms[i]);
    }
  }

  // Appends `prim params inputs` (checked by its shape rule) to the jaxpr; returns its results.
  std::vector<Atom> emit(Scope& s, const Parsed& q, const Primitive& prim, Params params, std::vector<Atom> inputs) {
    std::vector<AbstractValue> in;
    for (const Atom& a : inputs) in.push_back(s.jaxpr->aval(a));
    std::vector<AbstractValue> out;
    try {
      check_arity(prim, in.size());
      out = prim.shape_rule(in, params);
      check_complex(prim, in, out);
    } catch (const ParamError& ex) {
      fail(q.prim, "expects `" + q.name + "`'s parameter '" + ex.name + "' to be " + ex.expected + ", but got " + ex.got);
    } catch (const std::exception& ex) {
      fail(q.prim, ex.what());
    }
    Equation e;
    e.prim = &prim;
    e.params = std::move(params);
    e.inputs = std::move(inputs);
    std::vector<Atom> results;
    for (const AbstractValue& av : out) {
      int id = static_cast<int>(s.jaxpr->vars.size());
      s.jaxpr->vars.push_back(av);
      e.outputs.push_back(id);
      results.push_back(Atom{id, {}});
    }
    e.loc = SourceLoc{filename_, static_cast<uint32_t>(q.first.line), static_cast<uint32_t>(q.first.column)};
    s.jaxpr->eqns.push_back(std::move(e));
    return results;
  }

  Params params_of(const Parsed& q, std::string_view prim) {
    jax_forms::RawParams raw;
    for (const RawParam& p : q.params) raw.emplace_back(std::string(p.key.text), p.value);
    std::vector<AbstractValue> out;
    for (const auto& o : q.outs) out.push_back(o.second);
    try {
      return jax_forms::to_params(prim, raw, q.in, out);
    } catch (const ParamError& ex) {
      const Token* at = &q.prim;
      for (const RawParam& p : q.params)
        if (p.key.text == ex.name) at = &p.key;
      fail(*at, "expects `" + q.name + "`'s parameter '" + ex.name + "' to be " + ex.expected + ", but got " + ex.got);
    }
  }

  const Primitive& primitive(const Parsed& q, std::string_view name) {
    const Primitive* prim = find_primitive(name);
    if (!prim) fail(q.prim, "expects a primitive name, but got unknown '" + q.name + "'");
    return *prim;
  }

  // A call JAX prints around a sub-program (jit, custom_jvp_call, ...): its equations inlined,
  // as tracing through the call does. A custom derivative rule is not in the text: derivatives
  // come from the inlined equations' own rules.
  bool inline_call(Scope& s, const Parsed& q) {
    static const std::set<std::string, std::less<>> calls = {"jit", "pjit", "closed_call", "core_call", "remat", "remat2",
                                                             "checkpoint", "custom_jvp_call", "custom_vjp_call"};
    if (!calls.count(q.name)) return false;
    const RawValue* body = nullptr;
    for (const char* key : {"jaxpr", "call_jaxpr", "fun_jaxpr"})
      if (!body) body = raw_param(q, key);
    // strata's own: custom_vjp_call[fun, fwd, bwd], custom_jvp_call[fun, jvp].
    if ((q.name == "custom_vjp_call" || q.name == "custom_jvp_call") && !body) return false;
    if (!body || body->kind != RawValue::kJaxpr) fail(q.prim, "expects `" + q.name + "` to hold its program as jaxpr=...");
    const JaxprImpl& sub = *body->jaxprs.at(0);
    if (!sub.constvars.empty()) fail(q.prim, "expects `" + q.name + "`'s program to have no constants");
    if (sub.invars.size() != q.inputs.size())
      fail(q.prim, "expects " + std::to_string(sub.invars.size()) + " operand(s) of `" + q.name + "`, but got " +
                       std::to_string(q.inputs.size()));
    std::unordered_map<int, Atom> map;
    for (size_t i = 0; i < sub.invars.size(); ++i) {
      const AbstractValue &want = sub.vars[sub.invars[i]], &got = q.in[i];
      if (got.shape != want.shape || got.dtype != want.dtype)
        fail(q.prim, "expects operand " + std::to_string(i) + " of `" + q.name + "` to have type " + want.str() +
                         ", but got " + got.str());
      map[sub.invars[i]] = q.inputs[i];
    }
    auto mapped = [&](const Atom& a) { return a.is_literal() ? a : map.at(a.var); };
    for (const Equation& eq : sub.eqns) {
      Equation e = eq;
      for (Atom& a : e.inputs) a = mapped(a);
      for (int& o : e.outputs) {
        int id = static_cast<int>(s.jaxpr->vars.size());
        s.jaxpr->vars.push_back(sub.vars[o]);
        map[o] = Atom{id, {}};
        o = id;
      }
      s.jaxpr->eqns.push_back(std::move(e));
    }
    std::vector<Atom> results;
    for (const Atom& a : sub.outvars) results.push_back(mapped(a));
    bind_results(s, q, results, q.name);
    return true;
  }

  // JAX's elementwise ops stretch an operand's dimensions of size 1 to the result's (x - mean
  // with keepdims prints `sub a e` of f32[4,8] and f32[4,1]); strata's take equal shapes or
  // 0-d, so such an operand is broadcast first.
  std::vector<Atom> broadcast_ones(Scope& s, const Parsed& q, std::vector<Atom> inputs) {
    if (q.outs.size() != 1) return inputs;
    const Shape& shape = q.outs[0].second.shape;
    for (Atom& a : inputs) {
      const AbstractValue av = s.jaxpr->aval(a);
      if (av.shape.empty() || av.shape == shape || av.shape.size() != shape.size()) continue;
      bool stretches = true;  // else the op's own rule reports the mismatch
      for (size_t d = 0; d < shape.size(); ++d) stretches = stretches && (av.shape[d] == shape[d] || av.shape[d] == 1);
      if (!stretches) continue;
      IntList dims(shape.size());
      for (size_t d = 0; d < dims.size(); ++d) dims[d] = static_cast<int64_t>(d);
      Params p{{"shape", IntList(shape.begin(), shape.end())}, {"broadcast_dimensions", dims}};
      a = emit(s, q, primitive(q, "broadcast_in_dim"), std::move(p), {a}).at(0);
    }
    return inputs;
  }

  // A 0-d literal of type t holding v (a double or an int64_t, converted as C++ converts).
  template <class V>
  static Atom literal(DType t, V v) {
    AbstractValue av;
    av.dtype = t;
    Array a = detail::make_concrete(av);
    kernels::convert_elements(&v, std::is_same_v<V, double> ? DType::f64 : DType::i64, detail::mutable_data(a), t, 1);
    return Atom{-1, a};
  }

  // JAX's FILL_OR_DROP gather gives its windows that leave the operand the fill value (None:
  // NaN for floats, the lowest signed or highest unsigned integer, True); strata's fill mode
  // gives zeros. So: the windows that stay inside (the fill-mode gather of ones reads 1 there),
  // then a select between the fill-mode gather of the operand and the fill value.
  bool fill_gather(Scope& s, const Parsed& q) {
    const RawValue* mode = raw_param(q, "mode");
    if (q.name != "gather" || !mode || mode->text != "GatherScatterMode.FILL_OR_DROP") return false;
    if (q.inputs.size() != 2) fail(q.prim, "expects `gather` of an operand and indices");
    const DType t = q.in[0].dtype;
    Atom fill = literal(t, std::numeric_limits<double>::quiet_NaN());
    if (const RawValue* f = raw_param(q, "fill_value"); f && f->kind != RawValue::kNone) {
      std::optional<ParamValue> v = jax_forms::plain("fill_value", *f);
      if (v && std::holds_alternative<int64_t>(*v)) fill = literal(t, std::get<int64_t>(*v));
      else if (v && std::holds_alternative<double>(*v)) fill = literal(t, std::get<double>(*v));
      else if (v && std::holds_alternative<bool>(*v)) fill = literal(t, int64_t{std::get<bool>(*v)});
      else fail(q.prim, "expects `gather`'s fill_value to be a number, but got " + f->str());
    } else if (t == DType::bool_) {
      fill = literal(t, int64_t{1});
    } else if (is_integer(t)) {  // the lowest signed value, the highest unsigned (-1 wrapped)
      fill = literal(t, is_signed_integer(t) ? -(int64_t{1} << (bit_width(t) - 1)) : int64_t{-1});
    }
    const Params p = params_of(q, "gather");
    const Primitive& gather = primitive(q, "gather");
    const Shape& shape = q.in[0].shape;
    Atom ones = emit(s, q, primitive(q, "broadcast_in_dim"),
                     {{"shape", IntList(shape.begin(), shape.end())}, {"broadcast_dimensions", IntList{}}},
                     {literal(t, int64_t{1})}).at(0);
    Atom inside = emit(s, q, gather, p, {ones, q.inputs[1]}).at(0);
    Atom mask = emit(s, q, primitive(q, "eq"), {}, {inside, literal(t, int64_t{1})}).at(0);
    Atom values = emit(s, q, gather, p, q.inputs).at(0);
    bind_results(s, q, emit(s, q, primitive(q, "select"), {}, {mask, values, fill}), q.name);
    return true;
  }

  // JAX's primitives that strata spells differently or builds from others.
  bool rewrite(Scope& s, const Parsed& q) {
    if (fill_gather(s, q)) return true;
    if (q.name == "copy" || q.name == "copy_p") {  // arrays are immutable: the value itself
      if (q.inputs.size() != 1) fail(q.prim, "expects one operand of `" + q.name + "`");
      bind_results(s, q, q.inputs, q.name);
      return true;
    }
    if (q.name == "select_n") {  // select_n(which, case0, case1): case1 where `which` is true
      if (q.inputs.size() != 3 || q.in[0].dtype != DType::bool_)
        fail(q.prim, "expects `select_n` of a bool predicate and two cases (strata has no n-way select)");
      bind_results(s, q, emit(s, q, primitive(q, "select"), {}, broadcast_ones(s, q, {q.inputs[0], q.inputs[2], q.inputs[1]})),
                   q.name);
      return true;
    }
    if (q.name == "split") {  // split[axis, sizes]: one slice a piece
      Params p = params_of(q, "split");
      const ParamValue *axis_value = p.find("axis"), *sizes_value = p.find("sizes");
      if (!axis_value || !std::holds_alternative<int64_t>(*axis_value) || !sizes_value ||
          !std::holds_alternative<IntList>(*sizes_value))
        fail(q.prim, "expects `split`'s parameters axis (an integer) and sizes (a tuple of integers)");
      const int64_t axis = std::get<int64_t>(*axis_value);
      if (q.inputs.size() != 1 || axis < 0 || axis >= static_cast<int64_t>(q.in[0].shape.size()))
        fail(q.prim, "expects `split` of one operand along one of its axes");
      std::vector<Atom> pieces;
      int64_t at = 0;
      for (int64_t size : std::get<IntList>(*sizes_value)) {
        IntList start(q.in[0].shape.size(), 0), limit(q.in[0].shape.begin(), q.in[0].shape.end());
        start[size_t(axis)] = at;
        limit[size_t(axis)] = at += size;
        Params sp{{"start_indices", start}, {"limit_indices", limit}, {"strides", IntList(start.size(), 1)}};
        pieces.push_back(emit(s, q, primitive(q, "slice"), std::move(sp), q.inputs).at(0));
      }
      bind_results(s, q, pieces, q.name);
      return true;
    }
    if (q.name == "squeeze" || q.name == "expand_dims") {  // a reshape to the result's shape
      if (q.inputs.size() != 1 || q.outs.size() != 1) fail(q.prim, "expects one operand and one result of `" + q.name + "`");
      const Shape& shape = q.outs[0].second.shape;
      Params p{{"new_sizes", IntList(shape.begin(), shape.end())}};
      bind_results(s, q, emit(s, q, primitive(q, "reshape"), std::move(p), q.inputs), q.name);
      return true;
    }
    if (q.name == "dot_general" && !q.outs.empty() && !q.in.empty() && q.outs[0].second.dtype != q.in[0].dtype) {
      // preferred_element_type wider than the operands: the product of the operands converted.
      const DType t = q.outs[0].second.dtype;
      std::vector<Atom> inputs;
      for (size_t i = 0; i < q.inputs.size(); ++i)
        inputs.push_back(q.in[i].dtype == t ? q.inputs[i]
                                            : emit(s, q, primitive(q, "convert_element_type"),
                                                   {{"new_dtype", t}, {"weak_type", false}}, {q.inputs[i]}).at(0));
      bind_results(s, q, emit(s, q, primitive(q, "dot_general"), params_of(q, "dot_general"), inputs), q.name);
      return true;
    }
    static const std::pair<const char*, const char*> renamed[] = {{"add_any", "add"}, {"square", "integer_pow"}};
    for (const auto& [jax, ours] : renamed) {
      if (q.name != jax) continue;
      Params p = params_of(q, ours);
      if (q.name == "square") p.set("y", int64_t{2});
      bind_results(s, q, emit(s, q, primitive(q, ours), std::move(p), q.inputs), q.name);
      return true;
    }
    return false;
  }

  void parse_equation(Scope& s) {
    Parsed q;
    q.first = tok_;
    while (!is("=")) {
      Token name = expect_ident("a result variable or '='");
      expect(":");
      q.outs.emplace_back(std::string(name.text), parse_type());
      q.binders.push_back(name);
    }
    if (q.outs.empty()) fail(tok_, "expects a result variable, but got '='");
    advance();
    q.prim = expect_ident("a primitive name");
    q.name = std::string(q.prim.text);
    std::replace(q.name.begin(), q.name.end(), '-', '_');  // scatter-add is strata's scatter_add
    if (is("[") && !tok_.newline_before) q.params = parse_params();
    while (tok_.kind != Token::kEnd && !tok_.newline_before && !is("}") && !is(")") && !at_in())
      q.inputs.push_back(parse_atom(s));
    for (const Atom& a : q.inputs) q.in.push_back(s.jaxpr->aval(a));
    if (inline_call(s, q) || rewrite(s, q)) return;

    // The shape rule says what the equation computes; the binders must agree with it.
    const Primitive& prim = primitive(q, q.name);
    std::vector<Atom> inputs = q.inputs;
    if (prim.traits & kElementwise) inputs = broadcast_ones(s, q, inputs);
    std::vector<Atom> results = emit(s, q, prim, params_of(q, q.name), inputs);
    bind_results(s, q, results, q.name);
  }

  std::shared_ptr<JaxprImpl> parse_jaxpr() {
    auto j = std::make_shared<JaxprImpl>();
    Scope s{j.get(), {}};
    expect("{", "'{ lambda'");
    expect("lambda");
    while (!is(";")) j->constvars.push_back(parse_binder(s));
    advance();
    while (!is(".")) j->invars.push_back(parse_binder(s));
    advance();
    expect("let");
    while (!at_in()) {
      if (tok_.kind == Token::kEnd || is("}")) fail(tok_, "expects an equation or 'in (', but got " + describe(tok_));
      parse_equation(s);
    }
    advance();
    expect("(");
    while (!is(")")) {
      j->outvars.push_back(parse_atom(s));
      if (!is(")")) expect(",", "',' or ')'");
    }
    advance();
    expect("}");
    return j;
  }

  // JAX prints a sub-program used more than once as `let NAME = { lambda ... } in` before the
  // jaxpr, and `jaxpr=NAME` where it is used.
  std::map<std::string, JaxprPtr, std::less<>> named_;
  int depth_ = 0;  // parse_raw_value's nesting

  Lexer lexer_;
  const char* filename_;
  Token tok_, next_;
};

}  // namespace

ParsedJaxpr parse_jaxpr(std::string_view text, std::string_view filename) {
  ParsedJaxpr result;
  try {
    Parser parser(text, intern(filename));
    result.jaxpr = parser.parse_top();
  } catch (const ParseFailure& f) {
    result.error = f.error;
  } catch (const std::exception& e) {
    result.error = {1, 1, e.what()};
  }
  return result;
}

}  // namespace strata
