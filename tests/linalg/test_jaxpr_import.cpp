// jaxprs JAX 0.10 printed for jax.lax.linalg calls (params JAX has and strata ignores included:
// conjugate_a, algorithm, subset_by_index, pivoting, use_magma…) parse, evaluate eagerly and
// compile, with the same results as strata's own calls.
#include "jaxpr_parser.h"
#include "linalg_test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using namespace st::testing;

namespace {

st::Jaxpr parse(const std::string& text) {
  st::ParsedJaxpr p = st::parse_jaxpr(text, "linalg.jaxpr");
  EXPECT_TRUE(p.jaxpr) << p.error.line << ":" << p.error.column << ": " << p.error.message;
  return st::Jaxpr(p.jaxpr);
}

TEST(LinalgJaxpr, JaxsPrintedProgramsRun) {
  st::Jaxpr j = parse(
      "{ lambda ; a:f32[3,3] b:f32[3,2]. let\n"
      "    c:f32[3,3] = cholesky a\n"
      "    j:f32[3,2] = triangular_solve[\n"
      "      conjugate_a=False\n      left_side=True\n      lower=True\n      transpose_a=False\n"
      "      unit_diagonal=False\n    ] c b\n"
      "    k:f32[3,3] l:i32[3] m:i32[3] = lu a\n"
      "    n:f32[3,3] o:f32[3,3] = qr[full_matrices=True pivoting=False use_magma=None] a\n"
      "    p:f32[3,3] q:f32[3] = eigh[\n      algorithm=None\n      lower=True\n      sort_eigenvalues=True\n"
      "      subset_by_index=None\n    ] a\n"
      "    r:f32[3] s:f32[3,3] t:f32[3,3] = svd[\n      algorithm=None\n      compute_uv=True\n"
      "      full_matrices=False\n      subset_by_index=None\n    ] a\n"
      "  in (j, k, m, n, q, r) }");
  Array a = spd({3, 3}, st::f32, 1), b = rnd({3, 2}, st::f32, 2);
  std::vector<Array> want = {la::triangular_solve(la::cholesky(a), b, true, true), la::lu(a).lu, la::lu(a).permutation,
                             la::qr(a, true).q, la::eigh(a).eigenvalues, la::svdvals(a)};
  std::vector<Array> eager = st::eval_jaxpr(j, {a, b});
  std::vector<Array> jitted = st::jit([&](const Array& x, const Array& y) { return st::eval_jaxpr(j, {x, y}); })(a, b);
  ASSERT_EQ(eager.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    expect_near(eager[i], want[i], 1e-5, "eager output " + std::to_string(i));
    expect_same(jitted[i], eager[i], "jit output " + std::to_string(i));
  }
}

TEST(LinalgJaxpr, JaxsPrintedEigRuns) {
  st::Jaxpr j = parse(
      "{ lambda ; a:f32[4,4]. let\n"
      "    b:c64[4] c:c64[4,4] d:c64[4,4] = eig[\n      compute_left_eigenvectors=True\n"
      "      compute_right_eigenvectors=True\n      use_magma=None\n    ] a\n"
      "    e:c64[4] = eig[compute_left_eigenvectors=False compute_right_eigenvectors=False use_magma=None] a\n"
      "  in (b, c, d, e) }");
  Array a = rnd({4, 4}, st::f32, 3);
  la::EigResult e = la::eig(a, true, true);
  std::vector<Array> want = {e.eigenvalues, e.left_eigenvectors, e.eigenvectors, la::eigvals(a)};
  std::vector<Array> eager = st::eval_jaxpr(j, {a});
  std::vector<Array> jitted = st::jit([&](const Array& x) { return st::eval_jaxpr(j, {x}); })(a);
  ASSERT_EQ(eager.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::string what = "output " + std::to_string(i);
    expect_same(st::real(eager[i]), st::real(want[i]), "eager real " + what);
    expect_same(st::imag(eager[i]), st::imag(want[i]), "eager imag " + what);
    expect_same(st::real(jitted[i]), st::real(eager[i]), "jit real " + what);
    expect_same(st::imag(jitted[i]), st::imag(eager[i]), "jit imag " + what);
  }
}

TEST(LinalgJaxpr, JaxsPrintedComplexProgramsRun) {
  // Complex operands: eigh's eigenvalues and svd's singular values real; triangular_solve with
  // conjugate_a and transpose_a (op(a) = aᴴ).
  st::Jaxpr j = parse(
      "{ lambda ; a:c64[3,3] b:c64[3,2]. let\n"
      "    c:c64[3,3] = cholesky a\n"
      "    d:c64[3,2] = triangular_solve[\n"
      "      conjugate_a=True\n      left_side=True\n      lower=True\n      transpose_a=True\n"
      "      unit_diagonal=False\n    ] c b\n"
      "    e:c64[3,3] f:f32[3] = eigh[\n      algorithm=None\n      lower=True\n      sort_eigenvalues=True\n"
      "      subset_by_index=None\n    ] a\n"
      "    g:f32[3] = svd[\n      algorithm=None\n      compute_uv=False\n"
      "      full_matrices=False\n      subset_by_index=None\n    ] a\n"
      "  in (d, f, g) }");
  Array x = rnd({3, 3}, st::f32, 4), y = rnd({3, 3}, st::f32, 5);
  Array a = st::add(st::matmul(st::complex(x, y), st::conj(mT(st::complex(x, y)))), st::astype(st::eye(3) * 3.0f, st::c64));
  Array b = st::complex(rnd({3, 2}, st::f32, 6), rnd({3, 2}, st::f32, 7));
  std::vector<Array> want = {la::triangular_solve(la::cholesky(a, false), b, true, true, true, false, true),
                             la::eigh(a, false).eigenvalues, la::svdvals(a)};
  std::vector<Array> eager = st::eval_jaxpr(j, {a, b});
  std::vector<Array> jitted = st::jit([&](const Array& x, const Array& y) { return st::eval_jaxpr(j, {x, y}); })(a, b);
  ASSERT_EQ(eager.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(eager[i].dtype(), want[i].dtype());
    std::string what = "output " + std::to_string(i);
    expect_same(st::real(eager[i]), st::real(want[i]), "eager real " + what);
    expect_same(st::imag(eager[i]), st::imag(want[i]), "eager imag " + what);
    expect_same(st::real(jitted[i]), st::real(eager[i]), "jit real " + what);
    expect_same(st::imag(jitted[i]), st::imag(eager[i]), "jit imag " + what);
  }
}

}  // namespace
