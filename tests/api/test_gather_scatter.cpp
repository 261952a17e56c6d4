// gather and the scatter_* primitives against plain-loop references: hundreds of seeded random
// shapes and dimension numbers (index vectors anywhere, out-of-bounds and negative indices,
// empty dims), eager vs reference vs jit; derivatives of gather, scatter_add and scatter.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "autodiff/check_grads.h"
#include "lax.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::IntList;
using st::Shape;
using namespace st::testing;
using st::shape_rules::GatherDims;
using st::shape_rules::ScatterDims;

namespace {

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}
std::vector<int64_t> unravel(int64_t e, const Shape& s) {
  std::vector<int64_t> i(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    i[d] = e % s[d];
    e /= s[d];
  }
  return i;
}
int64_t ravel(const std::vector<int64_t>& i, const Shape& s) {
  int64_t e = 0;
  for (size_t d = 0; d < s.size(); ++d) e = e * s[d] + i[d];
  return e;
}
bool has(const IntList& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The index vector of batch position `b` (the indices' dims but ivd, in order).
std::vector<int64_t> index_vector(const std::vector<double>& idx, const Shape& is, int64_t ivd, const std::vector<int64_t>& b,
                                  size_t n) {
  std::vector<int64_t> v(n);
  for (size_t j = 0; j < n; ++j) {
    std::vector<int64_t> pos;
    size_t bi = 0;
    for (int64_t d = 0; d < static_cast<int64_t>(is.size()); ++d) pos.push_back(d == ivd ? static_cast<int64_t>(j) : b[bi++]);
    v[j] = static_cast<int64_t>(idx[static_cast<size_t>(ravel(pos, is))]);
  }
  return v;
}

// Gather by its definition: for every result element, its batch and offset position.
std::vector<double> ref_gather(const std::vector<double>& x, const Shape& xs, const std::vector<double>& idx, const Shape& is,
                               const GatherDims& g, const IntList& sizes, const Shape& out, bool fill) {
  std::vector<double> r(static_cast<size_t>(numel(out)));
  for (int64_t e = 0; e < numel(out); ++e) {
    std::vector<int64_t> o = unravel(e, out), batch, offs;
    for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) (has(g.offset_dims, d) ? offs : batch).push_back(o[static_cast<size_t>(d)]);
    std::vector<int64_t> v = index_vector(idx, is, g.index_vector_dim, batch, g.start_index_map.size());
    std::vector<int64_t> pos(xs.size(), 0);
    bool inside = true;
    for (size_t j = 0; j < v.size(); ++j) {
      size_t d = static_cast<size_t>(g.start_index_map[j]);
      int64_t hi = xs[d] - sizes[d];
      inside = inside && v[j] >= 0 && v[j] <= hi;
      pos[d] = std::min(std::max<int64_t>(v[j], 0), hi);
    }
    size_t k = 0;
    for (size_t d = 0; d < xs.size(); ++d)
      if (!has(g.collapsed_slice_dims, static_cast<int64_t>(d))) pos[d] += offs[k++];
    r[static_cast<size_t>(e)] = fill && !inside ? 0.0 : x[static_cast<size_t>(ravel(pos, xs))];
  }
  return r;
}

enum class Kind { kReplace, kAdd, kMul, kMin, kMax };
const st::Primitive& prim_of(Kind k) {
  switch (k) {
    case Kind::kReplace: return st::prim::kScatter;
    case Kind::kAdd: return st::prim::kScatterAdd;
    case Kind::kMul: return st::prim::kScatterMul;
    case Kind::kMin: return st::prim::kScatterMin;
    case Kind::kMax: return st::prim::kScatterMax;
  }
  return st::prim::kScatter;
}

// Scatter by its definition: index vectors in row-major order, each window whole or dropped.
std::vector<double> ref_scatter(std::vector<double> x, const Shape& xs, const std::vector<double>& idx, const Shape& is,
                                const std::vector<double>& u, const Shape& us, const ScatterDims& s, Kind kind) {
  Shape batch_shape, window_shape;
  for (int64_t d = 0; d < static_cast<int64_t>(us.size()); ++d)
    (has(s.update_window_dims, d) ? window_shape : batch_shape).push_back(us[static_cast<size_t>(d)]);
  std::vector<int64_t> wsize(xs.size(), 1);
  std::vector<size_t> wdim;
  for (size_t d = 0, k = 0; d < xs.size(); ++d)
    if (!has(s.inserted_window_dims, static_cast<int64_t>(d))) {
      wsize[d] = window_shape[k++];
      wdim.push_back(d);
    }
  for (int64_t be = 0; be < numel(batch_shape); ++be) {
    std::vector<int64_t> b = unravel(be, batch_shape);
    std::vector<int64_t> v = index_vector(idx, is, s.index_vector_dim, b, s.scatter_dims_to_operand_dims.size());
    std::vector<int64_t> start(xs.size(), 0);
    bool inside = true;
    for (size_t j = 0; j < v.size(); ++j) {
      size_t d = static_cast<size_t>(s.scatter_dims_to_operand_dims[j]);
      inside = inside && v[j] >= 0 && v[j] + wsize[d] <= xs[d];
      start[d] = v[j];
    }
    if (!inside) continue;
    for (int64_t we = 0; we < numel(window_shape); ++we) {
      std::vector<int64_t> w = unravel(we, window_shape), pos = start, upos;
      for (size_t k = 0; k < wdim.size(); ++k) pos[wdim[k]] += w[k];
      size_t bi = 0, wi = 0;
      for (int64_t d = 0; d < static_cast<int64_t>(us.size()); ++d) upos.push_back(has(s.update_window_dims, d) ? w[wi++] : b[bi++]);
      double& dst = x[static_cast<size_t>(ravel(pos, xs))];
      double val = u[static_cast<size_t>(ravel(upos, us))];
      switch (kind) {
        case Kind::kReplace: dst = val; break;
        case Kind::kAdd: dst += val; break;
        case Kind::kMul: dst *= val; break;
        case Kind::kMin: dst = std::min(dst, val); break;
        case Kind::kMax: dst = std::max(dst, val); break;
      }
    }
  }
  return x;
}

struct RandomCase {
  Shape xs, is;
  int64_t ivd;
  IntList map, dropped, window_dims, sizes;  // dropped: collapsed/inserted; window_dims: offset/update window dims
  Shape rs;                                  // gather's result = scatter's updates
};

// Random dimension numbers: a map onto a random subset of operand dims in random order, some
// size-1 dims dropped, index vectors at a random dim (or scalar indices), window dims at random
// result positions; sizes 0..4 so that empty dims occur.
RandomCase random_case(std::mt19937& rng) {
  auto uni = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  RandomCase c;
  int64_t rank = uni(1, 3);
  for (int64_t d = 0; d < rank; ++d) c.xs.push_back(uni(0, 9) == 0 ? 0 : uni(1, 5));
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  std::iota(dims.begin(), dims.end(), 0);
  std::shuffle(dims.begin(), dims.end(), rng);
  int64_t k = uni(0, rank);
  c.map.assign(dims.begin(), dims.begin() + k);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dim = c.xs[static_cast<size_t>(d)];
    if (dim >= 1 && uni(0, 1)) {
      c.dropped.push_back(d);
      c.sizes.push_back(1);
    } else {
      c.sizes.push_back(uni(0, dim));
    }
  }
  int64_t batch_rank = uni(0, 2);
  Shape batch;
  for (int64_t d = 0; d < batch_rank; ++d) batch.push_back(uni(0, 9) == 0 ? 0 : uni(1, 4));
  if (k == 1 && uni(0, 2) == 0) {
    c.ivd = batch_rank;  // scalar indices
    c.is = batch;
  } else {
    c.ivd = uni(0, batch_rank);
    c.is = batch;
    c.is.insert(c.is.begin() + c.ivd, k);
  }
  int64_t window = rank - static_cast<int64_t>(c.dropped.size());
  int64_t out_rank = batch_rank + window;
  std::vector<int64_t> pos(static_cast<size_t>(out_rank));
  std::iota(pos.begin(), pos.end(), 0);
  std::shuffle(pos.begin(), pos.end(), rng);
  c.window_dims.assign(pos.begin(), pos.begin() + window);
  std::sort(c.window_dims.begin(), c.window_dims.end());
  GatherDims g{c.window_dims, c.dropped, c.map, c.ivd};
  auto r = st::shape_rules::gather(c.xs, c.is, g, c.sizes);
  EXPECT_TRUE(r.ok()) << r.error;
  c.rs = r.shape;
  return c;
}

