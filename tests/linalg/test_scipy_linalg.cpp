// jax.scipy.linalg's solve_triangular, cho_factor/cho_solve, lu_factor/lu_solve, expm and expm_frechet
// (strata/linalg.h): residuals, values from jax.scipy (jax 0.10, x64), jit against eager,
// batches, and expm's gradient as JAX's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::testing::error_message;
using st::testing::expect_contains;
using st::testing::expect_elements;

namespace {

double max_abs(const st::Array& a) { return st::max(st::abs(a)).item<double>(); }

st::Array spd() { return st::array(std::vector<double>{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2}, {3, 3}); }
st::Array general() { return st::array(std::vector<double>{0, 2, 1, 1, 1, 0, 3, 0, 1}, {3, 3}); }
st::Array rhs() { return st::array(std::vector<double>{1, 2, 0, 1, 3, -1}, {3, 2}); }
st::Array m3() { return st::array(std::vector<double>{1, 2, 0, 0.5, -1, 3, 2, 0.1, 0.4}, {3, 3}); }

}  // namespace

TEST(ScipyLinalg, SolveTriangularEveryTrans) {
  st::Array t = st::tril(m3() + st::eye(3, 3, 0, st::f64) * 3.0);
  st::Array b = rhs();
  for (int trans : {0, 1, 2}) {
    st::Array x = la::solve_triangular(t, b, trans, /*lower=*/true);
    st::Array op = trans == 0 ? t : st::transpose(t);
    EXPECT_LT(max_abs(st::matmul(op, x) - b), 1e-12) << "trans " << trans;
  }
  // Complex with trans 2 (aᴴ), and a vector right-hand side.
  st::Array c = st::complex(st::triu(m3() + st::eye(3, 3, 0, st::f64) * 3.0), st::triu(m3()) * 0.5);
  st::Array bv = st::complex(st::array(std::vector<double>{1, 2, 3}, {3}), st::zeros({3}, st::f64));
  st::Array x = la::solve_triangular(c, bv, 2);
  EXPECT_EQ(x.shape(), (st::Shape{3}));
  EXPECT_LT(max_abs(st::matmul(st::conj(st::transpose(c)), x) - bv), 1e-12);
  expect_contains(error_message<st::ShapeError>([&] { (void)la::solve_triangular(t, st::ones({4}, st::f64)); }),
                  "solve_triangular: expects b [..., 3] or [..., 3, k]");
}

TEST(ScipyLinalg, ChoAndLuSolvesAsJax) {
  for (bool lower : {false, true}) {
    la::ChoFactor f = la::cho_factor(spd(), lower);
    EXPECT_EQ(f.lower, lower);
    st::Array x = la::cho_solve(f, rhs());
    EXPECT_LT(max_abs(st::matmul(spd(), x) - rhs()), 1e-12) << (lower ? "lower" : "upper");
  }
  la::LuFactor lf = la::lu_factor(general());
  EXPECT_EQ(lf.pivots.to_vector<int32_t>(), (std::vector<int32_t>{2, 2, 2}));
  expect_elements(la::lu_solve(lf, rhs()), {0.4, -0.2, -0.4, 1.2, 1.8, -0.4}, 1e-12);
  expect_elements(la::lu_solve(lf, rhs(), 1), {1.6, -0.8, -3.2, 2.6, 1.4, -0.2}, 1e-12);
  expect_elements(st::jit([](const st::Array& lu, const st::Array& piv, const st::Array& b) {
                  return la::lu_solve({lu, piv}, b);
                })(lf.lu, lf.pivots, rhs()),
                {0.4, -0.2, -0.4, 1.2, 1.8, -0.4}, 1e-12);
  EXPECT_EQ(la::lu_pivots_to_permutation(lf.pivots, 3).to_vector<int32_t>(), la::lu(general()).permutation.to_vector<int32_t>());
  // A batch of systems, trans 2 on complex ones.
  st::Array batch = st::stack({general(), spd()});
  st::Array cb = st::complex(batch, st::stack({spd(), general()}) * 0.25);
  st::Array bb = st::complex(st::stack({rhs(), rhs() * 2.0}), st::zeros({2, 3, 2}, st::f64));
  st::Array x = la::lu_solve(la::lu_factor(cb), bb, 2);
  EXPECT_LT(max_abs(st::matmul(st::conj(st::swapaxes(cb, -1, -2)), x) - bb), 1e-12);
}

