// Edge inputs of the jax.scipy / jnp modules added together (vectorize, the special matrices,
// sqrtm, odeint, the iterative solvers, RegularGridInterpolator, Rotation): empty and size-1
// shapes and degenerate values give results of the right shape (or JAX's NaN), never a crash.
#include <gtest/gtest.h>

#include <cmath>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

TEST(NewModuleEdgeInputs, EmptyAndSizeOne) {
  // vectorize over an empty loop dimension, and with a size-1 core.
  auto norms = st::vectorize([](const Array& r) { return st::sqrt(st::sum(r * r)); }, "(n)->()");
  EXPECT_EQ(norms(st::zeros({0, 3}, st::f64)).shape(), (st::Shape{0}));
  EXPECT_EQ(norms(st::ones({2, 1}, st::f64)).to_vector<double>(), (std::vector<double>{1, 1}));
  // Special matrices of one element; sqrtm of 1 × 1 and 0 × 0.
  EXPECT_EQ(st::linalg::circulant(Array(2.0)).shape(), (st::Shape{1, 1}));
  EXPECT_EQ(st::linalg::convolution_matrix(st::ones({1}, st::f64), 1).to_vector<double>(), (std::vector<double>{1}));
  st::testing::expect_relative(st::real(st::linalg::sqrtm(st::full({1, 1}, 9.0, st::f64))), {3.0}, 1e-15, 0);
  EXPECT_EQ(st::linalg::sqrtm(st::zeros({0, 0}, st::f64)).shape(), (st::Shape{0, 0}));
  // odeint at one time: y0 back.
  auto f = [](const Array& y, const Array&) { return -y; };
  EXPECT_EQ(st::ode::odeint(f, st::ones({3}, st::f64), st::zeros({1}, st::f64)).to_vector<double>(),
            (std::vector<double>{1, 1, 1}));
  // A zero right-hand side: the zero solution at once.
  Array a = st::eye(3, 3, 0, st::f64) * 2.0;
  EXPECT_EQ(st::sparse::linalg::cg(a, st::zeros({3}, st::f64)).x.to_vector<double>(), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(st::sparse::linalg::gmres(a, st::zeros({3}, st::f64)).x.to_vector<double>(), (std::vector<double>{0, 0, 0}));
  // Interpolation at no points.
  st::interpolate::RegularGridInterpolator g({st::array(std::vector<double>{0, 1}, {2}, st::f64)},
                                            st::array(std::vector<double>{0, 2}, {2}, st::f64));
  EXPECT_EQ(g(st::zeros({0, 1}, st::f64)).shape(), (st::Shape{0}));
  // A zero quaternion normalizes to NaN, as JAX's.
  EXPECT_TRUE(std::isnan(st::spatial::transform::Rotation::from_quat(st::zeros({4}, st::f64)).quat[0].item<double>()));
}

}  // namespace