// Indices in [-2, dim + 2) of the dim they start: in range, negative and past the end.
Array random_indices(std::mt19937& rng, const RandomCase& c, st::DType t) {
  std::vector<double> v(static_cast<size_t>(numel(c.is)));
  for (int64_t e = 0; e < numel(c.is); ++e) {
    std::vector<int64_t> i = unravel(e, c.is);
    int64_t j = c.ivd < static_cast<int64_t>(c.is.size()) ? i[static_cast<size_t>(c.ivd)] : 0;
    int64_t dim = c.xs[static_cast<size_t>(c.map[static_cast<size_t>(j)])];
    v[static_cast<size_t>(e)] = static_cast<double>(std::uniform_int_distribution<int64_t>(-2, dim + 2)(rng));
  }
  return st::astype(st::array(v, c.is, st::f64), t);
}

Array small_ints(std::mt19937& rng, const Shape& s, st::DType t) {
  std::vector<double> v(static_cast<size_t>(numel(s)));
  for (double& x : v) x = static_cast<double>(std::uniform_int_distribution<int>(-4, 4)(rng));
  return st::astype(st::array(v, s, st::f64), t);
}

constexpr st::DType kTypes[] = {st::f32, st::f64, st::i32, st::bf16};

// 300 random cases in 6 shards of 50 (each its own seed), so that ctest spreads the compiles.
class GatherScatterRandom : public ::testing::TestWithParam<int> {};

