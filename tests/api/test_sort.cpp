// sort, argsort, top_k against plain loops (every dtype and axis, nans, ±0, infinities, ties
// and stability, several operands and keys, long lines for the radix path), jit against eager,
// derivatives against finite differences, vmap; einsum, flip and pad's reflect/symmetric
// modes against loops.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "autodiff/check_grads.h"
#include "strata/composites.h"
#include "strata/sorting.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

// jax.lax.sort's order: nan after everything, -0.0 equal to 0.0 (double's == already).
bool before(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}

// Lexicographic over the first num_keys columns; insertion sort (stable) of positions.
std::vector<std::vector<double>> reference(const std::vector<std::vector<double>>& ops, const st::Shape& shape, int axis,
                                           int num_keys) {
  int64_t n = shape[axis], outer = 1, inner = 1;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis) outer *= shape[d];
    if (d > axis) inner *= shape[d];
  }
  std::vector<std::vector<double>> out = ops;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t k) { return o * n * inner + k * inner + i; };
      std::vector<int64_t> perm;
      for (int64_t k = 0; k < n; ++k) {
        int64_t pos = static_cast<int64_t>(perm.size());
        auto less = [&](int64_t a, int64_t b) {
          for (int key = 0; key < num_keys; ++key) {
            double x = ops[key][at(a)], y = ops[key][at(b)];
            if (before(x, y)) return true;
            if (before(y, x)) return false;
          }
          return false;
        };
        while (pos > 0 && less(k, perm[pos - 1])) --pos;
        perm.insert(perm.begin() + pos, k);
      }
      for (size_t op = 0; op < ops.size(); ++op)
        for (int64_t k = 0; k < n; ++k) out[op][at(k)] = ops[op][at(perm[k])];
    }
  return out;
}

// Exact, sign of zero and of nan included.
void expect_bits(const Array& a, const std::vector<double>& want, const std::string& what) {
  std::vector<double> got = a.to_vector<double>();
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    bool same = std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i];
    EXPECT_TRUE(same && std::signbit(got[i]) == std::signbit(want[i]))
        << what << " at " << i << ": got " << got[i] << ", want " << want[i];
  }
}

std::vector<double> sample(st::DType t, size_t n, std::mt19937& rng) {
  std::vector<double> special = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.5, -1.5};
  std::uniform_int_distribution<int> small(-4, 4);
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) {
    double x = small(rng);
    if (t == st::bool_) x = x > 0;
    else if ((t == st::f32 || t == st::f64 || t == st::bf16 || t == st::f16) && i % 3 == 0) x = special[rng() % special.size()];
    v[i] = x;
  }
  return v;
}

using SortFn = std::function<std::vector<Array>(const std::vector<Array>&)>;

}  // namespace

TEST(Sort, AgainstLoopsOnEveryAxisAndDtypeJitAndEager) {
  std::mt19937 rng(3);
  for (st::DType t : {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64, st::bool_})
    for (st::Shape shape : {st::Shape{9}, st::Shape{4, 6}, st::Shape{3, 5, 4}})
      for (int axis = 0; axis < static_cast<int>(shape.size()); ++axis) {
        std::vector<double> v = sample(t, static_cast<size_t>(st::num_elements(shape)), rng);
        Array x = st::array(v, shape, t);
        std::vector<double> want = reference({v}, shape, axis, 1)[0];
        std::string what = std::string(st::short_name(t)) + " " + st::shape_string(shape) + " axis " + std::to_string(axis);
        expect_bits(st::sort(x, axis), want, "eager " + what);
        expect_bits(st::jit([axis](const Array& a) { return st::sort(a, axis); })(x), want, "jit " + what);
      }
}

