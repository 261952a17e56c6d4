// vmap: the batched function equals the function applied to each example and stacked, over
// in_axes (mapped, unmapped, negative) and out_axes; it composes with jit and grad (per-example
// gradients); errors name what is wrong.
#include <gtest/gtest.h>

#include <optional>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::error_message;

namespace {

Array rnd(st::Shape s, uint64_t seed) { return st::random::normal(st::random::key(seed), s); }

// Example b of x along axis.
Array take(const Array& x, int axis, int64_t b) {
  std::vector<int64_t> start(static_cast<size_t>(x.ndim()), 0), stop(x.shape().begin(), x.shape().end());
  start[static_cast<size_t>(axis)] = b;
  stop[static_cast<size_t>(axis)] = b + 1;
  return st::squeeze(st::slice(x, start, stop), {axis});
}

void expect_close(const Array& got, const Array& want, double tol = 1e-5) {
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << "element " << i;
}

// softmax of one row, written for one example.
Array row_softmax(const Array& x) {
  Array e = st::exp(x - st::max(x));
  return e / st::sum(e);
}

// A one-hidden-layer network's loss on one example.
struct Params {
  Array w1, b1, w2;
};
Array loss(const Params& p, const Array& x, const Array& y) {
  Array h = st::tanh(st::matmul(x, p.w1) + p.b1);
  Array out = st::matmul(h, p.w2);
  return st::sum((out - y) * (out - y));
}

}  // namespace

namespace {
STRATA_PYTREE(Params, w1, b1, w2);
}

TEST(Vmap, EqualsTheFunctionPerExample) {
  Array xs = rnd({5, 7}, 1);
  Array got = st::vmap(row_softmax)(xs);
  ASSERT_EQ(got.shape(), (st::Shape{5, 7}));
  for (int64_t b = 0; b < 5; ++b) expect_close(take(got, 0, b), row_softmax(take(xs, 0, b)));
}

TEST(Vmap, InAxesMappedUnmappedAndNegative) {
  Array w = rnd({4, 3}, 2);        // shared
  Array xs = rnd({3, 6}, 3);       // examples along the last axis
  auto f = [](const Array& x, const Array& m) { return st::tanh(st::matmul(m, x)); };
  Array got = st::vmap(f, {-1, std::nullopt})(xs, w);
  ASSERT_EQ(got.shape(), (st::Shape{6, 4}));
  for (int64_t b = 0; b < 6; ++b) expect_close(take(got, 0, b), f(take(xs, 1, b), w));
  // out_axes puts the batch last.
  Array last = st::vmap(f, {1, std::nullopt}, 1)(xs, w);
  ASSERT_EQ(last.shape(), (st::Shape{4, 6}));
  for (int64_t b = 0; b < 6; ++b) expect_close(take(last, 1, b), f(take(xs, 1, b), w));
}

TEST(Vmap, BothOperandsOfAMatmulBatched) {
  Array as = rnd({3, 2, 4}, 4), bs = rnd({4, 5, 3}, 5);  // b's examples along its last axis
  Array got = st::vmap([](const Array& a, const Array& b) { return st::matmul(a, b); }, {0, 2})(as, bs);
  ASSERT_EQ(got.shape(), (st::Shape{3, 2, 5}));
  for (int64_t k = 0; k < 3; ++k) expect_close(take(got, 0, k), st::matmul(take(as, 0, k), take(bs, 2, k)));
}

