// The jaxpr printer, in JAX's text form.
#include "jaxpr.h"

#include <unordered_map>

#include "array_impl.h"

namespace strata {

std::string float_string(double v);  // params.cpp

std::string SourceLoc::str() const {
  std::string f = file ? file : "";
  return f + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const AbstractValue& JaxprImpl::aval(const Atom& a) const {
  return a.is_literal() ? detail::aval_of(a.literal) : vars[a.var];
}

namespace {

// JAX's variable names: a..z, then ba, bb, ... (base 26 with 'a' as the zero digit).
std::string var_name(int n) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n > 0);
  return s;
}

std::string literal_string(const Array& a) {
  std::string v;
  DType t = a.dtype();
  if (t == DType::bool_) v = a.item<bool>() ? "True" : "False";
  else if (is_unsigned_integer(t)) v = std::to_string(a.item<uint64_t>());
  else if (is_integer(t)) v = std::to_string(a.item<int64_t>());
  else if (is_complex(t)) {  // Python's spelling: (1.5-2.0j)
    std::complex<double> z = a.item<std::complex<double>>();
    std::string im = float_string(z.imag());
    v = "(" + float_string(z.real()) + (im[0] == '-' ? "" : "+") + im + "j)";
  } else if (t == DType::f64) v = float_string(a.item<double>());
  else v = float_string(static_cast<double>(a.item<float>()));
  return v + ":" + type_string(t, a.shape());
}

}  // namespace

std::string JaxprImpl::str() const {
  std::unordered_map<int, std::string> names;
  auto name = [&](int var) -> const std::string& {
    auto it = names.find(var);
    if (it == names.end()) it = names.emplace(var, var_name(static_cast<int>(names.size()))).first;
    return it->second;
  };
  auto binder = [&](int var) { return name(var) + ":" + vars[var].str(); };
  auto atom = [&](const Atom& a) { return a.is_literal() ? literal_string(a.literal) : name(a.var); };

  std::string s = "{ lambda ";
  for (size_t i = 0; i < constvars.size(); ++i) s += (i ? " " : "") + binder(constvars[i]);
  s += "; ";
  for (size_t i = 0; i < invars.size(); ++i) s += (i ? " " : "") + binder(invars[i]);
  s += ". let";
  for (const Equation& e : eqns) {
    s += "\n    ";
    for (size_t i = 0; i < e.outputs.size(); ++i) s += (i ? " " : "") + binder(e.outputs[i]);
    s += " = ";
    s += e.prim->name;
    if (!e.params.items().empty()) {
      // Sub-programs print as JAX prints them: one parameter a line, nested jaxprs indented.
      bool nested = false;
      for (const auto& [k, v] : e.params.items())
        nested = nested || std::holds_alternative<JaxprPtr>(v) || std::holds_alternative<JaxprList>(v);
      s += "[";
      bool first = true;
      for (const auto& [k, v] : e.params.items()) {
        std::string text = param_string(v);
        if (nested) {
          std::string indented;
          for (char c : text) indented += c == '\n' ? std::string("\n      ") : std::string(1, c);
          s += "\n      " + k + "=" + indented;
        } else {
          s += (first ? "" : " ") + k + "=" + text;
        }
        first = false;
      }
      s += nested ? "\n    ]" : "]";
    }
    for (const Atom& a : e.inputs) s += " " + atom(a);
  }
  s += eqns.empty() ? " " : "\n ";
  s += " in (";
  for (size_t i = 0; i < outvars.size(); ++i) s += (i ? ", " : "") + atom(outvars[i]);
  s += outvars.size() == 1 ? ",) }" : ") }";
  return s;
}

bool has_effects(const Equation& e) {
  if (e.prim->has(kEffect)) return true;
  for (const auto& [name, v] : e.params.items()) {
    if (const auto* sub = std::get_if<JaxprPtr>(&v); sub && *sub && has_effects(**sub)) return true;
    if (const auto* list = std::get_if<JaxprList>(&v))
      for (const JaxprPtr& j : *list)
        if (j && has_effects(*j)) return true;
  }
  return false;
}

bool has_effects(const JaxprImpl& j) {
  for (const Equation& e : j.eqns)
    if (has_effects(e)) return true;
  return false;
}

}  // namespace strata
