// jax.nn's further activations (relu6, hard_sigmoid, hard_silu/hard_swish, hard_tanh, log_sigmoid,
// selu, mish, soft_sign, squareplus, sparse_plus, sparse_sigmoid, log1mexp, logmeanexp,
// standardize): the values JAX 0.10.2 prints on fixed inputs (pasted once, the expression beside
// each), jit against eager, derivatives against finite differences and JAX's at the kinks.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::values;

namespace {

Array inputs() { return st::array(std::vector<double>{-7, -3, -1, -0.5, 0, 0.3, 1, 2.5, 6, 9}, {10}, st::f32); }
Array positives() { return st::array({0.01, 0.3, 0.69, 0.7, 1.0, 3.0, 30.0}, {7}, st::f32); }
Array matrix() { return st::reshape(st::arange(int64_t{12}, st::f32), {3, 4}) * 0.7f - 2.0f; }

TEST(NNActivations, ValuesJaxPrints) {
  Array x = inputs(), p = positives(), xm = matrix();
  std::vector<st::testing::JaxCase> cases = {
      {"jax.nn.relu6(x)", st::relu6(x), {0.0, 0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 1.0, 2.5, 6.0, 6.0}},
      {"jax.nn.hard_sigmoid(x)", st::hard_sigmoid(x), {0.0, 0.0, 0.3333333432674408, 0.4166666865348816, 0.5, 0.550000011920929, 0.6666666865348816, 0.9166666865348816, 1.0, 1.0}},
      {"jax.nn.hard_silu(x)", st::hard_silu(x), {-0.0, -0.0, -0.3333333432674408, -0.2083333432674408, 0.0, 0.16500000655651093, 0.6666666865348816, 2.2916667461395264, 6.0, 9.0}},
      {"jax.nn.hard_tanh(x)", st::hard_tanh(x), {-1.0, -1.0, -1.0, -0.5, 0.0, 0.30000001192092896, 1.0, 1.0, 1.0, 1.0}},
      {"jax.nn.log_sigmoid(x)", st::log_sigmoid(x), {-7.000911235809326, -3.0485873222351074, -1.3132617473602295, -0.9740769863128662, -0.6931471824645996, -0.554355263710022, -0.3132616877555847, -0.07888973504304886, -0.0024756852071732283, -0.0001234021910931915}},
      {"jax.nn.selu(x)", st::selu(x), {-1.7564960718154907, -1.670568823814392, -1.1113307476043701, -0.6917582154273987, 0.0, 0.3152103126049042, 1.0507010221481323, 2.6267526149749756, 6.304205894470215, 9.45630931854248}},
      {"jax.nn.mish(x)", st::mish(x), {-0.0063802627846598625, -0.14564745128154755, -0.3034014403820038, -0.22074377536773682, 0.0, 0.20800136029720306, 0.8650984764099121, 2.4713923931121826, 5.999927043914795, 9.0}},
      {"jax.nn.soft_sign(x)", st::soft_sign(x), {-0.875, -0.75, -0.5, -0.3333333432674408, 0.0, 0.23076924681663513, 0.5, 0.7142857313156128, 0.8571428656578064, 0.8999999761581421}},
      {"jax.nn.squareplus(x)", st::squareplus(x), {0.14005494117736816, 0.30277562141418457, 0.6180340051651001, 0.7807763814926147, 1.0, 1.1611874103546143, 1.6180340051651, 2.850780963897705, 6.162277698516846, 9.109771728515625}},
      {"jax.nn.squareplus(x, 0.5)", st::squareplus(x, 0.5), {0.01781177520751953, 0.041103482246398926, 0.11237245798110962, 0.1830126941204071, 0.3535533845424652, 0.5340572595596313, 1.1123723983764648, 2.5490379333496094, 6.020761489868164, 9.013867378234863}},
      {"jax.nn.sparse_plus(x)", st::sparse_plus(x), {0.0, 0.0, 0.0, 0.0625, 0.25, 0.42249995470046997, 1.0, 2.5, 6.0, 9.0}},
      {"jax.nn.sparse_sigmoid(x)", st::sparse_sigmoid(x), {0.0, 0.0, 0.0, 0.25, 0.5, 0.6499999761581421, 1.0, 1.0, 1.0, 1.0}},
      {"jax.nn.log1mexp(p)", st::log1mexp(p), {-4.610166072845459, -1.3502256870269775, -0.6963042616844177, -0.6863409876823425, -0.4586751461029053, -0.05106917768716812, -9.357622912219837e-14}},
      {"jax.nn.logmeanexp(xm, axis=1)", st::logmeanexp(xm, 1), {-0.6626909971237183, 2.1373090744018555, 4.9373087882995605}},
      {"jax.nn.logmeanexp(xm)", st::logmeanexp(xm), {3.9012093544006348}},
      {"jax.nn.standardize(xm)", st::standardize(xm), {-1.341629981994629, -0.447209894657135, 0.44721004366874695, 1.341629981994629, -1.341630220413208, -0.44721007347106934, 0.44720977544784546, 1.341630220413208, -1.3416261672973633, -0.4472087025642395, 0.44720932841300964, 1.341626763343811}},
      {"jax.nn.standardize(xm, axis=0, algorithm='stable')", st::standardize(xm, 0, std::nullopt, std::nullopt, 1e-5, "stable"), {-1.2247437238693237, -1.2247437238693237, -1.2247436046600342, -1.2247438430786133, 0.0, 0.0, -1.0428629337866369e-07, 0.0, 1.2247437238693237, 1.2247436046600342, 1.2247436046600342, 1.2247436046600342}},
      {"jax.nn.standardize(xm, mean=1.0, variance=4.0, epsilon=0.0)", st::standardize(xm, -1, st::Array(1.0f), st::Array(4.0f), 0.0), {-1.5, -1.149999976158142, -0.800000011920929, -0.4500000476837158, -0.10000002384185791, 0.25, 0.5999999046325684, 0.9500000476837158, 1.2999999523162842, 1.6499998569488525, 2.0, 2.3499999046325684}},
  };
  // A few f32 ops each: within 4 ulps of JAX's. standardize's centred values cancel (its "fast"
  // variance too), so their rounding depends on the order of the sums: 1e-5 there.
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase& c, double w) {
    return std::string(c.expr).starts_with("jax.nn.standardize(xm") ? 1e-5 : 4 * 0x1p-23 * std::max(std::fabs(w), 0x1p-10);
  });
}