TEST_P(GatherScatterRandom, MatchesReferenceEagerAndJit) {
  std::mt19937 rng(2026 + static_cast<unsigned>(GetParam()));
  int cases = 0;
  for (int n = 0; n < 50; ++n) {
    RandomCase c = random_case(rng);
    st::DType t = kTypes[n % 4];
    st::DType it = n % 3 == 0 ? st::i64 : st::i32;
    SCOPED_TRACE("case " + std::to_string(n));
    Array x = small_ints(rng, c.xs, t), idx = random_indices(rng, c, it), u = small_ints(rng, c.rs, t);
    GatherDims g{c.window_dims, c.dropped, c.map, c.ivd};
    ScatterDims s{c.window_dims, c.dropped, c.map, c.ivd};
    for (int64_t mode : {int64_t{0}, int64_t{1}}) {
      auto f = [&](const Array& a, const Array& i) { return st::lax::gather(a, i, g, c.sizes, mode); };
      std::vector<double> want = ref_gather(values(x), c.xs, values(idx), c.is, g, c.sizes, c.rs, mode == 1);
      Array eager = f(x, idx);
      ASSERT_EQ(eager.shape(), c.rs);
      ASSERT_EQ(values(eager), want) << "gather mode " << mode;
      ASSERT_EQ(values(st::jit(f)(x, idx)), want) << "jit gather mode " << mode;
    }
    for (Kind k : {Kind::kReplace, Kind::kAdd, Kind::kMul, Kind::kMin, Kind::kMax}) {
      auto f = [&](const Array& a, const Array& i, const Array& v) { return st::lax::scatter(prim_of(k), a, i, v, s); };
      std::vector<double> want = ref_scatter(values(x), c.xs, values(idx), c.is, values(u), c.rs, s, k);
      if (t == st::bf16 || t == st::i32)  // the products of small ints may leave bf16's exact range: round as stored
        for (double& w : want) w = round_to(w, t);
      if (t == st::bf16 && k == Kind::kMul) continue;  // repeated rounding differs from one rounding of the product
      ASSERT_EQ(values(f(x, idx, u)), want) << "scatter kind " << static_cast<int>(k);
      ASSERT_EQ(values(st::jit(f)(x, idx, u)), want) << "jit scatter kind " << static_cast<int>(k);
    }
    ++cases;
  }
  EXPECT_EQ(cases, 50);
}
INSTANTIATE_TEST_SUITE_P(Shards, GatherScatterRandom, ::testing::Range(0, 6));

