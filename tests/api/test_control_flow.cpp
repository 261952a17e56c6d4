// Control flow (strata/control_flow.h) eagerly and traced: cond, switch_, while_loop,
// fori_loop, scan — results against C++ loops, make_jaxpr's text, and type errors by path.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::values;

namespace {

struct State {
  Array w, b;
};
STRATA_PYTREE(State, w, b);

Array i32(int v) { return st::full({}, v, st::i32); }

TEST(ControlFlow, CondPicksTheBranch) {
  Array x = st::array({1.f, -2.f, 3.f});
  auto f = [](const Array& p, const Array& v) {
    return st::cond(p, [](const Array& a) { return a * 2.0f; }, [](const Array& a) { return -a; }, v);
  };
  EXPECT_EQ(values(f(st::full({}, 1, st::bool_), x)), (std::vector<double>{2, -4, 6}));
  EXPECT_EQ(values(f(st::full({}, 0, st::bool_), x)), (std::vector<double>{-1, 2, -3}));
  // A numeric predicate: nonzero is true.
  EXPECT_EQ(values(f(st::full({}, 2.5, st::f32), x)), (std::vector<double>{2, -4, 6}));
  // Traced: one cond equation whose branches are sub-jaxprs, in JAX's text form.
  st::Jaxpr j = st::make_jaxpr(f)(st::full({}, 1, st::bool_), x);
  std::string text = j.to_string();
  expect_contains(text, "convert_element_type");
  expect_contains(text, "= cond[\n      branches=(\n");
  expect_contains(text, "{ lambda ; a:f32[3]. let\n");
  expect_contains(text, "neg a");
  EXPECT_EQ(st::eval_jaxpr(j, {st::full({}, 0, st::bool_), x})[0].to_vector<float>(), (std::vector<float>{-1, 2, -3}));
}

TEST(ControlFlow, CondCapturesOuterValuesAsOperands) {
  Array x = st::array({1.f, 2.f});
  auto f = [](const Array& v, const Array& s) {
    // The branches read `s` (a tracer of the outer trace) without taking it as an operand.
    return st::cond(st::sum(v) > 0.0f, [&](const Array& a) { return a * s; }, [&](const Array& a) { return a + s; }, v);
  };
  EXPECT_EQ(values(f(x, st::array({10.f, 20.f}))), (std::vector<double>{10, 40}));
  EXPECT_EQ(values(f(-x, st::array({10.f, 20.f}))), (std::vector<double>{9, 18}));
  st::Jaxpr j = st::make_jaxpr(f)(x, x);
  EXPECT_EQ(j.primitive_names().back(), "cond") << j;
  EXPECT_EQ(values(st::eval_jaxpr(j, {-x, st::array({10.f, 20.f})})[0]), (std::vector<double>{9, 18}));
}

TEST(ControlFlow, CondBranchesMustAgree) {
  auto f = [](const Array& v) {
    return st::cond(st::sum(v) > 0.0f, [](const Array& a) { return std::make_pair(a, a); },
                    [](const Array& a) { return std::make_pair(a, st::sum(a)); }, v);
  };
  std::string m = error_message<st::ShapeError>([&] { f(st::zeros({3})); });
  expect_contains(m, "cond: true_fn output output.second is f32[3], false_fn output was f32[]");
  m = error_message<st::ShapeError>([&] {
    st::cond(st::zeros({2}) > 0.0f, [](const Array& a) { return a; }, [](const Array& a) { return a; }, st::zeros({2}));
  });
  expect_contains(m, "predicate must be a 0-d");
}

TEST(ControlFlow, SwitchClampsTheIndex) {
  Array x = st::array({1.f, 2.f});
  auto f = [](const Array& i, const Array& v) {
    return st::switch_(i, std::tuple{[](const Array& a) { return a + 1.0f; }, [](const Array& a) { return a * 10.0f; },
                                     [](const Array& a) { return -a; }},
                       v);
  };
  EXPECT_EQ(values(f(i32(0), x)), (std::vector<double>{2, 3}));
  EXPECT_EQ(values(f(i32(1), x)), (std::vector<double>{10, 20}));
  EXPECT_EQ(values(f(i32(2), x)), (std::vector<double>{-1, -2}));
  EXPECT_EQ(values(f(i32(7), x)), (std::vector<double>{-1, -2}));
  EXPECT_EQ(values(f(i32(-3), x)), (std::vector<double>{2, 3}));
  std::vector<std::function<Array(const Array&)>> fs = {[](const Array& a) { return a; },
                                                       [](const Array& a) { return a * a; }};
  EXPECT_EQ(values(st::switch_(i32(1), fs, st::array({3.f}))), (std::vector<double>{9}));
  st::Jaxpr j = st::make_jaxpr(f)(i32(0), x);
  EXPECT_EQ(j.primitive_names(), (std::vector<std::string>{"cond"})) << j;
}

TEST(ControlFlow, WhileLoopRunsUntilThePredicateFails) {
  auto f = [](const Array& x) {
    return st::while_loop([](const std::pair<Array, Array>& c) { return c.first < 5; },
                          [](const std::pair<Array, Array>& c) { return std::make_pair(c.first + 1, c.second * 2.0f); },
                          std::make_pair(i32(0), x));
  };
  auto [i, v] = f(st::array({1.f, 3.f}));
  EXPECT_EQ(i.item<int>(), 5);
  EXPECT_EQ(values(v), (std::vector<double>{32, 96}));
  // Zero trips: the predicate is false at once.
  auto z = st::while_loop([](const Array& c) { return st::sum(c) < 0.0f; }, [](const Array& c) { return c + 1.0f; },
                          st::array({1.f}));
  EXPECT_EQ(values(z), (std::vector<double>{1}));
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({2}));
  std::string text = j.to_string();
  expect_contains(text, "= while[\n      body_jaxpr={ lambda ; ");
  expect_contains(text, "body_nconsts=0\n      cond_jaxpr=");
  expect_contains(text, "cond_nconsts=0\n    ] 0:i32[] a");
}

