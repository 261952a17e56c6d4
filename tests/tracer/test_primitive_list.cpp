// Walks the one list of primitives and fails for any primitive that lacks a rule.
#include <gtest/gtest.h>

#include <set>

#include "primitive.h"

namespace {

TEST(PrimitiveList, EveryPrimitiveHasItsRules) {
  std::set<std::string_view> names;
  for (const strata::Primitive* p : strata::all_primitives()) {
    SCOPED_TRACE(std::string(p->name));
    EXPECT_FALSE(p->name.empty());
    EXPECT_TRUE(names.insert(p->name).second) << "duplicate primitive name";
    EXPECT_NE(p->shape_rule, nullptr) << p->name << " has no shape rule";
    EXPECT_TRUE(p->eager || p->eval) << p->name << " has no eager kernel (or eval rule)";
    if (!p->has(strata::kNotDifferentiable)) {
      EXPECT_NE(p->jvp, nullptr) << p->name << " is differentiable but has no JVP rule";
      EXPECT_NE(p->vjp, nullptr) << p->name << " is differentiable but has no VJP rule";
    }
    EXPECT_EQ(strata::find_primitive(p->name), p);
  }
  EXPECT_EQ(names.size(), strata::all_primitives().size());
  EXPECT_GE(names.size(), 49u);
}

}  // namespace
