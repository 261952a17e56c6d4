// Host callbacks (strata/callbacks.h): binding the callback primitives
// (tracer/primitives/callbacks.cpp) and debug::print's formatting.
#include "strata/callbacks.h"

#include <cstdio>
#include <string>

#include "array_impl.h"
#include "host_callback.h"
#include "lax.h"
#include "primitive.h"

namespace strata {

ShapeDtypeStruct::ShapeDtypeStruct(const Array& like) : shape(like.shape()), dtype(like.dtype()) {}

namespace detail {
namespace {

const char* method_name(VmapMethod m) {
  switch (m) {
    case VmapMethod::sequential: return "sequential";
    case VmapMethod::sequential_unrolled: return "sequential_unrolled";
    case VmapMethod::expand_dims: return "expand_dims";
    case VmapMethod::broadcast_all: return "broadcast_all";
    case VmapMethod::unspecified: break;
  }
  return "None";
}

}  // namespace

std::vector<Array> bind_callback(CallbackKind kind, std::shared_ptr<const HostFunction> fn,
                                 std::vector<ShapeDtypeStruct> results, std::vector<Array> args,
                                 const CallbackOptions& options) {
  const Primitive& prim = kind == CallbackKind::pure ? prim::kPureCallback
                          : kind == CallbackKind::io ? prim::kIoCallback
                                                     : prim::kDebugCallback;
  std::string name = !options.name.empty()          ? options.name
                     : kind == CallbackKind::debug ? std::string("debug.callback")
                                                   : std::string(prim.name);
  if (kind != CallbackKind::pure && options.vmap_method != VmapMethod::unspecified)
    throw ValueError(name + ": vmap_method is an option of pure_callback (an io or debug callback loops over a batch)");
  if (kind == CallbackKind::pure && options.ordered)
    throw ValueError(name + ": `ordered` is an option of io_callback and the debug callbacks (a pure callback has no "
                            "effect to order)");
  std::vector<AbstractValue> avals;
  for (size_t i = 0; i < results.size(); ++i) {
    for (int64_t d : results[i].shape)
      if (d < 0)
        throw ShapeError(name + ": result " + std::to_string(i) + " is declared with a negative dimension, " +
                         type_string(results[i].dtype, results[i].shape));
    avals.push_back(AbstractValue{results[i].shape, results[i].dtype, false});
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].valid()) throw ValueError(name + ": argument " + std::to_string(i) + " is a null Array");
  Params p{{"callback", std::make_shared<const HostCallback>(std::move(fn), std::move(avals), name)}};
  if (kind == CallbackKind::pure) p.set("vmap_method", std::string(method_name(options.vmap_method)));
  else p.set("ordered", options.ordered);
  return lax::bind(prim, args, p);
}

}  // namespace detail

