// Array basics: accessors, conversions out of an Array, printing, immutability, null arrays.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;

namespace {

std::string str(const st::Array& a) {
  std::ostringstream os;
  os << a;
  return os.str();
}

TEST(Array, ShapeDtypeNdimSizeNbytes) {
  st::Array a = st::array({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  EXPECT_EQ(a.shape(), (st::Shape{2, 3}));
  EXPECT_EQ(a.shape(0), 2);
  EXPECT_EQ(a.shape(1), 3);
  EXPECT_EQ(a.shape(-1), 3);
  EXPECT_EQ(a.shape(-2), 2);
  EXPECT_EQ(a.dtype(), st::f32);
  EXPECT_FALSE(a.weak_type());
  EXPECT_EQ(a.ndim(), 2);
  EXPECT_EQ(a.size(), 6);
  EXPECT_EQ(a.nbytes(), 24u);
  EXPECT_TRUE(a.valid());
  EXPECT_FALSE(a.is_tracer());
  EXPECT_NE(a.data(), nullptr);
  expect_contains(error_message<st::ValueError>([&] { (void)a.shape(2); }),
                  "Array::shape: axis 2 is out of range for f32[2,3]");
  expect_contains(error_message<st::ValueError>([&] { (void)a.shape(-3); }), "axis -3 is out of range");
}

TEST(Array, NbytesOfEveryDtype) {
  const std::pair<st::DType, size_t> sizes[] = {{st::bool_, 1}, {st::i32, 4}, {st::i64, 8}, {st::bf16, 2},
                                                {st::f16, 2},   {st::f32, 4}, {st::f64, 8}};
  for (auto [t, bytes] : sizes) {
    SCOPED_TRACE(std::string(st::short_name(t)));
    EXPECT_EQ(st::itemsize(t), bytes);
    st::Array a = st::zeros({3, 5}, t);
    EXPECT_EQ(a.dtype(), t);
    EXPECT_EQ(a.nbytes(), 15 * bytes);
    EXPECT_EQ(st::zeros({0, 5}, t).nbytes(), 0u);
  }
}

TEST(Array, ScalarsFromCppValuesAreWeakExceptBool) {
  st::Array f = 2.5f, d = 2.5, i = 3, l = int64_t{1} << 40, b = true;
  for (const st::Array* a : {&f, &d, &i, &l, &b}) {
    EXPECT_EQ(a->shape(), st::Shape{});
    EXPECT_EQ(a->ndim(), 0);
    EXPECT_EQ(a->size(), 1);
  }
  EXPECT_EQ(f.dtype(), st::f32);
  EXPECT_TRUE(f.weak_type());
  EXPECT_EQ(d.dtype(), st::f64);
  EXPECT_TRUE(d.weak_type());
  EXPECT_EQ(i.dtype(), st::i32);
  EXPECT_TRUE(i.weak_type());
  EXPECT_EQ(l.dtype(), st::i64);
  EXPECT_TRUE(l.weak_type());
  EXPECT_EQ(l.item<int64_t>(), int64_t{1} << 40);
  EXPECT_EQ(b.dtype(), st::bool_);
  EXPECT_FALSE(b.weak_type());
  EXPECT_EQ(f.item<float>(), 2.5f);
  EXPECT_EQ(d.item<double>(), 2.5);
  EXPECT_EQ(i.item<int>(), 3);
  EXPECT_TRUE(b.item<bool>());
  // A 0-d array made with array() is strongly typed.
  st::Array s = st::array({4.f}, {});
  EXPECT_EQ(s.shape(), st::Shape{});
  EXPECT_FALSE(s.weak_type());
}

TEST(Array, EmptyArrays) {
  for (const st::Shape& shape : {st::Shape{0}, st::Shape{2, 0}, st::Shape{0, 3}, st::Shape{2, 0, 3}}) {
    st::Array a = st::zeros(shape, st::f32);
    EXPECT_EQ(a.shape(), shape);
    EXPECT_EQ(a.size(), 0);
    EXPECT_EQ(a.nbytes(), 0u);
    EXPECT_TRUE(a.to_vector<float>().empty());
    EXPECT_TRUE(a.to_vector<bool>().empty());
  }
  st::Array e = st::array(std::vector<float>{}, {0});
  EXPECT_EQ(e.shape(), st::Shape{0});
}

TEST(Array, ToVectorConvertsLikeAstype) {
  st::Array a = st::array({1.5, -2.5, 3.0, -0.0, 0.75}, {5});
  EXPECT_EQ(a.dtype(), st::f64);
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{1.5, -2.5, 3.0, -0.0, 0.75}));
  EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1.5f, -2.5f, 3.f, 0.f, 0.75f}));
  // Float to int truncates toward zero.
  EXPECT_EQ(a.to_vector<int32_t>(), (std::vector<int32_t>{1, -2, 3, 0, 0}));
  EXPECT_EQ(a.to_vector<int64_t>(), (std::vector<int64_t>{1, -2, 3, 0, 0}));
  // To bool is != 0.
  EXPECT_EQ(a.to_vector<bool>(), (std::vector<bool>{true, true, true, false, true}));

  st::Array b = st::array({true, false, true}, {3});
  EXPECT_EQ(b.dtype(), st::bool_);
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{1.f, 0.f, 1.f}));
  EXPECT_EQ(b.to_vector<int32_t>(), (std::vector<int32_t>{1, 0, 1}));
  EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{true, false, true}));

  // i64 values beyond 2^53 survive a round trip through to_vector<int64_t>.
  int64_t big = (int64_t{1} << 62) + 1;
  st::Array c = st::array(std::vector<int64_t>{big, -big, 7}, {3});
  EXPECT_EQ(c.dtype(), st::i64);
  EXPECT_EQ(c.to_vector<int64_t>(), (std::vector<int64_t>{big, -big, 7}));
  // i64 to i32 keeps values that fit.
  EXPECT_EQ(st::array(std::vector<int64_t>{5, -6}, {2}).to_vector<int32_t>(), (std::vector<int32_t>{5, -6}));

  // bf16 and f16 read back exactly.
  st::Array h = st::array({1.0, 1.5, -2.25, 65504.0}, {4}, st::f16);
  EXPECT_EQ(h.to_vector<float>(), (std::vector<float>{1.f, 1.5f, -2.25f, 65504.f}));
  st::Array g = st::array({1.0, 1.0078125, -3.0}, {3}, st::bf16);
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{1.0, 1.0078125, -3.0}));
}

