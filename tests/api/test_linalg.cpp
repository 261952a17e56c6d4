// matmul and dot_general against plain loops in double: 2-d, 1-d on either side, batched with
// broadcast batch dims, dot_general with batch and contracting dims anywhere, sizes that take
// the multi-threaded GEMM path, K = 0, over f32 f64 bf16 f16 i32 i64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_exact;
using st::testing::round_all;
using st::testing::row_major_strides;
using st::testing::test_values;
using st::testing::values;

namespace {

std::string name(st::DType t) { return std::string(st::short_name(t)); }

std::vector<int64_t> unravel(int64_t i, const st::Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = i % shape[static_cast<size_t>(d)];
    i /= shape[static_cast<size_t>(d)];
  }
  return idx;
}

// StableHLO dot_general by loops: result dims are batch, lhs free, rhs free; every result
// element sums lhs·rhs over all contracting index tuples. `mag` receives Σ|lhs·rhs|.
std::vector<double> ref_dot_general(const std::vector<double>& l, const st::Shape& ls, const std::vector<double>& r,
                                    const st::Shape& rs, const std::vector<int>& lb, const std::vector<int>& rb,
                                    const std::vector<int>& lc, const std::vector<int>& rc, st::Shape* out,
                                    std::vector<double>* mag) {
  auto free_dims = [](const st::Shape& s, const std::vector<int>& b, const std::vector<int>& c) {
    std::vector<int> f;
    for (int d = 0; d < static_cast<int>(s.size()); ++d)
      if (std::find(b.begin(), b.end(), d) == b.end() && std::find(c.begin(), c.end(), d) == c.end()) f.push_back(d);
    return f;
  };
  std::vector<int> lf = free_dims(ls, lb, lc), rf = free_dims(rs, rb, rc);
  out->clear();
  for (int d : lb) out->push_back(ls[static_cast<size_t>(d)]);
  for (int d : lf) out->push_back(ls[static_cast<size_t>(d)]);
  for (int d : rf) out->push_back(rs[static_cast<size_t>(d)]);
  st::Shape cshape;
  for (int d : lc) cshape.push_back(ls[static_cast<size_t>(d)]);
  std::vector<int64_t> lst = row_major_strides(ls), rst = row_major_strides(rs);
  int64_t n = st::num_elements(*out), nc = st::num_elements(cshape);
  std::vector<double> res(static_cast<size_t>(n), 0.0);
  mag->assign(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> oi = unravel(i, *out);
    int64_t loff = 0, roff = 0;
    size_t k = 0;
    for (size_t j = 0; j < lb.size(); ++j, ++k) {
      loff += oi[k] * lst[static_cast<size_t>(lb[j])];
      roff += oi[k] * rst[static_cast<size_t>(rb[j])];
    }
    for (int d : lf) loff += oi[k++] * lst[static_cast<size_t>(d)];
    for (int d : rf) roff += oi[k++] * rst[static_cast<size_t>(d)];
    for (int64_t c = 0; c < nc; ++c) {
      std::vector<int64_t> ci = unravel(c, cshape);
      int64_t lo = loff, ro = roff;
      for (size_t j = 0; j < lc.size(); ++j) {
        lo += ci[j] * lst[static_cast<size_t>(lc[j])];
        ro += ci[j] * rst[static_cast<size_t>(rc[j])];
      }
      double p = l[static_cast<size_t>(lo)] * r[static_cast<size_t>(ro)];
      res[static_cast<size_t>(i)] += p;
      (*mag)[static_cast<size_t>(i)] += std::fabs(p);
    }
  }
  return res;
}

// Operand values for dtype t: small integers for integer dtypes (exact), else values in [-2, 2)
// rounded to t.
std::vector<double> operand(size_t n, st::DType t, uint64_t seed) {
  std::vector<double> v = test_values(n, -2, 2, seed);
  if (st::is_integer(t))
    for (double& x : v) x = std::round(x * 3);
  return round_all(v, t);
}

// got within the GEMM rounding bound of want: accumulated in f32 (f64 for f64) in any order,
// then rounded once to t.
void expect_gemm_close(const st::Array& r, const st::Shape& shape, st::DType t, const std::vector<double>& want,
                       const std::vector<double>& mag, int64_t k) {
  ASSERT_EQ(r.shape(), shape);
  ASSERT_EQ(r.dtype(), t);
  std::vector<double> got = values(r);
  double eps = t == st::f64 ? 0x1p-53 : 0x1p-24;
  for (size_t i = 0; i < got.size(); ++i) {
    double tol = st::is_integer(t) ? 0 : 2.0 * static_cast<double>(k) * eps * mag[i] + st::testing::ulp(want[i], t);
    EXPECT_LE(std::fabs(got[i] - want[i]), tol) << "element " << i << ": got " << got[i] << ", want " << want[i] << " (" << name(t) << ")";
  }
}