TEST(GatherScatter, ShapeErrorsNameTheOp) {
  Array x = st::zeros({4, 5}), idx = st::zeros({3, 1}, st::i32);
  GatherDims g{{1}, {0}, {0}, 1};
  expect_contains(error_message<st::ShapeError>([&] { st::lax::gather(x, idx, g, {2, 5}); }),
                  "gather: expects slice size 1 in collapsed_slice_dims [0], but got [2, 5]");
  expect_contains(error_message<st::DTypeError>([&] { st::lax::gather(x, st::zeros({3, 1}), g, {1, 5}); }),
                  "gather: expects integer indices");
  ScatterDims s{{1}, {0}, {0}, 1};
  expect_contains(error_message<st::ShapeError>([&] { st::lax::scatter(st::prim::kScatterAdd, x, idx, st::zeros({2, 5}), s); }),
                  "scatter_add: expects update scatter dims equal to the index batch dims [3], but got updates [2, 5]");
  expect_contains(error_message<st::DTypeError>([&] {
                    st::lax::scatter(st::prim::kScatterMax, st::zeros({4, 5}, st::bool_), idx, st::zeros({3, 5}, st::bool_), s);
                  }),
                  "scatter_max: expects a numeric operand");
}

TEST(GatherScatter, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(11);
  for (int n = 0; n < 40; ++n) {
    RandomCase c = random_case(rng);
    SCOPED_TRACE("case " + std::to_string(n));
    if (numel(c.xs) == 0 || numel(c.rs) == 0) continue;
    Array idx = random_indices(rng, c, st::i32);
    GatherDims g{c.window_dims, c.dropped, c.map, c.ivd};
    ScatterDims s{c.window_dims, c.dropped, c.map, c.ivd};
    Array x = st::random::normal(st::random::key(static_cast<uint64_t>(n)), c.xs, st::f64);
    Array u = st::random::normal(st::random::key(static_cast<uint64_t>(n) + 99), c.rs, st::f64);
    for (int64_t mode : {int64_t{0}, int64_t{1}})
      check_grads([&](const std::vector<Array>& v) { return st::lax::gather(v[0] * v[0], idx, g, c.sizes, mode); }, {x}, "gather");
    check_grads([&](const std::vector<Array>& v) { return st::lax::scatter(st::prim::kScatterAdd, st::sin(v[0]), idx, v[1] * v[1], s); },
                {x, u}, "scatter_add");
    // Repeated indices are common in these cases: replace keeps the last update, mul multiplies
    // them all, max/min pick one (random values: no ties).
    for (const st::Primitive* p : {&st::prim::kScatter, &st::prim::kScatterMul, &st::prim::kScatterMax, &st::prim::kScatterMin})
      check_grads([&](const std::vector<Array>& v) { return st::lax::scatter(*p, v[0] * 1.5, idx, st::sin(v[1]), s); }, {x, u},
                  std::string(p->name), 1e-5);
  }
}

// scatter (replace) with distinct indices: its derivatives against finite differences; the
// operand's cotangent is zero where updates overwrote it.
TEST(GatherScatter, ReplaceDerivativesWithDistinctIndices) {
  Array x = st::random::normal(st::random::key(1), {6, 3}, st::f64);
  Array u = st::random::normal(st::random::key(2), {3, 3}, st::f64);
  Array idx = st::astype(st::array(std::vector<double>{4, 0, 9}, {3, 1}, st::f64), st::i32);  // 9 is dropped
  ScatterDims s{{1}, {0}, {0}, 1};
  check_grads([&](const std::vector<Array>& v) { return st::lax::scatter(st::prim::kScatter, v[0] * v[0], idx, st::sin(v[1]), s); },
              {x, u}, "scatter");
  Array g = st::grad([&](const Array& v) { return st::sum(st::lax::scatter(st::prim::kScatter, v, idx, u, s)); })(x);
  std::vector<double> want(18, 1.0);
  for (int64_t r : {4, 0})
    for (int64_t c = 0; c < 3; ++c) want[static_cast<size_t>(r * 3 + c)] = 0;
  EXPECT_EQ(values(g), want);
}

