// strata/optimizers.h against optax 0.2.8 (values from tests/api/optimizers_optax_values.py):
// six steps of each optimizer on the same loss and parameters (f32), eagerly and as one jitted
// training step carrying the state; the schedules at a few counts; and the errors.
#include <gtest/gtest.h>

#include <map>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace opt = strata::optim;
using st::Array;
using st::testing::expect_relative;

namespace {

using Params = std::map<std::string, Array>;  // sorted by key, as a Python dict pytree: b, w

Params params0() {
  return {{"b", st::array<float>({0.1f, -0.2f, 0.3f}, {3})},
          {"w", st::array<float>({0.5f, -1.0f, 1.5f, 2.0f, -0.5f, 0.25f}, {2, 3})}};
}

Array loss(const Params& p) {
  const Array& w = p.at("w");
  return st::sum(w * w * st::array<float>({1, 2, 3}, {3})) + st::sum(st::power(p.at("b") - 1.0f, 4.0f));
}

std::vector<double> flat(const Params& p) {
  std::vector<double> v = p.at("b").to_vector<double>(), w = p.at("w").to_vector<double>();
  v.insert(v.end(), w.begin(), w.end());
  return v;
}

struct Case {
  const char* name;
  opt::GradientTransformation tx;
  std::vector<double> want;
};

std::vector<Case> cases() {
  return {
      {"sgd", opt::sgd(0.1), {0.631492555, 0.654130578, 0.640606105, 0.131071985, -0.0466559976, 0.00614399929, 0.524287939, -0.0233279988, 0.00102399965}},
      {"sgd_momentum", opt::sgd(0.1, 0.9), {1.7347765, 1.37660217, 1.30722106, -0.354487002, 0.364499986, 0.588452995, -1.41794801, 0.182249993, 0.0980754644}},
      {"sgd_nesterov", opt::sgd(0.1, 0.9, true), {1.55468082, 1.34832108, 1.2062794, -0.199009046, -0.00079998374, 0.104164377, -0.796036184, -0.00039999187, 0.0173607282}},
      {"adam", opt::adam(0.05), {0.388083249, 0.0921317115, 0.582736075, 0.207120299, -0.702567995, 1.20153403, 1.70108902, -0.207120299, -0.0237141326}},
      {"nadam", opt::nadam(0.05), {0.406878024, 0.116361424, 0.595611095, 0.182508171, -0.669069946, 1.16553271, 1.66391373, -0.182508171, -0.0246496722}},
      {"adamw", opt::adamw(0.05, 0.9, 0.999, 1e-8, 0, 0.1), {0.381749213, 0.0942269713, 0.571145058, 0.196508303, -0.676974475, 1.16108179, 1.64580226, -0.196508303, -0.0264731646}},
      {"rmsprop", opt::rmsprop(0.05), {0.504407465, 0.249129355, 0.660375357, 0.0721480399, -0.470725238, 0.942157149, 1.42909908, -0.072148025, 0.000262661546}},
      {"rmsprop_centered_momentum", opt::rmsprop(0.05, 0.9, 1e-8, 0, true, true, 0.5), {0.731849909, 0.530201435, 0.849877298, -0.059797667, -0.0841778591, 0.462687492, 0.908109426, 0.059797667, 0.0272160843}},
      {"rmsprop_bias_correction", opt::rmsprop(0.05, 0.9, 1e-8, 0, false, false, {}, false, true), {0.344728112, 0.0580257587, 0.530293465, 0.239677995, -0.718363047, 1.21191156, 1.70881057, -0.239677995, 0.0389231369}},
      {"adagrad", opt::adagrad(0.3), {0.627708375, 0.421844721, 0.746899724, 0.00534521881, -0.201910734, 0.589745164, 1.03941119, -0.00407531252, 4.1761632e-06}},
      {"clip_norm_adam_warmup_cosine", opt::chain({opt::clip_by_global_norm(1.0), opt::adam(opt::warmup_cosine_decay_schedule(0.0, 0.1, 2, 6))}), {0.393946111, 0.0969450474, 0.589868069, 0.20257315, -0.699619651, 1.19911623, 1.69893396, -0.20257315, -0.0314459242}},
      {"clip_sgd_staircase", opt::chain({opt::clip(0.5), opt::sgd(opt::exponential_decay(0.2, 2, 0.5, 0, true))}), {0.450000048, 0.150000006, 0.613338292, 0.162, -0.649999976, 1.1500001, 1.6500001, -0.149999991, 0.00392000051}},
  };
}

TEST(Optimizers, SixStepsAsOptax) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    Params p = params0();
    opt::OptState state = c.tx.init(p);
    for (int k = 0; k < 6; ++k) {
      auto [u, s] = c.tx.update(st::grad(loss)(p), state, p);
      p = opt::apply_updates(p, u);
      state = s;
    }
    // A few ulps of f32 over six steps (rsqrt and pow are not bit-equal to XLA's).
    expect_relative(st::concatenate({p.at("b"), st::reshape(p.at("w"), {6})}), c.want, 2e-6, 1e-7);
  }
}

