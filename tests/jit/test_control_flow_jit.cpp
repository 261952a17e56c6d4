// Control flow compiled: every result of jit against eager mode (cond, switch_, while_loop,
// fori_loop, scan, nesting, zero trips, struct carries, gradients and vmap under jit).
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

struct State {
  Array w, b;
};
STRATA_PYTREE(State, w, b);

Array i32(int v) { return st::full({}, v, st::i32); }

void expect_same(const Array& got, const Array& want) {
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> g = values(got), w = values(want);
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_TRUE(st::testing::close(g[i], w[i], got.dtype(), 64, 1e-6)) << "element " << i << ": " << g[i] << " vs " << w[i];
}

TEST(ControlFlowJit, Cond) {
  auto f = [](const Array& x) {
    return st::cond(st::sum(x) > 0.0f, [](const Array& a) { return st::exp(a) * 2.0f; }, [](const Array& a) { return -a; }, x);
  };
  auto jf = st::jit(f);
  for (Array x : {st::array({1.f, -2.f, 3.f}), st::array({-1.f, -2.f, 0.5f})}) expect_same(jf(x), f(x));
}

TEST(ControlFlowJit, Switch) {
  auto f = [](const Array& i, const Array& x) {
    return st::switch_(i, std::tuple{[](const Array& a) { return a + 1.0f; }, [](const Array& a) { return a * a; },
                                     [](const Array& a) { return st::tanh(a); }}, x);
  };
  auto jf = st::jit(f);
  Array x = st::array({0.5f, -1.5f});
  for (int k : {-1, 0, 1, 2, 5}) expect_same(jf(i32(k), x), f(i32(k), x));
}

TEST(ControlFlowJit, WhileLoopWithAStructCarryAndZeroTrips) {
  auto f = [](const State& s, const Array& limit) {
    return st::while_loop([&](const State& c) { return st::sum(c.w) < limit; },
                          [](const State& c) { return State{c.w * 1.5f + c.b, c.b + 1.0f}; }, s);
  };
  auto jf = st::jit(f);
  State s{st::array({1.f, 2.f, 3.f}), st::array({0.25f, 0.5f, 0.f})};
  for (float lim : {100.f, 0.f}) {
    State a = jf(s, st::full({}, lim)), b = f(s, st::full({}, lim));
    expect_same(a.w, b.w);
    expect_same(a.b, b.b);
  }
}

TEST(ControlFlowJit, ScanForwardReverseAndEmpty) {
  Array xs = st::reshape(st::arange(0, 12, 1, st::f32), {4, 3});
  for (bool reverse : {false, true}) {
    auto f = [reverse](const Array& c0, const Array& v) {
      return st::scan([](const Array& c, const Array& x) { return std::make_pair(st::sin(c) + x, c * x); }, c0, v,
                      {.reverse = reverse});
    };
    auto [c, ys] = st::jit(f)(st::ones({3}), xs);
    auto [ce, yse] = f(st::ones({3}), xs);
    expect_same(c, ce);
    expect_same(ys, yse);
  }
  auto g = [](const Array& c0) {
    return st::scan([](const Array& c, const std::tuple<>&) { return std::make_pair(c * 2.0f, c); }, c0, std::tuple<>{},
                    {.length = 0});
  };
  auto [c, ys] = st::jit(g)(st::ones({2}));
  expect_same(c, st::ones({2}));
  EXPECT_EQ(ys.shape(), (st::Shape{0, 2}));
}

// scan's unroll (issue 12): the loop body holds `unroll` steps and the leftover steps follow
// it; results equal eager (which runs step by step) for every length and unroll, both ways.
TEST(ControlFlowJit, ScanUnroll) {
  for (int length : {1, 5, 7, 8}) {
    Array xs = st::reshape(st::arange(0, 3.0 * length, 1, st::f32), {length, 3});
    for (int unroll : {1, 2, 3, 8, 20})
      for (bool reverse : {false, true}) {
        SCOPED_TRACE("length " + std::to_string(length) + " unroll " + std::to_string(unroll) +
                     (reverse ? " reverse" : ""));
        auto f = [reverse, unroll](const Array& c0, const Array& v) {
          return st::scan([](const Array& c, const Array& x) { return std::make_pair(st::sin(c) + x, c * x); }, c0, v,
                          {.reverse = reverse, .unroll = unroll});
        };
        auto [c, ys] = st::jit(f)(st::ones({3}), xs);
        auto [ce, yse] = f(st::ones({3}), xs);
        expect_same(c, ce);
        expect_same(ys, yse);
      }
  }
  // The lowered program: unroll 3 of 7 steps is a loop of two trips with three bodies, and one
  // step after it (each step a `sine`).
  auto f = [](const Array& c0, const Array& v) {
    return st::scan([](const Array& c, const Array& x) { return std::make_pair(st::sin(c) + x, c); }, c0, v, {.unroll = 3});
  };
  std::string text = st::jit(f).lower(st::ones({3}), st::ones({7, 3})).as_text("strata");
  size_t sines = 0;
  for (size_t at = text.find("strata.sine"); at != std::string::npos; at = text.find("strata.sine", at + 1)) ++sines;
  EXPECT_EQ(sines, 4u) << text;
}

TEST(ControlFlowJit, ForiLoopStaticAndDynamic) {
  auto f = [](const Array& x, const Array& n) {
    Array a = st::fori_loop(0, 6, [](const Array& i, const Array& c) { return c * 0.5f + st::astype(i, st::f32); }, x);
    Array b = st::fori_loop(i32(0), n, [](const Array&, const Array& c) { return c + 1.0f; }, a);
    return b;
  };
  Array x = st::array({1.f, 2.f});
  for (int n : {0, 3}) expect_same(st::jit(f)(x, i32(n)), f(x, i32(n)));
}

TEST(ControlFlowJit, ScanInsideCondInsideWhile) {
  auto f = [](const Array& x) {
    return st::while_loop(
        [](const std::pair<Array, Array>& c) { return c.first < 4; },
        [](const std::pair<Array, Array>& c) {
          Array v = st::cond(
              (c.first % 2) == 0,
              [](const Array& a) {
                return st::scan([](const Array& s, const Array& e) { return std::make_pair(s * 0.5f + e, s); }, st::zeros({}), a)
                           .first + a;
              },
              [](const Array& a) { return st::tanh(a); }, c.second);
          return std::make_pair(c.first + 1, v);
        },
        std::make_pair(i32(0), x)).second;
  };
  Array x = st::array({0.5f, -1.f, 2.f});
  expect_same(st::jit(f)(x), f(x));
}

TEST(ControlFlowJit, GradAndVmapUnderJit) {
  auto loss = [](const Array& w, const Array& xs) {
    auto [c, ys] = st::scan([&](const Array& c, const Array& x) {
      Array n = st::tanh(c * w + x);
      return std::make_pair(n, n * n);
    }, st::zeros({2}), xs);
    Array l = st::sum(ys) + st::sum(c);
    return st::cond(l > 0.0f, [](const Array& v) { return v * 2.0f; }, [](const Array& v) { return -v; }, l);
  };
  Array w = st::array({0.3f, -0.7f});
  Array xs = st::reshape(st::arange(-3, 3, 1, st::f32), {3, 2}) * 0.2f;
  expect_same(st::jit(st::grad(loss))(w, xs), st::grad(loss)(w, xs));
  auto per = st::vmap(st::grad(loss), {std::nullopt, 0});
  Array batch = st::reshape(st::concatenate({xs, xs * 2.0f, -xs}, 0), {3, 3, 2});
  expect_same(st::jit(per)(w, batch), per(w, batch));
}

}  // namespace