TEST(Sort, SeveralOperandsKeysAndStability) {
  std::mt19937 rng(5);
  st::Shape shape{5, 40};
  size_t n = 200;
  std::vector<double> k0 = sample(st::i32, n, rng), k1 = sample(st::f32, n, rng), payload(n);
  for (size_t i = 0; i < n; ++i) payload[i] = static_cast<double>(i);  // distinct: shows stability
  for (int axis : {0, 1})
    for (int keys : {1, 2, 3}) {
      std::vector<std::vector<double>> want = reference({k0, k1, payload}, shape, axis, keys);
      std::vector<Array> ops = {st::array(k0, shape, st::i32), st::array(k1, shape, st::f32), st::array(payload, shape, st::f64)};
      SortFn f = [&](const std::vector<Array>& a) { return st::sort(a, axis, true, keys); };
      std::vector<Array> eager = f(ops);
      std::vector<Array> jitted = st::jit(f)(ops);
      for (size_t i = 0; i < 3; ++i) {
        std::string what = "operand " + std::to_string(i) + " axis " + std::to_string(axis) + " keys " + std::to_string(keys);
        expect_bits(eager[i], want[i], "eager " + what);
        expect_bits(jitted[i], want[i], "jit " + what);
      }
    }
}

TEST(Sort, LongLinesTakeTheRadixPath) {
  std::mt19937 rng(11);
  for (bool specials : {true, false})  // without nans and -0.0 the keys are sorted alone
  for (st::DType t : {st::f32, st::f64, st::i32, st::bf16}) {
    st::Shape shape{3, 5000};
    std::vector<double> v = sample(t, 15000, rng);
    if (!specials)
      for (double& e : v)
        if (std::isnan(e) || (e == 0 && std::signbit(e))) e = 1.0;
    std::uniform_real_distribution<double> u(-1e3, 1e3);
    for (size_t i = 1; i < v.size(); i += 3) v[i] = t == st::i32 ? std::round(u(rng)) + 0.0 : round_to(u(rng), t);  // + 0.0: no -0 for ints
    Array x = st::array(v, shape, t);
    std::vector<double> idx(v.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<double>(i % 5000);
    std::vector<std::vector<double>> want = reference({v, idx}, shape, 1, 1);
    std::string what(st::short_name(t));
    expect_bits(st::sort(x, 1), want[0], "eager " + what);
    expect_bits(st::jit([](const Array& a) { return st::sort(a, 1); })(x), want[0], "jit " + what);
    expect_bits(st::argsort(x, 1), want[1], "argsort " + what);
    expect_bits(st::jit([](const Array& a) { return st::argsort(a, 1); })(x), want[1], "jit argsort " + what);
  }
}

TEST(Sort, ArgsortAndTopKAsJax) {
  Array x = st::array(std::vector<double>{INFINITY, NAN, -NAN, -INFINITY, 2.0, -0.0, 0.0, -0.0}, {8}, st::f32);
  // jnp.argsort(x, stable=True) and jnp.argsort(x, descending=True) on jax 0.10.
  expect_array(st::argsort(x), {8}, st::i32, {3, 5, 6, 7, 4, 0, 1, 2});
  expect_array(st::argsort(x, 0, true), {8}, st::i32, {1, 2, 0, 4, 5, 6, 7, 3});
  expect_array(st::jit([](const Array& a) { return st::argsort(a, 0, true); })(x), {8}, st::i32, {1, 2, 0, 4, 5, 6, 7, 3});
  // lax.sort keeps -0.0 and 0.0 in input order.
  expect_bits(st::sort(x), {-INFINITY, -0.0, 0.0, -0.0, 2.0, INFINITY, NAN, -NAN}, "sort");
  auto [v, i] = st::top_k(st::array(std::vector<double>{1, 3, 3, NAN, 2}, {5}, st::f32), 3);
  expect_bits(v, {NAN, 3, 3}, "top_k values");
  expect_array(i, {3}, st::i32, {3, 1, 2});
  Array m = st::array(std::vector<double>{5, 1, 4, 2, 2, 9, 7, 7}, {2, 4}, st::i32);
  std::vector<Array> mk = st::jit([](const Array& a) { auto r = st::top_k(a, 2); return std::vector<Array>{r.first, r.second}; })(m);
  expect_array(mk[0], {2, 2}, st::i32, {5, 4, 9, 7});
  expect_array(mk[1], {2, 2}, st::i32, {0, 2, 1, 2});
  expect_array(st::argsort(m, std::nullopt), {8}, st::i32, {1, 3, 4, 2, 0, 6, 7, 5});
  EXPECT_THROW(st::top_k(m, 5), st::ValueError);
  EXPECT_THROW(st::sort(st::array(std::vector<double>{1}, {}, st::f32)), st::ValueError);
  EXPECT_THROW(st::sort({st::zeros({2, 3}), st::zeros({3, 2})}, 0, true), st::ShapeError);
  EXPECT_THROW(st::sort({st::zeros({2, 3})}, 0, true, 2), st::ShapeError);
}

TEST(Sort, DerivativesAgainstFiniteDifferences) {
  Array x = st::array(std::vector<double>{0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, {2, 3}, st::f64);
  Array y = st::array(std::vector<double>{1.0, 2.0, -3.0, 0.5, 0.25, 4.0}, {2, 3}, st::f64);
  for (int axis : {0, 1}) {
    check_grads([axis](const std::vector<Array>& a) { return st::sort(a[0], axis) * st::sort(a[0], axis); }, {x},
                "sort axis " + std::to_string(axis));
    check_grads([axis](const std::vector<Array>& a) {
      std::vector<Array> r = st::sort(std::vector<Array>{a[0], a[1]}, axis, true, 1);
      return r[0] * r[1];
    }, {x, y}, "sort with a payload, axis " + std::to_string(axis));
  }
  check_grads([](const std::vector<Array>& a) { return st::top_k(a[0], 2).first * 3.0; }, {x}, "top_k");
  check_grads([](const std::vector<Array>& a) { return st::sort(a[0], 1, true); }, {x}, "sort descending");
  Array g = st::jit(st::grad([](const Array& a) { return st::sum(st::sort(a, 1) * st::array(std::vector<double>{1, 2, 3}, {3}, st::f64)); }))(x);
  // d/dx of sum(sorted * w): each element gets the weight of the place it went to.
  expect_array(g, {2, 3}, st::f64, {2, 1, 3, 2, 1, 3});
}

TEST(Sort, Vmap) {
  Array x = st::array(std::vector<double>{3, 1, 2, 0, 5, 4}, {2, 3}, st::f32);
  expect_array(st::vmap([](const Array& r) { return st::sort(r, 0); })(x), {2, 3}, st::f32, {1, 2, 3, 0, 4, 5});
  expect_array(st::vmap([](const Array& c) { return st::argsort(c, 0); }, {1})(x), {3, 2}, st::i32, {1, 0, 0, 1, 0, 1});
  Array keys = st::array(std::vector<double>{2, 1, 0}, {3}, st::f32);  // unbatched keys, batched payload
  Array r = st::vmap([&](const Array& p) { return st::sort(std::vector<Array>{keys, p}, 0, true)[1]; })(x);
  expect_array(r, {2, 3}, st::f32, {2, 1, 3, 4, 5, 0});
}

namespace {

// einsum by loops over every label's range.
std::vector<double> einsum_ref(const std::vector<std::string>& in, const std::string& out, const std::vector<Array>& ops) {
  std::map<char, int64_t> size;
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t d = 0; d < in[i].size(); ++d) size[in[i][d]] = std::max(size[in[i][d]], ops[i].shape()[d]);
  std::vector<char> labels;
  for (auto [c, n] : size) labels.push_back(c);
  std::vector<std::vector<double>> v;
  for (const Array& a : ops) v.push_back(a.to_vector<double>());
  int64_t out_n = 1;
  for (char c : out) out_n *= size[c];
  std::vector<double> r(static_cast<size_t>(out_n), 0.0);
  std::map<char, int64_t> at;
  std::function<void(size_t)> loop = [&](size_t k) {
    if (k == labels.size()) {
      double p = 1;
      for (size_t i = 0; i < in.size(); ++i) {
        int64_t f = 0;
        for (size_t d = 0; d < in[i].size(); ++d) f = f * ops[i].shape()[d] + (ops[i].shape()[d] == 1 ? 0 : at[in[i][d]]);
        p *= v[i][f];
      }
      int64_t f = 0;
      for (char c : out) f = f * size[c] + at[c];
      r[f] += p;
      return;
    }
    for (int64_t i = 0; i < size[labels[k]]; ++i) {
      at[labels[k]] = i;
      loop(k + 1);
    }
  };
  loop(0);
  return r;
}

Array rnd(const st::Shape& s, uint64_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(static_cast<size_t>(st::num_elements(s)));
  for (double& x : v) x = u(rng);
  return st::array(v, s, st::f64);
}

}  // namespace

TEST(Einsum, AgainstLoops) {
  struct Case {
    std::string spec;
    std::vector<std::string> in;
    std::string out;
    std::vector<st::Shape> shapes;
  };
  std::vector<Case> cases = {
      {"ij,jk->ik", {"ij", "jk"}, "ik", {{3, 4}, {4, 5}}},
      {"ij,jk", {"ij", "jk"}, "ik", {{3, 4}, {4, 5}}},
      {"ii->i", {"ii"}, "i", {{4, 4}}},
      {"ii", {"ii"}, "", {{4, 4}}},
      {"ij->", {"ij"}, "", {{3, 4}}},
      {"ij->ji", {"ij"}, "ji", {{3, 4}}},
      {"i,i", {"i", "i"}, "", {{5}, {5}}},
      {"i,j->ij", {"i", "j"}, "ij", {{3}, {4}}},
      {"bij,bjk->bik", {"bij", "bjk"}, "bik", {{2, 3, 4}, {2, 4, 5}}},
      {"...ij,...jk->...ik", {"xij", "xjk"}, "xik", {{2, 3, 4}, {1, 4, 5}}},
      {"...ij,jk", {"xij", "jk"}, "xik", {{2, 3, 4}, {4, 5}}},
      {"ij,jk,kl->il", {"ij", "jk", "kl"}, "il", {{30, 2}, {2, 40}, {40, 3}}},
      {"ab,bc,cd,de->ae", {"ab", "bc", "cd", "de"}, "ae", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}},
      {"iij,jk->ik", {"iij", "jk"}, "ik", {{3, 3, 2}, {2, 4}}},
      {"ij,ij->i", {"ij", "ij"}, "i", {{3, 4}, {3, 4}}},
  };
  for (const Case& c : cases) {
    std::vector<Array> ops;
    for (size_t i = 0; i < c.shapes.size(); ++i) ops.push_back(rnd(c.shapes[i], 17 + i));
    std::vector<double> want = einsum_ref(c.in, c.out, ops);
    Array got = st::einsum(c.spec, ops);
    std::vector<double> g = got.to_vector<double>();
    ASSERT_EQ(g.size(), want.size()) << c.spec;
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-9) << c.spec << " at " << i;
    Array j = st::jit([&](const std::vector<Array>& a) { return st::einsum(c.spec, a); })(ops);
    std::vector<double> jv = j.to_vector<double>();
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(jv[i], want[i], 1e-9) << "jit " << c.spec;
  }
  check_grads([](const std::vector<Array>& a) { return st::einsum("ij,jk,k->i", a); }, {rnd({2, 3}, 1), rnd({3, 4}, 2), rnd({4}, 3)},
              "einsum");
  EXPECT_THROW(st::einsum("ij,jk->ik", {rnd({2, 3}, 1), rnd({4, 5}, 2)}), st::ShapeError);
  EXPECT_THROW(st::einsum("ij->ik", {rnd({2, 3}, 1)}), st::ValueError);
  EXPECT_THROW(st::einsum("ij,jk", {rnd({2, 3}, 1)}), st::ValueError);
  EXPECT_THROW(st::einsum("ijk", {rnd({2, 3}, 1)}), st::ValueError);
}

