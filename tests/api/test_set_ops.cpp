// Set operations (strata/set_ops.h) and lexsort / partition / argpartition / sort_complex:
// the values JAX 0.10.2 prints (pasted once, the expression beside each), randomised checks
// against std::map / std::set references, the sized forms under jit and vmap, and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

Array ints(const std::vector<int32_t>& v) { return st::array(v, {static_cast<int64_t>(v.size())}); }
Array a_() { return ints({3, 1, 4, 1, 5, 9, 2, 6, 5, 3}); }
Array b_() { return ints({5, 3, 5, 8, 9, 7}); }
Array f_() { return st::array(D{2.5, NAN, -1.0, 2.5, NAN, 0.0, -0.0, 7.0}, {8}, st::f32); }

// NaN-aware equality of value lists.
void expect_values(const Array& got, const D& want, const char* what) {
  SCOPED_TRACE(what);
  D g = values(got);
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(g[i])) << i;
    else EXPECT_EQ(g[i], want[i]) << i;
  }
}

TEST(SetOps, UniqueAsJax) {
  st::Unique u = st::unique(a_(), {.return_index = true, .return_inverse = true, .return_counts = true});
  expect_values(u.values, {1, 2, 3, 4, 5, 6, 9}, "jnp.unique(a)");
  expect_values(u.indices, {1, 6, 0, 2, 4, 7, 5}, "return_index");
  expect_values(u.inverse_indices, {2, 0, 3, 0, 4, 6, 1, 5, 4, 2}, "return_inverse");
  expect_values(u.counts, {2, 1, 2, 1, 2, 1, 1}, "return_counts");
  EXPECT_EQ(u.values.dtype(), st::i32);
  EXPECT_EQ(u.counts.dtype(), st::i32);
  // size=9: padded with the smallest value (index 1, count 0), as JAX's default.
  st::Unique s = st::unique(a_(), {.return_index = true, .return_inverse = true, .return_counts = true, .size = 9});
  expect_values(s.values, {1, 2, 3, 4, 5, 6, 9, 1, 1}, "jnp.unique(a, size=9)");
  expect_values(s.indices, {1, 6, 0, 2, 4, 7, 5, 1, 1}, "size=9 index");
  expect_values(s.inverse_indices, {2, 0, 3, 0, 4, 6, 1, 5, 4, 2}, "size=9 inverse");
  expect_values(s.counts, {2, 1, 2, 1, 2, 1, 1, 0, 0}, "size=9 counts");
  // size=4 truncates; fill_value unused.
  st::Unique t = st::unique(a_(), {.return_counts = true, .size = 4, .fill_value = Array(-1)});
  expect_values(t.values, {1, 2, 3, 4}, "jnp.unique(a, size=4, fill_value=-1)");
  expect_values(t.counts, {2, 1, 2, 1}, "size=4 counts");
  expect_values(st::unique(a_(), 9, Array(-1)), {1, 2, 3, 4, 5, 6, 9, -1, -1}, "fill_value=-1");
  // Floats: -0 == 0, NaNs last and one value unless equal_nan is false.
  st::Unique fu = st::unique(f_(), {.return_counts = true});
  expect_values(fu.values, {-1, 0, 2.5, 7, NAN}, "jnp.unique(f)");
  expect_values(fu.counts, {1, 2, 2, 1, 2}, "jnp.unique(f) counts");
  st::Unique fn = st::unique(f_(), {.return_counts = true, .equal_nan = false});
  expect_values(fn.values, {-1, 0, 2.5, 7, NAN, NAN}, "equal_nan=False");
  expect_values(fn.counts, {1, 2, 2, 1, 1, 1}, "equal_nan=False counts");
  st::Unique all = st::unique_all(f_());
  expect_values(all.values, {-1, 0, 2.5, 7, NAN, NAN}, "jnp.unique_all(f).values");
  expect_values(all.indices, {2, 5, 0, 7, 1, 4}, "unique_all indices");
  expect_values(all.inverse_indices, {2, 4, 0, 2, 5, 1, 1, 3}, "unique_all inverse_indices");
  expect_values(all.counts, {1, 2, 2, 1, 1, 1}, "unique_all counts");
  auto [cv, cc] = st::unique_counts(a_());
  expect_values(cc, {2, 1, 2, 1, 2, 1, 1}, "unique_counts");
  auto [iv, ii] = st::unique_inverse(st::reshape(a_(), {2, 5}));
  EXPECT_EQ(ii.shape(), (st::Shape{2, 5}));
  expect_values(st::unique_values(a_()), {1, 2, 3, 4, 5, 6, 9}, "unique_values");
}

