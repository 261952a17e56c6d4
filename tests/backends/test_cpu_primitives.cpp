// Every primitive compiled for the CPU (compiler::compile) against its eager kernel, over every
// dtype it accepts, edge values (±0, nan, ±inf, subnormals, extreme integers), empty and
// size-1 dimensions, and sizes below and above the parallel threshold. The first test fails
// when a primitive of the list has no cases here, so a new primitive cannot go untested.
#include <functional>
#include <map>

#include <gtest/gtest-spi.h>

#include "cpu_test_util.h"
#include "primitive_cases.h"
#include "pass_variants.h"

namespace st = strata;
using st::Array;
using st::DType;
using st::Params;
using namespace st::testing;

using namespace primitive_cases;

TEST(CpuPrimitives, EveryPrimitiveHasCases) {
  for (const st::Primitive* p : st::all_primitives())
    EXPECT_TRUE(case_table().count(std::string(p->name)))
        << "primitive `" << p->name << "` has no compiled-vs-eager cases in " << __FILE__;
}

// The failure test: every primitive of the list compiles (on one small f32/i32/bool program).
TEST(CpuPrimitives, EveryPrimitiveCompiles) {
  for (const st::Primitive* p : st::all_primitives()) {
    auto it = case_table().find(std::string(p->name));
    if (it == case_table().end() || needs_subprograms(p->name)) continue;
    std::vector<Case> cs = it->second();
    ASSERT_FALSE(cs.empty()) << p->name;
    st::Jaxpr j = one_equation(*p, cs[0].params, cs[0].inputs);
    st::CompileResult r = st::compiler::compile(*j.impl(), {});
    EXPECT_TRUE(r.ok()) << "primitive `" << p->name << "` does not compile:\n" << r.error << "\n" << j;
  }
}

// Every primitive with all of the compiler's passes, and with each pass that can be switched
// off switched off (JitOptions): fusion, buffer assignment.
using st::testing::PassVariant;
class CompiledPrimitive : public ::testing::TestWithParam<std::tuple<std::string, PassVariant>> {};