TEST(NNActivations, JitMatchesEagerAndDtypesStay) {
  std::vector<std::pair<const char*, std::function<Array(const Array&)>>> fs = {
      {"relu6", [](const Array& v) { return st::relu6(v); }},
      {"hard_sigmoid", [](const Array& v) { return st::hard_sigmoid(v); }},
      {"hard_swish", [](const Array& v) { return st::hard_swish(v); }},
      {"hard_tanh", [](const Array& v) { return st::hard_tanh(v); }},
      {"log_sigmoid", [](const Array& v) { return st::log_sigmoid(v); }},
      {"selu", [](const Array& v) { return st::selu(v); }},
      {"mish", [](const Array& v) { return st::mish(v); }},
      {"soft_sign", [](const Array& v) { return st::soft_sign(v); }},
      {"squareplus", [](const Array& v) { return st::squareplus(v, 2.0); }},
      {"sparse_plus", [](const Array& v) { return st::sparse_plus(v); }},
      {"sparse_sigmoid", [](const Array& v) { return st::sparse_sigmoid(v); }},
      {"log1mexp", [](const Array& v) { return st::log1mexp(st::abs(v)); }},
  };
  for (st::DType t : {st::f32, st::f64, st::bf16}) {
    Array x = st::astype(st::random::uniform(st::random::key(3), {64}, st::f32, -8.0f, 8.0f), t);
    for (auto& [name, f] : fs) {
      SCOPED_TRACE(std::string(name) + " " + std::string(st::short_name(t)));
      Array e = f(x), j = st::jit(f)(x);
      ASSERT_EQ(e.dtype(), t);
      std::vector<double> ev = values(e), jv = values(j);
      double tol = t == st::f64 ? 1e-14 : t == st::f32 ? 1e-6 : 1e-2;
      for (size_t i = 0; i < ev.size(); ++i) EXPECT_NEAR(jv[i], ev[i], tol * (1 + std::fabs(ev[i]))) << i;
    }
  }
  // Integers promote to floats; a weak f32 scalar stays weak f32.
  EXPECT_EQ(st::selu(st::array({1, -2}, {2})).dtype(), st::f32);
  EXPECT_TRUE(st::mish(st::Array(1.0f)).weak_type());
  EXPECT_EQ(st::mish(st::Array(1.0f)).dtype(), st::f32);
}

