// The jaxpr parser: print → parse → print is the identity on traced programs, and malformed
// text gets an error at its line and column.
#include <gtest/gtest.h>

#include <cmath>

#include "jaxpr_parser.h"
#include "strata/strata.h"

namespace st = strata;

namespace {

std::string reprint(const std::string& text) {
  st::ParsedJaxpr p = st::parse_jaxpr(text, "test.jaxpr");
  EXPECT_TRUE(p.jaxpr) << p.error.line << ":" << p.error.column << ": " << p.error.message
                       << "\nin:\n" << text;
  return p.jaxpr ? p.jaxpr->str() : "";
}

void expect_round_trip(const st::Jaxpr& j) {
  std::string text = j.to_string();
  EXPECT_EQ(reprint(text), text);
}

st::JaxprParseError error_of(const std::string& text) {
  st::ParsedJaxpr p = st::parse_jaxpr(text, "bad.jaxpr");
  EXPECT_FALSE(p.jaxpr) << "parsed:\n" << text;
  return p.error;
}

const std::string kSeed =
    "{ lambda ; a:f32[4,8] b:f32[8,16] c:f32[16]. let\n"
    "    d:f32[4,16] = dot_general[lhs_batch=() lhs_contract=(1,) rhs_batch=() rhs_contract=(0,)] a b\n"
    "    e:f32[4,16] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(4, 16)] c\n"
    "    f:f32[4,16] = add d e\n"
    "    g:f32[4,16] = clamp 0.0:f32[] f inf:f32[]\n"
    "  in (g,) }";

}  // namespace

TEST(JaxprParser, RoundTripsTheSeedLine) {
  auto layer = [](st::Array x, st::Array w, st::Array b) { return st::relu(st::matmul(x, w) + b); };
  st::Jaxpr j = st::make_jaxpr(layer)(st::zeros({4, 8}), st::zeros({8, 16}), st::zeros({16}));
  EXPECT_EQ(j.to_string(), kSeed);
  expect_round_trip(j);
}

TEST(JaxprParser, RoundTripsControlFlow) {
  auto f = [](st::Array x, st::Array n) {
    st::Array a = st::cond(st::sum(x) > 0.0f, [&](st::Array v) { return v * n; }, [](st::Array v) { return -v; }, x);
    auto [c, ys] = st::scan([](st::Array c, st::Array e) { return std::make_pair(c + e, c * 2.0f); }, st::zeros({}), a,
                            {.reverse = true});
    st::Array w = st::while_loop([](const st::Array& v) { return st::sum(v) < 100.0f; },
                                 [&](const st::Array& v) { return v * 2.0f + c; }, ys);
    return st::switch_(st::full({}, 1, st::i32), std::tuple{[](st::Array v) { return v; }, [](st::Array v) { return st::exp(v); }}, w);
  };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3}), st::zeros({3}));
  expect_round_trip(j);
  // The parsed program computes what the traced one does.
  st::ParsedJaxpr p = st::parse_jaxpr(j.to_string(), "cf.jaxpr");
  ASSERT_TRUE(p.jaxpr) << p.error.message;
  st::Array x = st::array({0.5f, 1.f, -0.25f}), n = st::array({1.f, 2.f, 3.f});
  EXPECT_EQ(st::eval_jaxpr(st::Jaxpr(p.jaxpr), {x, n})[0].to_vector<float>(), f(x, n).to_vector<float>());
}

TEST(JaxprParser, ControlFlowTypeErrors) {
  // A body whose carry changes type is refused with the primitive's message.
  st::JaxprParseError e = error_of(
      "{ lambda ; a:f32[3]. let\n"
      "    b:f32[3] = while[\n"
      "      body_jaxpr={ lambda ; c:f32[3]. let d:f32[] = reduce_sum[axes=(0,)] c in (d,) }\n"
      "      body_nconsts=0\n"
      "      cond_jaxpr={ lambda ; e:f32[3]. let  in (True:bool[],) }\n"
      "      cond_nconsts=0\n"
      "    ] a\n"
      "  in (b,) }");
  EXPECT_NE(e.message.find("while: body output carry 0 is f32[], but expected f32[3]"), std::string::npos)
      << e.line << ":" << e.column << ": " << e.message;
}

