// samples/pendulum_grad.cpp — a damped pendulum θ'' = -(g/L) sin θ - c θ' stepped with
// st::scan (semi-implicit Euler), and the derivative of the final angle with respect to the
// damping c by st::grad through the scan. Checks the gradient against central finite
// differences (f64) and the compiled gradient against the eager one; prints the
// compiled-vs-eager speedup of the gradient; exits non-zero on a disagreement.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

constexpr int kSteps = 1000;
constexpr double kDt = 0.005, kGOverL = 9.81;

// The final angle after kSteps steps from (θ0, ω0) with damping c; the trajectory of θ is
// the scan's stacked output.
std::pair<Array, Array> simulate(const Array& c, const Array& theta0) {
  auto step = [&](const std::pair<Array, Array>& s, const std::tuple<>&) {
    Array omega = s.second + (-kGOverL * st::sin(s.first) - c * s.second) * kDt;
    Array theta = s.first + omega * kDt;
    return std::make_pair(std::make_pair(theta, omega), theta);
  };
  auto [final_state, trajectory] =
      st::scan(step, std::make_pair(theta0, st::zeros({}, st::f64)), std::tuple<>{}, {.length = kSteps});
  return {final_state.first, trajectory};
}

Array final_angle(const Array& c, const Array& theta0) { return simulate(c, theta0).first; }

template <class F>
double seconds(F&& f, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
}

int main() {
  Array c = st::full({}, 0.3, st::f64), theta0 = st::full({}, 1.2, st::f64);
  auto dtheta_dc = st::grad(final_angle);
  auto jit_dtheta_dc = st::jit(dtheta_dc);
  double g_eager = dtheta_dc(c, theta0).item<double>();
  double g_jit = jit_dtheta_dc(c, theta0).item<double>();
  const double eps = 1e-6;
  double fd = (final_angle(c + eps, theta0).item<double>() - final_angle(c - eps, theta0).item<double>()) / (2 * eps);
  double t_eager = seconds([&] { dtheta_dc(c, theta0).block_until_ready(); }, 1);
  double t_jit = seconds([&] { jit_dtheta_dc(c, theta0).block_until_ready(); }, 20);
  std::printf("damped pendulum, %d steps: theta(T) = %.6f\n", kSteps, final_angle(c, theta0).item<double>());
  std::printf("d theta(T) / d c: jit %.9f, eager %.9f, finite differences %.9f\n", g_jit, g_eager, fd);
  std::printf("grad eager %.3f ms, jit %.3f ms: speedup %.1fx\n", t_eager * 1e3, t_jit * 1e3, t_eager / t_jit);
  double scale = std::max(1.0, std::fabs(fd));
  if (std::fabs(g_eager - fd) > 1e-5 * scale) {
    std::printf("FAILED: the gradient disagrees with finite differences\n");
    return 1;
  }
  if (std::fabs(g_jit - g_eager) > 1e-9 * scale) {
    std::printf("FAILED: the compiled gradient disagrees with eager mode\n");
    return 1;
  }
  return 0;
}