TEST(ControlFlow, WhileLoopCarryTypeErrorsNameTheLeaf) {
  std::string m = error_message<st::ShapeError>([&] {
    st::while_loop([](const std::tuple<Array, State>&) { return st::full({}, 1, st::bool_); },
                   [](const std::tuple<Array, State>& c) {
                     State s = std::get<1>(c);
                     return std::tuple<Array, State>{std::get<0>(c), State{st::transpose(s.w), s.b}};
                   },
                   std::tuple<Array, State>{i32(0), State{st::zeros({8, 4}), st::zeros({4})}});
  });
  expect_contains(m, "while_loop: body output carry[1].w is f32[4,8], input was f32[8,4]");
  m = error_message<st::DTypeError>([&] {
    st::while_loop([](const Array& c) { return c; }, [](const Array& c) { return c; }, st::zeros({}));
  });
  expect_contains(m, "cond_fn must return a 0-d bool");
}

TEST(ControlFlow, WhileLoopWithAStructCarry) {
  State s0{st::array({1.f, 2.f}), st::array({0.5f})};
  auto out = st::while_loop([](const State& s) { return st::sum(s.w) < 100.0f; },
                            [](const State& s) { return State{s.w * 3.0f, s.b + 1.0f}; }, s0);
  EXPECT_EQ(values(out.w), (std::vector<double>{81, 162}));
  EXPECT_EQ(values(out.b), (std::vector<double>{4.5}));
}

// Carries that alias one another compile and run as eagerly: a carry taking another's old
// value (prev = cur, and a swap), two carries started from one array, and a nested loop
// started from an outer carry (each needs a buffer of its own; see ControlFlowToScf).
TEST(ControlFlow, WhileLoopWithAliasingCarries) {
  auto f = [](const Array& x, const Array& s) {
    using C = std::tuple<Array, Array, Array, Array, Array>;
    C out = st::while_loop([](const C& c) { return std::get<0>(c) < 5; },
                           [](const C& c) {
                             auto [k, a, b, cur, prev] = c;
                             // Halve cur three times in an inner loop that starts from it.
                             auto inner = st::while_loop([](const std::pair<Array, Array>& q) { return q.first < 3; },
                                                         [](const std::pair<Array, Array>& q) {
                                                           return std::make_pair(q.first + 1, q.second * 0.5f);
                                                         },
                                                         std::make_pair(i32(0), cur));
                             return C{k + 1, b, a * 2.0f, inner.second + cur, cur};
                           },
                           C{i32(0), x, x, s, s});
    return std::make_tuple(std::get<1>(out), std::get<2>(out), std::get<3>(out), std::get<4>(out));
  };
  Array x = st::array({1.f, -2.f, 3.f}), s = st::full({}, 1.5f);
  auto e = f(x, s);
  auto j = st::jit(f)(x, s);
  // The swap doubles one of the pair on each of 5 steps: 2^3 and 2^2 (in some order) times x.
  EXPECT_EQ(values(std::get<0>(j)), values(std::get<0>(e)));
  EXPECT_EQ(values(std::get<1>(j)), values(std::get<1>(e)));
  EXPECT_EQ(values(std::get<0>(e)), values(x * 4.0f));
  EXPECT_EQ(values(std::get<1>(e)), values(x * 8.0f));
  // cur ← cur (1 + 1/8) five times; prev is the value before the last step.
  EXPECT_FLOAT_EQ(std::get<2>(j).item<float>(), 1.5f * std::pow(1.125f, 5));
  EXPECT_FLOAT_EQ(std::get<3>(j).item<float>(), 1.5f * std::pow(1.125f, 4));
  EXPECT_EQ(values(std::get<2>(j)), values(std::get<2>(e)));
  EXPECT_EQ(values(std::get<3>(j)), values(std::get<3>(e)));
}