TEST(JaxprParser, RoundTripsSoftmaxAndAnMlp) {
  auto softmax = [](st::Array x) { return st::softmax(x, -1); };
  expect_round_trip(st::make_jaxpr(softmax)(st::zeros({2, 5})));
  auto mlp = [](st::Array x, st::Array w1, st::Array w2) {
    return st::logistic(st::matmul(st::tanh(st::matmul(x, w1)), w2));
  };
  expect_round_trip(st::make_jaxpr(mlp)(st::zeros({4, 8}), st::zeros({8, 32}), st::zeros({32, 2})));
}

TEST(JaxprParser, RoundTripsShapeOpsReductionsAndConversions) {
  auto f = [](st::Array x) {
    st::Array t = st::transpose(st::reshape(x, {3, 4}), {1, 0});
    st::Array s = st::slice(t, {0, 1}, {4, 3});
    st::Array c = st::concatenate({s, s}, 1);
    st::Array i = st::astype(st::argmax(c, 1), st::f64);
    return std::vector<st::Array>{st::sum(c, 0), st::max(c), st::min(c, 1), st::prod(c, 1), i,
                                  st::arange(int64_t{5})};
  };
  expect_round_trip(st::make_jaxpr(f)(st::zeros({12})));
}

TEST(JaxprParser, RoundTripsLiteralsOfEveryKind) {
  auto f = [](st::Array x, st::Array n, st::Array d) {
    st::Array a = st::where(x > 0.5f, x * 1e-5f, x + INFINITY);
    st::Array b = st::maximum(x, -INFINITY) - NAN;
    st::Array c = st::logical_and(x < 2.0f, true);
    return std::vector<st::Array>{a, b, c, n * 3, d / 2.5, st::astype(x, st::bf16) * 2.0f};
  };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3}), st::zeros({3}, st::i32), st::zeros({3}, st::f64));
  EXPECT_NE(j.to_string().find("True:bool[]"), std::string::npos) << j;
  EXPECT_NE(j.to_string().find("nan:f32[]"), std::string::npos) << j;
  EXPECT_NE(j.to_string().find("-inf:f32[]"), std::string::npos) << j;
  expect_round_trip(j);
}

TEST(JaxprParser, RoundTripsMultipleResultsAndRandomBits) {
  auto f = [](st::Array key) { return st::random::uniform(key, {2, 3}); };
  st::Jaxpr j = st::make_jaxpr(f)(st::random::key(0));
  EXPECT_NE(j.to_string().find("threefry2x32"), std::string::npos) << j;
  expect_round_trip(j);
}

TEST(JaxprParser, KeepsConstvarsWithoutValues) {
  st::Array captured = st::array({1.0, 2.0, 3.0}, {3});  // not a splat (those become broadcasts)
  auto f = [captured](st::Array x) { return x * captured; };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3}));
  ASSERT_EQ(j.impl()->constvars.size(), 1u) << j;
  std::string text = j.to_string();
  st::ParsedJaxpr p = st::parse_jaxpr(text);
  ASSERT_TRUE(p.jaxpr) << p.error.message;
  EXPECT_EQ(p.jaxpr->constvars.size(), 1u);
  EXPECT_TRUE(p.jaxpr->consts.empty());
  EXPECT_EQ(p.jaxpr->str(), text);
}

TEST(JaxprParser, RoundTripsAProgramWithoutEquations) {
  auto f = [](st::Array x, st::Array y) { return std::vector<st::Array>{y, x}; };
  expect_round_trip(st::make_jaxpr(f)(st::zeros({2}), st::zeros({}, st::i32)));
}

TEST(JaxprParser, LocatesEquationsInTheText) {
  st::ParsedJaxpr p = st::parse_jaxpr(kSeed, "seed.jaxpr");
  ASSERT_TRUE(p.jaxpr);
  const st::Equation& add = p.jaxpr->eqns[2];
  EXPECT_EQ(add.prim->name, "add");
  EXPECT_EQ(add.loc.str(), "seed.jaxpr:4:5");
}