TEST(Array, ItemNeedsExactlyOneElement) {
  EXPECT_EQ(st::array({7}, {1}).item<int>(), 7);
  EXPECT_EQ(st::array({7.5f}, {1, 1, 1}).item<float>(), 7.5f);
  EXPECT_EQ(st::array({7.5f}, {1}).item<int>(), 7);
  EXPECT_EQ(st::array({-7.5}, {}).item<int64_t>(), -7);
  EXPECT_FALSE(st::array({0.0f}, {1}).item<bool>());
  EXPECT_TRUE(st::array({-0.5f}, {1}).item<bool>());
  expect_contains(error_message<st::ValueError>([] { (void)st::zeros({2}).item<float>(); }),
                  "item() needs an array with one element, but got f32[2]");
  expect_contains(error_message<st::ValueError>([] { (void)st::zeros({0}, st::i32).item<int>(); }),
                  "item() needs an array with one element, but got i32[0]");
  expect_contains(error_message<st::ValueError>([] { (void)st::zeros({2, 3}).item<bool>(); }),
                  "but got f32[2,3]");
}

TEST(Array, OperatorBool) {
  EXPECT_TRUE(static_cast<bool>(st::array({true}, {1})));
  EXPECT_FALSE(static_cast<bool>(st::Array(0)));
  EXPECT_TRUE(static_cast<bool>(st::Array(2.0f) > 1.0f));
  EXPECT_FALSE(static_cast<bool>(st::Array(2.0f) < 1.0f));
  expect_contains(error_message<st::ValueError>([] { (void)static_cast<bool>(st::zeros({2})); }),
                  "needs an array with one element");
}

// ---- Printing, as NumPy does (always with the dtype, as JAX prints) ----