// The same as one jitted step that takes and returns the state (a pytree of arrays).
TEST(Optimizers, JittedStepCarriesTheState) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    auto step = st::jit([tx = c.tx](const Params& p, const opt::OptState& s) {
      auto [l, g] = st::value_and_grad(loss)(p);
      auto [u, s2] = tx.update(g, s, p);
      return std::make_tuple(opt::apply_updates(p, u), s2, l);
    });
    Params p = params0();
    opt::OptState state = c.tx.init(p);
    for (int k = 0; k < 6; ++k) std::tie(p, state, std::ignore) = step(p, state);
    expect_relative(st::concatenate({p.at("b"), st::reshape(p.at("w"), {6})}), c.want, 2e-6, 1e-7);
  }
}

TEST(Optimizers, SchedulesAsOptax) {
  const std::vector<int> counts{0, 1, 2, 5, 7, 10, 50, 99, 100, 150};
  struct S {
    const char* name;
    opt::Schedule s;
    std::vector<double> want;
  };
  std::vector<S> ss = {
      {"linear", opt::linear_schedule(1.0, 0.1, 10, 2), {1, 1, 1, 0.730000019, 0.550000012, 0.279999971, 0.100000001, 0.100000001, 0.100000001, 0.100000001}},
      {"polynomial", opt::polynomial_schedule(1.0, 0.01, 2, 100, 5), {1, 1, 1, 1, 0.960796058, 0.903474987, 0.309475005, 0.0135639999, 0.0124750007, 0.00999999978}},
      {"exponential", opt::exponential_decay(1.0, 10, 0.5, 5, false, 0.3), {1, 1, 1, 1, 0.870550573, 0.707106769, 0.300000012, 0.300000012, 0.300000012, 0.300000012}},
      {"cosine", opt::cosine_decay_schedule(2.0, 50, 0.1, 2.0), {2, 1.99644983, 1.9858346, 1.9129796, 1.83276486, 1.67264402, 0.200000003, 0.200000003, 0.200000003, 0.200000003}},
      {"warmup_cosine", opt::warmup_cosine_decay_schedule(0.0, 1.0, 10, 100, 0.05), {0, 0.100000024, 0.199999988, 0.5, 0.699999988, 1, 0.607482851, 0.0502893515, 0.0500000007, 0.0500000007}},
      {"piecewise", opt::piecewise_constant_schedule(1.0, {{3, 0.5}, {7, 0.1}}), {1, 1, 1, 0.5, 0.0500000007, 0.0500000007, 0.0500000007, 0.0500000007, 0.0500000007, 0.0500000007}},
  };
  for (const S& s : ss) {
    SCOPED_TRACE(s.name);
    std::vector<double> got;
    for (int c : counts) got.push_back(s.s(Array(int32_t(c))).item<double>());
    expect_relative(st::array<double>(got, {static_cast<int64_t>(got.size())}), s.want, 2e-6, 1e-7);
    // Traced: the count is a jit argument.
    auto at = st::jit([&](const Array& n) { return s.s(n); });
    EXPECT_NEAR(at(Array(int32_t{7})).item<double>(), s.want[4], 2e-6) << s.name;
  }
  EXPECT_EQ(opt::constant_schedule(0.5)(Array(int32_t{9})).item<double>(), 0.5);
  // Any C++ number is a constant schedule (an int64_t or a float as well as a double).
  EXPECT_EQ(opt::Schedule(int64_t{2})(Array(int32_t{0})).item<double>(), 2.0);
  EXPECT_EQ(opt::Schedule(0.25f).constant(), 0.25);
  EXPECT_EQ(opt::sgd(int64_t{1}).init(params0()).size(), 0u);  // a constant rate keeps no count
  auto custom = opt::Schedule::of([](const Array& n) { return 1.0f / (st::astype(n, st::f32) + 1.0f); });
  EXPECT_NEAR(custom(Array(int32_t{3})).item<double>(), 0.25, 1e-7);
}

TEST(Optimizers, GlobalNormStateAndErrors) {
  Params p = params0();
  EXPECT_NEAR(opt::global_norm(p).item<double>(), std::sqrt(0.01 + 0.04 + 0.09 + 0.25 + 1 + 2.25 + 4 + 0.25 + 0.0625), 1e-6);
  opt::OptState s = opt::adam(0.1).init(p);
  EXPECT_EQ(s.size(), 5u);  // count, mu (b, w), nu (b, w)
  EXPECT_EQ(s[0].dtype(), st::i32);
  auto error = [](auto f) {
    try {
      f();
    } catch (const st::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  std::string other = error([&] { opt::sgd(0.1, 0.9).update(p, s); });
  EXPECT_NE(other.find("the state holds 5 arrays, but this transformation keeps 2 for 2 leaves"), std::string::npos) << other;
  std::string needs = error([&] {
    auto tx = opt::adamw(0.1);
    tx.update(p, tx.init(p));
  });
  EXPECT_NE(needs.find("add_decayed_weights: needs the parameters"), std::string::npos) << needs;
  std::string join = error([] { opt::join_schedules({opt::constant_schedule(1)}, {5}); });
  EXPECT_NE(join.find("one boundary fewer than schedules"), std::string::npos) << join;
  // The state is never modified: the old one still gives the same step.
  opt::GradientTransformation tx = opt::adam(0.1);
  opt::OptState s0 = tx.init(p);
  auto [u1, s1] = tx.update(st::grad(loss)(p), s0, p);
  auto [u2, s2] = tx.update(st::grad(loss)(p), s0, p);
  EXPECT_EQ(u1.at("w").to_vector<float>(), u2.at("w").to_vector<float>());
  EXPECT_EQ(s0[0].item<int>(), 0);
  EXPECT_EQ(s1[0].item<int>(), 1);
}

}  // namespace
