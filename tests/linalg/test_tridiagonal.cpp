// st::linalg::tridiagonal_solve (jax.lax.linalg) and eigh_tridiagonal / eigvalsh_tridiagonal
// (jax.scipy.linalg): against JAX 0.10.2's values (x64; tests/linalg/tridiagonal_jax_values.py)
// — a system whose small diagonal needs pivoting, a batched one, eigenvalues (all, an index
// range, f32) — against dense solves and eigh, derivatives of the solve in all four operands
// against finite differences, jit, vmap, perturb_singular on a singular system, eigenvectors
// (T v = λ v, orthonormal, clusters included), the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::testing::expect_relative;
using st::testing::JaxCase;
using st::testing::sin_sequence;
using st::testing::values;

namespace {

Array dense(const Array& dl, const Array& d, const Array& du) {
  const int64_t m = d.shape()[0];
  return st::diag(d) + st::diag(dl[st::Slice(1, m)], -1) + st::diag(du[st::Slice(0, m - 1)], 1);
}

TEST(Tridiagonal, AsJax) {
  Array DL = sin_sequence({6}, 0.7, 0.3), D = 0.1 * sin_sequence({6}, 0.5, 0.9), DU = sin_sequence({6}, 0.9, 0.2);
  Array B = sin_sequence({6, 2}, 0.4, 0.1);
  Array DLb = sin_sequence({2, 5}, 0.3, 0.4), Db = sin_sequence({2, 5}, 0.8, 0.6) + 3.0, DUb = sin_sequence({2, 5}, 0.6, 0.1);
  Array Bb = sin_sequence({2, 5, 3}, 0.2, 0.5);
  Array Dg = sin_sequence({8}, 0.6, 0.2) * 2.0, E = sin_sequence({7}, 0.9, 0.4);
  st::testing::expect_jax_cases({
    {"st::linalg::tridiagonal_solve(DL, D, DU, B)", st::linalg::tridiagonal_solve(DL, D, DU, B), {0.5322091666578355, 0.9865977414304782, 0.2926674199524888, 2.024180989641612, 0.34408090505236183, -0.07417807752172373, 0.7355969896367442, -1.2505041640871406, 1.3223497613446653, 1.5624739371633094, 0.359510659012928, 0.8420606175960236}, {6, 2}},
    {"st::linalg::tridiagonal_solve(DLb, Db, DUb, Bb)", st::linalg::tridiagonal_solve(DLb, Db, DUb, Bb), {0.12962348732289872, 0.17551142383963136, 0.2144022737462038, 0.17393124192917286, 0.1861321777520624, 0.19091261102203008, 0.1777464325054541, 0.16868550251898848, 0.15289961386497625, 0.17472745349134094, 0.1528056460712132, 0.12479195974832688, 0.027048800292238356, -0.04654657164396195, -0.11828627865491848, -0.1668383397558812, -0.25594922023535127, -0.33485621299850876, -0.38609211010754735, -0.3925603100598964, -0.3833783692458511, -0.3331768668153426, -0.3115913354449733, -0.2775836408137322, -0.22156384646161761, -0.17613388547226483, -0.12368202229174981, -0.09119918475935149, -0.04372560843674661, 0.005491169910094746}, {2, 5, 3}},
    {"st::linalg::eigvalsh_tridiagonal(Dg, E)", st::linalg::eigvalsh_tridiagonal(Dg, E), {-2.2805616301799314, -1.5072378134305406, 0.08324256037408789, 0.1555040073277098, 0.6791668110884856, 1.488286425915493, 1.71390511628171, 3.076574206763736}, {8}},
    {"st::linalg::eigvalsh_tridiagonal(Dg, E, \"i\", std::make_pair(2, 5))", st::linalg::eigvalsh_tridiagonal(Dg, E, "i", std::make_pair(2, 5)), {0.08324256037408789, 0.1555040073277098, 0.6791668110884856, 1.488286425915493}, {4}},
    {"st::linalg::eigvalsh_tridiagonal(st::astype(Dg, st::f32), st::astype(E, st::f32))", st::linalg::eigvalsh_tridiagonal(st::astype(Dg, st::f32), st::astype(E, st::f32)), {-2.280561923980713, -1.5072379112243652, 0.0832427591085434, 0.15550412237644196, 0.6791666746139526, 1.4882862567901611, 1.7139053344726562, 3.0765740871429443}, {8}},
  }, [](const JaxCase& c, double want) {
    const bool f32 = std::string(c.expr).find("f32") != std::string::npos;
    return (f32 ? 1e-6 : 1e-13) * (std::fabs(want) + 1.0);
  });
}

TEST(Tridiagonal, SolveAgainstDenseJitVmapGrad) {
  Array dl = sin_sequence({7}, 0.7, 0.3), d = 0.2 * sin_sequence({7}, 0.5, 0.9), du = sin_sequence({7}, 0.9, 0.2);
  Array b = sin_sequence({7, 3}, 0.4, 0.1);
  Array x = la::tridiagonal_solve(dl, d, du, b);
  expect_relative(x, values(la::solve(dense(dl, d, du), b)), 1e-11, 1e-12);
  expect_relative(st::jit([](const Array& l, const Array& m, const Array& u, const Array& r) { return la::tridiagonal_solve(l, m, u, r); })(dl, d, du, b),
                  values(x), 1e-14, 1e-15);
  // m = 1 and m = 2.
  expect_relative(la::tridiagonal_solve(d[st::Slice(0, 1)], d[st::Slice(0, 1)], d[st::Slice(0, 1)], b[st::Slice(0, 1)]),
                  values(b[st::Slice(0, 1)] / d[0]), 1e-15);
  Array d2 = d[st::Slice(0, 2)] + 1.0;
  expect_relative(la::tridiagonal_solve(dl[st::Slice(0, 2)], d2, du[st::Slice(0, 2)], b[st::Slice(0, 2)]),
                  values(la::solve(dense(dl[st::Slice(0, 2)], d2, du[st::Slice(0, 2)]), b[st::Slice(0, 2)])), 1e-13, 1e-14);
  // Complex.
  Array dc = st::complex(d + 2.0, dl), dlc = st::complex(dl, du), duc = st::complex(du, d);
  Array bc = st::complex(b, b * 0.5);
  expect_relative(st::testing::real_imag(la::tridiagonal_solve(dlc, dc, duc, bc)),
                  values(st::testing::real_imag(la::solve(dense(dlc, dc, duc), bc))), 1e-12, 1e-13);
  // vmap over a batch of systems equals the batched call.
  Array dls = st::stack({dl, dl * 2.0}), ds = st::stack({d, d + 1.0}), dus = st::stack({du, du}), bs = st::stack({b, b});
  Array batched = la::tridiagonal_solve(dls, ds, dus, bs);
  Array mapped = st::vmap([](const Array& l, const Array& m, const Array& u, const Array& r) { return la::tridiagonal_solve(l, m, u, r); })(dls, ds, dus, bs);
  expect_relative(mapped, values(batched), 1e-14, 1e-15);
  expect_relative(batched[1], values(la::solve(dense(dl * 2.0, d + 1.0, du), b)), 1e-11, 1e-12);
  // Derivatives in all four operands (dl[0] and du[m-1] do not enter: their derivatives are 0).
  st::testing::check_grads([](const std::vector<Array>& v) { return la::tridiagonal_solve(v[0], v[1], v[2], v[3]); },
                           {dl, d + 1.5, du, b}, "tridiagonal_solve", 1e-6);
  Array g = st::grad([&](const Array& l) { return st::sum(la::tridiagonal_solve(l, d + 1.5, du, b)); })(dl);
  EXPECT_EQ(g[0].item<double>(), 0.0);
  Array gd = st::grad([&](const Array& m) { return st::sum(st::sin(la::tridiagonal_solve(dl, m, du, b))); })(d + 1.5);
  Array gd_dense = st::grad([&](const Array& m) { return st::sum(st::sin(la::solve(dense(dl, m, du), b))); })(d + 1.5);
  expect_relative(gd, values(gd_dense), 1e-10, 1e-12);
}

TEST(Tridiagonal, PerturbSingular) {
  // Singular: two singular 2x2 blocks [[1, 1], [1, 1]]. Without perturbation the zero pivot
  // gives nan; with it, a finite (huge) solution.
  Array dl = st::array(std::vector<double>{0, 1, 0, 1}, {4}, st::f64), d = st::ones({4}, st::f64);
  Array du = st::array(std::vector<double>{1, 0, 1, 0}, {4}, st::f64);
  Array b = st::ones({4, 1}, st::f64);
  Array plain = la::tridiagonal_solve(dl, d, du, b);
  Array x = la::tridiagonal_solve(dl, d, du, b, true);
  EXPECT_TRUE(st::all(st::isfinite(x)).item<bool>()) << x;
  EXPECT_FALSE(st::all(st::isfinite(plain)).item<bool>()) << plain;
}

TEST(Tridiagonal, Eigenvectors) {
  Array d = sin_sequence({8}, 0.6, 0.2) * 2.0, e = sin_sequence({7}, 0.9, 0.4);
  Array t = dense(st::concatenate({st::zeros({1}, st::f64), e}), d, st::concatenate({e, st::zeros({1}, st::f64)}));
  la::EighResult r = la::eigh_tridiagonal(d, e);
  expect_relative(r.eigenvalues, values(la::eigvalsh(t)), 1e-13, 1e-13);
  Array resid = st::matmul(t, r.eigenvectors) - r.eigenvectors * r.eigenvalues;
  EXPECT_LT(st::max(st::abs(resid)).item<double>(), 1e-12);
  expect_relative(st::matmul(st::transpose(r.eigenvectors), r.eigenvectors), values(st::eye(8, 8, 0, st::f64)), 0, 1e-12);
  // A cluster: the 1-2-1 matrix's blocks repeated (equal eigenvalues), orthonormal vectors.
  Array dc = st::full({6}, 2.0, st::f64);
  Array ec = st::array(std::vector<double>{1, 0, 1, 0, 1}, {5}, st::f64);
  la::EighResult rc = la::eigh_tridiagonal(dc, ec);
  expect_relative(rc.eigenvalues, {1, 1, 1, 3, 3, 3}, 1e-14, 1e-14);
  Array tc = dense(st::concatenate({st::zeros({1}, st::f64), ec}), dc, st::concatenate({ec, st::zeros({1}, st::f64)}));
  EXPECT_LT(st::max(st::abs(st::matmul(tc, rc.eigenvectors) - rc.eigenvectors * rc.eigenvalues)).item<double>(), 1e-12);
  expect_relative(st::matmul(st::transpose(rc.eigenvectors), rc.eigenvectors), values(st::eye(6, 6, 0, st::f64)), 0, 1e-12);
  // An index range: the columns for those eigenvalues; under jit the same.
  la::EighResult ri = la::eigh_tridiagonal(d, e, "i", std::make_pair(1, 3));
  EXPECT_EQ(ri.eigenvectors.shape(), (st::Shape{8, 3}));
  EXPECT_LT(st::max(st::abs(st::matmul(t, ri.eigenvectors) - ri.eigenvectors * ri.eigenvalues)).item<double>(), 1e-12);
  auto jitted = st::jit([](const Array& dd, const Array& ee) { return la::eigh_tridiagonal(dd, ee).eigenvectors; });
  expect_relative(jitted(d, e), values(r.eigenvectors), 1e-10, 1e-12);
}

TEST(Tridiagonal, Errors) {
  Array d = st::zeros({4}, st::f64), b = st::zeros({4, 1}, st::f64);
  st::testing::expect_error([&] { la::tridiagonal_solve(st::zeros({3}, st::f64), d, d, b); }, "tridiagonal_solve: dl, d and du must share a shape and dtype, but got f64[3], f64[4] and f64[4]");
  st::testing::expect_error([&] { la::tridiagonal_solve(d, d, d, st::zeros({4}, st::f64)); }, "tridiagonal_solve: expects b [..., m, n] with the diagonals' f64[4] leading dimensions, but got f64[4]");
  st::testing::expect_error([&] { la::tridiagonal_solve(d, d, d, st::zeros({4, 1}, st::f32)); }, "tridiagonal_solve: b must have the diagonals' dtype f64, but got f32[4,1]");
  Array i = st::zeros({4}, st::i32);
  st::testing::expect_error([&] { la::tridiagonal_solve(i, i, i, st::zeros({4, 1}, st::i32)); }, "tridiagonal_solve: expects float or complex diagonals, but got i32[4]");
  st::testing::expect_error([&] { la::eigvalsh_tridiagonal(d, st::zeros({2}, st::f64)); }, "eigvalsh_tridiagonal: expects d [n] and e [n-1], but got f64[4] and f64[2]");
  st::testing::expect_error([&] { la::eigvalsh_tridiagonal(d, st::zeros({3}, st::f32)); }, "must have the same dtype");
  st::testing::expect_error([&] { la::eigvalsh_tridiagonal(d, st::zeros({3}, st::f64), "v"); }, "select=\"v\" is not implemented");
  st::testing::expect_error([&] { la::eigvalsh_tridiagonal(d, st::zeros({3}, st::f64), "i"); }, "select_range must be given");
  st::testing::expect_error([&] { la::eigvalsh_tridiagonal(d, st::zeros({3}, st::f64), "i", std::make_pair(2, 9)); }, "is outside the 4 eigenvalues");
}

}  // namespace
