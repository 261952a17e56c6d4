#include "params.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "host_callback.h"
#include "jaxpr.h"

namespace strata {

Params& Params::set(const std::string& name, ParamValue value) {
  auto it = std::lower_bound(items_.begin(), items_.end(), name,
                             [](const auto& item, const std::string& n) { return item.first < n; });
  if (it != items_.end() && it->first == name) it->second = std::move(value);
  else items_.insert(it, {name, std::move(value)});
  return *this;
}

const ParamValue* Params::find(const std::string& name) const {
  auto it = std::lower_bound(items_.begin(), items_.end(), name,
                             [](const auto& item, const std::string& n) { return item.first < n; });
  return it != items_.end() && it->first == name ? &it->second : nullptr;
}

void Params::mistyped(const std::string& name, const ParamValue& kind, const ParamValue* got) {
  static constexpr const char* kKinds[] = {"True or False", "an integer",        "a number", "a name",
                                           "a dtype",       "a tuple of integers", "a jaxpr",  "a tuple of jaxprs",
                                           "a host callback"};
  static_assert(std::size(kKinds) == std::variant_size_v<ParamValue>);
  throw ParamError(name, kKinds[kind.index()], got ? param_string(*got) : "nothing");
}

std::string float_string(double v) {
  if (v != v) return "nan";
  if (v == 1.0 / 0.0) return "inf";
  if (v == -1.0 / 0.0) return "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string param_string(const ParamValue& v) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return float_string(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(DType t) const { return std::string(long_name(t)); }
    std::string operator()(const IntList& l) const {
      std::string s = "(";
      for (size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + std::to_string(l[i]);
      return s + (l.size() == 1 ? ",)" : ")");
    }
    std::string operator()(const std::shared_ptr<const JaxprImpl>& j) const {
      return j ? j->str() : "None";
    }
    std::string operator()(const HostCallbackPtr& c) const {
      return c ? "<" + c->name() + " #" + std::to_string(c->id()) + ">" : "None";
    }
    std::string operator()(const JaxprList& l) const {
      std::string s = "(";
      for (const auto& j : l) s += "\n  " + (j ? j->str() : std::string("None"));
      return s + "\n)";
    }
  };
  return std::visit(Visitor{}, v);
}

}  // namespace strata
