// jax.nn.initializers (strata/initializers.h) and random::orthogonal: the values JAX 0.10.2
// draws for key 42 (pasted once, the expression beside each; orthogonal matrices up to the
// rounding of the QR), the variance each initialiser targets on large draws, errors.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace init = strata::initializers;
using st::Array;
using st::testing::values;

namespace {

using D = std::vector<double>;

TEST(Initializers, ValuesJaxDraws) {
  Array k = st::random::key(42);
  std::vector<st::testing::JaxCase> cases = {
      {"glorot_uniform()(k, (3, 4))", st::initializers::glorot_uniform()(k, {3, 4}), {-0.020905816927552223, 0.3329196870326996, 0.21529297530651093, 0.11297983676195145, -0.09138841927051544, 0.1589926779270172, -0.7872999310493469, 0.5094479918479919, 0.368400901556015, 0.5899949073791504, -0.27718091011047363, 0.6903285384178162}, {3, 4}},
      {"glorot_normal()(k, (3, 4))", st::initializers::glorot_normal()(k, {3, 4}), {-0.0164171252399683, 0.27003705501556396, 0.17128834128379822, 0.08902860432863235, -0.07192526012659073, 0.12573154270648956, -0.7994455695152283, 0.4343254864215851, 0.30115261673927307, 0.5204616785049438, -0.22251516580581665, 0.6452774405479431}, {3, 4}},
      {"lecun_uniform()(k, (2, 2, 3))", st::initializers::lecun_uniform()(k, {2, 2, 3}), {-0.019555600360035896, 0.311417818069458, 0.2013881355524063, 0.10568295419216156, -0.08548603951931, 0.1487240195274353, -0.7364516258239746, 0.47654497623443604, 0.34460750222206116, 0.5518897175788879, -0.2592789828777313, 0.645743191242218}, {2, 2, 3}},
      {"he_normal()(k, (2, 2, 2, 3))", st::initializers::he_normal()(k, {2, 2, 2, 3}), {-0.015356816351413727, 0.25259655714035034, 0.16022558510303497, 0.08327864110469818, -0.06727992743253708, 0.1176111027598381, -0.7478129267692566, 0.40627431869506836, 0.2817024886608124, 0.4868473708629608, -0.20814388990402222, 0.6036018133163452, 0.750050961971283, 0.5740894675254822, -0.030541058629751205, 0.48654937744140625, 0.30092644691467285, 0.11876644939184189, -0.751291036605835, 0.41065627336502075, -0.13093936443328857, -0.6232162117958069, -0.9472538828849792, 0.19292345643043518}, {2, 2, 2, 3}},
      {"variance_scaling(0.5, 'fan_geo_avg', 'normal', batch_axis=0)(k, (2, 3, 4))", st::initializers::variance_scaling(0.5, "fan_geo_avg", "normal", {-2}, {-1}, {0})(k, {2, 3, 4}), {-0.010753428563475609, 0.17747172713279724, 0.11234282702207565, 0.058334831148386, -0.047122277319431305, 0.0824129730463028, -0.5474156141281128, 0.2871646583080292, 0.19809281826019287, 0.34578996896743774, -0.14607711136341095, 0.43303918838500977, 0.5492799878120422, 0.4106557071208954, -0.02138679474592209, 0.3455711603164673, 0.2117457389831543, 0.08322373032569885, -0.5503143072128296, 0.2903284728527069, -0.09176800400018692, -0.44806787371635437, -0.7366296648979187, 0.1353512853384018}, {2, 3, 4}},
      {"variance_scaling(1.0, 'fan_out', 'uniform', in_axis=(0, 1), out_axis=2)(k, (2, 2, 3))", st::initializers::variance_scaling(1.0, "fan_out", "uniform", {0, 1}, {2})(k, {2, 2, 3}), {-0.022580862045288086, 0.35959434509277344, 0.2325429916381836, 0.12203216552734375, -0.09871077537536621, 0.17173171043395996, -0.8503811359405518, 0.5502667427062988, 0.3979184627532959, 0.6372673511505127, -0.2993896007537842, 0.7456400394439697}, {2, 2, 3}},
      {"uniform(0.5)(k, (5,))", st::initializers::uniform(0.5)(k, {5}), {0.24435478448867798, 0.33989858627319336, 0.3081357479095459, 0.28050804138183594, 0.22532230615615845}, {5}},
      {"normal(2.0)(k, (5,))", st::initializers::normal(2.0)(k, {5}), {-0.05660923197865486, 0.9342637062072754, 0.5914059281349182, 0.3070918321609497, -0.24806563556194305}, {5}},
      {"truncated_normal(1.5, lower=-1, upper=0.5)(k, (5,))", st::initializers::truncated_normal(1.5, std::nullopt, -1, 0.5)(k, {5}), {-0.3065125346183777, 0.07845350354909897, -0.048853419721126556, -0.15984128415584564, -0.38482940196990967}, {5}},
      {"constant(3.5)(k, (2, 2))", st::initializers::constant(3.5)(k, {2, 2}), {3.5, 3.5, 3.5, 3.5}, {2, 2}},
      {"orthogonal()(k, (4, 3))", st::initializers::orthogonal()(k, {4, 3}), {-0.01653873920440674, 0.9798700213432312, -0.14570099115371704, 0.0897190272808075, -0.10146704316139221, 0.20810864865779877, -0.8419257998466492, 0.06932298839092255, 0.5343053936958313, 0.5318253040313721, 0.157333642244339, 0.8062130808830261}, {4, 3}},
      {"orthogonal(2.0, column_axis=0)(k, (3, 2, 2))", st::initializers::orthogonal(2.0, 0)(k, {3, 2, 2}), {-0.03307747840881348, 0.179438054561615, -1.6838515996932983, 1.0636506080627441, 1.9597400426864624, -0.20293408632278442, 0.1386459767818451, 0.314667284488678, -0.2914019823074341, 0.41621729731559753, 1.0686107873916626, 1.6124261617660522}, {3, 2, 2}},
      {"delta_orthogonal()(k, (3, 2, 3))", st::initializers::delta_orthogonal()(k, {3, 2, 3}), {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.08792734146118164, 0.918591320514679, -0.3853037655353546, 0.8722633719444275, 0.2578020393848419, 0.41556569933891296, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, {3, 2, 3}},
      {"jax.random.orthogonal(k, 3, (2,))", st::random::orthogonal(k, 3, {2}), {-0.01952970027923584, 0.9952678084373474, 0.09518957138061523, 0.10594390332698822, -0.09261152893304825, 0.9900500774383545, -0.99418044090271, -0.02941983938217163, 0.10363386571407318, 0.4702564477920532, -0.8768280148506165, -0.10015670210123062, 0.746992290019989, 0.45589762926101685, -0.48390063643455505, 0.4699588716030121, 0.15274114906787872, 0.8693726658821106}, {2, 3, 3}},
      {"jax.random.orthogonal(k, 2, m=4)", st::random::orthogonal(k, 2, {}, st::f32, 4), {-0.01917135715484619, 0.20028646290302277, -0.0840103030204773, -0.9759407043457031, 0.7993233799934387, 0.5303018093109131, 0.2739070653915405, 0.06955062597990036}, {2, 4}},
  };
  // Uniform draws equal JAX's bit for bit; normal ones to a few ulps; QR results to ~1e-6.
  st::testing::expect_jax_cases(cases, [](const st::testing::JaxCase&, double w) { return 2e-6 * std::max(1.0, std::fabs(w)); });
}

TEST(Initializers, VariancesAndOrthogonality) {
  Array k = st::random::key(7);
  // fan_in = 256, fan_out = 512: He's variance 2/256, Glorot's 2/768, LeCun's 1/256.
  struct V {
    const char* name;
    init::Initializer f;
    double variance;
  };
  for (const V& v : {V{"he_normal", init::he_normal(), 2.0 / 256}, V{"he_uniform", init::he_uniform(), 2.0 / 256},
                     V{"glorot_normal", init::glorot_normal(), 2.0 / 768}, V{"glorot_uniform", init::glorot_uniform(), 2.0 / 768},
                     V{"lecun_normal", init::lecun_normal(), 1.0 / 256}}) {
    SCOPED_TRACE(v.name);
    Array w = v.f(k, {256, 512});
    EXPECT_EQ(w.dtype(), st::f32);
    double var = st::var(w).item<double>();
    EXPECT_NEAR(var, v.variance, 0.03 * v.variance);
  }
  // Orthogonal columns: qᵀq = I (more rows than columns), rows orthonormal when wider.
  Array q = init::orthogonal()(k, {6, 4}, st::f64);
  D qtq = values(st::matmul(st::matrix_transpose(q), q));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(qtq[static_cast<size_t>(i * 4 + j)], i == j ? 1.0 : 0.0, 1e-12);
  Array r = st::random::orthogonal(k, 2, {3}, st::f64, 5);
  EXPECT_EQ(r.shape(), (st::Shape{3, 2, 5}));
  D rrt = values(st::matmul(r, st::matrix_transpose(r)));
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) EXPECT_NEAR(rrt[static_cast<size_t>(b * 4 + i * 2 + j)], i == j ? 1.0 : 0.0, 1e-12);
  // The factory's dtype is the default; the call's wins.
  EXPECT_EQ(init::normal(1.0, st::f64)(k, {2}).dtype(), st::f64);
  EXPECT_EQ(init::normal(1.0, st::f64)(k, {2}, st::bf16).dtype(), st::bf16);
  EXPECT_EQ(init::zeros()(k, {2, 2}, st::i32).dtype(), st::i32);
  // Initialisers trace: under jit, with the key as an argument.
  auto draw = st::jit([](const Array& key) { return init::glorot_uniform()(key, {8, 8}); });
  EXPECT_EQ(values(draw(k)), values(init::glorot_uniform()(k, {8, 8})));
}

TEST(Initializers, Errors) {
  Array k = st::random::key(0);
  EXPECT_THROW(init::glorot_uniform()(k, {5}), st::ValueError);
  EXPECT_THROW(init::variance_scaling(1.0, "fan_middle", "normal"), st::ValueError);
  EXPECT_THROW(init::variance_scaling(1.0, "fan_in", "cauchy"), st::ValueError);
  EXPECT_THROW(init::he_normal({5})(k, {2, 3}), st::ValueError);
  EXPECT_THROW(init::orthogonal()(k, {4}), st::ValueError);
  EXPECT_THROW(init::delta_orthogonal()(k, {3, 4, 2}), st::ValueError);
  EXPECT_THROW(init::delta_orthogonal()(k, {3, 3}), st::ValueError);
  EXPECT_THROW(init::normal()(k, {2}, st::i32), st::DTypeError);
  EXPECT_THROW(st::random::orthogonal(k, 3, {}, st::i32), st::DTypeError);
}

TEST(Initializers, ComplexDrawsAsJax) {
  // JAX 0.10.2 (x64) for key 42: complex normal (two keys of a split, each part of variance 1/2),
  // variance_scaling's complex uniform (the unit-variance disk) and truncated normal (modulus
  // cut at 2), as (re, im) pairs.
  Array k = st::random::key(42);
  using st::testing::real_imag;
  st::testing::expect_jax_cases({
    {"st::initializers::normal(2.0)(k, {3}, st::c128)", real_imag(st::initializers::normal(2.0)(k, {3}, st::c128)), {-1.0186590585284263, 0.9190860972151917, -0.3685756280888743, 0.16755405431961243, 2.378096986656057, -2.2001194625970792}, {3, 2}},
    {"st::initializers::variance_scaling(1.0, \"fan_in\", \"uniform\")(k, {2, 2}, st::c128)", real_imag(st::initializers::variance_scaling(1.0, "fan_in", "uniform")(k, {2, 2}, st::c128)), {-0.024028971942065852, -0.4848634207852085, -0.6027703618237628, -0.1840102615309868, 0.9082386439637451, 0.3588541411250997, -0.28487200686921244, 0.5855131933366035}, {2, 2, 2}},
    {"st::initializers::variance_scaling(2.0, \"fan_avg\", \"truncated_normal\")(k, {2, 2}, st::c128)", real_imag(st::initializers::variance_scaling(2.0, "fan_avg", "truncated_normal")(k, {2, 2}, st::c128)), {-0.0266391049232256, -0.5375314254339585, -0.7054104463042298, -0.21534363487679745, 1.6187836749082796, 0.6395975652294883, -0.3367546114646954, 0.6921503804339948}, {2, 2, 2}},
    {"st::initializers::glorot_normal()(k, {2, 2}, st::c64)", real_imag(st::initializers::glorot_normal()(k, {2, 2}, st::c64)), {-0.08897597342729568, -0.6298359036445618, 0.10601933300495148, -0.43715229630470276, 0.45403507351875305, 0.9921532869338989, -0.06325952708721161, 0.7954655885696411}, {2, 2, 2}},
    {"st::random::normal(k, {3}, st::c64)", real_imag(st::random::normal(k, {3}, st::c64)), {0.05368746072053909, 0.4283398389816284, -0.34389618039131165, 0.5650094747543335, 0.9123944640159607, -0.6427084803581238}, {3, 2}},
  }, [](const st::testing::JaxCase& c, double w) {
    const bool c64 = std::string(c.expr).find("c64") != std::string::npos;
    return (c64 ? 2e-6 : 1e-13) * std::max(1.0, std::fabs(w));
  });
  // Large draws: E|w|² near the target variance (1/fan_in here), the mean 0. JAX's constant
  // .9531… is sqrt(1 − 5e⁻⁴), the truncated second moment before its normalisation by 1 − e⁻⁴,
  // so its complex truncated normal has E|w|² = 1.0187 · variance; strata draws JAX's values.
  Array w = st::initializers::variance_scaling(1.0, "fan_in", "truncated_normal")(k, {400, 250}, st::c128);
  const double m2 = (1 - 5 * std::exp(-4.0)) / (1 - std::exp(-4.0)) / (1 - 5 * std::exp(-4.0));
  EXPECT_NEAR(st::mean(st::real(w * st::conj(w))).item<double>(), m2 / 400, 0.01 / 400);
  EXPECT_NEAR(st::abs(st::mean(w)).item<double>(), 0.0, 1e-4);
  // The initializers JAX refuses complex for refuse it too.
  st::testing::expect_error([&] { st::initializers::uniform()(k, {2}, st::c64); }, "initializers: expects a real floating-point dtype, but got c64");
  st::testing::expect_error([&] { st::initializers::orthogonal()(k, {2, 2}, st::c64); }, "initializers: expects a real floating-point dtype, but got c64");
}

}  // namespace
