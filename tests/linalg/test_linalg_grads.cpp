// Derivatives of the decompositions and composites: JVP against central finite differences and
// VJP against JVP (tests/autodiff/check_grads.h), in f64, at points where they are defined
// (distinct eigenvalues and singular values, stable pivots). Eigen- and singular vectors are
// compared with a fixed sign (each column's first entry made positive), which the derivative of
// the normalisation leaves unchanged.
#include "autodiff/check_grads.h"
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using namespace st::testing;

namespace {

Array flat(const std::vector<Array>& xs) {
  std::vector<Array> parts;
  for (const Array& x : xs) parts.push_back(st::reshape(x, {-1}));
  return st::concatenate(parts);
}

// Each column of v times the sign of its first entry (the same signs applied to rows of vt).
Array column_signs(const Array& v) {
  std::vector<int64_t> start(v.ndim(), 0), stop(v.shape().begin(), v.shape().end());
  stop[v.ndim() - 2] = 1;
  return st::sign(st::slice(v, start, stop));
}

Array well_conditioned(const st::Shape& s, uint64_t seed) {
  return st::add(rnd(s, st::f64, seed), st::eye(s.back(), -1, 0, st::f64) * 4.0);
}

TEST(LinalgGrads, Cholesky) {
  check_grads([](const std::vector<Array>& x) { return la::cholesky(x[0]); }, {spd({2, 3, 3}, st::f64, 1)}, "cholesky");
  check_grads([](const std::vector<Array>& x) { return la::cholesky(x[0], false); }, {spd({4, 4}, st::f64, 2)},
              "cholesky without symmetrizing");
}

TEST(LinalgGrads, TriangularSolveEveryFlag) {
  for (int f = 0; f < 16; ++f) {
    bool left = f & 1, lower = f & 2, trans = f & 4, unit = f & 8;
    Array a = well_conditioned({2, 3, 3}, 10 + f);
    Array b = rnd(left ? st::Shape{2, 3, 2} : st::Shape{2, 2, 3}, st::f64, 30 + f);
    check_grads([=](const std::vector<Array>& x) { return la::triangular_solve(x[0], x[1], left, lower, trans, unit); },
                {a, b}, "flags " + std::to_string(f));
  }
}

TEST(LinalgGrads, Lu) {
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{2, 3, 3}, st::Shape{5, 3}, st::Shape{3, 5}})
    check_grads([](const std::vector<Array>& x) { return la::lu(x[0]).lu; }, {rnd(s, st::f64, 3)},
                "lu " + st::shape_string(s));
}

TEST(LinalgGrads, Qr) {
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{5, 3}, st::Shape{2, 4, 2}})
    check_grads([](const std::vector<Array>& x) {
      la::QrResult f = la::qr(x[0]);
      return flat({f.q, f.r});
    }, {rnd(s, st::f64, 4)}, "qr " + st::shape_string(s));
  // JAX defines no derivative for wide matrices: a clear error.
  expect_error<st::ValueError>([] { st::grad([](const Array& x) { return st::sum(la::qr(x).r); })(rnd({2, 4}, st::f64, 1)); },
                               {"qr", "m >= n"});
}

TEST(LinalgGrads, Eigh) {
  check_grads([](const std::vector<Array>& x) {
    la::EighResult e = la::eigh(x[0]);
    return flat({e.eigenvalues, st::multiply(e.eigenvectors, column_signs(e.eigenvectors))});
  }, {rnd({2, 4, 4}, st::f64, 5)}, "eigh");
  // Eigenvalues alone stay differentiable at a repeated eigenvalue.
  Array g = st::grad([](const Array& x) { return st::sum(la::eigh(x).eigenvalues); })(st::eye(3, -1, 0, st::f64));
  expect_near(g, st::eye(3, -1, 0, st::f64), 1e-12, "d trace = I");
}

TEST(LinalgGrads, Svd) {
  for (const st::Shape& s : {st::Shape{4, 4}, st::Shape{5, 3}, st::Shape{3, 5}, st::Shape{2, 4, 3}})
    check_grads([](const std::vector<Array>& x) {
      la::SvdResult f = la::svd(x[0], false);
      Array sg = column_signs(f.u);
      return flat({f.s, st::multiply(f.u, sg), st::multiply(f.vt, mT(sg))});
    }, {rnd(s, st::f64, 6)}, "svd " + st::shape_string(s));
  check_grads([](const std::vector<Array>& x) { return la::svdvals(x[0]); }, {rnd({3, 5}, st::f64, 7)}, "svdvals");
  check_grads([](const std::vector<Array>& x) {
    la::SvdResult f = la::svd(x[0], true);
    Array sg = column_signs(f.u);
    return flat({f.s, st::multiply(f.u, sg), st::multiply(f.vt, mT(sg))});
  }, {rnd({3, 3}, st::f64, 8)}, "svd full square");
  expect_error<st::ValueError>([] { st::grad([](const Array& x) { return st::sum(la::svd(x, true).u); })(rnd({3, 2}, st::f64, 1)); },
                               {"svd", "full_matrices"});
}

TEST(LinalgGrads, Composites) {
  Array a = well_conditioned({3, 3}, 9), b = rnd({3, 2}, st::f64, 10);
  check_grads([](const std::vector<Array>& x) { return la::solve(x[0], x[1]); }, {a, b}, "solve");
  check_grads([](const std::vector<Array>& x) { return la::inv(x[0]); }, {a}, "inv");
  check_grads([](const std::vector<Array>& x) { return la::det(x[0]); }, {rnd({2, 3, 3}, st::f64, 11)}, "det");
  check_grads([](const std::vector<Array>& x) { return la::slogdet(x[0]).logabsdet; }, {rnd({3, 3}, st::f64, 12)}, "slogdet");
  check_grads([](const std::vector<Array>& x) { return la::pinv(x[0]); }, {rnd({4, 3}, st::f64, 13)}, "pinv");
  check_grads([](const std::vector<Array>& x) { return la::lstsq(x[0], x[1]).x; }, {rnd({5, 3}, st::f64, 14), rnd({5, 2}, st::f64, 15)},
              "lstsq");
  check_grads([](const std::vector<Array>& x) { return la::norm(x[0], 2); }, {rnd({3, 4}, st::f64, 16)}, "norm 2");
  check_grads([](const std::vector<Array>& x) { return la::norm(x[0], "nuc"); }, {rnd({3, 4}, st::f64, 17)}, "norm nuc");
  check_grads([](const std::vector<Array>& x) { return la::norm(x[0], 3, std::vector<int>{1}); }, {rnd({3, 4}, st::f64, 18)},
              "vector 3-norm");
  check_grads([](const std::vector<Array>& x) { return la::matrix_power(x[0], -2); }, {a}, "matrix_power -2");
}

// jit(grad) ≡ grad, and grad under vmap ≡ per-example grads.
TEST(LinalgGrads, JitAndVmapOfGrad) {
  auto loss = [](const Array& x) {
    Array l = la::cholesky(x);
    return st::sum(st::log(st::sum(l * l, -1)));
  };
  Array a = spd({4, 4}, st::f64, 19);
  expect_near(st::jit(st::grad(loss))(a), st::grad(loss)(a), 1e-12, "jit grad");
  Array as = spd({3, 4, 4}, st::f64, 20);
  Array gs = st::vmap(st::grad(loss))(as);
  for (int i = 0; i < 3; ++i) expect_near(gs[i], st::grad(loss)(as[i]), 1e-12, "vmap grad " + std::to_string(i));
}

}  // namespace