TEST(NNActivations, DerivativesAtKinksAsJax) {
  // relu6: 0 at 0 and at 6 (JAX's custom JVP); hard_tanh: 1 at ±1 (JAX's where).
  auto d_relu6 = st::grad([](const Array& v) { return st::sum(st::relu6(v)); });
  EXPECT_EQ(values(d_relu6(inputs())), (std::vector<double>{0, 0, 0, 0, 0, 1, 1, 1, 0, 0}));
  EXPECT_EQ(values(st::jit(d_relu6)(inputs())), (std::vector<double>{0, 0, 0, 0, 0, 1, 1, 1, 0, 0}));
  auto d_tanh = st::grad([](const Array& v) { return st::sum(st::hard_tanh(v)); });
  EXPECT_EQ(values(d_tanh(st::array({-1.0, 1.0, -2.0, 0.5}, {4}, st::f32))), (std::vector<double>{1, 1, 0, 1}));
  // log1mexp: 1 / expm1(x) (jax.grad prints these for p), inf at 0 and 0 at 100, never nan.
  std::vector<double> want = {99.500839, 2.8582962, 1.0063242, 0.98643386, 0.58197671, 0.052395698, 9.3576236e-14};
  std::vector<double> g = values(st::grad([](const Array& v) { return st::sum(st::log1mexp(v)); })(positives()));
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(g[i], want[i], 1e-6 * want[i]) << i;
  Array edge = st::array({0.0, 100.0}, {2}, st::f32);
  // (log1mexp(100) is -exp(-100), a subnormal in f32 that XLA's CPU flushes to -0.)
  std::vector<double> at_edge = values(st::log1mexp(edge));
  EXPECT_EQ(at_edge[0], -INFINITY);
  EXPECT_NEAR(at_edge[1], 0.0, 1e-43);
  EXPECT_EQ(values(st::grad([](const Array& v) { return st::sum(st::log1mexp(v)); })(edge)), (std::vector<double>{INFINITY, 0}));
}

TEST(NNActivations, DerivativesAgainstFiniteDifferences) {
  using V = std::vector<Array>;
  // Away from the kinks (|x| in [0.05, 0.95] ∪ [1.05, 2.9] avoids ±1 and 0; 6 and -3 are out of range).
  Array x = st::random::uniform(st::random::key(60), {3, 4}, st::f64, 1.05, 2.9) *
            st::where(st::random::bernoulli(st::random::key(61), st::Array(0.5), st::Shape{3, 4}), st::Array(1.0), st::Array(-1.0));
  Array small = st::random::uniform(st::random::key(62), {3, 4}, st::f64, 0.05, 0.95);
  for (const Array& v0 : {x, small}) {
    st::testing::check_grads([](const V& v) { return st::hard_sigmoid(v[0]); }, {v0}, "hard_sigmoid");
    st::testing::check_grads([](const V& v) { return st::hard_silu(v[0]); }, {v0}, "hard_silu");
    st::testing::check_grads([](const V& v) { return st::hard_tanh(v[0]); }, {v0}, "hard_tanh");
    st::testing::check_grads([](const V& v) { return st::log_sigmoid(v[0]); }, {v0}, "log_sigmoid");
    st::testing::check_grads([](const V& v) { return st::selu(v[0]); }, {v0}, "selu");
    st::testing::check_grads([](const V& v) { return st::mish(v[0]); }, {v0}, "mish");
    st::testing::check_grads([](const V& v) { return st::soft_sign(v[0]); }, {v0}, "soft_sign");
    st::testing::check_grads([](const V& v) { return st::squareplus(v[0], 0.7); }, {v0}, "squareplus");
    st::testing::check_grads([](const V& v) { return st::sparse_plus(v[0]); }, {v0}, "sparse_plus");
    st::testing::check_grads([](const V& v) { return st::sparse_sigmoid(v[0]); }, {v0}, "sparse_sigmoid");
    st::testing::check_grads([](const V& v) { return st::log1mexp(st::abs(v[0])); }, {v0}, "log1mexp");
    st::testing::check_grads([](const V& v) { return st::logmeanexp(v[0], 1); }, {v0}, "logmeanexp");
    st::testing::check_grads([](const V& v) { return st::standardize(v[0]); }, {v0}, "standardize");
    st::testing::check_grads([](const V& v) { return st::standardize(v[0], 0, std::nullopt, std::nullopt, 1e-5, "stable"); },
                             {v0}, "standardize stable");
  }
}

TEST(NNActivations, Errors) {
  Array xm = matrix();
  EXPECT_THROW(st::standardize(xm, -1, std::nullopt, std::nullopt, 1e-5, "exact"), st::ValueError);
  EXPECT_THROW(st::logmeanexp(xm, 2), st::ValueError);
  // Nothing a user passes in changes.
  std::vector<double> before = values(xm);
  (void)st::standardize(xm);
  EXPECT_EQ(values(xm), before);
}

}  // namespace
