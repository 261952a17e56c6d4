// Golden tests of the jaxpr printer, and eval_jaxpr (evaluation and inlining into a trace).
#include <gtest/gtest.h>

#include "jaxpr.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;

namespace {

st::Array seed(const st::Array& x, const st::Array& w, const st::Array& b) {
  return st::relu(st::matmul(x, w) + b);
}

TEST(Jaxpr, SeedLine) {
  st::Array x = st::zeros({4, 8}), w = st::zeros({8, 16}), b = st::zeros({16});
  EXPECT_EQ(st::make_jaxpr(seed)(x, w, b).to_string(),
            "{ lambda ; a:f32[4,8] b:f32[8,16] c:f32[16]. let\n"
            "    d:f32[4,16] = dot_general[lhs_batch=() lhs_contract=(1,) rhs_batch=() rhs_contract=(0,)] a b\n"
            "    e:f32[4,16] = broadcast_in_dim[broadcast_dimensions=(1,) shape=(4, 16)] c\n"
            "    f:f32[4,16] = add d e\n"
            "    g:f32[4,16] = clamp 0.0:f32[] f inf:f32[]\n"
            "  in (g,) }");
}

TEST(Jaxpr, ScalarLiteralKeepsDtype) {
  st::Array x = st::zeros({3}, st::f16);
  EXPECT_EQ(st::make_jaxpr([](const st::Array& v) { return st::exp(v) * 2.0f; })(x).to_string(),
            "{ lambda ; a:f16[3]. let\n"
            "    b:f16[3] = exp a\n"
            "    c:f16[3] = mul b 2.0:f16[]\n"
            "  in (c,) }");
}

TEST(Jaxpr, CapturedConstantBecomesConstvar) {
  st::Array c = st::array({1.0f, 2.0f, 3.0f});
  auto j = st::make_jaxpr([&](const st::Array& v) { return v + c; })(st::zeros({3}));
  EXPECT_EQ(j.to_string(),
            "{ lambda a:f32[3]; b:f32[3]. let\n"
            "    c:f32[3] = add b a\n"
            "  in (c,) }");
}

TEST(Jaxpr, IdentityHasNoEquations) {
  auto j = st::make_jaxpr([](const st::Array& v) { return v; })(st::zeros({2}));
  EXPECT_EQ(j.to_string(), "{ lambda ; a:f32[2]. let  in (a,) }");
  EXPECT_EQ(j.num_equations(), 0);
}

TEST(Jaxpr, Softmax) {
  auto j = st::make_jaxpr([](const st::Array& v) { return st::softmax(v); })(st::zeros({2, 5}));
  EXPECT_EQ(j.to_string(),
            "{ lambda ; a:f32[2,5]. let\n"
            "    b:f32[2] = reduce_max[axes=(1,)] a\n"
            "    c:f32[2,1] = reshape[new_sizes=(2, 1)] b\n"
            "    d:f32[2,5] = broadcast_in_dim[broadcast_dimensions=(0, 1) shape=(2, 5)] c\n"
            "    e:f32[2,5] = sub a d\n"
            "    f:f32[2,5] = exp e\n"
            "    g:f32[2] = reduce_sum[axes=(1,)] f\n"
            "    h:f32[2,1] = reshape[new_sizes=(2, 1)] g\n"
            "    i:f32[2,5] = broadcast_in_dim[broadcast_dimensions=(0, 1) shape=(2, 5)] h\n"
            "    j:f32[2,5] = div f i\n"
            "  in (j,) }");
}

TEST(Jaxpr, MultipleOutputsAndPytrees) {
  auto f = [](const std::pair<st::Array, st::Array>& p) {
    return std::make_tuple(p.first + p.second, st::sum(p.first));
  };
  auto j = st::make_jaxpr(f)(std::make_pair(st::zeros({2}), st::zeros({2})));
  EXPECT_EQ(j.to_string(),
            "{ lambda ; a:f32[2] b:f32[2]. let\n"
            "    c:f32[2] = add a b\n"
            "    d:f32[] = reduce_sum[axes=(0,)] a\n"
            "  in (c, d) }");
  EXPECT_EQ(j.num_inputs(), 2);
  EXPECT_EQ(j.num_outputs(), 2);
}

TEST(Jaxpr, VariableNamesContinuePastZ) {
  auto f = [](st::Array v) {
    for (int i = 0; i < 30; ++i) v = st::exp(v);
    return v;
  };
  std::string s = st::make_jaxpr(f)(st::zeros({1})).to_string();
  EXPECT_NE(s.find("z:f32[1] = exp y"), std::string::npos) << s;
  EXPECT_NE(s.find("ba:f32[1] = exp z"), std::string::npos) << s;
  EXPECT_NE(s.find("in (be,) }"), std::string::npos) << s;
}

TEST(Jaxpr, StaticArgumentsAreBakedIn) {
  auto f = [](const st::Array& v, int axis, bool keep) { return st::sum(v, axis, keep); };
  st::Array x = st::zeros({2, 3});
  EXPECT_EQ(st::make_jaxpr(f)(x, 1, false).primitive_names(), std::vector<std::string>{"reduce_sum"});
  EXPECT_EQ(st::make_jaxpr(f)(x, 0, true).primitive_names(),
            (std::vector<std::string>{"reduce_sum", "reshape"}));
}

TEST(EvalJaxpr, MatchesEager) {
  st::Array x = st::random::normal(st::random::key(1), {4, 8});
  st::Array w = st::random::normal(st::random::key(2), {8, 16});
  st::Array b = st::random::normal(st::random::key(3), {16});
  st::Jaxpr j = st::make_jaxpr(seed)(x, w, b);
  std::vector<st::Array> out = st::eval_jaxpr(j, {x, w, b});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to_vector<float>(), seed(x, w, b).to_vector<float>());
}

