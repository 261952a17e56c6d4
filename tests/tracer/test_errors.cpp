// Every user error of the foundation: raised as a strata::Error subclass with a message that
// names the op and the values, and never a crash.
#include <gtest/gtest.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;

namespace {

void expect_contains(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected to contain: " << part;
}

TEST(Errors, IncompatibleShapesNameOpAndBothShapes) {
  st::Array a = st::zeros({3, 4}), b = st::zeros({5});
  expect_contains(error_message<st::ShapeError>([&] { st::add(a, b); }),
                  "add: shapes f32[3,4] and f32[5] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([&] { (void)(a * b); }), "multiply: shapes f32[3,4] and f32[5]");
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(a, st::zeros({5, 2})); }),
                  "matmul: shapes f32[3,4] and f32[5,2]");
  expect_contains(error_message<st::ShapeError>([&] { st::reshape(a, {5, 2}); }),
                  "reshape: cannot reshape f32[3,4]");
  expect_contains(error_message<st::ShapeError>([&] { st::concatenate({a, st::zeros({2, 5})}, 0); }),
                  "concatenate: shapes f32[3,4] and f32[2,5]");
  expect_contains(error_message<st::ShapeError>([&] { st::broadcast_to(a, {3, 5}); }),
                  "broadcast_to: cannot broadcast f32[3,4] to shape [3,5]");
  expect_contains(error_message<st::ShapeError>([&] { st::where(st::zeros({2}, st::bool_), a, a); }),
                  "where: shapes bool[2], f32[3,4] and f32[3,4] cannot be broadcast");
}

TEST(Errors, BadAxes) {
  st::Array a = st::zeros({3, 4});
  expect_contains(error_message<st::ValueError>([&] { st::sum(a, 2); }), "sum: axis 2 is out of range for f32[3,4]");
  expect_contains(error_message<st::ValueError>([&] { st::max(a, {0, -2}); }), "max: axis -2 is repeated");
  expect_contains(error_message<st::ValueError>([&] { st::transpose(a, {0}); }), "transpose: expects a permutation of 2 axes");
  expect_contains(error_message<st::ValueError>([&] { st::squeeze(a, 0); }), "squeeze: axis 0 of f32[3,4] has size 3, not 1");
  expect_contains(error_message<st::ValueError>([&] { st::argmax(a, 5); }), "argmax: axis 5 is out of range");
  expect_contains(error_message<st::ValueError>([&] { st::slice(a, {0, 0}, {1, 1}, {1, -1}); }), "slice: expects positive strides");
}

TEST(Errors, BadDtypes) {
  st::Array f = st::zeros({2}), i = st::zeros({2}, st::i32);
  expect_contains(error_message<st::DTypeError>([&] { (void)(f & f); }), "operator&: expects bool or integer operands, but got f32[2]");
  expect_contains(error_message<st::DTypeError>([&] { st::random::uniform(st::random::key(0), {2}, st::i32); }),
                  "random::uniform: expects a floating-point dtype");
  expect_contains(error_message<st::DTypeError>([&] { st::negative(st::zeros({2}, st::bool_)); }),
                  "negative: expects a numeric operand, but got bool[2]");
  (void)i;
}

TEST(Errors, ItemAndToVectorOnTracerAreConcretizationErrors) {
  auto f = [](const st::Array& x) {
    st::Array s = st::sum(x);
    return st::full({2}, s.item<float>());
  };
  std::string m = error_message<st::ConcretizationError>([&] { st::make_jaxpr(f)(st::zeros({3})); });
  expect_contains(m, "item() needs a concrete value, but got a tracer");
  expect_contains(m, "`reduce_sum` (f32[])");
  expect_contains(m, "test_errors.cpp");
  m = error_message<st::ConcretizationError>([&] {
    st::make_jaxpr([](const st::Array& x) { (void)x.to_vector<float>(); return x; })(st::zeros({3}));
  });
  expect_contains(m, "to_vector() needs a concrete value");
  expect_contains(m, "an argument of the traced function (f32[3])");
}

TEST(Errors, CppIfOnTracedComparisonSuggestsCond) {
  auto f = [](const st::Array& x) {
    if (st::sum(x) > 0.0f) return x;
    return -x;
  };
  std::string m = error_message<st::ConcretizationError>([&] { st::make_jaxpr(f)(st::zeros({3})); });
  expect_contains(m, "operator bool");
  expect_contains(m, "`gt` (bool[])");
  expect_contains(m, "st::cond");
  expect_contains(m, "static");
  // Eagerly, the same function runs: the comparison is concrete.
  EXPECT_EQ(f(st::ones({3})).to_vector<float>(), (std::vector<float>{1, 1, 1}));
}

TEST(Errors, EscapedTracer) {
  st::Array leaked;
  st::make_jaxpr([&](const st::Array& x) {
    leaked = st::exp(x);
    return x;
  })(st::zeros({2}));
  std::string m = error_message<st::EscapedTracerError>([&] { (void)(leaked + 1.0f); });
  expect_contains(m, "add: a tracer (f32[2]) was used after the trace that created it had ended");
  m = error_message<st::EscapedTracerError>([&] { (void)leaked.item<float>(); });
  expect_contains(m, "used after the trace");
  // Using the leaked tracer inside a *new* trace is also detected.
  m = error_message<st::EscapedTracerError>([&] {
    st::make_jaxpr([&](const st::Array& x) { return x + leaked; })(st::zeros({2}));
  });
  expect_contains(m, "add: a tracer");
}

TEST(Errors, NullArray) {
  st::Array null;
  expect_contains(error_message<st::ValueError>([&] { st::exp(null); }), "exp: got a null Array");
  expect_contains(error_message<st::ValueError>([&] { (void)null.shape(); }), "null");
}

TEST(Errors, CreationErrors) {
  expect_contains(error_message<st::ShapeError>([&] { st::array({1.0f, 2.0f, 3.0f}, {2, 2}); }),
                  "array: got 3 values for shape [2,2] (4 elements)");
  expect_contains(error_message<st::ValueError>([&] { st::zeros({-1}); }), "full: expects non-negative dimensions");
  expect_contains(error_message<st::ValueError>([&] { st::arange(0, 1, 0); }), "arange:");
  expect_contains(error_message<st::ValueError>([&] { st::random::split(st::zeros({3})); }),
                  "random::split: expects a key (i32[2]");
  expect_contains(error_message<st::ValueError>([&] { st::ones({2, 3}).item<float>(); }),
                  "item() needs an array with one element, but got f32[2,3]");
}

TEST(Errors, AThrowingTracedFunctionLeavesNoTraceBehind) {
  EXPECT_THROW(st::make_jaxpr([](const st::Array& x) { return x + st::zeros({5}); })(st::zeros({3})), st::ShapeError);
  // Eager mode works again afterwards: no trace is left active.
  st::Array y = st::ones({2}) + 1.0f;
  EXPECT_FALSE(y.is_tracer());
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2, 2}));
}

TEST(Errors, PrimitiveLevelErrorsAreClear) {
  // Binding a primitive directly with mismatched operands (what a malformed transform would
  // do) is rejected by its shape rule, named.
  st::Array a = st::zeros({2, 3});
  expect_contains(error_message<st::ShapeError>([&] { st::reshape(a, {7}); }), "reshape: cannot reshape f32[2,3] (6 elements) into [7]");
  expect_contains(error_message<st::ShapeError>([&] { st::dot_general(a, a, {.lhs_contract = {1}, .rhs_contract = {0}}); }),
                  "dot_general: expects contracting dimensions of equal size");
}

}  // namespace
