// vmap through control flow: each batched result against the function run per example.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

// f applied to each row of xs (and the same extra arguments), stacked.
template <class F>
Array per_example(F f, const Array& xs) {
  std::vector<Array> rows;
  for (int64_t i = 0; i < xs.shape(0); ++i)
    rows.push_back(st::reshape(f(st::reshape(st::slice(xs, {i, 0}, {i + 1, xs.shape(1)}), {xs.shape(1)})), {1, -1}));
  return st::concatenate(rows, 0);
}

Array sample() { return st::array({1.f, -2.f, 0.5f, 3.f, -1.f, -4.f, 2.f, 0.f}, {4, 2}); }

TEST(ControlFlowVmap, CondWithABatchedPredicateSelects) {
  auto f = [](const Array& x) {
    return st::cond(st::sum(x) > 0.0f, [](const Array& a) { return a * 2.0f; }, [](const Array& a) { return st::exp(a); }, x);
  };
  Array xs = sample();
  EXPECT_EQ(values(st::vmap(f)(xs)), values(per_example(f, xs)));
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return st::vmap(f)(v); })(xs);
  for (const std::string& p : j.primitive_names()) EXPECT_NE(p, "cond") << j;  // became select
}

TEST(ControlFlowVmap, CondWithAnUnbatchedPredicateStaysACond) {
  Array p = st::full({}, 1, st::bool_);
  auto f = [&](const Array& x) {
    return st::cond(p, [](const Array& a) { return a * 2.0f; }, [](const Array& a) { return -a; }, x);
  };
  Array xs = sample();
  EXPECT_EQ(values(st::vmap(f)(xs)), values(per_example(f, xs)));
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return st::vmap(f)(v); })(xs);
  EXPECT_EQ(j.primitive_names().back(), "cond") << j;
}

TEST(ControlFlowVmap, SwitchWithABatchedIndex) {
  auto f = [](const Array& x) {
    Array i = st::astype(st::abs(st::reshape(st::slice(x, {0}, {1}), {})), st::i32);
    return st::switch_(i, std::tuple{[](const Array& a) { return a + 1.0f; }, [](const Array& a) { return a * 10.0f; },
                                     [](const Array& a) { return -a; }}, x);
  };
  Array xs = sample();
  EXPECT_EQ(values(st::vmap(f)(xs)), values(per_example(f, xs)));
}

TEST(ControlFlowVmap, WhileWithABatchedPredicate) {
  // Each example doubles until its sum passes 10: different trip counts per example.
  auto f = [](const Array& x) {
    return st::while_loop([](const Array& c) { return st::sum(st::abs(c)) < 10.0f; }, [](const Array& c) { return c * 2.0f; }, x);
  };
  Array xs = st::array({1.f, 1.f, 3.f, 4.f, 0.1f, 0.2f, 20.f, 0.f}, {4, 2});
  EXPECT_EQ(values(st::vmap(f)(xs)), values(per_example(f, xs)));
}

TEST(ControlFlowVmap, ScanAndForiLoop) {
  auto f = [](const Array& x) {
    auto [c, ys] = st::scan([](const Array& c, const Array& e) { return std::make_pair(c * e + 1.0f, c); }, st::zeros({}), x);
    return st::concatenate({st::reshape(c, {1}), ys}, 0);
  };
  Array xs = sample();
  EXPECT_EQ(values(st::vmap(f)(xs)), values(per_example(f, xs)));
  auto g = [](const Array& x) { return st::fori_loop(0, 3, [](const Array&, const Array& c) { return c * c + 0.5f; }, x); };
  EXPECT_EQ(values(st::vmap(g)(xs)), values(per_example(g, xs)));
  // Per-example gradients through a scan.
  auto loss = [](const Array& w, const Array& x) {
    return st::sum(st::scan([&](const Array& c, const Array& e) { return std::make_pair(st::tanh(c * w + e), c); }, st::zeros({}), x).first);
  };
  Array w = st::full({}, 0.7f);
  Array gs = st::vmap(st::grad(loss), {std::nullopt, 0})(w, xs);
  for (int64_t i = 0; i < xs.shape(0); ++i) {
    Array row = st::reshape(st::slice(xs, {i, 0}, {i + 1, 2}), {2});
    EXPECT_FLOAT_EQ(values(gs)[static_cast<size_t>(i)], st::grad(loss)(w, row).item<float>());
  }
}

}  // namespace
