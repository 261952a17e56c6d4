// JAX's type-promotion lattice, restricted to strata's dtypes, as a table written out from
// JAX's documentation (jax.numpy type promotion), and weak types through the ops.
#include <gtest/gtest.h>

#include <map>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_exact;

namespace {

// Nodes of the table: the seven dtypes plus i* (weak int) and f* (weak float).
struct Node {
  const char* name;
  st::TypeSpec spec;
};
const Node kNodes[] = {
    {"b", {st::bool_, false}}, {"i32", {st::i32, false}}, {"i64", {st::i64, false}}, {"bf16", {st::bf16, false}},
    {"f16", {st::f16, false}}, {"f32", {st::f32, false}}, {"f64", {st::f64, false}}, {"i*", {st::i32, true}},
    {"f*", {st::f32, true}},
};

// JAX's table (https://jax.readthedocs.io/en/latest/type_promotion.html) restricted to these
// nodes; row and column order as kNodes.
const char* const kTable[9][9] = {
    //        b       i32     i64     bf16    f16     f32    f64    i*      f*
    /* b   */ {"b",    "i32",  "i64",  "bf16", "f16",  "f32", "f64", "i*",   "f*"},
    /* i32 */ {"i32",  "i32",  "i64",  "bf16", "f16",  "f32", "f64", "i32",  "f*"},
    /* i64 */ {"i64",  "i64",  "i64",  "bf16", "f16",  "f32", "f64", "i64",  "f*"},
    /* bf16*/ {"bf16", "bf16", "bf16", "bf16", "f32",  "f32", "f64", "bf16", "bf16"},
    /* f16 */ {"f16",  "f16",  "f16",  "f32",  "f16",  "f32", "f64", "f16",  "f16"},
    /* f32 */ {"f32",  "f32",  "f32",  "f32",  "f32",  "f32", "f64", "f32",  "f32"},
    /* f64 */ {"f64",  "f64",  "f64",  "f64",  "f64",  "f64", "f64", "f64",  "f64"},
    /* i*  */ {"i*",   "i32",  "i64",  "bf16", "f16",  "f32", "f64", "i*",   "f*"},
    /* f*  */ {"f*",   "f*",   "f*",   "bf16", "f16",  "f32", "f64", "f*",   "f*"},
};

st::TypeSpec spec_named(const std::string& n) {
  for (const Node& node : kNodes)
    if (n == node.name) return node.spec;
  ADD_FAILURE() << "no node " << n;
  return {};
}

std::string describe(st::TypeSpec t) { return std::string(st::short_name(t.dtype)) + (t.weak ? " (weak)" : ""); }

TEST(Promotion, JaxLatticeTable) {
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      st::TypeSpec want = spec_named(kTable[i][j]);
      st::TypeSpec got = st::promote_types(kNodes[i].spec, kNodes[j].spec);
      EXPECT_EQ(got, want) << kNodes[i].name << " with " << kNodes[j].name << ": got " << describe(got) << ", want "
                           << describe(want);
    }
  }
}

TEST(Promotion, TableIsSymmetricAndIdempotent) {
  for (const Node& a : kNodes) {
    EXPECT_EQ(st::promote_types(a.spec, a.spec), a.spec) << a.name;
    for (const Node& b : kNodes) EXPECT_EQ(st::promote_types(a.spec, b.spec), st::promote_types(b.spec, a.spec)) << a.name << " " << b.name;
  }
}

TEST(Promotion, TableIsAssociative) {
  // A lattice join: the order in which three types are combined does not matter.
  for (const Node& a : kNodes)
    for (const Node& b : kNodes)
      for (const Node& c : kNodes)
        EXPECT_EQ(st::promote_types(st::promote_types(a.spec, b.spec), c.spec), st::promote_types(a.spec, st::promote_types(b.spec, c.spec)))
            << a.name << " " << b.name << " " << c.name;
}

TEST(Promotion, StrongOverload) {
  EXPECT_EQ(st::promote_types(st::i32, st::i64), st::i64);
  EXPECT_EQ(st::promote_types(st::bf16, st::f16), st::f32);
  EXPECT_EQ(st::promote_types(st::i64, st::bf16), st::bf16);
  EXPECT_EQ(st::promote_types(st::bool_, st::f16), st::f16);
  EXPECT_EQ(st::promote_types(st::f32, st::f64), st::f64);
  for (st::DType t : st::kAllDTypes) EXPECT_EQ(st::promote_types(t, t), t);
}

TEST(Promotion, WeakTypesOfOtherWidths) {
  // A weak type keeps its stored width when it is the result: weak i64 (an int64_t scalar) and
  // weak f64 (a double scalar).
  st::TypeSpec wi64{st::i64, true}, wf64{st::f64, true}, wi32{st::i32, true}, wf32{st::f32, true};
  EXPECT_EQ(st::promote_types(wi64, wi32), wi64);
  EXPECT_EQ(st::promote_types(wf64, wf32), wf64);
  EXPECT_EQ(st::promote_types(wi32, wf64), wf64);
  EXPECT_EQ(st::promote_types(wi64, wf32), wf32);
  // ... but never wins over a strong type.
  EXPECT_EQ(st::promote_types(wf64, {st::f16, false}), (st::TypeSpec{st::f16, false}));
  EXPECT_EQ(st::promote_types(wi64, {st::i32, false}), (st::TypeSpec{st::i32, false}));
  EXPECT_EQ(st::promote_types(wf64, {st::i32, false}), wf64);
  // A weak bool is just bool.
  EXPECT_EQ(st::promote_types({st::bool_, true}, {st::bool_, false}), (st::TypeSpec{st::bool_, false}));
}

