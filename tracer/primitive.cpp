#include "primitive.h"

#include "absl/container/flat_hash_map.h"

namespace strata {
namespace {

constexpr const Primitive* kAll[] = {
#define STRATA_PRIMITIVE(ident, name) &prim::ident,
#include "primitive_list.def"
#undef STRATA_PRIMITIVE
};

}  // namespace

std::span<const Primitive* const> all_primitives() { return kAll; }

// By name, interned once (the jaxpr parser and the lowering table look primitives up by name).
const Primitive* find_primitive(std::string_view name) {
  static const auto* by_name = [] {
    auto* m = new absl::flat_hash_map<std::string_view, const Primitive*>();
    for (const Primitive* p : kAll) m->emplace(p->name, p);
    return m;
  }();
  auto it = by_name->find(name);
  return it == by_name->end() ? nullptr : it->second;
}

}  // namespace strata

namespace strata {

void check_complex(const Primitive& prim, std::span<const AbstractValue> in, std::span<const AbstractValue> out) {
  if (prim.has(kElementwise) || prim.has(kTakesComplex)) return;
  for (std::span<const AbstractValue> side : {in, out})
    for (const AbstractValue& av : side)
      if (is_complex(av.dtype))
        throw DTypeError(std::string(prim.name) + ": complex numbers are not supported here yet, but got " + av.str());
}

}  // namespace strata
