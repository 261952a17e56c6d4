// Programs fuzz_differential found where jit and eager disagreed (or jit failed to compile),
// minimised; each compared with eager and with what it must compute. Their fuzzer inputs are
// kept in tests/fuzz/corpus/fuzz_differential (replayed by ctest fuzz.differential_corpus).
#include <gtest/gtest.h>

#include "test_util.h"

namespace st = strata;
using st::Array;
using st::Slice;
using namespace st::testing;

namespace {

// x.at[::2].set(v) on an empty x: the scatter of no elements compiled to an empty
// tensor.extract_slice at offset == size (f32[2,0]), which MLIR rejects, or to a linalg.generic
// whose loop bounds disagreed with its operands (f32[0]). An op computing an empty tensor is
// now a constant (the strata dialect's canonicalization).
TEST(FuzzFindings, UpdatesOfEmptyArraysCompile) {
  auto f = [](const Array& x) { return x.at(Slice(0, st::none, 2)).set(st::sum(x) + 1.0f); };
  for (const st::Shape& shape : {st::Shape{2, 0}, st::Shape{0}, st::Shape{0, 3}}) {
    Array x = st::zeros(shape);
    Array eager = f(x), jit = st::jit(f)(x);
    EXPECT_EQ(eager.shape(), shape);
    EXPECT_EQ(jit.shape(), shape);
    EXPECT_EQ(jit.dtype(), st::f32);
  }
  // Empty integer-array indices: nothing changes.
  auto g = [](const Array& x, const Array& i) { return x.at(i).add(2.0f); };
  Array x = st::arange(0.0, 3.0, 1.0, st::f32), none = st::zeros({0}, st::i32);
  EXPECT_EQ(values(st::jit(g)(x, none)), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(values(g(x, none)), (std::vector<double>{0, 1, 2}));
}

// Empty intermediates (a slice at the end, its exp, a reshape) feeding a non-empty result that
// must still be computed: the reduction of an empty axis.
TEST(FuzzFindings, EmptyIntermediatesFeedRealResults) {
  auto f = [](const Array& x) {
    Array r = st::reshape(st::exp(x[Slice(3, st::none)]) * 2.0f, {0, 5});  // f32[0,5]
    return std::make_pair(st::sum(r, {0}) + 1.0f, r);
  };
  Array x = st::arange(0.0, 3.0, 1.0, st::f32);
  auto [a, b] = st::jit(f)(x);
  EXPECT_EQ(values(a), (std::vector<double>(5, 1.0)));
  EXPECT_EQ(b.shape(), (st::Shape{0, 5}));
  EXPECT_EQ(values(f(x).first), values(a));
}

}  // namespace