TEST(SetOps, UniqueAlongAnAxisAsJax) {
  Array m = st::array(std::vector<int32_t>{1, 2, 3, 4, 1, 2, 0, 9, 3, 4}, {5, 2});
  st::Unique r = st::unique(m, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
  EXPECT_EQ(r.values.shape(), (st::Shape{3, 2}));
  expect_values(r.values, {0, 9, 1, 2, 3, 4}, "jnp.unique(m, axis=0)");
  expect_values(r.indices, {3, 0, 1}, "axis=0 index");
  expect_values(r.inverse_indices, {1, 2, 1, 0, 2}, "axis=0 inverse");
  expect_values(r.counts, {1, 2, 2}, "axis=0 counts");
  st::Unique c = st::unique(m, {.return_inverse = true, .axis = 1});
  EXPECT_EQ(c.values.shape(), (st::Shape{5, 2}));
  expect_values(c.values, {1, 2, 3, 4, 1, 2, 0, 9, 3, 4}, "jnp.unique(m, axis=1)");
  expect_values(c.inverse_indices, {0, 1}, "axis=1 inverse");
  st::Unique flat = st::unique(m, {.return_inverse = true});
  expect_values(flat.values, {0, 1, 2, 3, 4, 9}, "jnp.unique(m)");
  EXPECT_EQ(flat.inverse_indices.shape(), (st::Shape{5, 2}));
  expect_values(flat.inverse_indices, {1, 2, 3, 4, 1, 2, 0, 5, 3, 4}, "jnp.unique(m) inverse");
  // Sized, along an axis: padded rows are the fill value.
  Array padded = st::unique(m, {.axis = 0, .size = 4, .fill_value = Array(-7)}).values;
  expect_values(padded, {0, 9, 1, 2, 3, 4, -7, -7}, "axis=0 size=4 fill=-7");
}

TEST(SetOps, SetFunctionsAsJax) {
  Array a = a_(), b = b_();
  Array m = st::array(std::vector<int32_t>{1, 2, 3, 4, 1, 2, 0, 9, 3, 4}, {5, 2});
  Array in = st::isin(m, b);
  EXPECT_EQ(in.dtype(), st::bool_);
  EXPECT_EQ(in.shape(), (st::Shape{5, 2}));
  expect_values(in, {0, 0, 1, 0, 0, 0, 0, 1, 1, 0}, "jnp.isin(m, b)");
  expect_values(st::isin(f_(), st::array(D{0.0, 7.0, NAN}, {3}, st::f32), true), {1, 1, 1, 1, 1, 0, 0, 0},
                "jnp.isin(f, [0, 7, nan], invert=True)");
  expect_values(st::union1d(a, b), {1, 2, 3, 4, 5, 6, 7, 8, 9}, "jnp.union1d(a, b)");
  expect_values(st::union1d(a, b, 12), {1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1}, "jnp.union1d(a, b, size=12)");
  expect_values(st::setdiff1d(a, b), {1, 2, 4, 6}, "jnp.setdiff1d(a, b)");
  expect_values(st::setdiff1d(a, b, false, 7), {1, 2, 4, 6, 0, 0, 0}, "jnp.setdiff1d(a, b, size=7)");
  expect_values(st::setdiff1d(a, b, false, 7, Array(-5)), {1, 2, 4, 6, -5, -5, -5}, "size=7, fill_value=-5");
  st::Intersection i = st::intersect1d_indices(a, b);
  expect_values(i.values, {3, 5, 9}, "jnp.intersect1d(a, b, return_indices=True)");
  expect_values(i.a_indices, {0, 4, 5}, "intersect1d ar1_indices");
  expect_values(i.b_indices, {1, 0, 4}, "intersect1d ar2_indices");
  st::Intersection is = st::intersect1d_indices(a, b, false, 5);
  expect_values(is.values, {3, 5, 9, 3, 3}, "jnp.intersect1d(a, b, return_indices=True, size=5)");
  expect_values(is.a_indices, {0, 4, 5, 10, 10}, "size=5 ar1_indices");
  expect_values(is.b_indices, {1, 0, 4, 6, 6}, "size=5 ar2_indices");
  expect_values(st::intersect1d(ints({1, 2}), ints({3, 4}), false, 3), {0, 0, 0}, "empty intersection, size=3");
  expect_values(st::setxor1d(a, b), {1, 2, 4, 6, 7, 8}, "jnp.setxor1d(a, b)");
  expect_values(st::setxor1d(a, b, false, 9), {1, 2, 4, 6, 7, 8, 1, 1, 1}, "jnp.setxor1d(a, b, size=9)");
  expect_values(st::setxor1d(ints({1, 2}), ints({2, 1}), false, 3), {0, 0, 0}, "empty xor, size=3");
  expect_values(st::union1d(st::zeros({0}, st::i32), st::zeros({0}, st::i32), 2, Array(7)), {7, 7}, "empty union");
  // assume_unique gives the same answers on distinct inputs.
  Array ua = ints({9, 1, 4, 6}), ub = ints({4, 5, 9});
  expect_values(st::setdiff1d(ua, ub, true), {1, 6}, "setdiff1d assume_unique");
  expect_values(st::intersect1d(ua, ub, true), {4, 9}, "intersect1d assume_unique");
  expect_values(st::setxor1d(ua, ub, true), {1, 5, 6}, "setxor1d assume_unique");
  // Mixed dtypes promote.
  EXPECT_EQ(st::union1d(a, st::array(D{0.5}, {1}, st::f32)).dtype(), st::f32);
}

// Random integer arrays with many repeats against std::map / std::set.
TEST(SetOps, RandomAgainstStdReferences) {
  for (int trial = 0; trial < 6; ++trial) {
    SCOPED_TRACE(trial);
    int64_t na = 1 + 37 * trial, nb = 1 + 23 * trial;
    Array a = st::random::randint(st::random::key(100 + trial), {na}, Array(-20), Array(20));
    Array b = st::random::randint(st::random::key(200 + trial), {nb}, Array(-20), Array(20));
    std::vector<int32_t> av = a.to_vector<int32_t>(), bv = b.to_vector<int32_t>();
    std::map<int32_t, int> counts;
    std::map<int32_t, int> first;
    for (size_t i = 0; i < av.size(); ++i) {
      counts[av[i]]++;
      first.try_emplace(av[i], static_cast<int>(i));
    }
    std::set<int32_t> sa(av.begin(), av.end()), sb(bv.begin(), bv.end());
    D uv, uc, ui, inv;
    for (auto [v, c] : counts) {
      uv.push_back(v);
      uc.push_back(c);
      ui.push_back(first[v]);
    }
    for (int32_t v : av) inv.push_back(static_cast<double>(std::distance(counts.begin(), counts.find(v))));
    st::Unique u = st::unique(a, {.return_index = true, .return_inverse = true, .return_counts = true});
    expect_values(u.values, uv, "unique");
    expect_values(u.indices, ui, "indices");
    expect_values(u.inverse_indices, inv, "inverse");
    expect_values(u.counts, uc, "counts");
    D uni, inter, diff, xr;
    std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(uni));
    std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(inter));
    std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(diff));
    std::set_symmetric_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(xr));
    expect_values(st::union1d(a, b), uni, "union1d");
    expect_values(st::intersect1d(a, b), inter, "intersect1d");
    expect_values(st::setdiff1d(a, b), diff, "setdiff1d");
    expect_values(st::setxor1d(a, b), xr, "setxor1d");
    D in;
    for (int32_t v : av) in.push_back(sb.count(v) ? 1 : 0);
    expect_values(st::isin(a, b), in, "isin");
  }
  // The binary-search path of isin (more than 2^20 pairs) agrees with comparing all.
  Array big = st::random::randint(st::random::key(7), {1500}, Array(0), Array(3000));
  Array test = st::random::randint(st::random::key(8), {1000}, Array(0), Array(3000));
  std::vector<int32_t> bv = big.to_vector<int32_t>(), tv = test.to_vector<int32_t>();
  std::set<int32_t> ts(tv.begin(), tv.end());
  D want;
  for (int32_t v : bv) want.push_back(ts.count(v) ? 1 : 0);
  expect_values(st::isin(big, test), want, "isin, binary search");
  expect_values(st::isin(st::astype(big, st::f32), st::astype(test, st::f32)), want, "isin f32, binary search");
}

