// Gradient transformations and schedules (strata/optimizers.h), optax 0.2's formulas on flat
// lists of leaves. Scalars enter as weak C++ doubles, so every update keeps its leaf's dtype;
// counts are 0-d i32 arrays that saturate (optax's safe_increment).
#include "strata/optimizers.h"

#include <cmath>
#include <limits>
#include <string>

#include "strata/strata.h"

namespace strata::optim {

// ---- Schedules ---------------------------------------------------------------------------

namespace {

Array as_float(const Array& count) { return astype(count, f32); }
Array power_of(const Array& x, double p) { return p == 1 ? x : power(x, full({}, p, f32)); }

}  // namespace

Schedule::Schedule(double constant, Constant) : constant_(constant) {
  impl_ = Schedule::of([constant](const Array&) { return full({}, constant, f32); }).impl_;
}

Array Schedule::operator()(const Array& count) const { return (*impl_)(count); }

Schedule constant_schedule(double value) { return Schedule(value); }

Schedule polynomial_schedule(double init_value, double end_value, double power, int64_t transition_steps,
                             int64_t transition_begin) {
  if (transition_steps <= 0) return Schedule(init_value);  // optax: a constant schedule
  transition_begin = std::max<int64_t>(transition_begin, 0);
  return Schedule::of([=](const Array& count) {
    Array c = clip(count - static_cast<int32_t>(transition_begin), Array(int32_t{0}),
                   Array(static_cast<int32_t>(transition_steps)));
    Array frac = 1.0 - as_float(c) / static_cast<double>(transition_steps);
    return (init_value - end_value) * power_of(frac, power) + end_value;
  });
}

Schedule linear_schedule(double init_value, double end_value, int64_t transition_steps, int64_t transition_begin) {
  return polynomial_schedule(init_value, end_value, 1, transition_steps, transition_begin);
}

Schedule exponential_decay(double init_value, int64_t transition_steps, double decay_rate, int64_t transition_begin,
                           bool staircase, std::optional<double> end_value) {
  if (transition_steps <= 0) return Schedule(init_value);
  if (decay_rate == 0) throw ValueError("exponential_decay: decay_rate must be nonzero");
  return Schedule::of([=](const Array& count) {
    Array decreased = as_float(count) - static_cast<double>(transition_begin);
    Array p = decreased / static_cast<double>(transition_steps);
    if (staircase) p = floor(p);
    Array v = where(decreased <= 0.0, full({}, init_value, f32), init_value * power(full({}, decay_rate, f32), p));
    if (end_value) v = decay_rate < 1 ? maximum(v, full({}, *end_value, f32)) : minimum(v, full({}, *end_value, f32));
    return v;
  });
}

Schedule cosine_decay_schedule(double init_value, int64_t decay_steps, double alpha, double exponent) {
  if (decay_steps <= 0) throw ValueError("cosine_decay_schedule: decay_steps must be positive, but got " + std::to_string(decay_steps));
  return Schedule::of([=](const Array& count) {
    Array c = minimum(as_float(count), full({}, static_cast<double>(decay_steps), f32));
    Array cosine = 0.5 * (1.0 + cos(M_PI * c / static_cast<double>(decay_steps)));
    Array decayed = (1.0 - alpha) * (exponent == 1 ? cosine : power_of(cosine, exponent)) + alpha;
    return init_value * decayed;
  });
}

Schedule warmup_cosine_decay_schedule(double init_value, double peak_value, int64_t warmup_steps, int64_t decay_steps,
                                      double end_value, double exponent) {
  double alpha = peak_value == 0 ? 0 : end_value / peak_value;
  return join_schedules({linear_schedule(init_value, peak_value, warmup_steps),
                         cosine_decay_schedule(peak_value, decay_steps - warmup_steps, alpha, exponent)},
                        {warmup_steps});
}

Schedule join_schedules(std::vector<Schedule> schedules, std::vector<int64_t> boundaries) {
  if (schedules.empty() || boundaries.size() + 1 != schedules.size())
    throw ValueError("join_schedules: expects one boundary fewer than schedules, but got " +
                     std::to_string(schedules.size()) + " schedules and " + std::to_string(boundaries.size()) +
                     " boundaries");
  return Schedule::of([=](const Array& count) {
    Array out = schedules[0](count);
    for (size_t i = 0; i < boundaries.size(); ++i) {
      Array b(static_cast<int32_t>(boundaries[i]));
      out = where(count < b, out, schedules[i + 1](count - b));
    }
    return out;
  });
}

Schedule piecewise_constant_schedule(double init_value, std::map<int64_t, double> boundaries_and_scales) {
  for (const auto& [b, s] : boundaries_and_scales)
    if (s < 0) throw ValueError("piecewise_constant_schedule: scales must be non-negative, but " + std::to_string(s) +
                                " is at " + std::to_string(b));
  return Schedule::of([=](const Array& count) {
    Array v = full({}, init_value, f32);
    for (const auto& [boundary, s] : boundaries_and_scales)
      v = v * where(count >= Array(static_cast<int32_t>(boundary)), full({}, s, f32), full({}, 1.0, f32));
    return v;
  });
}

// ---- Transformations -----------------------------------------------------------------------

// One transformation: its state for n leaves (state_size(n) arrays), and the update of the
// updates in place from its slice of the state, returning the new slice.
struct GradientTransformation::Impl {
  virtual ~Impl() = default;
  virtual size_t state_size(size_t n) const = 0;
  virtual OptState init(std::span<const Array> params) const = 0;
  virtual OptState update(std::vector<Array>& updates, std::span<const Array> state,
                          std::span<const Array> params) const = 0;
};

namespace {

using Impl = GradientTransformation::Impl;

template <class T, class... A>
GradientTransformation make(A&&... a) {
  return GradientTransformation(std::make_shared<const T>(std::forward<A>(a)...));
}

Array zero_count() { return zeros({}, i32); }
Array safe_increment(const Array& count) {
  return where(count < Array(std::numeric_limits<int32_t>::max()), count + Array(int32_t{1}), count);
}
// |g|², g² for real leaves.
Array abs_sq(const Array& g) { return is_complex(g.dtype()) ? real(g * conj(g)) : g * g; }
// (1 - decay)·g^order + decay·t (optax.tree.update_moment and update_moment_per_elem_norm).
Array moment(const Array& g, const Array& t, double decay, int order) {
  return (1.0 - decay) * (order == 1 ? g : abs_sq(g)) + decay * t;
}
// m / (1 - decay^count), the correction computed in f32 as optax's.
Array bias_correction(const Array& m, double decay, const Array& count) {
  Array c = 1.0 - power(full({}, decay, f32), as_float(count));
  return m / astype(c, m.dtype());
}

// A transformation that keeps no state (its update returns an empty slice).
struct Stateless : Impl {
  size_t state_size(size_t) const override { return 0; }
  OptState init(std::span<const Array>) const override { return {}; }
};

struct Identity final : Stateless {
  OptState update(std::vector<Array>&, std::span<const Array>, std::span<const Array>) const override { return {}; }
};

struct Chain final : Impl {
  explicit Chain(std::vector<GradientTransformation> t) : parts(std::move(t)) {}
  size_t state_size(size_t n) const override {
    size_t s = 0;
    for (const auto& p : parts) s += p.impl()->state_size(n);
    return s;
  }
  OptState init(std::span<const Array> params) const override {
    OptState s;
    for (const auto& p : parts) {
      OptState part = p.impl()->init(params);
      s.insert(s.end(), part.begin(), part.end());
    }
    return s;
  }
  OptState update(std::vector<Array>& updates, std::span<const Array> state,
                  std::span<const Array> params) const override {
    OptState s;
    size_t at = 0;
    for (const auto& p : parts) {
      size_t k = p.impl()->state_size(updates.size());
      OptState part = p.impl()->update(updates, state.subspan(at, k), params);
      s.insert(s.end(), part.begin(), part.end());
      at += k;
    }
    return s;
  }
  std::vector<GradientTransformation> parts;
};

struct Scale final : Stateless {
  explicit Scale(double f) : factor(f) {}
  OptState update(std::vector<Array>& u, std::span<const Array>, std::span<const Array>) const override {
    for (Array& g : u) g = g * factor;
    return {};
  }
  double factor;
};

struct ScaleBySchedule final : Impl {
  ScaleBySchedule(Schedule s, double m) : schedule(std::move(s)), sign(m) {}
  size_t state_size(size_t) const override { return 1; }
  OptState init(std::span<const Array>) const override { return {zero_count()}; }
  OptState update(std::vector<Array>& u, std::span<const Array> state, std::span<const Array>) const override {
    Array step = schedule(state[0]) * sign;
    for (Array& g : u) g = astype(step, g.dtype()) * g;
    return {safe_increment(state[0])};
  }
  Schedule schedule;
  double sign;
};

// State: count, mu..., nu...
struct ScaleByAdam final : Impl {
  double b1, b2, eps, eps_root;
  bool nesterov;
  ScaleByAdam(double b1_, double b2_, double e, double er, bool n) : b1(b1_), b2(b2_), eps(e), eps_root(er), nesterov(n) {}
  size_t state_size(size_t n) const override { return 1 + 2 * n; }
  OptState init(std::span<const Array> params) const override {
    OptState s{zero_count()};
    for (const Array& p : params) s.push_back(zeros_like(p));
    for (const Array& p : params) s.push_back(zeros_like(p));
    return s;
  }
  OptState update(std::vector<Array>& u, std::span<const Array> state, std::span<const Array>) const override {
    const size_t n = u.size();
    Array count = safe_increment(state[0]);
    OptState s{count};
    std::vector<Array> nu(n);
    for (size_t i = 0; i < n; ++i) s.push_back(moment(u[i], state[1 + i], b1, 1));
    for (size_t i = 0; i < n; ++i) nu[i] = moment(u[i], state[1 + n + i], b2, 2);
    for (size_t i = 0; i < n; ++i) {
      const Array& mu = s[1 + i];
      Array mu_hat = nesterov ? b1 * bias_correction(mu, b1, safe_increment(count)) +
                                    (1.0 - b1) * bias_correction(u[i], b1, count)
                              : bias_correction(mu, b1, count);
      Array nu_hat = bias_correction(nu[i], b2, count);
      u[i] = mu_hat / (sqrt(nu_hat + eps_root) + eps);
    }
    s.insert(s.end(), nu.begin(), nu.end());
    return s;
  }
};

// scale_by_rms (centered = false) and scale_by_stddev (centered). State: [count], [mu...], nu...
struct ScaleByRms final : Impl {
  double decay, eps, initial_scale;
  bool eps_in_sqrt, bias_corr, centered;
  ScaleByRms(double d, double e, double i, bool s, bool b, bool c)
      : decay(d), eps(e), initial_scale(i), eps_in_sqrt(s), bias_corr(b), centered(c) {}
  size_t state_size(size_t n) const override { return (bias_corr ? 1 : 0) + (centered ? 2 : 1) * n; }
  OptState init(std::span<const Array> params) const override {
    OptState s;
    if (bias_corr) s.push_back(zero_count());
    if (centered)
      for (const Array& p : params) s.push_back(zeros_like(p));
    for (const Array& p : params) s.push_back(full_like(p, initial_scale));
    return s;
  }
  OptState update(std::vector<Array>& u, std::span<const Array> state, std::span<const Array>) const override {
    const size_t n = u.size();
    size_t at = 0;
    OptState s;
    Array count;
    if (bias_corr) {
      count = safe_increment(state[at++]);
      s.push_back(count);
    }
    std::vector<Array> mu(n), nu(n);
    if (centered) {
      for (size_t i = 0; i < n; ++i) mu[i] = moment(u[i], state[at + i], decay, 1);
      at += n;
      s.insert(s.end(), mu.begin(), mu.end());
    }
    for (size_t i = 0; i < n; ++i) nu[i] = moment(u[i], state[at + i], decay, 2);
    s.insert(s.end(), nu.begin(), nu.end());
    for (size_t i = 0; i < n; ++i) {
      Array nu_hat = bias_corr ? bias_correction(nu[i], decay, count) : nu[i];
      if (centered) nu_hat = nu_hat - abs_sq(bias_corr ? bias_correction(mu[i], decay, count) : mu[i]);
      Array scaling = eps_in_sqrt ? rsqrt(nu_hat + eps) : 1.0 / (sqrt(nu_hat) + eps);
      u[i] = scaling * u[i];
    }
    return s;
  }
};

struct ScaleByRss final : Impl {
  double initial, eps;
  ScaleByRss(double i, double e) : initial(i), eps(e) {}
  size_t state_size(size_t n) const override { return n; }
  OptState init(std::span<const Array> params) const override {
    OptState s;
    for (const Array& p : params) s.push_back(full_like(p, initial));
    return s;
  }
  OptState update(std::vector<Array>& u, std::span<const Array> state, std::span<const Array>) const override {
    OptState s;
    for (size_t i = 0; i < u.size(); ++i) {
      Array sos = abs_sq(u[i]) + state[i];
      s.push_back(sos);
      u[i] = where(sos > 0.0, rsqrt(sos + eps), zeros_like(sos)) * u[i];
    }
    return s;
  }
};

struct Trace final : Impl {
  double decay;
  bool nesterov;
  Trace(double d, bool n) : decay(d), nesterov(n) {}
  size_t state_size(size_t n) const override { return n; }
  OptState init(std::span<const Array> params) const override {
    OptState s;
    for (const Array& p : params) s.push_back(zeros_like(p));
    return s;
  }
  OptState update(std::vector<Array>& u, std::span<const Array> state, std::span<const Array>) const override {
    OptState s;
    for (size_t i = 0; i < u.size(); ++i) {
      Array t = u[i] + decay * state[i];
      s.push_back(t);
      u[i] = nesterov ? u[i] + decay * t : t;
    }
    return s;
  }
};

struct AddDecayedWeights final : Stateless {
  explicit AddDecayedWeights(double w) : weight_decay(w) {}
  OptState update(std::vector<Array>& u, std::span<const Array>, std::span<const Array> params) const override {
    if (weight_decay == 0) return {};
    if (params.size() != u.size())
      throw ValueError("add_decayed_weights: needs the parameters (call update(updates, state, params)), got " +
                       std::to_string(params.size()) + " for " + std::to_string(u.size()) + " updates");
    for (size_t i = 0; i < u.size(); ++i) u[i] = u[i] + weight_decay * params[i];
    return {};
  }
  double weight_decay;
};

struct Clip final : Stateless {
  explicit Clip(double m) : max_delta(m) {}
  OptState update(std::vector<Array>& u, std::span<const Array>, std::span<const Array>) const override {
    for (Array& g : u) g = clip(g, Array(-max_delta), Array(max_delta));
    return {};
  }
  double max_delta;
};

struct ClipByGlobalNorm final : Stateless {
  explicit ClipByGlobalNorm(double m) : max_norm(m) {}
  OptState update(std::vector<Array>& u, std::span<const Array>, std::span<const Array>) const override {
    if (u.empty()) return {};
    Array norm = global_norm_leaves(u);
    Array keep = norm < max_norm;
    for (Array& g : u) g = where(keep, g, (g / astype(norm, g.dtype())) * max_norm);
    return {};
  }
  double max_norm;
};

void check_state(const Impl& t, size_t n, const OptState& state) {
  if (state.size() != t.state_size(n))
    throw ValueError("GradientTransformation::update: the state holds " + std::to_string(state.size()) +
                     " arrays, but this transformation keeps " + std::to_string(t.state_size(n)) + " for " +
                     std::to_string(n) + " leaves (a state from another optimizer or parameter tree?)");
}

}  // namespace

OptState GradientTransformation::init_leaves(std::span<const Array> params) const { return impl_->init(params); }

std::pair<std::vector<Array>, OptState> GradientTransformation::update_leaves(std::span<const Array> updates,
                                                                              const OptState& state,
                                                                              std::span<const Array> params) const {
  check_state(*impl_, updates.size(), state);
  if (!params.empty() && params.size() != updates.size())
    throw ValueError("GradientTransformation::update: " + std::to_string(params.size()) + " parameters for " +
                     std::to_string(updates.size()) + " updates");
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].shape() != updates[i].shape())
      throw ShapeError("GradientTransformation::update: update " + std::to_string(i) + " is " +
                       type_string(updates[i].dtype(), updates[i].shape()) + ", but its parameter is " +
                       type_string(params[i].dtype(), params[i].shape()));
  std::vector<Array> u(updates.begin(), updates.end());
  OptState s = impl_->update(u, state, params);
  return {std::move(u), std::move(s)};
}