TEST_P(CompiledPrimitive, MatchesEager) {
  const auto& [name, passes] = GetParam();
  const st::Primitive* p = st::find_primitive(name);
  ASSERT_NE(p, nullptr);
  for (const Case& c : case_table().at(name)()) {
    st::Jaxpr j = one_equation(*p, c.params, c.inputs);
    expect_compiled_matches_eager(j, c.inputs, c.tol, passes.apply<st::JitOptions>(), name + ": " + c.what);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(CompiledPrimitive, MatchesEagerSerially) {
  const auto& [name, passes] = GetParam();
  const st::Primitive* p = st::find_primitive(name);
  ASSERT_NE(p, nullptr);
  st::JitOptions serial = passes.apply<st::JitOptions>();
  serial.parallel = false;
  for (const Case& c : case_table().at(name)()) {
    if (c.what.find("large") == std::string::npos) continue;
    st::Jaxpr j = one_equation(*p, c.params, c.inputs);
    expect_compiled_matches_eager(j, c.inputs, c.tol, serial, name + ": " + c.what);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(All, CompiledPrimitive,
                         ::testing::Combine(::testing::ValuesIn([] {
                                              std::vector<std::string> names;
                                              for (const st::Primitive* p : st::all_primitives())
                                                if (!needs_subprograms(p->name)) names.emplace_back(p->name);
                                              return names;
                                            }()),
                                            ::testing::ValuesIn(st::testing::kPassVariants)),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, PassVariant>>& info) {
                           return std::get<0>(info.param) + "_" + std::get<1>(info.param).name;
                         });

TEST(CpuPrimitives, CustomVjpCall) {
  auto softplus = st::custom_vjp(
      [](const Array& x) { return st::log1p(st::exp(x)); },
      [](const Array& x) { return std::make_pair(st::log1p(st::exp(x)), x); },
      [](const Array& x, const Array& g) { return g * st::sigmoid(x); });
  Array x = of({-2, 0, 3, 100, -100}, {5}, st::f32);
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return softplus(v) * 2.0f; })(x);
  ASSERT_EQ(j.primitive_names().front(), "custom_vjp_call") << j;
  expect_compiled_matches_eager(j, {x}, {}, {}, "custom_vjp_call");
}

TEST(CpuPrimitives, CustomJvpCall) {
  auto softplus = st::custom_jvp(
      [](const Array& x) { return st::log1p(st::exp(x)); },
      [](const Array& x, const Array& t) { return std::make_pair(st::log1p(st::exp(x)), t * st::sigmoid(x)); });
  Array x = of({-2, 0, 3, 100, -100}, {5}, st::f32);
  st::Jaxpr j = st::make_jaxpr([&](const Array& v) { return softplus(v) * 2.0f; })(x);
  ASSERT_EQ(j.primitive_names().front(), "custom_jvp_call") << j;
  expect_compiled_matches_eager(j, {x}, {}, {}, "custom_jvp_call");
  // Its gradient program (the rule transposed) compiles too.
  st::Jaxpr g = st::make_jaxpr(st::grad([&](const Array& v) { return st::sum(softplus(v)); }))(x);
  expect_compiled_matches_eager(g, {x}, {}, {}, "grad of custom_jvp_call");
}

TEST(CpuPrimitives, CustomLinearSolve) {
  // A 3x3 operator captured by matvec, solved by a few Jacobi sweeps (a loop in the program).
  Array a = of({4, 1, 0, 1, 5, 2, 0, 2, 6}, {3, 3}, st::f32);
  Array b = of({1, -2, 3}, {3}, st::f32);
  auto solve = [&](const Array& rhs) {
    auto matvec = [&](const Array& v) { return st::matmul(a, v); };
    auto jacobi = [&](auto mv, const Array& r) {
      Array d = st::diagonal(a);
      return st::fori_loop(0, 40, [&](const Array&, const Array& x) { return x + (r - mv(x)) / d; }, st::zeros_like(r));
    };
    return st::custom_linear_solve(matvec, rhs, jacobi, true);
  };
  st::Jaxpr j = st::make_jaxpr(solve)(b);
  ASSERT_EQ(j.primitive_names().front(), "custom_linear_solve") << j;
  expect_compiled_matches_eager(j, {b}, {}, {}, "custom_linear_solve");
  st::Jaxpr g = st::make_jaxpr(st::grad([&](const Array& v) { return st::sum(st::sin(solve(v))); }))(b);
  expect_compiled_matches_eager(g, {b}, {}, {}, "grad of custom_linear_solve");
}

// The comparison itself catches wrong results: a value off by more than the tolerance, a nan
// for a number, the wrong sign of zero, a wrong integer.
TEST(CpuPrimitives, ComparisonDetectsWrongResults) {
  static Array want_f = of({1, 2, 0, 4}, {4}, st::f32), want_i = ints({1, 2}, {2}, st::i32);
  static Array off = of({1, 2.001, 0, 4}, {4}, st::f32), nan = of({1, 2, 0, NAN}, {4}, st::f32);
  static Array negzero = of({1, 2, -0.0, 4}, {4}, st::f32), int_off = ints({1, 3}, {2}, st::i32);
  expect_arrays_match(want_f, want_f, {});
  EXPECT_NONFATAL_FAILURE(expect_arrays_match(off, want_f, {}), "compiled");
  EXPECT_NONFATAL_FAILURE(expect_arrays_match(nan, want_f, {}), "compiled");
  EXPECT_NONFATAL_FAILURE(expect_arrays_match(negzero, want_f, {}), "compiled");
  EXPECT_NONFATAL_FAILURE(expect_arrays_match(int_off, want_i, {}), "compiled");
}