TEST(ArrayPrint, MatrixOfFloats) {
  st::Array a = st::array({1.f, 2.f, 3.f, 4.f}, {2, 2});
  EXPECT_EQ(str(a), "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  EXPECT_EQ(a.to_string(), str(a));
}

TEST(ArrayPrint, VectorsOfEachKind) {
  EXPECT_EQ(str(st::array({1.f, 2.f, 3.f}, {3})), "array([1., 2., 3.], dtype=float32)");
  EXPECT_EQ(str(st::array({0.5, 1.5}, {2})), "array([0.5, 1.5], dtype=float64)");
  EXPECT_EQ(str(st::array({1, -20, 3}, {3})), "array([  1, -20,   3], dtype=int32)");
  EXPECT_EQ(str(st::array(std::vector<int64_t>{10, 200}, {2})), "array([ 10, 200], dtype=int64)");
  EXPECT_EQ(str(st::array({true, false}, {2})), "array([ True, False], dtype=bool)");
  EXPECT_EQ(str(st::array({1.0, 2.0}, {2}, st::bf16)), "array([1., 2.], dtype=bfloat16)");
  EXPECT_EQ(str(st::array({0.5, -1.5}, {2}, st::f16)), "array([ 0.5, -1.5], dtype=float16)");
  EXPECT_EQ(str(st::array({NAN, INFINITY, -INFINITY}, {3})), "array([ nan,  inf, -inf], dtype=float32)");
  EXPECT_EQ(str(st::array({1.f / 3.f}, {1})), "array([0.33333334], dtype=float32)");
  EXPECT_EQ(str(st::array({0.1f}, {1})), "array([0.1], dtype=float32)");
  // Aligned on the decimal point, as numpy prints them.
  EXPECT_EQ(str(st::array({1.5f, -2.f, 3.f}, {3})), "array([ 1.5, -2. ,  3. ], dtype=float32)");
  EXPECT_EQ(str(st::array({100.5f, INFINITY}, {2})), "array([100.5,   inf], dtype=float32)");
  EXPECT_EQ(str(st::array({0.3125f, 3.f}, {2})), "array([0.3125, 3.    ], dtype=float32)");
  EXPECT_EQ(str(st::array({1.5, -2.0, 3.0, 0.25}, {2, 2})), "array([[ 1.5 , -2.  ],\n       [ 3.  ,  0.25]], dtype=float64)");
}

TEST(ArrayPrint, Scalars) {
  EXPECT_EQ(str(st::Array(2.5f)), "array(2.5, dtype=float32)");
  EXPECT_EQ(str(st::Array(2.0f)), "array(2., dtype=float32)");
  EXPECT_EQ(str(st::Array(3)), "array(3, dtype=int32)");
  EXPECT_EQ(str(st::Array(true)), "array(True, dtype=bool)");
  EXPECT_EQ(str(st::array({-1.0}, {})), "array(-1., dtype=float64)");
}

TEST(ArrayPrint, Empty) {
  // NumPy (and JAX) print the shape of an empty array unless it is 1-d.
  EXPECT_EQ(str(st::zeros({0})), "array([], dtype=float32)");
  EXPECT_EQ(str(st::zeros({2, 0})), "array([], shape=(2, 0), dtype=float32)");
  EXPECT_EQ(str(st::zeros({0, 3}, st::i32)), "array([], shape=(0, 3), dtype=int32)");
}

TEST(ArrayPrint, HigherRankSeparatesBlocksWithBlankLines) {
  st::Array a = st::reshape(st::arange(8, st::i32), {2, 2, 2});
  EXPECT_EQ(str(a),
            "array([[[0, 1],\n"
            "        [2, 3]],\n"
            "\n"
            "       [[4, 5],\n"
            "        [6, 7]]], dtype=int32)");
}

TEST(ArrayPrint, LargeArraysAreSummarised) {
  EXPECT_EQ(str(st::arange(2000, st::i32)), "array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)");
  // 1000 elements are printed in full; 1001 are summarised.
  std::string full = str(st::zeros({1000}, st::i32));
  EXPECT_EQ(full.find("..."), std::string::npos);
  EXPECT_NE(str(st::zeros({1001}, st::i32)).find("..."), std::string::npos);
  EXPECT_EQ(str(st::zeros({100, 100}, st::i32)),
            "array([[0, 0, 0, ..., 0, 0, 0],\n"
            "       [0, 0, 0, ..., 0, 0, 0],\n"
            "       [0, 0, 0, ..., 0, 0, 0],\n"
            "       ...,\n"
            "       [0, 0, 0, ..., 0, 0, 0],\n"
            "       [0, 0, 0, ..., 0, 0, 0],\n"
            "       [0, 0, 0, ..., 0, 0, 0]], dtype=int32)");
}

TEST(ArrayPrint, NullAndTracer) {
  EXPECT_EQ(str(st::Array()), "Array(null)");
  std::string inside;
  st::make_jaxpr([&](const st::Array& x) {
    inside = str(x);
    return x;
  })(st::zeros({2, 3}));
  EXPECT_EQ(inside, "Traced<f32[2,3]>");
}

// ---- Immutability: no op modifies its inputs ----

TEST(Array, CopiesShareDataAndOpsNeverModifyInputs) {
  st::Array x = st::array({1.f, -2.f, 3.f, -4.f, 5.f, -6.f}, {2, 3});
  st::Array y = st::array({0.5f, 0.25f, 2.f}, {3});
  st::Array copy = x;
  EXPECT_EQ(copy.data(), x.data());
  const std::vector<float> x0 = x.to_vector<float>(), y0 = y.to_vector<float>();
  std::vector<uint8_t> xbytes(static_cast<const uint8_t*>(x.data()), static_cast<const uint8_t*>(x.data()) + x.nbytes());

  std::vector<st::Array> results = {
      x + y, x - y, x * y, x / y, x % y, -x, st::maximum(x, y), st::minimum(x, y), st::power(x, 2.0f),
      st::exp(x), st::log(x), st::tanh(x), st::abs(x), st::sign(x), st::floor(x), st::sqrt(x),
      x == y, x < y, st::logical_not(x), st::where(x > 0.0f, x, y), st::astype(x, st::i32),
      st::reshape(x, {3, 2}), st::transpose(x), st::expand_dims(x, 0), st::squeeze(st::expand_dims(x, 0)),
      st::slice(x, {0, 1}, {2, 3}), st::concatenate({x, x}), st::broadcast_to(y, {4, 3}),
      st::sum(x), st::sum(x, 0), st::mean(x, 1), st::max(x), st::min(x, 0), st::prod(x, 1), st::argmax(x, 1),
      st::matmul(x, st::transpose(x)), st::softmax(x), st::logsumexp(x, 1), st::relu(x), st::gelu(x)};
  for (const st::Array& r : results) EXPECT_TRUE(r.valid());
  // Inputs unchanged, results have their own buffers.
  EXPECT_EQ(x.to_vector<float>(), x0);
  EXPECT_EQ(y.to_vector<float>(), y0);
  EXPECT_EQ(std::memcmp(x.data(), xbytes.data(), xbytes.size()), 0);
  EXPECT_EQ(copy.data(), x.data());
  for (const st::Array& r : results)
    if (r.data() == x.data()) {
      // An op may return its input handle unchanged (a no-op reshape); it must then be equal.
      EXPECT_EQ(r.to_vector<float>(), x0);
    }
}

// ---- Null arrays ----

TEST(Array, NullArrayErrors) {
  st::Array n;
  EXPECT_FALSE(n.valid());
  EXPECT_FALSE(n.is_tracer());
  EXPECT_EQ(n.data(), nullptr);
  const std::string null_msg = "Array: this Array is null";
  expect_contains(error_message<st::ValueError>([&] { (void)n.shape(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.dtype(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.ndim(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.size(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.nbytes(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.weak_type(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.to_vector<float>(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)n.item<float>(); }), null_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)static_cast<bool>(n); }), null_msg);
  // Every op rejects it, naming the op.
  st::Array x = st::ones({2});
  const std::string op_msg = "got a null Array (default-constructed, never assigned)";
  expect_contains(error_message<st::ValueError>([&] { st::add(n, x); }), "add: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::add(x, n); }), "add: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { (void)(n * 2.0f); }), op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::exp(n); }), "exp: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::sum(n); }), "sum: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::reshape(n, {1}); }), "reshape: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::matmul(n, x); }), "matmul: " + op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::where(n, x, x); }), op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::astype(n, st::i32); }), op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::concatenate({x, n}); }), op_msg);
  expect_contains(error_message<st::ValueError>([&] { st::zeros_like(n); }), null_msg);
}

}  // namespace
