// Batching rules (the slot vmap will use): every elementwise primitive has one, and applied to
// operands with a batch dimension anywhere (or none) it equals the primitive applied to each
// example, stacked along the dimension the rule reports.
#include <gtest/gtest.h>

#include "primitive.h"
#include "strata/strata.h"
#include "trace.h"

namespace st = strata;
using st::Array;

namespace {

// Example `b` of `x` batched along `dim` (x itself when unbatched).
Array example(const Array& x, int dim, int64_t b) {
  if (dim == st::not_mapped) return x;
  std::vector<int64_t> start(static_cast<size_t>(x.ndim()), 0), stop(x.shape().begin(), x.shape().end());
  start[static_cast<size_t>(dim)] = b;
  stop[static_cast<size_t>(dim)] = b + 1;
  return st::squeeze(st::slice(x, start, stop), {dim});
}

struct Case {
  const st::Primitive* prim;
  std::vector<Array> args;
  std::vector<int> dims;
  st::Params params = {};
};

void expect_rule_matches_examples(const Case& c) {
  SCOPED_TRACE(std::string(c.prim->name));
  ASSERT_NE(c.prim->batch, nullptr);
  auto [out, out_dims] = c.prim->batch(c.args, c.dims, c.params);
  ASSERT_EQ(out.size(), out_dims.size());
  int64_t size = -1;
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.dims[i] != st::not_mapped) size = c.args[i].shape(c.dims[i]);
  st::SourceLoc here{__FILE__, __LINE__, 0};
  for (int64_t b = 0; b < size; ++b) {
    std::vector<Array> xs;
    for (size_t i = 0; i < c.args.size(); ++i) xs.push_back(example(c.args[i], c.dims[i], b));
    std::vector<Array> want = st::bind(*c.prim, xs, c.params, here);
    ASSERT_EQ(want.size(), out.size());
    for (size_t k = 0; k < out.size(); ++k) {
      ASSERT_NE(out_dims[k], st::not_mapped);
      Array got = example(out[k], out_dims[k], b);
      ASSERT_EQ(got.shape(), want[k].shape()) << "example " << b;
      ASSERT_EQ(got.dtype(), want[k].dtype());
      EXPECT_EQ(got.to_vector<double>(), want[k].to_vector<double>()) << "example " << b;
    }
  }
}

Array rnd(st::Shape s, uint64_t seed) { return st::random::normal(st::random::key(seed), s); }

}  // namespace

TEST(BatchRules, EveryElementwisePrimitiveHasOne) {
  for (const st::Primitive* p : st::all_primitives())
    if (p->has(st::kElementwise))
      EXPECT_NE(p->batch, nullptr) << "elementwise primitive `" << p->name << "` has no batching rule";
}

TEST(BatchRules, ElementwiseRulesEqualThePrimitivePerExample) {
  Array x = rnd({3, 4}, 1), y = rnd({4, 3}, 2), row = rnd({3}, 3), s = rnd({}, 4);
  Array pred = st::greater(rnd({4, 3}, 5), 0.0f);
  std::vector<Case> cases = {
      {&st::prim::kExp, {x}, {0}},                       // batch dimension first
      {&st::prim::kTanh, {x}, {1}},                      // in the middle: moved to the front
      {&st::prim::kAdd, {x, y}, {1, 0}},                 // both batched, along different dims
      {&st::prim::kMul, {x, row}, {1, st::not_mapped}},  // an unbatched operand is broadcast
      {&st::prim::kSub, {s, x}, {st::not_mapped, 0}},    // an unbatched 0-d operand stays 0-d
      {&st::prim::kMax, {rnd({4}, 6), row}, {0, st::not_mapped}},  // batched 0-d examples
      {&st::prim::kLt, {x, y}, {1, 0}},                  // a comparison: bool results
      {&st::prim::kSelect, {pred, row, s}, {0, st::not_mapped, st::not_mapped}},
      {&st::prim::kConvertElementType, {x}, {1}, st::Params{{"new_dtype", st::f64}, {"weak_type", false}}},
  };
  for (const Case& c : cases) expect_rule_matches_examples(c);
}

TEST(BatchRules, NothingBatchedIsThePrimitiveItself) {
  Array x = rnd({2, 3}, 7);
  int dims[] = {st::not_mapped};
  auto [out, out_dims] = st::prim::kNeg.batch(std::span<const Array>(&x, 1), dims, st::Params{});
  EXPECT_EQ(out_dims, std::vector<int>{st::not_mapped});
  EXPECT_EQ(out[0].to_vector<float>(), st::negative(x).to_vector<float>());
}
