// samples/gp_regression.cpp — Gaussian process regression on synthetic data (issue 14). Draws
// 1-D inputs and a function from a GP with an RBF kernel (known lengthscale, signal variance
// and noise), then fits the three hyperparameters by gradient ascent on the log marginal
// likelihood
//     log p(y) = -½ yᵀ K⁻¹ y - Σ log diag(L) - n/2 log 2π,   K = L Lᵀ = k(X, X) + σ_n² I,
// computed with linalg::cholesky and two triangular solves, differentiated and compiled as
// st::jit(st::value_and_grad(...)). Prints the fitted values next to the true ones and the
// posterior mean's error at held-out points; exits non-zero if the ascent did not reach a
// likelihood at least that of the true hyperparameters (the maximum-likelihood estimate must),
// or if the compiled gradient disagrees with the eager one.
#include <chrono>
#include <cmath>
#include <cstdio>

#include "strata/strata.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;

constexpr int kTrain = 300, kTest = 60;
constexpr double kTrueLengthscale = 0.7, kTrueSignalVar = 1.5, kTrueNoiseVar = 0.04;

// k(a, b) = σ_f² exp(-|a - b|² / (2 ℓ²)) for 1-d inputs a [n], b [m].
Array rbf(const Array& a, const Array& b, const Array& lengthscale, const Array& signal_var) {
  Array d = st::expand_dims(a, 1) - st::expand_dims(b, 0);
  return signal_var * st::exp(-0.5 * d * d / (lengthscale * lengthscale));
}

// The log marginal likelihood of y at x for log-hyperparameters theta = (log ℓ, log σ_f², log σ_n²).
Array log_marginal_likelihood(const Array& theta, const Array& x, const Array& y) {
  Array p = st::exp(theta);
  Array l = p[0], sf = p[1], sn = p[2];
  int64_t n = x.shape(0);
  Array k = rbf(x, x, l, sf) + st::eye(n, -1, 0, st::f64) * sn;
  Array chol = la::cholesky(k);
  // α = K⁻¹ y = L⁻ᵀ (L⁻¹ y).
  Array z = la::triangular_solve(chol, st::expand_dims(y, 1), /*left_side=*/true, /*lower=*/true);
  Array alpha = la::triangular_solve(chol, z, true, true, /*transpose_a=*/true);
  return -0.5 * st::sum(st::expand_dims(y, 1) * alpha) - st::sum(st::log(st::diag(chol))) -
         0.5 * static_cast<double>(n) * std::log(2 * M_PI);
}

int main() {
  // Synthetic data: x uniform on [-12, 12] (about 17 lengthscales each side, so the sample pins
  // the signal variance down), f ~ GP(0, k_true), y = f + noise.
  Array keys = st::random::split(st::random::key(14), 3);
  int64_t total = kTrain + kTest;
  Array x_all = st::random::uniform(st::random::key_at(keys, 0), {total}, st::f64, -12.0, 12.0);
  Array k_true = rbf(x_all, x_all, st::full({}, kTrueLengthscale, st::f64), st::full({}, kTrueSignalVar, st::f64)) +
                 st::eye(total, -1, 0, st::f64) * 1e-8;
  Array f_all = st::squeeze(st::matmul(la::cholesky(k_true), st::random::normal(st::random::key_at(keys, 1), {total, 1}, st::f64)), 1);
  Array y_all = f_all + std::sqrt(kTrueNoiseVar) * st::random::normal(st::random::key_at(keys, 2), {total}, st::f64);
  Array x = st::slice(x_all, {0}, {kTrain}), y = st::slice(y_all, {0}, {kTrain});
  Array x_test = st::slice(x_all, {kTrain}, {total}), f_test = st::slice(f_all, {kTrain}, {total});

  auto eager_step = st::value_and_grad(log_marginal_likelihood);
  auto step = st::jit(eager_step);
  Array theta = st::array(std::vector<double>{0.0, 0.0, std::log(0.5)}, {3}, st::f64);  // ℓ = 1, σ_f² = 1, σ_n² = 0.5

  // The compiled gradient equals the eager one.
  auto [v0, g0] = step(theta, x, y);
  auto [v1, g1] = eager_step(theta, x, y);
  std::vector<double> gj = g0.to_vector<double>(), ge = g1.to_vector<double>();
  bool ok = true;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(gj[i] - ge[i]) > 1e-8 * std::max(1.0, std::fabs(ge[i]))) {
      std::printf("FAILED: compiled gradient %d = %.10g, eager %.10g\n", i, gj[i], ge[i]);
      ok = false;
    }

  // Gradient ascent with Adam on the log-hyperparameters.
  const double lr = 0.05, b1 = 0.9, b2 = 0.999;
  Array m = st::zeros({3}, st::f64), v = st::zeros({3}, st::f64);
  auto t0 = std::chrono::steady_clock::now();
  const int steps = 400;
  double lml = 0;
  for (int s = 1; s <= steps; ++s) {
    auto [value, g] = step(theta, x, y);
    lml = value.item<double>();
    m = m * b1 + g * (1 - b1);
    v = v * b2 + g * g * (1 - b2);
    Array mhat = m / (1 - std::pow(b1, s)), vhat = v / (1 - std::pow(b2, s));
    theta = theta + lr * mhat / (st::sqrt(vhat) + 1e-8);
    if (s == 1 || s % 100 == 0) std::printf("step %3d  log marginal likelihood %.4f\n", s, lml);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> fit = st::exp(theta).to_vector<double>();
  Array theta_true = st::log(st::array(std::vector<double>{kTrueLengthscale, kTrueSignalVar, kTrueNoiseVar}, {3}, st::f64));
  double lml_fit = log_marginal_likelihood(theta, x, y).item<double>();
  double lml_true = log_marginal_likelihood(theta_true, x, y).item<double>();

  std::printf("\n%d training points, %d steps of jit(value_and_grad) in %.2f s\n", kTrain, steps, secs);
  std::printf("%-18s %10s %10s\n", "hyperparameter", "true", "fitted");
  std::printf("%-18s %10.4f %10.4f\n", "lengthscale", kTrueLengthscale, fit[0]);
  std::printf("%-18s %10.4f %10.4f\n", "signal variance", kTrueSignalVar, fit[1]);
  std::printf("%-18s %10.4f %10.4f\n", "noise variance", kTrueNoiseVar, fit[2]);
  std::printf("log marginal likelihood: fitted %.4f, at the true values %.4f\n", lml_fit, lml_true);

  // Posterior mean at held-out inputs: k(X*, X) K⁻¹ y.
  Array p = st::exp(theta);
  Array kf = rbf(x, x, p[0], p[1]) + st::eye(kTrain, -1, 0, st::f64) * p[2];
  Array mean = st::squeeze(st::matmul(rbf(x_test, x, p[0], p[1]), la::solve(kf, st::expand_dims(y, 1))), 1);
  double rmse = std::sqrt(st::mean((mean - f_test) * (mean - f_test)).item<double>());
  double spread = std::sqrt(st::mean(f_test * f_test).item<double>());
  std::printf("held-out posterior mean RMSE %.4f (the function's RMS %.4f)\n", rmse, spread);

  if (lml_fit < lml_true - 1e-6) {
    std::printf("FAILED: the fitted likelihood is below the true hyperparameters'\n");
    ok = false;
  }
  if (!(rmse < 0.5 * spread)) {
    std::printf("FAILED: the posterior mean does not predict the held-out function\n");
    ok = false;
  }
  return ok ? 0 : 1;
}