TEST(ControlFlow, ForiLoopStaticAndDynamic) {
  auto body = [](const Array& i, const Array& x) { return x + st::astype(i, st::f32); };
  Array x = st::array({1.f, 10.f});
  // sum of 2..5 = 14
  EXPECT_EQ(values(st::fori_loop(2, 6, body, x)), (std::vector<double>{15, 24}));
  EXPECT_EQ(values(st::fori_loop(i32(2), i32(6), body, x)), (std::vector<double>{15, 24}));
  EXPECT_EQ(values(st::fori_loop(6, 2, body, x)), (std::vector<double>{1, 10}));  // zero trips
  st::Jaxpr js = st::make_jaxpr([&](const Array& v) { return st::fori_loop(0, 4, body, v); })(x);
  EXPECT_EQ(js.primitive_names().back(), "scan") << js;
  st::Jaxpr jd = st::make_jaxpr([&](const Array& n, const Array& v) { return st::fori_loop(i32(0), n, body, v); })(i32(3), x);
  EXPECT_EQ(jd.primitive_names().back(), "while") << jd;
}

TEST(ControlFlow, ScanStacksOutputs) {
  Array xs = st::reshape(st::arange(0, 6, 1, st::f32), {3, 2});
  auto step = [](const Array& c, const Array& x) { return std::make_pair(c + x, c * 2.0f); };
  auto [c, ys] = st::scan(step, st::zeros({2}), xs);
  EXPECT_EQ(values(c), (std::vector<double>{6, 9}));
  EXPECT_EQ(ys.shape(), (st::Shape{3, 2}));
  EXPECT_EQ(values(ys), (std::vector<double>{0, 0, 0, 2, 4, 8}));
  auto [cr, ysr] = st::scan(step, st::zeros({2}), xs, {.reverse = true});
  EXPECT_EQ(values(cr), (std::vector<double>{6, 9}));
  EXPECT_EQ(values(ysr), (std::vector<double>{12, 16, 8, 10, 0, 0}));
  // No xs: the length says how many steps; zero steps keep the carry and stack nothing.
  auto count = [](const Array& c, const std::tuple<>&) { return std::make_pair(c + 1.0f, c); };
  auto [c3, y3] = st::scan(count, st::zeros({}), std::tuple<>{}, {.length = 3});
  EXPECT_EQ(values(c3), (std::vector<double>{3}));
  EXPECT_EQ(values(y3), (std::vector<double>{0, 1, 2}));
  auto [c0, y0] = st::scan(count, st::zeros({}), std::tuple<>{}, {.length = 0});
  EXPECT_EQ(values(c0), (std::vector<double>{0}));
  EXPECT_EQ(y0.shape(), (st::Shape{0}));
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return st::scan(step, st::zeros({2}), v); })(xs);
  expect_contains(j.to_string(), "length=3\n      num_carry=1\n      num_consts=0\n      reverse=False\n      unroll=1\n    ]");
}