TEST(ScipyLinalg, ExpmAsJax) {
  expect_elements(la::expm(st::array(std::vector<double>{0, 1, -1, 0}, {2, 2})),
                {0.5403023058681397, 0.8414709848078965, -0.8414709848078966, 0.5403023058681397}, 1e-14);
  std::vector<double> want{7.188225068321298, 4.167852793594641, 4.894443944182167, 5.936407142580828, 3.265094471935767,
                           4.783446007137312, 6.49271366708117,  3.4224108296926885, 4.681628617902817};
  expect_elements(la::expm(m3()), want, 1e-13);
  expect_elements(st::jit([](const st::Array& a) { return la::expm(a); })(m3()), want, 1e-13);
  expect_elements(la::expm(st::astype(m3(), st::f32)), want, 2e-6);
  // A large norm: squarings.
  expect_elements(la::expm(m3() * 10.0),
                {304109869580.411, 169411303374.27612, 219110525062.73203, 261463350906.30127, 145654092459.2716,
                 188383797542.5947, 273488802779.0739, 152353143293.24124, 197048110468.6937},
                1e-11);
  // A batch: each matrix its own degree; complex: exp(iθ·J) for J the rotation generator.
  st::Array both = la::expm(st::stack({m3(), m3() * 0.01}));
  EXPECT_EQ(both.shape(), (st::Shape{2, 3, 3}));
  expect_elements(st::index(both, {0}), want, 1e-13);
  expect_elements(st::index(both, {1}), st::astype(la::expm(m3() * 0.01), st::f64).to_vector<double>(), 1e-15);
  st::Array j = st::complex(st::zeros({2, 2}, st::f64), st::array(std::vector<double>{0, 1, 1, 0}, {2, 2}));
  st::Array e = la::expm(j);  // exp(i σx) = cos 1 · I + i sin 1 · σx
  expect_elements(st::real(e), {std::cos(1.0), 0, 0, std::cos(1.0)}, 1e-14);
  expect_elements(st::imag(e), {0, std::sin(1.0), std::sin(1.0), 0}, 1e-14);
}

TEST(ScipyLinalg, ExpmGradientAsJax) {
  st::Array g = st::grad([](const st::Array& m) { return st::sum(la::expm(m) * la::expm(m)); })(m3());
  expect_elements(g,
                {219.314728576373, 170.41434143566843, 190.57597990009347, 132.21949193834138, 103.89653861677598,
                 115.47105179542386, 173.42915054445422, 136.1743314528494, 151.92105002059898},
                1e-11);
}

TEST(ScipyLinalg, ExpmFrechetAsJax) {
  // Values: tests/linalg/expm_frechet_jax_values.py.
  st::Array A = st::testing::sin_squares({3, 3}, 0.41, 0.3) * 0.8, E = st::testing::sin_squares({3, 3}, 0.23, 0.7);
  st::testing::expect_jax_cases({
    {"st::linalg::expm_frechet(A, E).expm", st::linalg::expm_frechet(A, E).expm, {1.194539289780815, 1.1079222472740637, 0.8347827419592695, -1.0127079139152566, 0.7139060078220482, -1.5500752051923294, 0.35681085310821703, 1.5274156180047256, 1.8245875569986536}, {3, 3}},
    {"st::linalg::expm_frechet(A, E).frechet", st::linalg::expm_frechet(A, E).frechet, {1.205926235118815, 1.3574297157105142, 1.8713859444568126, 0.21212002797714297, -1.0218245019825605, 0.12284812898817629, 1.601902848384221, -0.5907174555023885, 1.8590283653124504}, {3, 3}},
  }, [](const st::testing::JaxCase&, double want) { return 1e-13 * (std::fabs(want) + 1.0); });
  // Against a central difference of expm.
  const double h = 1e-6;
  st::Array fd = (la::expm(A + E * h) - la::expm(A - E * h)) / (2 * h);
  st::testing::expect_relative(la::expm_frechet(A, E).frechet, st::testing::values(fd), 1e-8, 1e-9);
  expect_contains(error_message<st::ShapeError>([&] { la::expm_frechet(A, E[0]); }),
                  "expm_frechet: expects the direction e of a's shape f64[3,3], but got f64[3]");
}

