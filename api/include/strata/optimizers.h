// strata/optimizers.h — gradient transformations and optimizers, as optax has them: functional
// (the state is a value: a flat list of arrays, which jit takes, returns and may donate), on the
// leaves of any pytree of parameters, composable with chain, with learning-rate schedules that
// are functions of the step count (traced like any other code).
//
//   auto opt = st::optim::chain({st::optim::clip_by_global_norm(1.0),
//                                st::optim::adamw(st::optim::warmup_cosine_decay_schedule(0, 1e-3, 100, 1000))});
//   st::optim::OptState state = opt.init(params);
//   auto step = st::jit([&](const Params& p, const st::optim::OptState& s, const Batch& b) {
//     auto [loss, g] = st::value_and_grad(loss_fn)(p, b);
//     auto [updates, s2] = opt.update(g, s, p);
//     return std::make_tuple(st::optim::apply_updates(p, updates), s2, loss);
//   });
//
// Each transformation follows optax 0.2's formulas (tests/api/test_optimizers.cpp checks them
// against optax's values). Updates are added to the parameters (the learning rate enters
// negated, as in optax).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/array.h"
#include "strata/pytree.h"

namespace strata::optim {

// A scalar that depends on the step count: a function of a 0-d i32 count giving a 0-d f32 value.
class Schedule {
 public:
  struct Impl {
    virtual ~Impl() = default;
    virtual Array operator()(const Array& count) const = 0;
  };
  // A constant (any C++ number) converts implicitly: adam(1e-3), sgd(lr) with an int64_t lr.
  template <class T>
    requires std::is_arithmetic_v<T>
  Schedule(T constant) : Schedule(static_cast<double>(constant), Constant{}) {}  // NOLINT
  explicit Schedule(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  // A schedule of any function of the count: Schedule::of([](const Array& n) { ... }).
  template <class F>
  static Schedule of(F f) {
    struct Fn final : Impl {
      explicit Fn(F g) : f(std::move(g)) {}
      Array operator()(const Array& count) const override { return f(count); }
      F f;
    };
    return Schedule(std::make_shared<const Fn>(std::move(f)));
  }
  // The value at `count` (an integer 0-d array, or a C++ integer).
  Array operator()(const Array& count) const;
  // The constant, when it is one (no count needed).
  std::optional<double> constant() const { return constant_; }

 private:
  struct Constant {};
  Schedule(double constant, Constant);
  std::shared_ptr<const Impl> impl_;
  std::optional<double> constant_;
};

Schedule constant_schedule(double value);
// init → end over transition_steps after transition_begin steps, as (1 - t/T)^power.
Schedule polynomial_schedule(double init_value, double end_value, double power, int64_t transition_steps,
                             int64_t transition_begin = 0);
Schedule linear_schedule(double init_value, double end_value, int64_t transition_steps, int64_t transition_begin = 0);
// init · rate^((count - begin) / transition_steps) (floored when staircase), bounded by end_value.
Schedule exponential_decay(double init_value, int64_t transition_steps, double decay_rate, int64_t transition_begin = 0,
                           bool staircase = false, std::optional<double> end_value = {});
// init · ((1 - alpha) · (0.5 (1 + cos(π min(count, T) / T)))^exponent + alpha).
Schedule cosine_decay_schedule(double init_value, int64_t decay_steps, double alpha = 0, double exponent = 1);
// Linear warmup from init to peak over warmup_steps, then cosine decay to end_value at decay_steps.
Schedule warmup_cosine_decay_schedule(double init_value, double peak_value, int64_t warmup_steps, int64_t decay_steps,
                                      double end_value = 0, double exponent = 1);
// schedules[0] until boundaries[0], then schedules[1] counted from there, …
Schedule join_schedules(std::vector<Schedule> schedules, std::vector<int64_t> boundaries);
// init_value, multiplied by each scale once the count passes its boundary.
Schedule piecewise_constant_schedule(double init_value, std::map<int64_t, double> boundaries_and_scales);

// An optimizer's state: arrays only, so that a jitted step takes and returns it.
using OptState = std::vector<Array>;

// optax's GradientTransformation: init(params) → state, update(updates, state, params) →
// (new updates, new state), on the leaves of a pytree.
class GradientTransformation {
 public:
  struct Impl;
  explicit GradientTransformation(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  template <class P>
  OptState init(const P& params) const {
    std::vector<Array> leaves = tree_flatten(params);
    return init_leaves(leaves);
  }
  // `params` is needed by transformations that read the parameters (add_decayed_weights, adamw).
  template <class P>
  std::pair<P, OptState> update(const P& updates, const OptState& state, const P& params) const {
    std::vector<Array> u = tree_flatten(updates), p = tree_flatten(params);
    auto [out, s] = update_leaves(u, state, p);
    return {tree_unflatten(updates, out), std::move(s)};
  }
  template <class P>
  std::pair<P, OptState> update(const P& updates, const OptState& state) const {
    std::vector<Array> u = tree_flatten(updates);
    auto [out, s] = update_leaves(u, state, {});
    return {tree_unflatten(updates, out), std::move(s)};
  }

  // The same on flat lists of leaves (params empty: not given).
  OptState init_leaves(std::span<const Array> params) const;
  std::pair<std::vector<Array>, OptState> update_leaves(std::span<const Array> updates, const OptState& state,
                                                        std::span<const Array> params) const;
  const std::shared_ptr<const Impl>& impl() const { return impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

// ---- Building blocks (optax.transforms) ----
GradientTransformation identity();
GradientTransformation chain(std::vector<GradientTransformation> transforms);
GradientTransformation scale(double step_size);
GradientTransformation scale_by_schedule(Schedule step_size);
// −learning_rate (a schedule is evaluated at the count of updates so far, from 0).
GradientTransformation scale_by_learning_rate(Schedule learning_rate);
GradientTransformation scale_by_adam(double b1 = 0.9, double b2 = 0.999, double eps = 1e-8, double eps_root = 0,
                                     bool nesterov = false);
GradientTransformation scale_by_rms(double decay = 0.9, double eps = 1e-8, double initial_scale = 0,
                                    bool eps_in_sqrt = true, bool bias_correction = false);
GradientTransformation scale_by_stddev(double decay = 0.9, double eps = 1e-8, double initial_scale = 0,
                                       bool eps_in_sqrt = true, bool bias_correction = false);
GradientTransformation scale_by_rss(double initial_accumulator_value = 0.1, double eps = 1e-7);
// Momentum: t ← g + decay·t; the update is t (or g + decay·t with nesterov).
GradientTransformation trace(double decay, bool nesterov = false);
GradientTransformation add_decayed_weights(double weight_decay);
GradientTransformation clip(double max_delta);
GradientTransformation clip_by_global_norm(double max_norm);

// ---- Optimizers (optax's aliases) ----
GradientTransformation sgd(Schedule learning_rate, std::optional<double> momentum = {}, bool nesterov = false);
GradientTransformation adam(Schedule learning_rate, double b1 = 0.9, double b2 = 0.999, double eps = 1e-8,
                            double eps_root = 0, bool nesterov = false);
GradientTransformation nadam(Schedule learning_rate, double b1 = 0.9, double b2 = 0.999, double eps = 1e-8,
                             double eps_root = 0);
GradientTransformation adamw(Schedule learning_rate, double b1 = 0.9, double b2 = 0.999, double eps = 1e-8,
                             double eps_root = 0, double weight_decay = 1e-4, bool nesterov = false);
GradientTransformation rmsprop(Schedule learning_rate, double decay = 0.9, double eps = 1e-8, double initial_scale = 0,
                               bool eps_in_sqrt = true, bool centered = false, std::optional<double> momentum = {},
                               bool nesterov = false, bool bias_correction = false);
GradientTransformation adagrad(Schedule learning_rate, double initial_accumulator_value = 0.1, double eps = 1e-7);

// The square root of the sum of every leaf's squared magnitude (optax.global_norm).
Array global_norm_leaves(std::span<const Array> leaves);
template <class P>
Array global_norm(const P& tree) {
  std::vector<Array> leaves = tree_flatten(tree);
  return global_norm_leaves(leaves);
}

// params + updates, leaf by leaf, in each parameter's dtype (optax.apply_updates).
std::vector<Array> apply_updates_leaves(std::span<const Array> params, std::span<const Array> updates);
template <class P>
P apply_updates(const P& params, const P& updates) {
  std::vector<Array> p = tree_flatten(params), u = tree_flatten(updates);
  return tree_unflatten(params, apply_updates_leaves(p, u));
}

}  // namespace strata::optim