const st::DType kGemmTypes[] = {st::f32, st::f64, st::bf16, st::f16, st::i32, st::i64};

// matmul(a, b) for shapes as, bs against dot_general's reference (NumPy's matmul rules spelled
// out: 1-d operands as a row / column, batch dims broadcast).
void check_matmul(const st::Shape& as, const st::Shape& bs, const st::Shape& want_shape, st::DType t) {
  SCOPED_TRACE(name(t) + " " + st::shape_string(as) + " @ " + st::shape_string(bs));
  std::vector<double> a = operand(static_cast<size_t>(st::num_elements(as)), t, 1),
                      b = operand(static_cast<size_t>(st::num_elements(bs)), t, 2);
  // Materialise NumPy's view: 2-d operands, broadcast batch dims.
  st::Shape a2 = as.size() == 1 ? st::Shape{1, as[0]} : as, b2 = bs.size() == 1 ? st::Shape{bs[0], 1} : bs;
  st::Shape ab(a2.begin(), a2.end() - 2), bb(b2.begin(), b2.end() - 2);
  st::Shape batch = st::testing::ref_broadcast_shape(ab, bb);
  st::Shape af = batch, bf = batch;
  af.insert(af.end(), a2.end() - 2, a2.end());
  bf.insert(bf.end(), b2.end() - 2, b2.end());
  std::vector<double> aa(static_cast<size_t>(st::num_elements(af))), bbv(static_cast<size_t>(st::num_elements(bf)));
  for (int64_t i = 0; i < static_cast<int64_t>(aa.size()); ++i)
    aa[static_cast<size_t>(i)] = a[static_cast<size_t>(st::testing::ref_broadcast_index(af, a2, i))];
  for (int64_t i = 0; i < static_cast<int64_t>(bbv.size()); ++i)
    bbv[static_cast<size_t>(i)] = b[static_cast<size_t>(st::testing::ref_broadcast_index(bf, b2, i))];
  int nb = static_cast<int>(batch.size());
  std::vector<int> bd;
  for (int i = 0; i < nb; ++i) bd.push_back(i);
  st::Shape out;
  std::vector<double> mag;
  std::vector<double> want = ref_dot_general(aa, af, bbv, bf, bd, bd, {nb + 1}, {nb}, &out, &mag);
  st::Array r = st::matmul(st::array(a, as, t), st::array(b, bs, t));
  expect_gemm_close(r, want_shape, t, want, mag, as.back());
}

TEST(Matmul, TwoDOneDAndBatched) {
  for (st::DType t : kGemmTypes) {
    check_matmul({4, 3}, {3, 5}, {4, 5}, t);
    check_matmul({1, 1}, {1, 1}, {1, 1}, t);
    check_matmul({3}, {3, 5}, {5}, t);
    check_matmul({4, 3}, {3}, {4}, t);
    check_matmul({3}, {3}, {}, t);
    check_matmul({2, 4, 3}, {3, 5}, {2, 4, 5}, t);
    check_matmul({4, 3}, {2, 3, 5}, {2, 4, 5}, t);
    check_matmul({2, 1, 4, 3}, {3, 3, 5}, {2, 3, 4, 5}, t);
    check_matmul({1, 4, 3}, {2, 1, 3, 5}, {2, 1, 4, 5}, t);
    check_matmul({2, 4, 3}, {3}, {2, 4}, t);
    check_matmul({3}, {2, 3, 5}, {2, 5}, t);
    check_matmul({2, 4, 1}, {2, 1, 6}, {2, 4, 6}, t);
  }
}

TEST(Matmul, LargeSizesTakeTheThreadedPath) {
  for (st::DType t : {st::f32, st::f64, st::bf16, st::i32}) {
    check_matmul({128, 96}, {96, 64}, {128, 64}, t);
    check_matmul({40, 300}, {300, 129}, {40, 129}, t);  // N > M: split along N
    check_matmul({3, 64, 48}, {3, 48, 80}, {3, 64, 80}, t);
    check_matmul({5, 1, 33, 20}, {4, 20, 17}, {5, 4, 33, 17}, t);
  }
}