GradientTransformation identity() { return make<Identity>(); }
GradientTransformation chain(std::vector<GradientTransformation> transforms) { return make<Chain>(std::move(transforms)); }
GradientTransformation scale(double step_size) { return make<Scale>(step_size); }
GradientTransformation scale_by_schedule(Schedule step_size) { return make<ScaleBySchedule>(std::move(step_size), 1.0); }
GradientTransformation scale_by_learning_rate(Schedule learning_rate) {
  if (std::optional<double> c = learning_rate.constant()) return scale(-*c);
  return make<ScaleBySchedule>(std::move(learning_rate), -1.0);
}
GradientTransformation scale_by_adam(double b1, double b2, double eps, double eps_root, bool nesterov) {
  return make<ScaleByAdam>(b1, b2, eps, eps_root, nesterov);
}
GradientTransformation scale_by_rms(double decay, double eps, double initial_scale, bool eps_in_sqrt,
                                    bool bias_correction) {
  return make<ScaleByRms>(decay, eps, initial_scale, eps_in_sqrt, bias_correction, false);
}
GradientTransformation scale_by_stddev(double decay, double eps, double initial_scale, bool eps_in_sqrt,
                                       bool bias_correction) {
  return make<ScaleByRms>(decay, eps, initial_scale, eps_in_sqrt, bias_correction, true);
}
GradientTransformation scale_by_rss(double initial_accumulator_value, double eps) {
  return make<ScaleByRss>(initial_accumulator_value, eps);
}
GradientTransformation trace(double decay, bool nesterov) { return make<Trace>(decay, nesterov); }
GradientTransformation add_decayed_weights(double weight_decay) { return make<AddDecayedWeights>(weight_decay); }
GradientTransformation clip(double max_delta) { return make<Clip>(max_delta); }
GradientTransformation clip_by_global_norm(double max_norm) { return make<ClipByGlobalNorm>(max_norm); }