TEST(JaxprParser, ReportsErrorsAtLineAndColumn) {
  struct Case {
    std::string text;
    int line, column;
    std::string message;
  };
  const Case cases[] = {
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = frobnicate a\n  in (b,) }", 2, 16,
       "expects a primitive name, but got unknown 'frobnicate'"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = exp q\n  in (b,) }", 2, 20,
       "expects a defined variable, but got 'q'"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[4] = exp a\n  in (b,) }", 2, 5,
       "expects b to have type f32[3] (from `exp`), but got f32[4]"},
      {"{ lambda ; a:f32[3] b:f32[4]. let\n    c:f32[3] = add a b\n  in (c,) }", 2, 16,
       "add: expects operands of one shape"},
      {"{ lambda ; a:f33[3]. let\n  in (a,) }", 1, 14, "expects a dtype"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = exp a\n  in (b,) } x", 3, 13,
       "expects the end of the input, but got 'x'"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = exp a\n", 3, 1,
       "expects an equation or 'in (', but got the end of the input"},
      {"{ lambda ; a:f32[3] a:f32[3]. let\n  in (a,) }", 1, 21,
       "expects a new variable name, but got 'a'"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = reduce_sum[axes=(0,] a\n  in (b,) }", 2, 35,
       "expects a value or ')', but got ']'"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = max a 1.0:f32[2]\n  in (b,) }", 2, 26,
       "expects a 0-d literal type, but got f32[2]"},
      {"{ lambda ; a:f32[3]. let\n    b:f32[3] = exp a @\n  in (b,) }", 2, 22,
       "expects a jaxpr token, but got '@'"},
      {"{ lambda ; a:f32[4]. let\n    b:f32[] = reduce_sum[out_sharding=None] a\n  in (b,) }", 2, 15,
       "expects `reduce_sum`'s parameter 'axes' to be a tuple of integers, but got nothing"},
      // JAX's forms (jaxpr_jax_forms.h), read or refused by name.
      {"{ lambda ; a:f32[2,3] b:f32[3,4]. let\n    c:f32[2,4] = dot_general[dimension_numbers=((1,), 0)] a b\n  in (c,) }",
       2, 30,
       "expects `dot_general`'s parameter 'dimension_numbers' to be ((lhs_contract, rhs_contract), (lhs_batch, "
       "rhs_batch)), but got ((1,), 0)"},
      {"{ lambda ; a:f32[4,8] b:i32[3,1]. let\n    c:f32[3,8] = gather[\n"
       "      dimension_numbers=GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),"
       " operand_batching_dims=(0,))\n      mode=GatherScatterMode.ONE_HOT\n      slice_sizes=(1, 8)\n    ] a b\n  in (c,) }",
       3, 7, "expects `gather`'s parameter 'dimension_numbers' to be no operand_batching_dims"},
      {"{ lambda ; a:f32[4,8] b:i32[3,1]. let\n    c:f32[3,8] = gather[\n"
       "      dimension_numbers=GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))\n"
       "      mode=GatherScatterMode.ONE_HOT\n      slice_sizes=(1, 8)\n    ] a b\n  in (c,) }",
       4, 7, "expects `gather`'s parameter 'mode' to be a GatherScatterMode, but got GatherScatterMode.ONE_HOT"},
      {"{ lambda ; a:f32[4]. let\n    b:f32[4] = jit[name=f] a\n  in (b,) }", 2, 16,
       "expects `jit` to hold its program as jaxpr=..."},
  };
  for (const Case& c : cases) {
    st::JaxprParseError e = error_of(c.text);
    EXPECT_EQ(e.line, c.line) << c.text << "\n" << e.message;
    EXPECT_EQ(e.column, c.column) << c.text << "\n" << e.message;
    EXPECT_NE(e.message.find(c.message), std::string::npos) << e.message;
  }
}