// Repeated indices, written out: index 1 gets updates 0 and 2, index 3 update 1, index 7 is
// dropped (update 3). Operand [10, 20, 30, 40], updates [a, b, c, d] = [2, 5, 0, 3].
TEST(GatherScatter, DerivativesWithRepeatedIndicesWrittenOut) {
  Array x = st::array({10.0, 20.0, 30.0, 40.0}, {4}, st::f64);
  Array u = st::array({2.0, 5.0, 0.0, 3.0}, {4}, st::f64);
  Array idx = st::astype(st::array(std::vector<double>{1, 3, 1, 7}, {4, 1}, st::f64), st::i32);
  ScatterDims s{{}, {0}, {0}, 1};
  Array ct = st::array({1.0, 2.0, 3.0, 4.0}, {4}, st::f64);
  auto grads = [&](const st::Primitive& p, const Array& xv, const Array& uv) {
    auto [out, f] = st::vjp([&](const Array& a, const Array& b) { return st::lax::scatter(p, a, idx, b, s); }, xv, uv);
    auto [gx, gu] = f(ct);
    return std::pair{values(gx), values(gu)};
  };
  // replace: the last update to index 1 (c) wins and alone gets its cotangent.
  auto [rx, ru] = grads(st::prim::kScatter, x, u);
  EXPECT_EQ(rx, (std::vector<double>{1, 0, 3, 0}));
  EXPECT_EQ(ru, (std::vector<double>{0, 4, 2, 0}));
  // mul: out[1] = 20·a·c, out[3] = 40·b. With c = 0: d/da = 0, d/dc = 20·a = 40 (times ct 2).
  auto [mx, mu] = grads(st::prim::kScatterMul, x, u);
  EXPECT_EQ(mx, (std::vector<double>{1, 0, 3, 20}));  // ∂out/∂x = products: a·c = 0, b = 5
  EXPECT_EQ(mu, (std::vector<double>{0, 160, 80, 0}));
  // Two zeros at one place: every partial is 0.
  auto [zx, zu] = grads(st::prim::kScatterMul, x, st::array({0.0, 5.0, 0.0, 3.0}, {4}, st::f64));
  EXPECT_EQ(zu, (std::vector<double>{0, 160, 0, 0}));
  // Nonzero: d/da = 20·c, d/dc = 20·a.
  auto [nx, nu] = grads(st::prim::kScatterMul, x, st::array({2.0, 5.0, 7.0, 3.0}, {4}, st::f64));
  EXPECT_EQ(nx, (std::vector<double>{1, 28, 3, 20}));
  EXPECT_EQ(nu, (std::vector<double>{280, 160, 80, 0}));
  // max with ties: operand 20 at index 1 ties with update a = 20; they share the cotangent.
  auto [tx, tu] = grads(st::prim::kScatterMax, x, st::array({20.0, 5.0, 1.0, 99.0}, {4}, st::f64));
  EXPECT_EQ(tx, (std::vector<double>{1, 1, 3, 4}));  // index 3 keeps 40 > 5
  EXPECT_EQ(tu, (std::vector<double>{1, 0, 0, 0}));  // dropped 99 gets nothing
  auto [ix, iu] = grads(st::prim::kScatterMin, x, st::array({20.0, 5.0, 1.0, -99.0}, {4}, st::f64));
  EXPECT_EQ(ix, (std::vector<double>{1, 0, 3, 0}));
  EXPECT_EQ(iu, (std::vector<double>{0, 4, 2, 0}));
  // The same under jit.
  auto jg = st::jit(st::grad([&](const Array& a, const Array& b) {
    return st::sum(st::lax::scatter(st::prim::kScatterMul, a, idx, b, s) * ct);
  }, st::argnums<0, 1>));
  auto [jx, ju] = jg(x, u);
  EXPECT_EQ(values(jx), mx);
  EXPECT_EQ(values(ju), mu);
}