GradientTransformation sgd(Schedule learning_rate, std::optional<double> momentum, bool nesterov) {
  return chain({momentum ? trace(*momentum, nesterov) : identity(), scale_by_learning_rate(std::move(learning_rate))});
}
GradientTransformation adam(Schedule learning_rate, double b1, double b2, double eps, double eps_root, bool nesterov) {
  return chain({scale_by_adam(b1, b2, eps, eps_root, nesterov), scale_by_learning_rate(std::move(learning_rate))});
}
GradientTransformation nadam(Schedule learning_rate, double b1, double b2, double eps, double eps_root) {
  return adam(std::move(learning_rate), b1, b2, eps, eps_root, true);
}
GradientTransformation adamw(Schedule learning_rate, double b1, double b2, double eps, double eps_root,
                             double weight_decay, bool nesterov) {
  return chain({scale_by_adam(b1, b2, eps, eps_root, nesterov), add_decayed_weights(weight_decay),
                scale_by_learning_rate(std::move(learning_rate))});
}
GradientTransformation rmsprop(Schedule learning_rate, double decay, double eps, double initial_scale, bool eps_in_sqrt,
                               bool centered, std::optional<double> momentum, bool nesterov, bool bias_correction) {
  return chain({make<ScaleByRms>(decay, eps, initial_scale, eps_in_sqrt, bias_correction, centered),
                scale_by_learning_rate(std::move(learning_rate)),
                momentum ? trace(*momentum, nesterov) : identity()});
}
GradientTransformation adagrad(Schedule learning_rate, double initial_accumulator_value, double eps) {
  return chain({scale_by_rss(initial_accumulator_value, eps), scale_by_learning_rate(std::move(learning_rate))});
}

Array global_norm_leaves(std::span<const Array> leaves) {
  if (leaves.empty()) return zeros({}, f32);
  Array total;
  for (const Array& l : leaves) {
    Array s = sum(abs_sq(l));
    total = total.valid() ? total + s : s;
  }
  return sqrt(total);
}

std::vector<Array> apply_updates_leaves(std::span<const Array> params, std::span<const Array> updates) {
  if (params.size() != updates.size())
    throw ValueError("apply_updates: " + std::to_string(updates.size()) + " updates for " +
                     std::to_string(params.size()) + " parameters");
  std::vector<Array> out;
  for (size_t i = 0; i < params.size(); ++i)
    out.push_back(astype(astype(params[i], updates[i].dtype()) + updates[i], params[i].dtype()));
  return out;
}

}  // namespace strata::optim