TEST(SetOps, SizedFormsTraceJitAndVmap) {
  auto counts = [](const Array& x) {
    auto [v, c] = st::unique_counts(x, 5, Array(-1));
    return std::make_pair(v, c);
  };
  auto [v, c] = st::jit(counts)(a_());
  expect_values(v, {1, 2, 3, 4, 5}, "jit unique_counts values");
  expect_values(c, {2, 1, 2, 1, 2}, "jit unique_counts counts");
  auto sets = [](const Array& x, const Array& y) {
    return std::make_tuple(st::union1d(x, y, 10), st::intersect1d(x, y, false, 4), st::setdiff1d(x, y, false, 5),
                           st::setxor1d(x, y, false, 7), st::isin(x, y));
  };
  auto eager = sets(a_(), b_());
  auto jitted = st::jit(sets)(a_(), b_());
  EXPECT_EQ(values(std::get<0>(jitted)), values(std::get<0>(eager)));
  EXPECT_EQ(values(std::get<1>(jitted)), values(std::get<1>(eager)));
  EXPECT_EQ(values(std::get<2>(jitted)), values(std::get<2>(eager)));
  EXPECT_EQ(values(std::get<3>(jitted)), values(std::get<3>(eager)));
  EXPECT_EQ(values(std::get<4>(jitted)), values(std::get<4>(eager)));
  // vmap over rows: each row's distinct values, padded with -1.
  Array rows = st::array(std::vector<int32_t>{3, 3, 1, 2, 5, 5, 5, 5, 0, 9, 0, 9}, {3, 4});
  Array u = st::vmap([](const Array& r) { return st::unique(r, 4, Array(-1)); })(rows);
  expect_values(u, {1, 2, 3, -1, 5, -1, -1, -1, 0, 9, -1, -1}, "vmap unique");
  // Without a size, a traced input cannot say how large the result is.
  EXPECT_THROW(st::jit([](const Array& x) { return st::unique(x); })(a_()), st::ConcretizationError);
  EXPECT_THROW(st::jit([](const Array& x, const Array& y) { return st::setdiff1d(x, y); })(a_(), b_()), st::ConcretizationError);
  try {
    st::jit([](const Array& x) { return st::unique(x); })(a_());
  } catch (const st::ConcretizationError& e) {
    EXPECT_NE(std::string(e.what()).find("size"), std::string::npos) << e.what();
  }
}

