// Pytrees: flattening and rebuilding nested containers and registered structs.
#include <gtest/gtest.h>

#include "strata/strata.h"

namespace st = strata;

namespace demo {
struct Params {
  st::Array w1, b1, w2;
  int hidden = 0;  // static field
};
STRATA_PYTREE(Params, w1, b1, w2, hidden);

struct Model {
  Params layer;
  std::vector<st::Array> extra;
};
STRATA_PYTREE(Model, layer, extra);
}  // namespace demo

namespace {

TEST(Pytree, FlattenOrder) {
  st::Array a = st::ones({1}), b = st::ones({2}), c = st::ones({3}), d = st::ones({4});
  std::map<std::string, st::Array> m{{"z", a}, {"a", b}};
  auto leaves = st::tree_flatten(std::make_tuple(m, std::vector<st::Array>{c}, std::array<st::Array, 1>{d}, 3, std::string("s")));
  ASSERT_EQ(leaves.size(), 4u);
  EXPECT_EQ(leaves[0].size(), 2);  // map by key: "a" first
  EXPECT_EQ(leaves[1].size(), 1);
  EXPECT_EQ(leaves[2].size(), 3);
  EXPECT_EQ(leaves[3].size(), 4);
}

TEST(Pytree, RegisteredStructRoundTrip) {
  demo::Model m{{st::ones({2, 2}), st::zeros({2}), st::ones({2, 1}), 7}, {st::ones({5})}};
  auto leaves = st::tree_flatten(m);
  ASSERT_EQ(leaves.size(), 4u);
  demo::Model doubled = st::tree_map(m, [](const st::Array& x) { return x * 2.0f; });
  EXPECT_EQ(doubled.layer.hidden, 7);
  EXPECT_EQ(doubled.layer.w1.to_vector<float>(), (std::vector<float>{2, 2, 2, 2}));
  EXPECT_EQ(doubled.extra[0].to_vector<float>(), (std::vector<float>(5, 2.0f)));
  // The original is unchanged (arrays are values).
  EXPECT_EQ(m.layer.w1.to_vector<float>(), (std::vector<float>{1, 1, 1, 1}));
}

TEST(Pytree, UnflattenChecksLeafCount) {
  std::vector<st::Array> proto{st::ones({1}), st::ones({1})};
  std::vector<st::Array> one{st::ones({1})};
  EXPECT_THROW(st::tree_unflatten(proto, one), st::ValueError);
}

TEST(Pytree, StaticValues) {
  EXPECT_TRUE(st::is_static_v<int>);
  EXPECT_TRUE(st::is_static_v<std::string>);
  EXPECT_FALSE(st::is_static_v<st::Array>);
  EXPECT_FALSE(st::is_static_v<demo::Params>);
}

TEST(Pytree, MakeJaxprOverStructsReturnsStructuredOutputs) {
  demo::Params p{st::zeros({3, 4}), st::zeros({4}), st::zeros({4, 2}), 4};
  auto forward = [](const demo::Params& q, const st::Array& x) {
    EXPECT_EQ(q.hidden, 4);  // static fields pass through unchanged
    return st::matmul(st::relu(st::matmul(x, q.w1) + q.b1), q.w2);
  };
  st::Jaxpr j = st::make_jaxpr(forward)(p, st::zeros({5, 3}));
  EXPECT_EQ(j.num_inputs(), 4);
  EXPECT_EQ(j.to_string().substr(0, 53), "{ lambda ; a:f32[3,4] b:f32[4] c:f32[4,2] d:f32[5,3].");
}

TEST(Pytree, DictOutputs) {
  auto f = [](const st::Array& x) { return std::map<std::string, st::Array>{{"sum", st::sum(x)}, {"max", st::max(x)}}; };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3}));
  // Outputs in key order: max, then sum.
  EXPECT_EQ(j.primitive_names(), (std::vector<std::string>{"reduce_sum", "reduce_max"}));
  EXPECT_NE(j.to_string().find("in (c, b) }"), std::string::npos) << j;
}

}  // namespace