TEST(Matmul, ZeroSizedDimensions) {
  for (st::DType t : kGemmTypes) {
    SCOPED_TRACE(name(t));
    // K = 0: a sum of nothing.
    expect_exact(st::matmul(st::ones({4, 0}, t), st::ones({0, 5}, t)), {4, 5}, t, std::vector<double>(20, 0));
    expect_exact(st::matmul(st::ones({2, 3, 0}, t), st::ones({0, 2}, t)), {2, 3, 2}, t, std::vector<double>(12, 0));
    expect_exact(st::matmul(st::ones({0}, t), st::ones({0}, t)), {}, t, {0});
    EXPECT_EQ(st::matmul(st::ones({0, 3}, t), st::ones({3, 5}, t)).shape(), (st::Shape{0, 5}));
    EXPECT_EQ(st::matmul(st::ones({4, 3}, t), st::ones({3, 0}, t)).shape(), (st::Shape{4, 0}));
    EXPECT_EQ(st::matmul(st::ones({0, 4, 3}, t), st::ones({3, 2}, t)).shape(), (st::Shape{0, 4, 2}));
  }
}

TEST(Matmul, PromotesOperands) {
  st::Array i = st::array({1, 2, 3, 4}, {2, 2}), f = st::array({0.5f, 1.f, 1.5f, 2.f}, {2, 2});
  expect_exact(st::matmul(i, f), {2, 2}, st::f32, {3.5, 5, 7.5, 11});
  expect_exact(st::matmul(st::array({1.0, 2.0}, {1, 2}, st::bf16), st::array({3.0, 4.0}, {2, 1}, st::f16)), {1, 1}, st::f32, {11});
  expect_exact(st::matmul(i, st::array(std::vector<int64_t>{1, 1}, {2})), {2}, st::i64, {3, 7});
  // nan and inf propagate as in a plain dot product.
  st::Array n = st::matmul(st::array(std::vector<double>{NAN, 1, 1, 1}, {2, 2}), st::array(std::vector<double>{1, 0, 0, 1}, {2, 2}));
  std::vector<double> v = values(n);
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1]));
  EXPECT_EQ(v[2], 1);
  EXPECT_EQ(v[3], 1);
}

TEST(DotGeneral, DimensionsInUnusualPositions) {
  struct Case {
    st::Shape ls, rs;
    std::vector<int> lb, rb, lc, rc;
  };
  const Case cases[] = {
      // Plain matrix product and its transposed layouts.
      {{4, 3}, {3, 5}, {}, {}, {1}, {0}},
      {{3, 4}, {3, 5}, {}, {}, {0}, {0}},  // lhs contracting dim 0
      {{4, 3}, {5, 3}, {}, {}, {1}, {1}},  // rhs contracting dim 1
      {{3, 4}, {5, 3}, {}, {}, {0}, {1}},  // both
      // Batch dims not leading.
      {{4, 2, 3}, {3, 2, 5}, {1}, {1}, {2}, {0}},
      {{3, 4, 2}, {5, 2, 3}, {2}, {1}, {0}, {2}},
      {{4, 3, 2}, {2, 5, 3}, {2}, {0}, {1}, {2}},
      // Several contracting and batch dims, in any order.
      {{2, 3, 4, 5}, {4, 2, 6, 3}, {}, {}, {1, 2}, {3, 0}},
      {{2, 3, 4, 5}, {5, 3, 2, 6}, {0, 1}, {2, 1}, {3}, {0}},
      {{2, 3, 4}, {4, 3, 2}, {0, 1}, {2, 1}, {2}, {0}},
      // Negative dimension numbers count from the end.
      {{4, 3}, {5, 3}, {}, {}, {-1}, {-1}},
      // No contraction: an outer product; only batch: elementwise product.
      {{3}, {4}, {}, {}, {}, {}},
      {{3, 2}, {3, 2}, {0, 1}, {0, 1}, {}, {}},
      // Vector dot, 0-d result.
      {{7}, {7}, {}, {}, {0}, {0}},
      // K = 0.
      {{4, 0}, {0, 3}, {}, {}, {1}, {0}},
  };
  for (st::DType t : kGemmTypes) {
    for (const Case& c : cases) {
      SCOPED_TRACE(name(t) + " " + st::shape_string(c.ls) + " x " + st::shape_string(c.rs));
      std::vector<double> l = operand(static_cast<size_t>(st::num_elements(c.ls)), t, 3),
                          r = operand(static_cast<size_t>(st::num_elements(c.rs)), t, 4);
      auto norm = [](std::vector<int> v, size_t rank) {
        for (int& d : v) d = d < 0 ? d + static_cast<int>(rank) : d;
        return v;
      };
      st::Shape out;
      std::vector<double> mag;
      std::vector<double> want = ref_dot_general(l, c.ls, r, c.rs, norm(c.lb, c.ls.size()), norm(c.rb, c.rs.size()),
                                                 norm(c.lc, c.ls.size()), norm(c.rc, c.rs.size()), &out, &mag);
      int64_t k = 1;
      for (int d : norm(c.lc, c.ls.size())) k *= c.ls[static_cast<size_t>(d)];
      st::Array res = st::dot_general(st::array(l, c.ls, t), st::array(r, c.rs, t),
                                      {.lhs_contract = c.lc, .rhs_contract = c.rc, .lhs_batch = c.lb, .rhs_batch = c.rb});
      expect_gemm_close(res, out, t, want, mag, k);
    }
  }
}