TEST(JaxprParser, RoundTripsNestedJaxprParams) {
  auto softplus = st::custom_vjp([](st::Array x) { return st::log1p(st::exp(x)); },
                                 [](st::Array x) { return std::make_pair(st::log1p(st::exp(x)), x); },
                                 [](st::Array x, st::Array g) { return g * st::sigmoid(x); });
  auto f = [&](st::Array x) { return softplus(x) * 2.0f; };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3}));
  EXPECT_NE(j.to_string().find("custom_vjp_call[\n      bwd={ lambda"), std::string::npos) << j;
  expect_round_trip(j);
  auto log1pexp = st::custom_jvp([](st::Array x) { return st::log1p(st::exp(x)); },
                                 [](st::Array x, st::Array t) { return std::make_pair(st::log1p(st::exp(x)), t * st::sigmoid(x)); });
  st::Jaxpr k = st::make_jaxpr([&](st::Array x) { return log1pexp(x) * 2.0f; })(st::zeros({3}));
  EXPECT_NE(k.to_string().find("custom_jvp_call["), std::string::npos) << k;
  expect_round_trip(k);
}

namespace {

// Found by tools/fuzz.sh fuzz_jaxpr_parser: an equation with fewer operands than its primitive
// takes reached the shape rule, which read past the operands and crashed. The arity is now
// checked first (Primitive::arity), for every primitive, here and in bind.
TEST(JaxprParser, AnEquationWithTheWrongNumberOfOperandsIsAnError) {
  st::JaxprParseError e = error_of("{ lambda ; a:f32[4,2]. let\n    b:f32[4,2] = logistic\n  in (b,) }\n");
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message.find("logistic: expects 1 operand, but got 0"), std::string::npos) << e.message;
  e = error_of("{ lambda ; a:f32[4,2] b:f32[2,3]. let\n    c:f32[4,3] = dot_general[lhs_batch=() lhs_contract=(1,) "
               "rhs_batch=() rhs_contract=(0,)] a\n  in (c,) }\n");
  EXPECT_NE(e.message.find("dot_general: expects 2 operands, but got 1"), std::string::npos) << e.message;
  e = error_of("{ lambda ; a:f32[2]. let\n    b:f32[2] = add a a a\n  in (b,) }\n");
  EXPECT_NE(e.message.find("add: expects 2 operands, but got 3"), std::string::npos) << e.message;
}

}  // namespace

// sort (issue 13): its params print as JAX's and parse back; argsort and top_k are sorts.
TEST(JaxprParser, RoundTripsSort) {
  auto f = [](st::Array x, st::Array y) {
    std::vector<st::Array> s = st::sort(std::vector<st::Array>{x, y}, 1, true, 2);
    auto [v, i] = st::top_k(s[0], 2);
    return v + st::astype(i, st::f32) + st::sum(st::astype(st::argsort(y, 0, true), st::f32));
  };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({3, 4}), st::zeros({3, 4}));
  EXPECT_NE(j.to_string().find("sort[dimension=1 is_stable=True num_keys=2] a b"), std::string::npos) << j.to_string();
  expect_round_trip(j);
}

// Collectives (issue 18): axis names, groups and ppermute's pairs print and parse back, and the
// parsed program compiles (its group has one member in a one-process run).
TEST(JaxprParser, RoundTripsCollectives) {
  st::Mesh mesh({1}, {"data"});
  auto f = st::shard_map(
      [](const st::Array& x) {
        return st::psum(x, "data") + st::ppermute(x, "data", {{0, 0}}) +
               st::sum(st::all_gather(x, "data"), {0}) * st::astype(st::axis_index("data"), st::f32);
      },
      mesh, {{}}, {{}});
  st::Jaxpr j = st::make_jaxpr(f)(st::ones({3}));
  expect_round_trip(j);
  EXPECT_NE(j.to_string().find("ppermute[axis_name=data axis_size=1 mesh=(1,) mesh_dims=(0,) perm=(0, 0)]"),
            std::string::npos)
      << j;
}

// Nesting is bounded: a text cannot exhaust the parser's stack.
TEST(JaxprParser, DeepNestingIsAnError) {
  std::string text = "{ lambda ; a:f32[3]. let\n    b:f32[3] = reduce_sum[axes=" + std::string(100000, '(') + "] a\n  in (b,) }";
  st::JaxprParseError e = error_of(text);
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message.find("expects at most 64 nested values"), std::string::npos) << e.message;
}
