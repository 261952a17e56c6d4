// Batching rules (the slot vmap will use): every elementwise primitive has one, and applied to
// operands with a batch dimension anywhere (or none) it equals the primitive applied to each
// example, stacked along the dimension the rule reports.
#include <gtest/gtest.h>

#include <cmath>

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
  ASSERT_EQ(c.args.size(), c.dims.size()) << "one batch dimension per operand";
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
      // Exact, except for the rounding a differently blocked GEMM may do.
      std::vector<double> g = got.to_vector<double>(), w = want[k].to_vector<double>();
      for (size_t i = 0; i < g.size(); ++i)
        if (g[i] != w[i]) EXPECT_NEAR(g[i], w[i], 1e-5 * (1 + std::fabs(w[i]))) << "example " << b << " element " << i;
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
      {&st::prim::kAtan2, {x, row}, {1, st::not_mapped}},
      {&st::prim::kIntegerPow, {x}, {1}, st::Params{{"y", int64_t{-3}}}},  // the param passes through
      {&st::prim::kErfInv, {st::tanh(x)}, {1}},
  };
  for (const Case& c : cases) expect_rule_matches_examples(c);
}

TEST(BatchRules, StructuralRulesEqualThePrimitivePerExample) {
  using st::IntList;
  Array x = rnd({3, 4, 2}, 8);  // examples along any of the three dimensions
  Array m = rnd({4, 5}, 9), v = rnd({4}, 10), bm = rnd({2, 6, 4, 5}, 11);
  auto p = [](std::initializer_list<std::pair<std::string, st::ParamValue>> kv) { return st::Params(kv); };
  std::vector<Case> cases = {
      {&st::prim::kTranspose, {x}, {1}, p({{"permutation", IntList{1, 0}}})},
      {&st::prim::kBroadcastInDim, {x}, {2}, p({{"shape", IntList{3, 5, 4}}, {"broadcast_dimensions", IntList{0, 2}}})},
      {&st::prim::kReshape, {x}, {0}, p({{"new_sizes", IntList{8}}})},
      {&st::prim::kSlice, {x}, {1},
       p({{"start_indices", IntList{1, 0}}, {"limit_indices", IntList{3, 2}}, {"strides", IntList{1, 1}}})},
      {&st::prim::kReduceSum, {x}, {1}, p({{"axes", IntList{1}}})},
      {&st::prim::kConcatenate, {x, rnd({3, 1}, 16), x}, {1, st::not_mapped, 1}, p({{"dimension", int64_t{1}}})},
      {&st::prim::kPad, {x, Array(0.5f)}, {2, st::not_mapped},
       p({{"padding_low", IntList{1, 0}}, {"padding_high", IntList{0, 2}}, {"padding_interior", IntList{1, 0}}})},
      {&st::prim::kReduceMax, {x}, {2}, p({{"axes", IntList{0, 1}}})},
      {&st::prim::kReduceMin, {x}, {0}, p({{"axes", IntList{0}}})},
      {&st::prim::kReduceProd, {x}, {1}, p({{"axes", IntList{1}}})},
      {&st::prim::kArgmax, {x}, {2}, p({{"axes", IntList{1}}, {"index_dtype", st::i32}})},
      // dot_general: both operands batched, only the lhs, only the rhs (with a batch dimension
      // of the dot itself).
      {&st::prim::kDotGeneral, {x, rnd({2, 4, 5}, 12)}, {2, 0},
       p({{"lhs_contract", IntList{1}}, {"rhs_contract", IntList{0}}, {"lhs_batch", IntList{}}, {"rhs_batch", IntList{}}})},
      {&st::prim::kDotGeneral, {rnd({6, 4}, 13), m}, {0, st::not_mapped},
       p({{"lhs_contract", IntList{0}}, {"rhs_contract", IntList{0}}, {"lhs_batch", IntList{}}, {"rhs_batch", IntList{}}})},
      {&st::prim::kDotGeneral, {rnd({2, 3, 4}, 14), bm}, {st::not_mapped, 1},
       p({{"lhs_contract", IntList{2}}, {"rhs_contract", IntList{1}}, {"lhs_batch", IntList{0}}, {"rhs_batch", IntList{0}}})},
      {&st::prim::kDotGeneral, {v, rnd({4, 7}, 15)}, {st::not_mapped, 1},
       p({{"lhs_contract", IntList{0}}, {"rhs_contract", IntList{0}}, {"lhs_batch", IntList{}}, {"rhs_batch", IntList{}}})},
      // fft: the examples' dimension among the transformed ones, or before them.
      {&st::prim::kFft, {x}, {1}, p({{"fft_type", int64_t{2}}, {"fft_lengths", IntList{3, 2}}})},
      {&st::prim::kFft, {st::complex(x, rnd({3, 4, 2}, 17))}, {0}, p({{"fft_type", int64_t{1}}, {"fft_lengths", IntList{4, 2}}})},
      {&st::prim::kFft, {st::complex(rnd({3, 4, 3}, 18), rnd({3, 4, 3}, 19))}, {2},
       p({{"fft_type", int64_t{3}}, {"fft_lengths", IntList{6}}})},
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

// Window reductions and their derivatives (issue 13): the batch dimension goes first with a
// window of 1; select_and_* broadcast an unbatched operand.
TEST(BatchRules, WindowRulesEqualThePrimitivePerExample) {
  using st::IntList;
  Array x = rnd({3, 4, 2}, 20);
  auto geom = [](IntList w, IntList s, IntList lo, IntList hi, IntList base, IntList dil) {
    return st::Params{{"window_dimensions", w}, {"window_strides", s}, {"padding_low", lo},
                      {"padding_high", hi},    {"base_dilation", base}, {"window_dilation", dil}};
  };
  st::Params sum = geom({2, 2}, {1, 1}, {1, 0}, {0, 1}, {2, 1}, {1, 1});
  st::Params max = geom({2, 2}, {2, 1}, {0, 0}, {1, 0}, {1, 1}, {1, 2});
  st::Params sas{{"select_prim", std::string("ge")}, {"window_dimensions", IntList{2, 1}}, {"window_strides", IntList{1, 1}},
                 {"padding_low", IntList{0, 0}},     {"padding_high", IntList{0, 0}}};
  st::Params sag = geom({2, 2}, {1, 1}, {0, 1}, {1, 0}, {1, 1}, {1, 1});
  sag.set("select_prim", std::string("le"));
  std::vector<Case> cases = {
      {&st::prim::kReduceWindowSum, {x}, {1}, sum},
      {&st::prim::kReduceWindowMax, {x}, {0}, max},
      {&st::prim::kReduceWindowMin, {x}, {2}, max},
      // Examples of operand [3, 2] (dimension 1 of x), sources [2, 2].
      {&st::prim::kSelectAndScatterAdd, {rnd({4, 2, 2}, 21), x}, {0, 1}, sas},
      {&st::prim::kSelectAndScatterAdd, {rnd({2, 2, 5}, 22), rnd({3, 2}, 23)}, {2, st::not_mapped}, sas},
      {&st::prim::kSelectAndGatherAdd, {rnd({3, 4, 2}, 24), x}, {1, 1}, sag},
      {&st::prim::kSelectAndGatherAdd, {rnd({3, 2, 4}, 25), rnd({3, 2}, 26)}, {2, st::not_mapped}, sag},
  };
  for (const Case& c : cases) expect_rule_matches_examples(c);
}