TEST(EvalJaxpr, InlinesIntoAnOuterTrace) {
  st::Jaxpr inner = st::make_jaxpr([](const st::Array& v) { return st::exp(v) + 1.0f; })(st::zeros({3}));
  auto outer = st::make_jaxpr([&](const st::Array& v) { return st::eval_jaxpr(inner, {v * 2.0f})[0]; })(st::zeros({3}));
  EXPECT_EQ(outer.primitive_names(), (std::vector<std::string>{"mul", "exp", "add"}));
}

TEST(EvalJaxpr, RejectsWrongArguments) {
  st::Jaxpr j = st::make_jaxpr([](const st::Array& v) { return v; })(st::zeros({3}));
  std::string m = st::testing::error_message<st::ShapeError>([&] { st::eval_jaxpr(j, {st::zeros({4})}); });
  EXPECT_NE(m.find("expects f32[3], but got f32[4]"), std::string::npos) << m;
  m = st::testing::error_message<st::ValueError>([&] { st::eval_jaxpr(j, {}); });
  EXPECT_NE(m.find("takes 1 arguments, but got 0"), std::string::npos) << m;
}

TEST(Tracing, RecordsUserSourceLocation) {
  // The equation's location is this file, not the library's.
  st::Jaxpr j = st::make_jaxpr([](const st::Array& v) { return v + 1.0f; })(st::zeros({3}));
  const auto& eqn = j.impl()->eqns.at(0);
  EXPECT_NE(std::string(eqn.loc.file).find("test_jaxpr.cpp"), std::string::npos) << eqn.loc.str();
  EXPECT_GT(eqn.loc.line, 0u);
}

TEST(Tracing, NestedTracesCaptureOuterTracersAsConstants) {
  // An inner trace closes over an outer tracer: it becomes a constvar of the inner program.
  std::string inner_text;
  auto outer = st::make_jaxpr([&](const st::Array& x) {
    st::Jaxpr inner = st::make_jaxpr([&](const st::Array& y) { return x * y; })(st::zeros({2}));
    inner_text = inner.to_string();
    return st::eval_jaxpr(inner, {x})[0];
  })(st::zeros({2}));
  EXPECT_EQ(inner_text, "{ lambda a:f32[2]; b:f32[2]. let\n    c:f32[2] = mul a b\n  in (c,) }");
  EXPECT_EQ(outer.to_string(), "{ lambda ; a:f32[2]. let\n    b:f32[2] = mul a a\n  in (b,) }");
}

}  // namespace
