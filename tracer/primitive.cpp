#include "primitive.h"

namespace strata {
namespace {

constexpr const Primitive* kAll[] = {
#define STRATA_PRIMITIVE(ident, name) &prim::ident,
#include "primitive_list.def"
#undef STRATA_PRIMITIVE
};

}  // namespace

std::span<const Primitive* const> all_primitives() { return kAll; }

const Primitive* find_primitive(std::string_view name) {
  for (const Primitive* p : kAll)
    if (p->name == name) return p;
  return nullptr;
}

}  // namespace strata