TEST(ControlFlow, ScanOverPytrees) {
  State xs{st::ones({4, 2}), st::arange(0, 4, 1, st::f32)};
  auto [c, ys] = st::scan(
      [](const std::pair<Array, Array>& c, const State& x) {
        return std::make_pair(std::make_pair(c.first + st::sum(x.w), c.second * x.b), std::tuple<Array>{x.b + 1.0f});
      },
      std::make_pair(st::zeros({}), st::ones({})), xs);
  EXPECT_EQ(values(c.first), (std::vector<double>{8}));
  EXPECT_EQ(values(c.second), (std::vector<double>{0}));
  EXPECT_EQ(values(std::get<0>(ys)), (std::vector<double>{1, 2, 3, 4}));
  std::string m = error_message<st::ShapeError>([&] {
    st::scan([](const Array& c, const Array& x) { return std::make_pair(st::sum(c), x); }, st::zeros({3}), st::zeros({2, 1}));
  });
  expect_contains(m, "scan: body output carry is f32[], input was f32[3]");
  m = error_message<st::ShapeError>([&] {
    st::scan([](const Array& c, const std::pair<Array, Array>& x) { return std::make_pair(c, x.first); }, st::zeros({}),
             std::make_pair(st::zeros({2}), st::zeros({3})));
  });
  expect_contains(m, "scan: xs leaf 1 is f32[3], but the length is 2");
}

TEST(ControlFlow, NestedScanInCondInWhile) {
  auto f = [](const Array& x) {
    return st::while_loop(
        [](const std::pair<Array, Array>& c) { return c.first < 3; },
        [](const std::pair<Array, Array>& c) {
          Array v = st::cond(
              c.first == 1,
              [](const Array& a) {
                return st::scan([](const Array& s, const Array& e) { return std::make_pair(s + e, s); }, st::zeros({}), a).first *
                       st::ones({2});
              },
              [](const Array& a) { return a + 1.0f; }, c.second);
          return std::make_pair(c.first + 1, v);
        },
        std::make_pair(i32(0), x));
  };
  // i=0: [2,3]; i=1: sum=5 → [5,5]; i=2: [6,6]
  auto [i, v] = f(st::array({1.f, 2.f}));
  EXPECT_EQ(values(v), (std::vector<double>{6, 6}));
  st::Jaxpr j = st::make_jaxpr([&](const Array& x) { return f(x).second; })(st::zeros({2}));
  expect_contains(j.to_string(), "scan[");
  EXPECT_EQ(values(st::eval_jaxpr(j, {st::array({1.f, 2.f})})[0]), (std::vector<double>{6, 6}));
}

TEST(ControlFlow, ConcretizationErrorSuggestsCond) {
  auto f = [](const Array& x) {
    if (st::sum(x) > 0.0f) return x;
    return -x;
  };
  std::string m = error_message<st::ConcretizationError>([&] { st::jit(f)(st::ones({2})); });
  expect_contains(m, "st::cond");
  expect_contains(m, "static");
}

}  // namespace

// A fori_loop writing each step's state into a carried buffer (dynamic_update_slice at the
// counter, as JAX's scan exports): jit(grad) compiles and equals grad. The transposed scan
// reads the old buffer after updating it, so the update cannot be in place and the new carry
// is copied into the loop's buffer (lowering/ControlFlowToScf.cpp); before, bufferization
// refused the loop ("Yield operand ... is not equivalent to the corresponding iter bbArg").
TEST(ControlFlow, JitGradOfALoopUpdatingACarriedBuffer) {
  Array W = st::reshape(st::arange(0, 16, 1, st::f32) * 0.05f - 0.3f, {4, 4});
  Array xs = st::reshape(st::arange(0, 24, 1, st::f32) * 0.1f - 1.f, {6, 4});
  auto loss = [&](const Array& w) {
    auto out = st::fori_loop(0, 6, [&](const Array& i, const std::pair<Array, Array>& c) {
      Array zero = st::zeros({}, st::i32);
      Array h = st::tanh(st::matmul(w, c.first) + st::reshape(st::dynamic_slice(xs, {i, zero}, {1, 4}), {4}));
      return std::make_pair(h, st::dynamic_update_slice(c.second, st::reshape(h, {1, 4}), {i, zero}));
    }, std::make_pair(st::zeros({4}, st::f32), st::zeros({6, 4}, st::f32)));
    return st::sum(out.second * out.second);
  };
  Array g = st::grad(loss)(W);
  Array jg = st::jit(st::grad(loss))(W);
  std::vector<float> a = g.to_vector<float>(), b = jg.to_vector<float>();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(b[i], a[i], 1e-5f * (1 + std::fabs(a[i]))) << i;
  EXPECT_NEAR(st::jit(loss)(W).item<double>(), loss(W).item<double>(), 1e-5);
}
