// jnp.vectorize's non-template half: the gufunc signature, the core-dimension checks and the
// loop shape (NumPy's rules, as jax._src.numpy.vectorize).
#include "strata/vectorize.h"

#include <algorithm>
#include <cctype>

#include "op_helpers.h"

namespace strata::detail {
namespace {

std::string core_string(const std::vector<std::string>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + dims[i];
  return s + ")";
}

// One side of the signature: "(m,n),(n)" → {{m, n}, {n}}; "" → {}. Returns false on bad text.
bool parse_side(const std::string& text, std::vector<std::vector<std::string>>& out) {
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  if (i == text.size()) return true;
  while (true) {
    if (text[i] != '(') return false;
    ++i;
    std::vector<std::string> dims;
    skip();
    if (i < text.size() && text[i] == ')') {
      ++i;
    } else {
      while (true) {
        skip();
        size_t start = i;
        while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
        if (i == start) return false;
        dims.push_back(text.substr(start, i - start));
        skip();
        if (i < text.size() && text[i] == ',') {
          ++i;
          continue;
        }
        if (i < text.size() && text[i] == ')') {
          ++i;
          break;
        }
        return false;
      }
    }
    out.push_back(std::move(dims));
    skip();
    if (i == text.size()) return true;
    if (text[i] != ',') return false;
    ++i;
    skip();
  }
}

}  // namespace

GufuncSignature parse_gufunc_signature(const std::string& signature) {
  GufuncSignature sig;
  size_t arrow = signature.find("->");
  if (arrow == std::string::npos || !parse_side(signature.substr(0, arrow), sig.inputs) ||
      !parse_side(signature.substr(arrow + 2), sig.outputs))
    throw ValueError("vectorize: not a valid gufunc signature: \"" + signature +
                     "\" (expected e.g. \"(m,n),(n)->(m)\")");
  return sig;
}

size_t vectorize_inputs(const std::optional<GufuncSignature>& sig, std::vector<Array>& arrays,
                        std::map<std::string, int64_t>& sizes) {
  if (sig && sig->inputs.size() != arrays.size())
    throw ValueError("vectorize: the signature has " + std::to_string(sig->inputs.size()) +
                     " inputs, but the function was called with " + std::to_string(arrays.size()) + " arrays");
  std::vector<Shape> loop_shapes;
  size_t loops = 0;
  for (size_t i = 0; i < arrays.size(); ++i) {
    const AbstractValue& av = api::aval(arrays[i], "vectorize");
    const std::vector<std::string> none;
    const std::vector<std::string>& core = sig ? sig->inputs[i] : none;
    const size_t nd = static_cast<size_t>(av.ndim());
    if (nd < core.size())
      throw ValueError("vectorize: input " + std::to_string(i) + " " + av.str() + " has fewer dimensions than its core " +
                       core_string(core));
    for (size_t d = 0; d < core.size(); ++d) {
      int64_t size = av.shape[nd - core.size() + d];
      auto [it, added] = sizes.emplace(core[d], size);
      if (!added && it->second != size)
        throw ValueError("vectorize: inconsistent size for core dimension '" + core[d] + "': " +
                         std::to_string(it->second) + " and " + std::to_string(size) + " (input " + std::to_string(i) +
                         " " + av.str() + ")");
    }
    loop_shapes.emplace_back(av.shape.begin(), av.shape.end() - static_cast<std::ptrdiff_t>(core.size()));
    loops = std::max(loops, loop_shapes.back().size());
  }
  // NumPy broadcasting of the loop shapes (right-aligned), then each array left-padded.
  Shape loop(loops, 1);
  for (size_t i = 0; i < arrays.size(); ++i) {
    const Shape& s = loop_shapes[i];
    for (size_t d = 0; d < s.size(); ++d) {
      int64_t& l = loop[loops - s.size() + d];
      if (s[d] != 1 && l != 1 && s[d] != l)
        throw ShapeError("vectorize: loop dimensions of input " + std::to_string(i) + " " +
                         api::aval(arrays[i], "vectorize").str() + " cannot be broadcast with the others " +
                         shape_rules::list_string(loop));
      if (s[d] != 1) l = s[d];
    }
  }
  for (size_t i = 0; i < arrays.size(); ++i) {
    Shape padded(loops - loop_shapes[i].size(), 1);
    const Shape full = arrays[i].shape();
    padded.insert(padded.end(), full.begin(), full.end());
    if (padded.size() != full.size()) arrays[i] = reshape(arrays[i], padded);
  }
  return loops;
}

void vectorize_check_outputs(const std::optional<GufuncSignature>& sig, const std::vector<Array>& outputs,
                             std::map<std::string, int64_t> sizes) {
  if (!sig) return;
  if (outputs.size() != sig->outputs.size())
    throw ValueError("vectorize: the function returned " + std::to_string(outputs.size()) +
                     " arrays, but the signature has " + std::to_string(sig->outputs.size()) + " outputs");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const AbstractValue& av = api::aval(outputs[i], "vectorize");
    const std::vector<std::string>& core = sig->outputs[i];
    bool ok = static_cast<size_t>(av.ndim()) == core.size();
    for (size_t d = 0; ok && d < core.size(); ++d) {
      auto [it, added] = sizes.emplace(core[d], av.shape[d]);
      ok = added || it->second == av.shape[d];
    }
    if (!ok)
      throw ValueError("vectorize: output " + std::to_string(i) + " " + av.str() +
                       " does not match its core dimensions " + core_string(core) + " in the signature");
  }
}

Array drop_leading(const Array& x) {
  Shape s = x.shape();
  s.erase(s.begin());
  return reshape(x, s);
}

}  // namespace strata::detail
