// random:: against the values JAX 0.10.2 prints for fixed keys (jax_threefry_partitionable=True,
// JAX's default): each expected list below was printed once by the JAX expression in the comment
// above it (f64 ones with jax_enable_x64=True) and pasted here. Integer results and uniform
// floats must be identical; samplers that go through log or erf_inv may differ from XLA's by a
// few ulps (its approximations round differently in the last bit) — the bound is stated per test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace rnd = strata::random;
using st::testing::values;

namespace {

st::Array K(uint64_t seed) { return rnd::key(seed); }

std::vector<uint64_t> as_u64(const st::Array& a) {
  std::vector<uint64_t> r;
  if (a.dtype() == st::i32 || a.dtype() == st::u32) {
    for (int32_t v : st::astype(a, st::i32).to_vector<int32_t>()) r.push_back(static_cast<uint32_t>(v));
  } else if (a.dtype() == st::u64) {
    std::vector<uint64_t> u = a.to_vector<uint64_t>();
    return u;
  } else {
    for (double v : values(a)) r.push_back(static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  return r;
}

std::vector<int64_t> as_i64(const st::Array& a) {
  std::vector<int64_t> r;
  for (double v : values(a)) r.push_back(static_cast<int64_t>(v));
  return r;
}

// Distance in units in the last place between two values of dtype t (0 when identical).
int64_t ulps(double a, double b, st::DType t) {
  auto ord = [&](double v) -> int64_t {
    if (t == st::f64) {
      int64_t i;
      std::memcpy(&i, &v, 8);
      return i < 0 ? std::numeric_limits<int64_t>::min() - i : i;
    }
    float f = static_cast<float>(v);
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? static_cast<int64_t>(std::numeric_limits<int32_t>::min()) - i : i;
  };
  int64_t d = ord(a) - ord(b);
  return d < 0 ? -d : d;
}

void expect_floats(const st::Array& got, st::DType t, const std::vector<double>& want, int64_t max_ulps) {
  ASSERT_EQ(got.dtype(), t);
  std::vector<double> g = values(got);
  ASSERT_EQ(g.size(), want.size());
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_LE(ulps(g[i], want[i], t), max_ulps) << "element " << i << ": " << g[i] << " vs JAX " << want[i];
}

TEST(RandomJax, KeysSplitFoldIn) {
  // jax.random.split(K(0))
  EXPECT_EQ(as_u64(rnd::split(K(0))), (std::vector<uint64_t>{1797259609, 2579123966, 928981903, 3453687069}));
  // jax.random.split(K(123), 3)
  EXPECT_EQ(as_u64(rnd::split(K(123), 3)),
            (std::vector<uint64_t>{969380169, 3408994049, 2095235069, 2959038751, 1896456402, 4081828428}));
  // jax.random.fold_in(K(0), 7)
  EXPECT_EQ(as_u64(rnd::fold_in(K(0), 7u)), (std::vector<uint64_t>{2716826189, 292468403}));
  EXPECT_EQ(as_u64(rnd::fold_in(K(0), st::Array(7))), (std::vector<uint64_t>{2716826189, 292468403}));
  // jax.random.fold_in(K(42), 0xFFFFFFFF)
  EXPECT_EQ(as_u64(rnd::fold_in(K(42), 0xFFFFFFFFu)), (std::vector<uint64_t>{2398536845, 3890976714}));
  EXPECT_EQ(as_u64(rnd::fold_in(K(42), st::Array(-1))), (std::vector<uint64_t>{2398536845, 3890976714}));
}

TEST(RandomJax, Bits) {
  // jax.random.bits(K(0), (2, 3), jnp.uint32)
  st::Array b = rnd::bits(K(0), {2, 3});
  EXPECT_EQ(b.dtype(), st::u32);
  EXPECT_EQ(b.shape(), (st::Shape{2, 3}));
  EXPECT_EQ(as_u64(b), (std::vector<uint64_t>{4070199207, 4202968722, 1427181096, 2012915765, 2447653815, 710830403}));
  // jax.random.bits(K(1), (5,), jnp.uint16)
  EXPECT_EQ(as_u64(rnd::bits(K(1), {5}, st::u16)), (std::vector<uint64_t>{14519, 2110, 46458, 49137, 37796}));
  // jax.random.bits(K(1), (5,), jnp.uint8)
  EXPECT_EQ(as_u64(rnd::bits(K(1), {5}, st::u8)), (std::vector<uint64_t>{183, 62, 122, 241, 164}));
  // jax.random.bits(K(0), (5,), jnp.uint64)   (x64)
  EXPECT_EQ(rnd::bits(K(0), {5}, st::u64).to_vector<uint64_t>(),
            (std::vector<uint64_t>{7719171245655871230u, 3989946895414531357u, 17807037942121513089u,
                                   10597664315880824766u, 9817845818006947190u}));
  // Signed dtypes hold the same bits.
  EXPECT_EQ(rnd::bits(K(0), {2, 3}, st::i32).to_vector<int32_t>()[0], static_cast<int32_t>(4070199207u));
}

TEST(RandomJax, Uniform) {
  // jax.random.uniform(K(0), (7,))
  expect_floats(rnd::uniform(K(0), {7}), st::f32,
                {0.9476670026779175, 0.9785798788070679, 0.33229148387908936, 0.46866846084594727, 0.569888710975647,
                 0.16550302505493164, 0.31019461154937744}, 0);
  // jax.random.uniform(K(42), (2, 3, 5), minval=-2.0, maxval=3.0)
  expect_floats(rnd::uniform(K(42), {2, 3, 5}, st::f32, -2.0, 3.0), st::f32,
                {0.4435478448867798, 1.3989858627319336, 1.081357479095459, 0.8050804138183594, 0.2532230615615845,
                 0.9293292760848999, -1.6259528398513794, 1.875666856765747, 1.4947961568832397, 2.093168258666992,
                 -0.24847400188446045, 2.3640999794006348, 2.6294069290161133, 2.3006534576416016, 0.387770414352417,
                 2.092409133911133, 1.5567724704742432, 0.9334861040115356, -1.6313130855560303, 1.8881111145019531,
                 0.022827863693237305, -1.404383897781372, -1.8687219619750977, 1.1958937644958496, 0.02365577220916748,
                 2.439206123352051, -1.5926278829574585, -0.5179758071899414, 1.0333983898162842, 2.6911745071411133}, 0);
  // jax.random.uniform(K(3), (5,), jnp.float16)
  EXPECT_EQ(values(rnd::uniform(K(3), {5}, st::f16)),
            (std::vector<double>{0.1142578125, 0.2294921875, 0.0498046875, 0.296875, 0.771484375}));
  // jax.random.uniform(K(3), (5,), jnp.bfloat16)
  EXPECT_EQ(values(rnd::uniform(K(3), {5}, st::bf16)), (std::vector<double>{0.4921875, 0.765625, 0.8671875, 0.1875, 0.6796875}));
  // jax.random.uniform(K(0), (7,), jnp.float64)   (x64)
  expect_floats(rnd::uniform(K(0), {7}, st::f64), st::f64,
                {0.41845711171638644, 0.21629545460551136, 0.9653214611189975, 0.5745005337275046, 0.5322264882505428,
                 0.35490518026974427, 0.8830089761589903}, 0);
}

TEST(RandomJax, Normal) {
  // erf_inv's polynomial is XLA's, but its log(1 - x^2) may round differently: allow 4 ulps.
  // jax.random.normal(K(0), (6,))
  expect_floats(rnd::normal(K(0), {6}), st::f32,
                {1.622642159461975, 2.0252647399902344, -0.4335944354534149, -0.07861734926700592, 0.17609089612960815,
                 -0.9720892310142517}, 4);
  // jax.random.normal(K(1), (3, 5))
  expect_floats(rnd::normal(K(1), {3, 5}), st::f32,
                {-0.15443718433380127, 0.08470727503299713, -0.135980486869812, -0.15503625571727753, 1.266667366027832,
                 0.14829757809638977, 2.1415603160858154, 1.0026742219924927, -0.29033586382865906, 0.35834479331970215,
                 -0.7079273462295532, -0.24555526673793793, 0.8855825066566467, 0.7861191034317017, 0.888927161693573}, 4);
  // jax.random.normal(K(0), (6,), jnp.float16)
  EXPECT_EQ(values(rnd::normal(K(0), {6}, st::f16)),
            (std::vector<double>{-0.49365234375, -0.79541015625, -1.5986328125, 0.40283203125, -0.72998046875, -0.2239990234375}));
  // jax.random.normal(K(0), (6,), jnp.bfloat16)
  EXPECT_EQ(values(rnd::normal(K(0), {6}, st::bf16)), (std::vector<double>{0.38671875, 0.1826171875, -1.0, -0.82421875, 0.5625, -0.64453125}));
  // jax.random.normal(K(0), (6,), jnp.float64)   (x64)
  expect_floats(rnd::normal(K(0), {6}, st::f64), st::f64,
                {-0.2058421394796434, -0.7847657764467411, 1.8160866726679836, 0.1878440128937887, 0.08086788103743275,
                 -0.3721107933346203}, 4);
}

TEST(RandomJax, Randint) {
  // jax.random.randint(K(0), (8,), 0, 10)
  EXPECT_EQ(as_i64(rnd::randint(K(0), {8}, 0, 10)), (std::vector<int64_t>{9, 0, 2, 3, 1, 7, 2, 3}));
  // jax.random.randint(K(2), (6,), -2**31, 2**31 - 1)
  EXPECT_EQ(as_i64(rnd::randint(K(2), {6}, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max())),
            (std::vector<int64_t>{2128942159, 37408380, -2067460279, 1685324735, -883248055, 2044120488}));
  // jax.random.randint(K(1), (6,), -5, 5, jnp.int8)
  st::Array r8 = rnd::randint(K(1), {6}, -5, 5, st::i8);
  EXPECT_EQ(r8.dtype(), st::i8);
  EXPECT_EQ(as_i64(r8), (std::vector<int64_t>{1, 2, -5, -2, 3, -1}));
  // jax.random.randint(K(2), (5,), -100, 1000, jnp.int64)   (x64)
  st::Array r64 = rnd::randint(K(2), {5}, -100, 1000, st::i64);
  EXPECT_EQ(r64.dtype(), st::i64);
  EXPECT_EQ(as_i64(r64), (std::vector<int64_t>{62, 17, 65, 951, 879}));
}

TEST(RandomJax, BernoulliCategoricalChoice) {
  // jax.random.bernoulli(K(3), 0.3, (10,))
  st::Array b = rnd::bernoulli(K(3), 0.3, st::Shape{10});
  EXPECT_EQ(b.dtype(), st::bool_);
  EXPECT_EQ(as_i64(b), (std::vector<int64_t>{1, 0, 0, 0, 1, 0, 1, 0, 1, 1}));
  st::Array logits = st::array({0., 1., 2., 3., 3., 2., 1., -1.}, {2, 4}, st::f32);
  // jax.random.categorical(K(4), jnp.array([[0., 1., 2., 3.], [3., 2., 1., -1.]]))
  EXPECT_EQ(as_i64(rnd::categorical(K(4), logits)), (std::vector<int64_t>{3, 0}));
  // jax.random.categorical(K(4), jnp.array([[0., 1., 2., 3.], [3., 2., 1., -1.]]), axis=0, shape=(3, 4))
  EXPECT_EQ(as_i64(rnd::categorical(K(4), logits, 0, st::Shape{3, 4})),
            (std::vector<int64_t>{1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0}));
  // jax.random.choice(K(6), 10, (4,))
  EXPECT_EQ(as_i64(rnd::choice(K(6), 10, {4})), (std::vector<int64_t>{2, 2, 8, 1}));
  // jax.random.choice(K(6), 10, (4,), replace=False)
  EXPECT_EQ(as_i64(rnd::choice(K(6), 10, {4}, false)), (std::vector<int64_t>{2, 7, 0, 6}));
  st::Array p = st::array({0.1, 0.2, 0.3, 0.4}, {4}, st::f32);
  // jax.random.choice(K(6), 4, (6,), p=jnp.array([0.1, 0.2, 0.3, 0.4]))
  EXPECT_EQ(as_i64(rnd::choice(K(6), 4, {6}, true, p)), (std::vector<int64_t>{2, 3, 3, 3, 1, 3}));
  // jax.random.choice(K(6), 4, (3,), replace=False, p=jnp.array([0.1, 0.2, 0.3, 0.4]))
  EXPECT_EQ(as_i64(rnd::choice(K(6), 4, {3}, false, p)), (std::vector<int64_t>{0, 3, 1}));
}

TEST(RandomJax, Permutation) {
  // jax.random.permutation(K(5), 10)
  EXPECT_EQ(as_i64(rnd::permutation(K(5), 10)), (std::vector<int64_t>{9, 0, 2, 4, 8, 1, 3, 5, 7, 6}));
  st::Array x = st::reshape(st::arange(12, st::i32), {4, 3});
  // jax.random.permutation(K(5), jnp.arange(12).reshape(4, 3))
  EXPECT_EQ(as_i64(rnd::permutation(K(5), x)), (std::vector<int64_t>{0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11}));
  EXPECT_EQ(as_i64(rnd::shuffle(K(5), x)), (std::vector<int64_t>{0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11}));
  // jax.random.permutation(K(5), jnp.arange(12).reshape(4, 3), axis=1, independent=True)
  EXPECT_EQ(as_i64(rnd::permutation(K(5), x, 1, true)), (std::vector<int64_t>{0, 2, 1, 4, 3, 5, 8, 7, 6, 10, 9, 11}));
}

TEST(RandomJax, ContinuousDistributions) {
  // Through log/erf/erf_inv: within the ulps given per line (XLA rounds its approximations
  // differently; RandomJaxBulk below measures thousands of draws).
  // jax.random.truncated_normal(K(7), -1.0, 2.0, (6,))
  expect_floats(rnd::truncated_normal(K(7), -1.0, 2.0, st::Shape{6}), st::f32,
                {0.5547337532043457, 1.711128830909729, -0.23639945685863495, 0.055367838591337204, 0.6965413093566895,
                 0.45412567257881165}, 16);
  // jax.random.truncated_normal(K(7), -1.0, 2.0, (6,), jnp.float64)   (x64)
  expect_floats(rnd::truncated_normal(K(7), -1.0, 2.0, st::Shape{6}, st::f64), st::f64,
                {1.034876278399035, -0.8566117260155717, -0.404761387816821, -0.8017079309344064, -0.9603942713800243,
                 1.0009266711508655}, 16);
  // jax.random.gumbel(K(8), (6,))
  expect_floats(rnd::gumbel(K(8), {6}), st::f32,
                {-0.2116032838821411, -0.8999369740486145, 5.829520225524902, 1.086472511291504, -0.6195841431617737,
                 -0.7205633521080017}, 4);
  // jax.random.gumbel(K(8), (6,), jnp.float64)   (x64)
  expect_floats(rnd::gumbel(K(8), {6}, st::f64), st::f64,
                {2.3836388997789935, 2.537817640607654, 0.5236737192957079, -0.30804341040260086, 0.16275056320928202,
                 -0.17774321635477686}, 4);
  // jax.random.exponential(K(9), (6,))
  expect_floats(rnd::exponential(K(9), {6}), st::f32,
                {0.04163278266787529, 3.428427219390869, 0.5444716215133667, 0.10762237757444382, 0.25336816906929016,
                 1.7435262203216553}, 2);
  // jax.random.exponential(K(9), (6,), jnp.float64)   (x64)
  expect_floats(rnd::exponential(K(9), {6}, st::f64), st::f64,
                {1.0703582385314643, 0.03388108064352875, 0.9760047705796275, 0.5746970750102037, 1.5034396125686214,
                 0.6070098036980093}, 2);
}

TEST(RandomJax, GammaFamily) {
  st::Array a = st::array({0.5, 1.0, 2.5, 10.0}, {4}, st::f32);
  // jax.random.gamma(K(10), jnp.array([0.5, 1.0, 2.5, 10.0]))
  expect_floats(rnd::gamma(K(10), a), st::f32, {0.812272310256958, 0.6674570441246033, 3.4960567951202393, 9.054032325744629}, 8);
  // jax.random.gamma(K(10), jnp.array([0.5, 1.0, 2.5, 10.0]), dtype=jnp.float64)   (x64)
  expect_floats(rnd::gamma(K(10), st::astype(a, st::f64), std::nullopt, st::f64), st::f64,
                {1.2956477266707616, 0.9523832783194114, 1.4712361864190149, 10.386632753144337}, 8);
  // jax.random.loggamma(K(10), jnp.array([0.5, 1.0, 2.5, 10.0]))
  expect_floats(rnd::loggamma(K(10), a), st::f32, {-0.2079196274280548, -0.4042802155017853, 1.2516356706619263, 2.2032103538513184}, 8);
  // jax.random.beta(K(11), 2.0, 3.0, (5,))
  expect_floats(rnd::beta(K(11), 2.0, 3.0, st::Shape{5}), st::f32,
                {0.517713725566864, 0.42271995544433594, 0.15045325458049774, 0.8494640588760376, 0.4292966425418854}, 8);
  // jax.random.beta(K(11), 2.0, 3.0, (5,), jnp.float64)   (x64)
  expect_floats(rnd::beta(K(11), 2.0, 3.0, st::Shape{5}, st::f64), st::f64,
                {0.31473906112271816, 0.2771822059427841, 0.18779292186533939, 0.24912657186709378, 0.5572447387002618}, 8);
  // jax.random.dirichlet(K(12), jnp.array([1.0, 2.0, 3.0]), (2,))
  expect_floats(rnd::dirichlet(K(12), st::array({1.0, 2.0, 3.0}, {3}, st::f32), st::Shape{2}), st::f32,
                {0.058061446994543076, 0.16844139993190765, 0.7734971642494202, 0.24143649637699127, 0.32480350136756897,
                 0.4337599575519562}, 8);
}

TEST(RandomJax, OriginalLayoutOption) {
  ASSERT_TRUE(rnd::threefry_partitionable());
  rnd::set_threefry_partitionable(false);
  // with jax_threefry_partitionable=False: jax.random.split(K(0))
  std::vector<uint64_t> s = as_u64(rnd::split(K(0)));
  // jax.random.uniform(K(0), (5,))
  std::vector<double> u = values(rnd::uniform(K(0), {5}));
  // jax.random.bits(K(1), (5,), jnp.uint8)
  std::vector<uint64_t> b8 = as_u64(rnd::bits(K(1), {5}, st::u8));
  // jax.random.bits(K(0), (3,), jnp.uint64)   (x64)
  std::vector<uint64_t> b64 = rnd::bits(K(0), {3}, st::u64).to_vector<uint64_t>();
  rnd::set_threefry_partitionable(true);
  EXPECT_EQ(s, (std::vector<uint64_t>{4146024105, 967050713, 2718843009, 1272950319}));
  EXPECT_EQ(u, (std::vector<double>{0.5745004415512085, 0.09968602657318115, 0.39316022396087646, 0.8941782712936401,
                                    0.5965665578842163}));
  EXPECT_EQ(b8, (std::vector<uint64_t>{118, 136, 41, 116, 72}));
  EXPECT_EQ(b64, (std::vector<uint64_t>{10597664315880824766u, 1838883807893689961u, 13686855971547664781u}));
}

}  // namespace

namespace {

// Thousands of draws against the files tools/random_vs_jax.py writes (skipped unless
// STRATA_RANDOM_JAX_DIR names their folder: JAX is not a build dependency). Uniform, randint
// and permutation must be identical; the others within the stated error, relative to
// max(1, |x|) (measured 2026-12: normal f32 3e-6, truncated_normal f32 9e-7 (erf differs from
// XLA's, so every bound moves), gamma f32 4e-7, gumbel/exponential/beta f32 <= 1.5e-7; f64
// all <= 1.4e-14).
TEST(RandomJaxBulk, AgreesWithJaxFiles) {
  const char* dir = std::getenv("STRATA_RANDOM_JAX_DIR");
  if (!dir) GTEST_SKIP() << "set STRATA_RANDOM_JAX_DIR to the folder tools/random_vs_jax.py wrote";
  for (bool f64 : {false, true}) {
    st::DType t = f64 ? st::f64 : st::f32;
    std::string s = f64 ? "64" : "32";
    auto cmp = [&](const char* name, const st::Array& got, double tol) {
      SCOPED_TRACE(std::string(name) + " f" + s);
      std::vector<double> w = st::load_npy(std::string(dir) + "/" + name + s + ".npy").to_vector<double>(), g = values(got);
      ASSERT_EQ(g.size(), w.size());
      for (size_t i = 0; i < w.size(); ++i) ASSERT_LE(std::fabs(g[i] - w[i]), tol * std::max(1.0, std::fabs(w[i]))) << i;
    };
    double e = f64 ? 2e-14 : 5e-6;
    cmp("unif", rnd::uniform(K(4), {4096}, t, -3.0, 7.0), 0);
    cmp("normal", rnd::normal(K(0), {4096}, t), e);
    cmp("gumbel", rnd::gumbel(K(1), {4096}, t), e);
    cmp("expo", rnd::exponential(K(2), {4096}, t), e);
    cmp("trunc", rnd::truncated_normal(K(3), -1.5, 2.5, st::Shape{4096}, t), e);
    cmp("gamma", rnd::gamma(K(5), st::linspace(0.1, 20, 512, t), std::nullopt, t), e);
    cmp("beta", rnd::beta(K(6), 0.5, 3.0, st::Shape{512}, t), e);
  }
  EXPECT_EQ(values(rnd::randint(K(7), {4096}, -1000, 12345)), st::load_npy(std::string(dir) + "/randint32.npy").to_vector<double>());
  EXPECT_EQ(values(rnd::permutation(K(8), 3000)), st::load_npy(std::string(dir) + "/perm32.npy").to_vector<double>());
}

}  // namespace
