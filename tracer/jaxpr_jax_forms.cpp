// tracer/jaxpr_jax_forms.cpp — see jaxpr_jax_forms.h.
#include "jaxpr_jax_forms.h"

#include <charconv>

#include "fft_rules.h"
#include "primitives/gather_scatter.h"

namespace strata::jax_forms {
namespace {

[[noreturn]] void unreadable(const std::string& name, const std::string& expected, const RawValue& got) {
  throw ParamError(name, expected, got.str());
}

// 3, np.int64(3), int(3): an integer; nullopt otherwise.
std::optional<int64_t> integer(const RawValue& v) {
  const RawValue* n = &v;
  if (v.kind == RawValue::kCall && v.items.size() == 1 && v.items[0].first.empty() &&
      (v.text == "np.int64" || v.text == "np.int32" || v.text == "int"))
    n = &v.items[0].second;
  if (n->kind != RawValue::kNumber) return std::nullopt;
  int64_t x = 0;
  const std::string& t = n->text;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return x;
}

// (1, 2), [1, 2], (): integers.
std::optional<IntList> integers(const RawValue& v) {
  if (v.kind != RawValue::kSeq) return std::nullopt;
  IntList out;
  for (const auto& [_, e] : v.items) {
    std::optional<int64_t> x = integer(e);
    if (!x) return std::nullopt;
    out.push_back(*x);
  }
  return out;
}

IntList integers_or_fail(const std::string& name, const RawValue& v) {
  std::optional<IntList> l = integers(v);
  if (!l) unreadable(name, "a tuple of integers", v);
  return *l;
}

// A sequence's elements, each a sequence of `width` integers: ((1, 2, 0), (0, 1, 0)).
// `shown`: the whole parameter, for the message.
std::vector<IntList> rows(const std::string& name, const RawValue& v, size_t width, const char* expected,
                          const RawValue& shown) {
  std::vector<IntList> out;
  if (v.kind != RawValue::kSeq) unreadable(name, expected, shown);
  for (const auto& [_, e] : v.items) {
    std::optional<IntList> r = integers(e);
    if (!r || (width && r->size() != width)) unreadable(name, expected, shown);
    out.push_back(*r);
  }
  return out;
}

IntList column(const std::vector<IntList>& rows, size_t i) {
  IntList out;
  for (const IntList& r : rows) out.push_back(r[i]);
  return out;
}

// A record's field (`Name(field=value, ...)`).
const RawValue& field(const std::string& name, const RawValue& record, const std::string& f) {
  for (const auto& [k, v] : record.items)
    if (k == f) return v;
  unreadable(name, "a record with field '" + f + "'", record);
}

// dimension_numbers=((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)).
void dot_dimension_numbers(Params& p, const RawValue& v) {
  const char* expected = "((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))";
  if (v.kind != RawValue::kSeq || v.items.size() != 2) unreadable("dimension_numbers", expected, v);
  std::vector<IntList> contract = rows("dimension_numbers", v.items[0].second, 0, expected, v);
  std::vector<IntList> batch = rows("dimension_numbers", v.items[1].second, 0, expected, v);
  if (contract.size() != 2 || batch.size() != 2) unreadable("dimension_numbers", expected, v);
  p.set("lhs_contract", contract[0]).set("rhs_contract", contract[1]);
  p.set("lhs_batch", batch[0]).set("rhs_batch", batch[1]);
}

// GatherDimensionNumbers(offset_dims=..., collapsed_slice_dims=..., start_index_map=...,
// operand_batching_dims=(), start_indices_batching_dims=()), and ScatterDimensionNumbers
// likewise: three fields as strata's params of the same names, the two batching fields empty
// (strata has no batched gather or scatter), the index vector the indices' last dimension
// (JAX's convention).
struct IndexRecord {
  const char* name;
  const char* fields[3];
  const char* batching[2];
};
constexpr IndexRecord kGatherRecord{"GatherDimensionNumbers",
                                    {"offset_dims", "collapsed_slice_dims", "start_index_map"},
                                    {"operand_batching_dims", "start_indices_batching_dims"}};
constexpr IndexRecord kScatterRecord{"ScatterDimensionNumbers",
                                     {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims"},
                                     {"operand_batching_dims", "scatter_indices_batching_dims"}};

void index_dimension_numbers(Params& p, const RawValue& v, std::span<const AbstractValue> in, const IndexRecord& r) {
  const std::string n = "dimension_numbers";
  if (v.kind != RawValue::kCall || v.text != r.name) unreadable(n, std::string(r.name) + "(...)", v);
  for (const char* f : r.fields) p.set(f, integers_or_fail(n, field(n, v, f)));
  for (const char* f : r.batching)
    for (const auto& [k, e] : v.items)
      if (k == f && !integers_or_fail(n, e).empty()) unreadable(n, std::string("no ") + f + " (strata does not batch these)", v);
  p.set("index_vector_dim", static_cast<int64_t>(in.size() > 1 ? in[1].shape.size() - 1 : 0));
}

// ConvDimensionNumbers(lhs_spec=..., rhs_spec=..., out_spec=...).
void conv_dimension_numbers(Params& p, const RawValue& v) {
  const std::string n = "dimension_numbers";
  if (v.kind != RawValue::kCall || v.text != "ConvDimensionNumbers") unreadable(n, "ConvDimensionNumbers(...)", v);
  for (const char* f : {"lhs_spec", "rhs_spec", "out_spec"}) p.set(f, integers_or_fail(n, field(n, v, f)));
}

bool is_scatter(std::string_view prim) { return prim.substr(0, 7) == "scatter"; }

}  // namespace

std::string RawValue::str() const {
  switch (kind) {
    case kNone: return "None";
    case kNumber:
    case kWord: return text;
    case kJaxpr: return "{ lambda ... }";
    case kSeq:
    case kCall: {
      std::string s = kind == kCall ? text + "(" : "(";
      for (size_t i = 0; i < items.size(); ++i)
        s += (i ? ", " : "") + (items[i].first.empty() ? "" : items[i].first + "=") + items[i].second.str();
      return s + (kind == kSeq && items.size() == 1 ? ",)" : ")");
    }
  }
  return text;
}

std::optional<ParamValue> plain(const std::string& name, const RawValue& v) {
  switch (v.kind) {
    case RawValue::kNone: return std::nullopt;
    case RawValue::kNumber: {
      if (std::optional<int64_t> i = integer(v)) return *i;
      if (v.text == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (v.text == "inf") return std::numeric_limits<double>::infinity();
      if (v.text == "-inf") return -std::numeric_limits<double>::infinity();
      return std::strtod(v.text.c_str(), nullptr);
    }
    case RawValue::kWord: {
      if (v.text == "True") return true;
      if (v.text == "False") return false;
      if (v.text == "nan" || v.text == "inf") {
        RawValue number;
        number.kind = RawValue::kNumber;
        number.text = v.text;
        return plain(name, number);
      }
      DType d;
      if (parse_dtype(v.text, &d) && long_name(d) == v.text) return d;
      return v.text;
    }
    case RawValue::kJaxpr: return v.jaxprs.at(0);
    case RawValue::kCall:
      if (std::optional<int64_t> i = integer(v)) return *i;
      break;
    case RawValue::kSeq: {
      if (std::optional<IntList> l = integers(v)) return *l;
      JaxprList jaxprs;
      for (const auto& [_, e] : v.items)
        if (e.kind == RawValue::kJaxpr) jaxprs.push_back(e.jaxprs.at(0));
      if (jaxprs.size() == v.items.size()) return jaxprs;
      break;
    }
  }
  unreadable(name, "a number, a name, a jaxpr or a tuple of integers or of jaxprs", v);
}

Params to_params(std::string_view prim, const RawParams& raw, std::span<const AbstractValue> in,
                 std::span<const AbstractValue> out) {
  Params p;
  for (const auto& [name, v] : raw) {
    if (name == "dimension_numbers" && prim == "dot_general") {
      dot_dimension_numbers(p, v);
    } else if (name == "dimension_numbers" && prim == "gather") {
      index_dimension_numbers(p, v, in, kGatherRecord);
    } else if (name == "dimension_numbers" && is_scatter(prim)) {
      index_dimension_numbers(p, v, in, kScatterRecord);
    } else if (name == "dimension_numbers" && prim == "conv_general_dilated") {
      conv_dimension_numbers(p, v);
    } else if (name == "padding_config" && prim == "pad") {
      std::vector<IntList> r = rows(name, v, 3, "((low, high, interior), ...)", v);
      p.set("padding_low", column(r, 0)).set("padding_high", column(r, 1)).set("padding_interior", column(r, 2));
    } else if (name == "padding" && v.kind == RawValue::kSeq && !integers(v)) {  // conv, reduce_window_*
      std::vector<IntList> r = rows(name, v, 2, "((low, high), ...)", v);
      p.set("padding_low", column(r, 0)).set("padding_high", column(r, 1));
    } else if (name == "fill_value" && prim == "gather") {
      // The parser's (fill_gather).
    } else if (name == "mode" && v.kind == RawValue::kWord && v.text.rfind("GatherScatterMode.", 0) == 0) {
      // Gather's out-of-bounds windows are clamped (CLIP; PROMISE_IN_BOUNDS has none to
      // clamp) or filled (FILL_OR_DROP); strata's scatters always drop what falls outside.
      // A FILL_OR_DROP gather reads zeros outside (strata's fill mode); the parser puts JAX's
      // fill value there (jaxpr_parser.cpp, fill_gather).
      const std::string m = v.text.substr(18);
      if (m != "CLIP" && m != "FILL_OR_DROP" && m != "PROMISE_IN_BOUNDS") unreadable(name, "a GatherScatterMode", v);
      if (prim == "gather") p.set("mode", m == "FILL_OR_DROP" ? gather_scatter::kModeFill : gather_scatter::kModeClip);
    } else if (name == "fft_type" && prim == "fft" && v.kind == RawValue::kWord && v.text.find("FftType.") != std::string::npos) {
      // Older JAX prints the enum (FftType.RFFT, jaxlib.xla_client.FftType.RFFT); newer its number.
      std::optional<fft_rules::Type> t = fft_rules::type_from_name(v.text.substr(v.text.rfind('.') + 1));
      if (!t) unreadable(name, "an FftType (FFT, IFFT, RFFT, IRFFT)", v);
      p.set("fft_type", static_cast<int64_t>(*t));
    } else if (name == "algorithm" && prim == "rng_bit_generator" && v.kind == RawValue::kWord) {
      // JAX prints the enum's member (RNG_DEFAULT, or RandomAlgorithm.RNG_DEFAULT); its value is
      // StableHLO's number.
      const std::string m = v.text.substr(v.text.rfind('.') + 1);
      const int64_t a = m == "RNG_DEFAULT" ? 0 : m == "RNG_THREE_FRY" ? 1 : m == "RNG_PHILOX" ? 2 : -1;
      if (a < 0) unreadable(name, "a RandomAlgorithm (RNG_DEFAULT, RNG_THREE_FRY, RNG_PHILOX)", v);
      p.set("algorithm", a);
    } else if (std::optional<ParamValue> value = plain(name, v)) {
      p.set(name, std::move(*value));
    }
  }
  // What JAX leaves unprinted or None where strata's rules read a value.
  if (prim == "broadcast_in_dim") {
    if (!p.has("shape") && !out.empty()) p.set("shape", IntList(out[0].shape.begin(), out[0].shape.end()));
    if (!p.has("broadcast_dimensions") && !in.empty() && in[0].shape.empty()) p.set("broadcast_dimensions", IntList{});
  }
  if (prim == "slice" && !p.has("strides") && !in.empty()) p.set("strides", IntList(in[0].shape.size(), 1));
  if (prim == "gather" && !p.has("mode")) p.set("mode", gather_scatter::kModeClip);
  return p;
}

}  // namespace strata::jax_forms