TEST(SetOps, EdgesAndErrors) {
  Array empty = st::zeros({0}, st::f32);
  EXPECT_EQ(st::unique(empty).shape(), (st::Shape{0}));
  expect_values(st::unique(empty, 3, Array(2.5)), {2.5, 2.5, 2.5}, "empty, size 3");
  EXPECT_THROW(st::unique(empty, 3), st::ValueError);
  EXPECT_THROW(st::unique(a_(), -1), st::ValueError);
  EXPECT_THROW(st::unique(Array(1.0f), {.axis = 0}), st::ValueError);
  EXPECT_THROW(st::unique(a_(), {.axis = 1}), st::ValueError);
  expect_values(st::unique(Array(4.0f)), {4}, "0-d");
  // Complex values: by real, then imaginary part.
  Array z = st::complex(st::array(D{1, 1, 0, 1}, {4}, st::f32), st::array(D{2, -1, 5, 2}, {4}, st::f32));
  st::Unique zu = st::unique(z, {.return_counts = true});
  expect_values(st::real(zu.values), {0, 1, 1}, "complex unique real");
  expect_values(st::imag(zu.values), {5, -1, 2}, "complex unique imag");
  expect_values(zu.counts, {1, 1, 2}, "complex unique counts");
  // Inputs are unchanged.
  Array a = a_();
  D before = values(a);
  (void)st::unique(a, {.return_inverse = true});
  (void)st::setxor1d(a, b_());
  EXPECT_EQ(values(a), before);
}