TEST(NumpyLinalgExtras, RankCondMultiDotEigvalshAsJax) {
  st::Array a = st::array(std::vector<double>{1, 2, 3, 2, 4, 6, 1, 0, 1}, {3, 3});
  EXPECT_EQ(la::matrix_rank(a).item<int32_t>(), 2);
  EXPECT_EQ(la::matrix_rank(st::stack({a, st::eye(3, 3, 0, st::f64)})).to_vector<int32_t>(), (std::vector<int32_t>{2, 3}));
  st::Array b = st::array(std::vector<double>{1, 2, 3, 4}, {2, 2});
  expect_elements(la::cond(b), {14.933034373659265}, 1e-13);
  expect_elements(la::cond(b, 1), {21}, 1e-13);
  expect_elements(la::cond(b, "fro"), {15}, 1e-13);
  EXPECT_TRUE(std::isinf(la::cond(st::array(std::vector<double>{1, 2, 2, 4}, {2, 2}), 1).item<double>()));
  // multi_dot in the cheapest order equals the left-to-right product; 1-d ends are vectors.
  st::Array p = st::reshape(st::astype(st::arange(12), st::f64), {3, 4}) * 0.1;
  st::Array q = st::reshape(st::astype(st::arange(8), st::f64), {4, 2});
  st::Array r = st::reshape(st::astype(st::arange(10), st::f64), {2, 5}) - 3.0;
  EXPECT_LT(max_abs(la::multi_dot({p, q, r}) - st::matmul(st::matmul(p, q), r)), 1e-12);
  st::Array v = st::array(std::vector<double>{1, -1, 2}, {3}), w = st::array(std::vector<double>{0.5, 1, 2, -1, 3}, {5});
  st::Array vw = la::multi_dot({v, p, q, r, w});
  EXPECT_EQ(vw.shape(), (st::Shape{}));
  EXPECT_NEAR(vw.item<double>(), st::sum(st::matmul(st::matmul(st::matmul(st::matmul(v, p), q), r), w)).item<double>(), 1e-9);
  expect_elements(la::eigvalsh(spd()), la::eigh(spd()).eigenvalues.to_vector<double>(), 0);
}

TEST(NumpyLinalgExtras, BlockDiagToeplitzAsJax) {
  st::Array bd = la::block_diag({st::array(std::vector<int32_t>{1, 2, 3, 4}, {2, 2}), st::array(std::vector<int32_t>{5}, {1}),
                                 st::array(std::vector<int32_t>{6, 7}, {2, 1})});
  EXPECT_EQ(bd.shape(), (st::Shape{5, 4}));
  EXPECT_EQ(bd.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 0, 0, 0, 0, 6, 0, 0, 0, 7}));
  st::Array t = la::toeplitz(st::array(std::vector<int32_t>{1, 2, 3}, {3}), st::array(std::vector<int32_t>{1, 4, 5, 6}, {4}));
  EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{1, 4, 5, 6, 2, 1, 4, 5, 3, 2, 1, 4}));
  st::Array c = st::complex(st::array(std::vector<double>{1, 2}, {2}), st::array(std::vector<double>{1, 0}, {2}));
  st::Array h = la::toeplitz(c);  // r defaults to conj(c); the diagonal is c[0]
  expect_elements(st::real(h), {1, 2, 2, 1}, 0);
  expect_elements(st::imag(h), {1, 0, 0, 1}, 0);
}

TEST(NumpyLinalgExtras, DiagonalVanderPolynomialsAsJax) {
  st::Array x = st::reshape(st::arange(24), {2, 3, 4});
  EXPECT_EQ(st::diagonal(x, 1, 1, 2).to_vector<int32_t>(), (std::vector<int32_t>{1, 6, 11, 13, 18, 23}));
  EXPECT_EQ(st::diagonal(st::reshape(st::arange(12), {3, 4}), -1).to_vector<int32_t>(), (std::vector<int32_t>{4, 9}));
  EXPECT_EQ(st::matrix_transpose(x).shape(), (st::Shape{2, 4, 3}));
  st::Array vd = st::vecdot(st::complex(st::array(std::vector<double>{1, 2}, {2}), st::array(std::vector<double>{1, 0}, {2})),
                            st::complex(st::array(std::vector<double>{3, 0}, {2}), st::array(std::vector<double>{0, 1}, {2})));
  EXPECT_EQ(st::real(vd).item<double>(), 3);
  EXPECT_EQ(st::imag(vd).item<double>(), -1);
  expect_elements(st::vander(st::array(std::vector<double>{1, 2, 3}, {3})), {1, 1, 1, 4, 2, 1, 9, 3, 1}, 0);
  expect_elements(st::vander(st::array(std::vector<double>{1, 2}, {2}), 3, true), {1, 1, 1, 1, 2, 4}, 0);
  st::Array p = st::array(std::vector<double>{3, 2, 1, 5}, {4});
  expect_elements(st::polyder(p), {9, 4, 1}, 0);
  expect_elements(st::polyder(p, 2), {18, 4}, 0);
  expect_elements(st::polyint(st::array(std::vector<double>{3, 2, 1}, {3})), {1, 1, 1, 0}, 0);
  expect_elements(st::polyint(st::array(std::vector<double>{6, 2}, {2}), 2, 1.0), {1, 1, 1, 1}, 0);
  expect_elements(st::polyfit(st::array(std::vector<double>{0, 1, 2, 3}, {4}), st::array(std::vector<double>{1, 3, 7, 13}, {4}), 2),
                  {1, 1, 1}, 1e-12);
}
