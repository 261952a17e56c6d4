// The jaxpr parser: a hand-written lexer and recursive descent over the printer's grammar.
#include "jaxpr_parser.h"
#include "trace.h"

#include <charconv>
#include <cstdlib>
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
      while (pos_ < text_.size() && is_ident(text_[pos_])) ++pos_;
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
      fail(name, "expects a dtype (f32, f64, bf16, f16, i8, i16, i32, i64, u8, u16, u32, u64, bool), but got " + describe(name));
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

  struct Scope {
    JaxprImpl* jaxpr;
    std::unordered_map<std::string, int> vars;
  };

  int parse_binder(Scope& s) {
    Token name = expect_ident("a variable name");
    expect(":");
    AbstractValue av = parse_type();
    std::string key(name.text);
    if (s.vars.count(key)) fail(name, "expects a new variable name, but got '" + key + "', defined before");
    int id = static_cast<int>(s.jaxpr->vars.size());
    s.jaxpr->vars.push_back(av);
    s.vars.emplace(key, id);
    return id;
  }

  // --- Atoms: variables and literals (`2.0:f32[]`, `True:bool[]`).

  Atom parse_atom(Scope& s) {
    Token t = tok_;
    if (t.kind == Token::kIdent && !is_literal_word(t.text)) {
      advance();
      auto it = s.vars.find(std::string(t.text));
      if (it == s.vars.end()) fail(t, "expects a defined variable, but got '" + std::string(t.text) + "'");
      return Atom{it->second, {}};
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

  // --- Params: [axes=(1,) new_dtype=float32 fun={ lambda ... }].

  ParamValue parse_param_value() {
    Token t = tok_;
    if (is("(") && next_.kind == Token::kPunct && next_.text == "{") {
      advance();
      JaxprList l;  // (  { lambda ... }  { lambda ... }  )
      while (!is(")")) {
        if (!is("{")) fail(tok_, "expects a jaxpr or ')', but got " + describe(tok_));
        l.push_back(parse_jaxpr());
      }
      advance();
      return l;
    }
    if (is("(")) {
      advance();
      IntList l;
      while (!is(")")) {
        if (tok_.kind != Token::kNumber) fail(tok_, "expects an integer or ')', but got " + describe(tok_));
        l.push_back(parse_int(tok_));
        advance();
        if (!is(")")) expect(",", "',' or ')'");
      }
      advance();
      return l;
    }
    if (is("{")) return std::shared_ptr<const JaxprImpl>(parse_jaxpr());
    if (t.kind == Token::kNumber) {
      advance();
      if (t.text.find_first_of(".eEn") == std::string_view::npos) return parse_int(t);
      return parse_float(t);
    }
    if (t.kind == Token::kIdent) {
      advance();
      if (t.text == "True") return true;
      if (t.text == "False") return false;
      if (t.text == "nan" || t.text == "inf") return parse_float(t);
      DType d;
      if (parse_dtype(t.text, &d) && long_name(d) == t.text) return d;
      return std::string(t.text);
    }
    fail(t, "expects a parameter value, but got " + describe(t));
  }

  Params parse_params() {
    Params p;
    expect("[");
    while (!is("]")) {
      Token key = expect_ident("a parameter name or ']'");
      expect("=");
      if (p.has(std::string(key.text))) fail(key, "expects each parameter once, but got '" + std::string(key.text) + "' again");
      p.set(std::string(key.text), parse_param_value());
    }
    expect("]");
    return p;
  }

  // --- Equations and jaxprs.

  bool at_in() const { return tok_.kind == Token::kIdent && tok_.text == "in" && next_.text == "("; }

  void parse_equation(Scope& s) {
    Token first = tok_;
    Equation e;
    std::vector<Token> binders;
    std::vector<std::pair<std::string, AbstractValue>> outs;
    while (!is("=")) {
      Token name = expect_ident("a result variable or '='");
      expect(":");
      outs.emplace_back(std::string(name.text), parse_type());
      binders.push_back(name);
    }
    if (outs.empty()) fail(tok_, "expects a result variable, but got '='");
    advance();
    Token prim = expect_ident("a primitive name");
    e.prim = find_primitive(prim.text);
    if (!e.prim) fail(prim, "expects a primitive name, but got unknown '" + std::string(prim.text) + "'");
    if (is("[") && !tok_.newline_before) e.params = parse_params();
    while (tok_.kind != Token::kEnd && !tok_.newline_before && !is("}") && !is(")") && !at_in())
      e.inputs.push_back(parse_atom(s));

    // The shape rule says what the equation computes; the binders must agree with it.
    std::vector<AbstractValue> in;
    for (const Atom& a : e.inputs) in.push_back(s.jaxpr->aval(a));
    std::vector<AbstractValue> want;
    try {
      check_arity(*e.prim, in.size());
      want = e.prim->shape_rule(in, e.params);
    } catch (const ParamError& ex) {
      fail(prim, "expects `" + std::string(prim.text) + "`'s parameter '" + ex.name + "' to be " + ex.expected +
                     ", but got " + ex.got);
    } catch (const std::exception& ex) {
      fail(prim, ex.what());
    }
    if (want.size() != outs.size())
      fail(first, "expects " + std::to_string(want.size()) + " result(s) of `" + std::string(prim.text) +
                      "`, but got " + std::to_string(outs.size()));
    for (size_t i = 0; i < outs.size(); ++i) {
      AbstractValue& got = outs[i].second;
      if (got.shape != want[i].shape || got.dtype != want[i].dtype)
        fail(binders[i], "expects " + outs[i].first + " to have type " + want[i].str() + " (from `" +
                             std::string(prim.text) + "`), but got " + got.str());
      got.weak = want[i].weak;
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      if (s.vars.count(outs[i].first))
        fail(binders[i], "expects a new variable name, but got '" + outs[i].first + "', defined before");
      int id = static_cast<int>(s.jaxpr->vars.size());
      s.jaxpr->vars.push_back(outs[i].second);
      s.vars.emplace(outs[i].first, id);
      e.outputs.push_back(id);
    }
    e.loc = SourceLoc{filename_, static_cast<uint32_t>(first.line), static_cast<uint32_t>(first.column)};
    s.jaxpr->eqns.push_back(std::move(e));
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