TEST(Composites, FlipAndPadReflectSymmetric) {
  Array m = st::array(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, st::f32);
  expect_array(st::flip(m), {2, 3}, st::f32, {6, 5, 4, 3, 2, 1});
  expect_array(st::flip(m, 1), {2, 3}, st::f32, {3, 2, 1, 6, 5, 4});
  expect_array(st::jit([](const Array& a) { return st::flip(a, 0); })(m), {2, 3}, st::f32, {4, 5, 6, 1, 2, 3});
  Array v = st::array(std::vector<double>{1, 2, 3}, {3}, st::f32);
  // np.pad([1, 2, 3], (4, 5), mode=...).
  expect_array(st::pad(v, {{4, 5}}, "reflect"), {12}, st::f32, {1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2});
  expect_array(st::pad(v, {{4, 5}}, "symmetric"), {12}, st::f32, {3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2});
  expect_array(st::pad(m, {{1, 1}, {2, 0}}, "reflect"), {4, 5}, st::f32,
               {6, 5, 4, 5, 6, 3, 2, 1, 2, 3, 6, 5, 4, 5, 6, 3, 2, 1, 2, 3});
  expect_array(st::jit([](const Array& a) { return st::pad(a, {{1, 0}, {1, 1}}, "symmetric"); })(m), {3, 5}, st::f32,
               {1, 1, 2, 3, 3, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6});
  expect_array(st::pad(st::array(std::vector<double>{7}, {1}, st::f32), {{2, 1}}, "reflect"), {4}, st::f32, {7, 7, 7, 7});
  check_grads([](const std::vector<Array>& a) { return st::pad(a[0], {{2, 3}}, "reflect"); }, {rnd({4}, 5)}, "pad reflect");
}