TEST(Vmap, StructuralOpsAndUnbatchedOutputs) {
  Array xs = rnd({4, 2, 3}, 6);
  auto f = [](const Array& x) {
    Array t = st::transpose(x, {1, 0});                          // [3, 2]
    Array r = st::reshape(t, {6});
    Array s = st::slice(r, {1}, {5});
    Array m = st::broadcast_to(st::max(x, 0), {2, 3});          // reduce then broadcast
    return std::make_tuple(s, m, st::argmax(r, 0), st::prod(x), Array(2.0f));
  };
  auto [s, m, a, p, c] = st::vmap(f)(xs);
  ASSERT_EQ(c.shape(), (st::Shape{4}));  // an output that does not depend on the example
  for (int64_t b = 0; b < 4; ++b) {
    auto [ws, wm, wa, wp, wc] = f(take(xs, 0, b));
    expect_close(take(s, 0, b), ws);
    expect_close(take(m, 0, b), wm);
    EXPECT_EQ(take(a, 0, b).to_vector<int>(), wa.to_vector<int>());
    expect_close(take(p, 0, b), wp);
    expect_close(take(c, 0, b), wc);
  }
}

// Per-example gradients: vmap(grad(loss)) over the examples, the parameters shared.
TEST(Vmap, PerExampleGradients) {
  Params p{rnd({3, 5}, 7), rnd({5}, 8), rnd({5, 2}, 9)};
  Array xs = rnd({6, 3}, 10), ys = rnd({6, 2}, 11);
  Params g = st::vmap(st::grad(loss), {std::nullopt, 0, 0})(p, xs, ys);
  ASSERT_EQ(g.w1.shape(), (st::Shape{6, 3, 5}));
  ASSERT_EQ(g.b1.shape(), (st::Shape{6, 5}));
  for (int64_t b = 0; b < 6; ++b) {
    Params want = st::grad(loss)(p, take(xs, 0, b), take(ys, 0, b));
    expect_close(take(g.w1, 0, b), want.w1, 1e-4);
    expect_close(take(g.b1, 0, b), want.b1, 1e-4);
    expect_close(take(g.w2, 0, b), want.w2, 1e-4);
  }
  // And the gradient of a vmapped (summed) loss equals the sum of the per-example gradients.
  auto total = [](const Params& q, const Array& x, const Array& y) {
    return st::sum(st::vmap(loss, {std::nullopt, 0, 0})(q, x, y));
  };
  Params gt = st::grad(total)(p, xs, ys);
  expect_close(gt.w1, st::sum(g.w1, 0), 1e-4);
}

TEST(Vmap, ComposesWithJit) {
  Array xs = rnd({8, 5}, 12);
  auto batched = st::vmap(row_softmax);
  expect_close(st::jit(batched)(xs), batched(xs));
  // Traced, the batch is in the program: one reduction over the rows, not eight.
  st::Jaxpr j = st::make_jaxpr(batched)(xs);
  std::string text = j.to_string();
  EXPECT_NE(text.find("reduce_max[axes=(1,)]"), std::string::npos) << text;
}

TEST(Vmap, Errors) {
  Array a = rnd({3, 2}, 13), b = rnd({4, 2}, 14);
  auto add = [](const Array& x, const Array& y) { return x + y; };
  std::string m = error_message<st::ValueError>([&] { st::vmap(add)(a, b); });
  EXPECT_NE(m.find("mapped axes have different sizes"), std::string::npos) << m;
  m = error_message<st::ValueError>([&] { st::vmap(add, {2, 0})(a, a); });
  EXPECT_NE(m.find("along axis 2, which it does not have"), std::string::npos) << m;
  m = error_message<st::ValueError>([&] { st::vmap(add, {std::nullopt, std::nullopt})(a, a); });
  EXPECT_NE(m.find("no argument is mapped"), std::string::npos) << m;
  m = error_message<st::ValueError>([&] { st::vmap(add, {0})(a, a); });
  EXPECT_NE(m.find("in_axes names 1 arguments"), std::string::npos) << m;
}