namespace debug {
namespace {

// Python's str.format over positional fields: `render(i, spec, conversion)` gives field i's text.
template <class Render>
std::string format_fields(std::string_view fmt, size_t nargs, bool& any_field, Render render) {
  std::string out;
  std::vector<bool> used(nargs, false);
  size_t next = 0;
  bool automatic = false, manual = false;
  any_field = false;
  auto error = [&](const std::string& what) {
    return ValueError("debug::print: " + what + " in the format string \"" + std::string(fmt) + "\"");
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      throw error("a single '}'");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = fmt.find('}', i);
    if (close == std::string_view::npos) throw error("a single '{'");
    std::string_view field = fmt.substr(i + 1, close - i - 1);
    i = close;
    any_field = true;
    std::string_view spec, conversion;
    if (size_t colon = field.find(':'); colon != std::string_view::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    if (size_t bang = field.find('!'); bang != std::string_view::npos) {
      conversion = field.substr(bang + 1);
      field = field.substr(0, bang);
      if (conversion != "r" && conversion != "s") throw error("the conversion !" + std::string(conversion));
    }
    size_t index;
    if (field.empty()) {
      if (manual) throw error("automatic field numbering after manual numbering");
      automatic = true;
      index = next++;
    } else {
      for (char d : field)
        if (d < '0' || d > '9')
          throw error("the named field {" + std::string(field) + "} (C++ has no keyword arguments: use {} or {N})");
      if (automatic) throw error("manual field numbering after automatic numbering");
      manual = true;
      index = std::stoul(std::string(field));
    }
    if (index >= nargs)
      throw error("field " + std::to_string(index) + " with " + std::to_string(nargs) + " argument" +
                  (nargs == 1 ? "" : "s"));
    used[index] = true;
    out += render(index, spec, conversion);
  }
  if (any_field)
    for (size_t k = 0; k < nargs; ++k)
      if (!used[k]) throw error("argument " + std::to_string(k) + " unused");
  return out;
}

// The printf conversion for a Python format spec on a 0-d array of `dtype`: flags, width and
// precision ("+08.3f" → "%+08.3f"); ValueError for what printf cannot say (fill, alignment).
std::string printf_spec(std::string_view spec, DType dtype, std::string_view fmt) {
  std::string flags;
  size_t k = 0;
  while (k < spec.size() && std::string_view("+- #0123456789.").find(spec[k]) != std::string_view::npos) flags += spec[k++];
  char type = k < spec.size() ? spec[k++] : '\0';
  if (k != spec.size() || (type && std::string_view("eEfFgGdxXo").find(type) == std::string_view::npos))
    throw ValueError("debug::print: the format spec '" + std::string(spec) + "' (strata takes printf-like specs: " +
                     "flags, width, precision and one of e f g d x o) in \"" + std::string(fmt) + "\"");
  bool integer_type = type == 'd' || type == 'x' || type == 'X' || type == 'o';
  if (integer_type && !is_integer(dtype) && dtype != DType::bool_)
    throw ValueError("debug::print: the integer format '" + std::string(spec) + "' for a " +
                     std::string(long_name(dtype)) + " value in \"" + std::string(fmt) + "\"");
  if (is_complex(dtype)) throw ValueError("debug::print: a format spec for a complex value in \"" + std::string(fmt) + "\"");
  if (!type) type = is_integer(dtype) || dtype == DType::bool_ ? 'd' : 'g';
  return "%" + flags + (type == 'd' || type == 'x' || type == 'X' || type == 'o' ? std::string("ll") : "") + type;
}

}  // namespace

std::string format(std::string_view fmt, std::span<const Array> args) {
  bool any_field = false;
  std::string out = format_fields(fmt, args.size(), any_field,
                                  [&](size_t i, std::string_view spec, std::string_view conversion) -> std::string {
    const Array& a = args[i];
    if (spec.empty()) return conversion == "r" ? a.to_string() : detail::array_str(a);
    if (a.ndim() != 0)
      throw ValueError("debug::print: the format spec '" + std::string(spec) + "' for " + type_string(a.dtype(), a.shape()) +
                       " argument " + std::to_string(i) + "; specs apply to 0-d values in \"" + std::string(fmt) + "\"");
    std::string pf = printf_spec(spec, a.dtype(), fmt);
    char buf[128];
    if (pf.back() == 'd' || pf.back() == 'x' || pf.back() == 'X' || pf.back() == 'o')
      std::snprintf(buf, sizeof buf, pf.c_str(), static_cast<long long>(a.item<int64_t>()));
    else
      std::snprintf(buf, sizeof buf, pf.c_str(), a.item<double>());
    return buf;
  });
  if (!any_field)
    for (const Array& a : args) out += " " + detail::array_str(a);
  return out;
}

}  // namespace debug

namespace detail {
namespace {

class Printer final : public HostFunction {
 public:
  explicit Printer(std::string fmt) : fmt_(std::move(fmt)) {}
  std::vector<Array> operator()(std::span<const Array> args) const override {
    std::string line = debug::format(fmt_, args) + "\n";
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
    return {};
  }

 private:
  std::string fmt_;
};

// Fails a debug::check: the message formatted from the values, when the predicate has a false
// element (its first argument).
class Checker final : public HostFunction {
 public:
  explicit Checker(std::string fmt) : fmt_(std::move(fmt)) {}
  std::vector<Array> operator()(std::span<const Array> args) const override {
    std::vector<uint8_t> pred = args[0].to_vector<uint8_t>();
    for (uint8_t p : pred)
      if (!p) throw ValueError("debug::check failed: " + debug::format(fmt_, args.subspan(1)));
    return {};
  }

 private:
  std::string fmt_;
};

// The format checked when the call is made, against the arguments' types (values come when it
// runs): the errors format() would raise, with specs only for 0-d arguments.
void check_format(const std::string& fmt, const std::vector<Array>& args) {
  std::vector<AbstractValue> avals;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].valid()) throw ValueError("debug::print: argument " + std::to_string(i) + " is a null Array");
    avals.push_back(args[i].impl()->aval);
  }
  bool any_field = false;
  debug::format_fields(fmt, args.size(), any_field, [&](size_t i, std::string_view spec, std::string_view) {
    if (!spec.empty()) {
      if (!avals[i].shape.empty())
        throw ValueError("debug::print: the format spec '" + std::string(spec) + "' for " + avals[i].str() +
                         " argument " + std::to_string(i) + "; specs apply to 0-d values in \"" + fmt + "\"");
      debug::printf_spec(spec, avals[i].dtype, fmt);
    }
    return std::string();
  });
}

}  // namespace

void debug_print(std::string fmt, std::vector<Array> args, const CallbackOptions& options) {
  check_format(fmt, args);
  CallbackOptions o = options;
  if (o.name.empty()) o.name = "debug.print";
  bind_callback(CallbackKind::debug, std::make_shared<const Printer>(std::move(fmt)), {}, std::move(args), o);
}

void debug_check(const Array& pred, std::string fmt, std::vector<Array> args) {
  if (!pred.valid()) throw ValueError("debug::check: the predicate is a null Array");
  if (pred.dtype() != DType::bool_)
    throw DTypeError("debug::check: expects a boolean predicate, but got " + type_string(pred.dtype(), pred.shape()));
  check_format(fmt, args);
  args.insert(args.begin(), pred);
  bind_callback(CallbackKind::debug, std::make_shared<const Checker>(std::move(fmt)), {}, std::move(args),
                {.name = "debug.check"});
}

}  // namespace detail
}  // namespace strata