// A comparator the runtime's key sort does not compute (descending by magnitude, IEEE order) is
// compiled from the region and called by the runtime's merge sort: stable, as the loops say.
TEST(Sort, GeneralComparatorRegionsRun) {
  const char* text = R"(
func.func @main(%x: tensor<2x7xf32>, %i: tensor<2x7xi32>) -> (tensor<2x7xf32>, tensor<2x7xi32>) {
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %aa = stablehlo.abs %a : tensor<f32>
    %bb = stablehlo.abs %b : tensor<f32>
    %p = stablehlo.compare GT, %aa, %bb, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<2x7xf32>, tensor<2x7xi32>) -> (tensor<2x7xf32>, tensor<2x7xi32>)
  return %0#0, %0#1 : tensor<2x7xf32>, tensor<2x7xi32>
})";
  std::vector<double> v = {1, -3, 2, 3, -1, 0.5, -2, 4, -4, 0, 1, -1, 4, 2};
  std::vector<double> idx = {0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6};
  std::vector<double> want_v(14), want_i(14);
  for (int r = 0; r < 2; ++r) {  // insertion sort by descending |x|, stable
    std::vector<int> perm;
    for (int k = 0; k < 7; ++k) {
      size_t pos = perm.size();
      while (pos > 0 && std::fabs(v[r * 7 + k]) > std::fabs(v[r * 7 + perm[pos - 1]])) --pos;
      perm.insert(perm.begin() + static_cast<long>(pos), k);
    }
    for (int k = 0; k < 7; ++k) {
      want_v[r * 7 + k] = v[r * 7 + perm[k]];
      want_i[r * 7 + k] = perm[k];
    }
  }
  st::Module m = st::load_stablehlo(text);
  std::vector<Array> r = m("main")(st::array(v, {2, 7}, st::f32), st::array(idx, {2, 7}, st::i32));
  expect_bits(r[0], want_v, "values");
  expect_bits(r[1], want_i, "indices");
}