// vmap of gather and scatter_add over the operand, the indices, or both, against the
// primitive applied per example.
TEST(GatherScatter, VmapMatchesPerExample) {
  Array xs = st::reshape(st::arange(0.0, 60.0, 1.0, st::f32), {3, 5, 4});
  Array is = st::astype(st::array(std::vector<double>{0, 4, -1, 2, 7, 1, 3, 3, 0}, {3, 3, 1}, st::f64), st::i32);
  Array us = st::reshape(st::arange(0.0, 36.0, 1.0, st::f32), {3, 3, 4});
  GatherDims g{{1}, {0}, {0}, 1};
  ScatterDims s{{1}, {0}, {0}, 1};
  auto gather = [&](const Array& x, const Array& i) { return st::lax::gather(x, i, g, {1, 4}); };
  auto scatter = [&](const Array& x, const Array& i, const Array& u) { return st::lax::scatter(st::prim::kScatterAdd, x, i, u, s); };
  auto at = [](const Array& a, int64_t b) { return st::squeeze(st::slice(a, {b}, {b + 1}), 0); };
  Array both = st::vmap(gather)(xs, is);
  Array only_x = st::vmap(gather, {0, std::nullopt})(xs, at(is, 0));
  Array only_i = st::vmap(gather, {std::nullopt, 0})(at(xs, 0), is);
  Array sc = st::vmap(scatter)(xs, is, us);
  Array sc_i = st::vmap(scatter, {std::nullopt, 0, std::nullopt})(at(xs, 0), is, at(us, 0));
  Array sc_x = st::vmap(scatter, {0, std::nullopt, 0})(xs, at(is, 1), us);
  for (int64_t b = 0; b < 3; ++b) {
    EXPECT_EQ(values(at(both, b)), values(gather(at(xs, b), at(is, b))));
    EXPECT_EQ(values(at(only_x, b)), values(gather(at(xs, b), at(is, 0))));
    EXPECT_EQ(values(at(only_i, b)), values(gather(at(xs, 0), at(is, b))));
    EXPECT_EQ(values(at(sc, b)), values(scatter(at(xs, b), at(is, b), at(us, b))));
    EXPECT_EQ(values(at(sc_i, b)), values(scatter(at(xs, 0), at(is, b), at(us, 0))));
    EXPECT_EQ(values(at(sc_x, b)), values(scatter(at(xs, b), at(is, 1), at(us, b))));
  }
}

}  // namespace

TEST(Scatter, MaxAndMinOfSignedZerosAreIeee) {
  // IEEE maximum/minimum, as the compiled maximumf/minimumf: +0 over -0 for max, -0 under +0
  // for min, whichever of the operand and the update holds which; eager and jit alike.
  Array x = st::array({-0.0, 0.0, -0.0, 0.0}, {4});
  Array idx = st::array(std::vector<int32_t>{0, 1, 2, 3}, {4});
  Array u = st::array({0.0, -0.0, -0.0, 0.0}, {4});
  auto f = [](const Array& a, const Array& i, const Array& v) {
    return std::vector<Array>{a.at({i}).max(v), a.at({i}).min(v)};
  };
  for (bool compiled : {false, true}) {
    std::vector<Array> r = compiled ? st::jit(f)(x, idx, u) : f(x, idx, u);
    std::vector<float> mx = r[0].to_vector<float>(), mn = r[1].to_vector<float>();
    for (int i = 0; i < 4; ++i) {
      bool both_negative = i == 2;
      EXPECT_EQ(std::signbit(mx[i]), both_negative) << "max " << i << (compiled ? " jit" : " eager");
      bool both_positive = i == 3;
      EXPECT_EQ(std::signbit(mn[i]), !both_positive) << "min " << i << (compiled ? " jit" : " eager");
    }
  }
}