// vmap of a function with a custom VJP (custom_vjp_call's batching rule): the values per
// example, and grad through the vmapped function still uses the user's rule (sigmoid(x), finite
// at x = 100 where plain autodiff of log1p(exp(x)) gives nan in f32), also under jit.
TEST(Vmap, CustomVjpFunctions) {
  auto softplus = st::custom_vjp([](const Array& x) { return st::log1p(st::exp(x)); },
                                 [](const Array& x) { return std::make_pair(st::log1p(st::exp(x)), x); },
                                 [](const Array& x, const Array& g) { return g * st::sigmoid(x); });
  Array x = st::array({-2.0f, 0.0f, 100.0f, 1.0f, 3.0f, -1.0f}, {3, 2});
  Array y = st::vmap([&](const Array& v) { return softplus(v); })(x);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(y[i].to_vector<float>(), softplus(x[i]).to_vector<float>());
  // An unbatched second operand (a captured scale) and the batch along axis 1.
  auto scaled = st::custom_vjp([](const Array& v, const Array& s) { return v * s; },
                               [](const Array& v, const Array& s) { return std::make_pair(v * s, s); },
                               [](const Array& s, const Array& g) { return std::make_tuple(g * s, st::zeros_like(s)); });
  Array s = st::array({2.0f, 3.0f}, {2});
  Array z = st::vmap([&](const Array& v, const Array& w) { return scaled(v, w); }, {1, std::nullopt})(st::transpose(x, {1, 0}), s);
  EXPECT_EQ(z.to_vector<float>(), (x * s).to_vector<float>());
  auto loss = [&](const Array& v) { return st::sum(st::vmap([&](const Array& r) { return softplus(r); })(v)); };
  for (bool compiled : {false, true}) {
    std::vector<float> g = compiled ? st::jit(st::grad(loss))(x).to_vector<float>() : st::grad(loss)(x).to_vector<float>();
    std::vector<float> in = x.to_vector<float>();
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], 1.0f / (1.0f + std::exp(-in[i])), 1e-6f) << compiled << " " << i;
  }
  // Random draws whose sampler has a custom VJP (gamma), from a batch of keys.
  Array keys = st::random::split(st::random::key(5), 3);
  Array draws = st::vmap([](const Array& k) { return st::random::gamma(k, st::array({2.0f, 0.5f}, {2})); })(keys);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(draws[i].to_vector<float>(), st::random::gamma(st::random::key_at(keys, i), st::array({2.0f, 0.5f}, {2})).to_vector<float>());
}

// Random numbers from a batch of keys (threefry2x32's batching rule): each row is what the
// key gives alone, eagerly and under jit; a batch of counters with one key too.
TEST(Vmap, RandomOverABatchOfKeys) {
  Array keys = st::random::split(st::random::key(0), 4);
  auto draw = [](const Array& k) { return st::random::normal(k, {3, 2}); };
  Array batched = st::vmap(draw)(keys);
  ASSERT_EQ(batched.shape(), (st::Shape{4, 3, 2}));
  Array jitted = st::jit(st::vmap(draw))(keys);
  for (int i = 0; i < 4; ++i) {
    std::vector<float> one = draw(st::random::key_at(keys, i)).to_vector<float>();
    std::vector<float> row = batched[i].to_vector<float>(), jrow = jitted[i].to_vector<float>();
    EXPECT_EQ(row, one) << i;
    for (size_t j = 0; j < one.size(); ++j) EXPECT_NEAR(jrow[j], one[j], 1e-6f) << i;
  }
  // Keys along axis 1, and split/bits per key.
  Array keys_t = st::transpose(keys, {1, 0});
  Array bits = st::vmap([](const Array& k) { return st::random::bits(k, {5}); }, {1})(keys_t);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(bits[i].to_vector<uint32_t>(), st::random::bits(st::random::key_at(keys, i), {5}).to_vector<uint32_t>());
  Array sub = st::vmap([](const Array& k) { return st::random::split(k, 3); })(keys);
  EXPECT_EQ(sub.shape(), (st::Shape{4, 3, 2}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(sub[i].to_vector<int>(), st::random::split(st::random::key_at(keys, i), 3).to_vector<int>());
}