// ---- Through the ops ----

TEST(Promotion, WeakScalarsKeepTheArrayDtype) {
  for (st::DType t : {st::bf16, st::f16, st::f32, st::f64}) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    st::Array x = st::ones({2}, t);
    for (const st::Array& r : {x * 2.0f, x * 2.0, 2.0f * x, x + 1, x - int64_t{3}, x / 2, st::maximum(x, 0.5f), st::power(x, 2)}) {
      EXPECT_EQ(r.dtype(), t);
      EXPECT_FALSE(r.weak_type());
    }
  }
  for (st::DType t : {st::i32, st::i64}) {
    st::Array x = st::ones({2}, t);
    EXPECT_EQ((x * 2).dtype(), t);
    EXPECT_EQ((x + int64_t{5}).dtype(), t);
    EXPECT_EQ((x - 1).dtype(), t);
  }
  // The sum is rounded to f16: 2049 is not an f16 value (the tie goes to 2048).
  expect_exact(st::full({1}, 2048.0, st::f16) + 1.0f, {1}, st::f16, {2048});
  expect_exact(st::full({1}, 2048.0, st::f16) + 3.0, {1}, st::f16, {2052});
}

TEST(Promotion, IntArrayTimesFloatScalarIsFloat) {
  st::Array i = st::array({1, 2, 3}, {3});
  st::Array r = i * 2.5;  // a double scalar: weak f64
  EXPECT_TRUE(st::is_floating(r.dtype()));
  EXPECT_EQ(r.dtype(), st::f64);
  EXPECT_TRUE(r.weak_type());
  expect_exact(r, {3}, st::f64, {2.5, 5, 7.5});
  st::Array f = i * 2.5f;  // a float scalar: weak f32
  EXPECT_EQ(f.dtype(), st::f32);
  EXPECT_TRUE(f.weak_type());
  expect_exact(f, {3}, st::f32, {2.5, 5, 7.5});
  // Weak floats then yield to a strong float.
  EXPECT_EQ((f * st::ones({3}, st::f16)).dtype(), st::f16);
  EXPECT_EQ((st::array(std::vector<int64_t>{1}, {1}) * 0.5f).dtype(), st::f32);
}

TEST(Promotion, StrongPairsThroughOps) {
  st::Array i32 = st::array({1, 2}, {2}), i64 = st::array(std::vector<int64_t>{3, 4}, {2});
  st::Array bf = st::array({0.5, 1.5}, {2}, st::bf16), h = st::array({0.25, 2.0}, {2}, st::f16);
  st::Array b = st::array({true, false}, {2});
  expect_exact(i32 + i64, {2}, st::i64, {4, 6});
  expect_exact(bf + h, {2}, st::f32, {0.75, 3.5});
  expect_exact(i32 * h, {2}, st::f16, {0.25, 4});
  expect_exact(i64 - bf, {2}, st::bf16, {2.5, 2.5});
  expect_exact(b + i32, {2}, st::i32, {2, 2});
  expect_exact(b * h, {2}, st::f16, {0.25, 0});
  expect_exact(st::maximum(bf, st::array({1.f, 1.f}, {2})), {2}, st::f32, {1, 1.5});
  EXPECT_EQ(st::where(b, i32, bf).dtype(), st::bf16);
  EXPECT_EQ(st::concatenate({i32, h}).dtype(), st::f16);
  EXPECT_EQ(st::matmul(i64, bf).dtype(), st::bf16);
  EXPECT_EQ((i32 < h).dtype(), st::bool_);
}

TEST(Promotion, BoolWithBool) {
  // NumPy and jnp: bool + bool is logical or (stays bool), bool * bool logical and; a bool with a
  // weak int scalar becomes a (weak) int.
  st::Array b = st::array({true, false}, {2});
  st::Array s = b + b;
  EXPECT_EQ(s.dtype(), st::bool_);
  EXPECT_EQ(s.to_vector<bool>(), (std::vector<bool>{true, false}));
  EXPECT_EQ((b * st::array({true, true}, {2})).to_vector<bool>(), (std::vector<bool>{true, false}));
  st::Array w = b + 1;
  EXPECT_EQ(w.dtype(), st::i32);
  EXPECT_EQ(w.to_vector<int>(), (std::vector<int>{2, 1}));
  st::Array t = st::Array(true) + st::Array(true);
  EXPECT_EQ(t.dtype(), st::bool_);
  EXPECT_TRUE(t.item<bool>());
}

TEST(Promotion, WeakWithWeak) {
  st::Array a = st::Array(1) + st::Array(2.0f);
  EXPECT_EQ(a.dtype(), st::f32);
  EXPECT_TRUE(a.weak_type());
  EXPECT_EQ(a.item<float>(), 3.0f);
  st::Array b = st::Array(int64_t{1} << 40) + 1;
  EXPECT_EQ(b.dtype(), st::i64);
  EXPECT_TRUE(b.weak_type());
  EXPECT_EQ(b.item<int64_t>(), (int64_t{1} << 40) + 1);
  st::Array c = st::Array(1.5) * 2.0f;
  EXPECT_EQ(c.dtype(), st::f64);
  EXPECT_TRUE(c.weak_type());
  // A weak result then yields to any strong array.
  EXPECT_EQ((a * st::ones({1}, st::bf16)).dtype(), st::bf16);
  EXPECT_EQ((b * st::ones({1}, st::i32)).dtype(), st::i32);
}

}  // namespace