TEST(DotGeneral, LargeTransposedAndBatchedLayouts) {
  // Operands that must be rearranged, large enough for the threaded path.
  for (st::DType t : {st::f32, st::bf16}) {
    SCOPED_TRACE(name(t));
    st::Shape ls = {96, 4, 64}, rs = {80, 4, 96};  // lhs [K, B, M], rhs [N, B, K]
    std::vector<double> l = operand(static_cast<size_t>(st::num_elements(ls)), t, 5),
                        r = operand(static_cast<size_t>(st::num_elements(rs)), t, 6);
    st::Shape out;
    std::vector<double> mag;
    std::vector<double> want = ref_dot_general(l, ls, r, rs, {1}, {1}, {0}, {2}, &out, &mag);
    EXPECT_EQ(out, (st::Shape{4, 64, 80}));
    st::Array res = st::dot_general(st::array(l, ls, t), st::array(r, rs, t),
                                    {.lhs_contract = {0}, .rhs_contract = {2}, .lhs_batch = {1}, .rhs_batch = {1}});
    expect_gemm_close(res, out, t, want, mag, 96);
  }
}

TEST(Linalg, Errors) {
  st::Array a = st::zeros({3, 4});
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(a, st::zeros({5, 2})); }),
                  "matmul: shapes f32[3,4] and f32[5,2] do not match: contracting dimension 4 != 5");
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(st::zeros({3}), st::zeros({4})); }),
                  "matmul: shapes f32[3] and f32[4] do not match");
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(a, st::zeros({3})); }), "matmul: shapes f32[3,4] and f32[3]");
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(st::zeros({2, 3, 4}), st::zeros({3, 4, 5})); }),
                  "matmul: batch dimensions of f32[2,3,4] and f32[3,4,5] cannot be broadcast");
  expect_contains(error_message<st::ShapeError>([&] { st::matmul(st::Array(1.0f), a); }),
                  "matmul: expects operands of rank >= 1, but got f32[] and f32[3,4]");
  expect_contains(error_message<st::DTypeError>([&] { st::matmul(st::zeros({2, 2}, st::bool_), st::zeros({2, 2}, st::bool_)); }),
                  "dot_general: expects numeric operands, but got bool[2,2] and bool[2,2]");
  // dot_general names both shapes.
  expect_contains(error_message<st::ShapeError>([&] { st::dot_general(a, st::zeros({5, 2}), {.lhs_contract = {1}, .rhs_contract = {0}}); }),
                  "dot_general: expects contracting dimensions of equal size, but got [3,4] and [5,2]");
  expect_contains(error_message<st::ShapeError>([&] {
                    st::dot_general(st::zeros({2, 3, 4}), st::zeros({5, 4, 3}),
                                    {.lhs_contract = {2}, .rhs_contract = {1}, .lhs_batch = {0}, .rhs_batch = {0}});
                  }),
                  "dot_general: expects batch dimensions of equal size, but got [2,3,4] and [5,4,3]");
  expect_contains(error_message<st::ShapeError>([&] { st::dot_general(a, a, {.lhs_contract = {1}, .rhs_contract = {}}); }),
                  "dot_general: expects as many lhs as rhs contracting dimensions");
  expect_contains(error_message<st::ValueError>([&] { st::dot_general(a, a, {.lhs_contract = {2}, .rhs_contract = {1}}); }),
                  "dot_general: axis 2 is out of range for f32[3,4]");
  // A dimension used twice is a bad dimension number.
  std::string m = error_message<st::Error>([&] { st::dot_general(a, a, {.lhs_contract = {1, 1}, .rhs_contract = {1, 0}}); });
  expect_contains(m, "dot_general");
  expect_contains(m, "distinct");
}

}  // namespace