TEST(Partition, AsJax) {
  Array x = st::array(D{3, 1, 2, 5, 4, 0, 9, -1, 9, 2}, {2, 5}, st::f32);
  expect_values(st::partition(x, 2), {1, 2, 3, 5, 4, -1, 0, 2, 9, 9}, "jnp.partition(x, 2)");
  expect_values(st::argpartition(x, 2), {1, 2, 0, 3, 4, 2, 0, 4, 1, 3}, "jnp.argpartition(x, 2)");
  expect_values(st::partition(x, 0, 0), {0, 1, -1, 5, 2, 3, 9, 2, 9, 4}, "jnp.partition(x, 0, axis=0)");
  EXPECT_EQ(st::argpartition(x, 2).dtype(), st::i32);
  // The partition property on random data, every kth, and take_along_axis(x, argpartition) as
  // a partition too; jit equals eager.
  Array r = st::random::normal(st::random::key(5), {4, 17});
  std::vector<double> rv = values(r);
  for (int64_t k : {0L, 5L, 16L, -1L}) {
    SCOPED_TRACE(k);
    int64_t kk = k < 0 ? k + 17 : k;
    Array p = st::partition(r, k), ip = st::argpartition(r, k);
    D pv = values(p), gathered = values(st::take_along_axis(r, ip, 1));
    for (int row = 0; row < 4; ++row) {
      D sorted(rv.begin() + row * 17, rv.begin() + (row + 1) * 17);
      std::sort(sorted.begin(), sorted.end());
      for (const D* v : {&pv, &gathered}) {
        EXPECT_EQ((*v)[static_cast<size_t>(row * 17 + kk)], sorted[static_cast<size_t>(kk)]);
        for (int64_t j = 0; j < 17; ++j) {
          double e = (*v)[static_cast<size_t>(row * 17 + j)];
          if (j < kk) EXPECT_LE(e, sorted[static_cast<size_t>(kk)]);
          if (j > kk) EXPECT_GE(e, sorted[static_cast<size_t>(kk)]);
        }
      }
    }
    EXPECT_EQ(values(st::jit([k](const Array& v) { return st::partition(v, k); })(r)), pv);
  }
  EXPECT_THROW(st::partition(x, 5), st::ValueError);
  EXPECT_THROW(st::partition(Array(1.0f), 0), st::ValueError);
  EXPECT_THROW(st::argpartition(st::complex(x, x), 1), st::DTypeError);
}

TEST(Lexsort, AsJax) {
  // jnp.lexsort((surnames, first names)): sorted by the last key first.
  expect_values(st::lexsort({ints({1, 5, 1, 4, 3, 4, 4}), ints({9, 4, 0, 4, 0, 2, 1})}), {2, 4, 6, 5, 3, 1, 0},
                "jnp.lexsort((a, b))");
  Array k0 = st::array(std::vector<int32_t>{1, 0, 0, 1}, {2, 2}), k1 = st::array(std::vector<int32_t>{2, 2, 1, 1}, {2, 2});
  expect_values(st::lexsort({k0, k1}, 0), {1, 1, 0, 0}, "jnp.lexsort(..., axis=0)");
  EXPECT_EQ(values(st::jit([](const Array& p, const Array& q) { return st::lexsort({p, q}, 0); })(k0, k1)), values(st::lexsort({k0, k1}, 0)));
  EXPECT_THROW(st::lexsort({}), st::ValueError);
  EXPECT_THROW(st::lexsort({k0, ints({1, 2})}), st::ShapeError);
}

TEST(SortComplex, AsJax) {
  Array z = st::complex(st::array(D{1, 1, -3, 1}, {4}, st::f32), st::array(D{2, -1, 0, 0}, {4}, st::f32));
  Array s = st::sort_complex(z);
  EXPECT_EQ(s.dtype(), st::c64);
  expect_values(st::real(s), {-3, 1, 1, 1}, "jnp.sort_complex real");
  expect_values(st::imag(s), {0, -1, 0, 2}, "jnp.sort_complex imag");
  Array r = st::sort_complex(st::array(D{3, 1, 2}, {3}, st::f32));
  EXPECT_EQ(r.dtype(), st::c64);
  expect_values(st::real(r), {1, 2, 3}, "jnp.sort_complex(real)");
  EXPECT_EQ(st::sort_complex(st::array(D{3, 1}, {2}, st::f64)).dtype(), st::c128);
}

}  // namespace
