// st::sparse::linalg (jax.scipy.sparse.linalg): cg, bicgstab and gmres stopped early against
// JAX 0.10.2's iterates (x64; tests/api/sparse_linalg_jax_values.py), converged against a
// direct solve, with matrix and matrix-free operators, preconditioners, batched right-hand
// sides, jit, vmap, derivatives (forward and reverse mode, for matrices and for functions that
// capture one), the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace sla = strata::sparse::linalg;
using st::Array;
using st::testing::JaxCase;
using st::testing::sin_sequence;
using st::testing::sin_squares;
using st::testing::values;

namespace {

#define SOLVER_INPUTS                                                                      \
  Array P = sin_squares({6, 6}, 0.57, 0.3);                                                \
  Array S = st::matmul(P, st::transpose(P)) + 5.0 * st::eye(6, 6, 0, st::f64);             \
  Array G = sin_squares({6, 6}, 0.83, 0.2) + 4.0 * st::eye(6, 6, 0, st::f64);              \
  Array B = sin_sequence({6}, 0.7, 0.1);                                                   \
  Array D = st::array(std::vector<double>{1.0, 2.0, 0.5, 3.0, 1.5, 2.5}, {6}, st::f64)

TEST(SparseLinalg, IteratesAsJax) {
  SOLVER_INPUTS;
  st::testing::expect_jax_cases({
    {"sla::cg(S, B, {.maxiter = 3}).x", sla::cg(S, B, {.maxiter = 3}).x, {0.015321198858372163, 0.07007186223640045, 0.12169359104979445, 0.14372521045661457, -0.04462365882947053, -0.039692194233526594}, {6}},
    {"sla::cg(S, B, {.maxiter = 2}, [&](const Array& r) { return r / D; }).x", sla::cg(S, B, {.maxiter = 2}, [&](const Array& r) { return r / D; }).x, {-0.0010063387886499954, 0.07097108616088559, 0.11050855814344343, 0.10626953589812867, -0.006959765116711033, -0.05897868326946129}, {6}},
    {"sla::bicgstab(G, B, {.maxiter = 2}).x", sla::bicgstab(G, B, {.maxiter = 2}).x, {-0.023954503469504607, 0.2284914824091074, 0.3456664772245409, 0.23671878641560476, -0.005637362140182053, -0.17280669474176405}, {6}},
    {"sla::gmres(G, B, {.maxiter = 1, .restart = 3}).x", sla::gmres(G, B, {.maxiter = 1, .restart = 3}).x, {-0.012500852564782727, 0.23270416806934013, 0.3483110206124525, 0.2400968785617075, -0.0005371779269289386, -0.18623521641546292}, {6}},
    {"sla::gmres(G, B, {.maxiter = 2, .restart = 2}, [&](const Array& r) { return r / D; }).x", sla::gmres(G, B, {.maxiter = 2, .restart = 2}, [&](const Array& r) { return r / D; }).x, {-0.013237387416795816, 0.22500447921957376, 0.343634582967567, 0.22326964162088195, -0.0031688375147673194, -0.1676859848778372}, {6}},
    {"sla::gmres(G, B, {.maxiter = 1, .restart = 3, .solve_method = \"incremental\"}).x", sla::gmres(G, B, {.maxiter = 1, .restart = 3, .solve_method = "incremental"}).x, {-0.012500852564782743, 0.2327041680693402, 0.34831102061245256, 0.24009687856170756, -0.0005371779269289774, -0.18623521641546298}, {6}},
    {"sla::gmres(G, B, {.maxiter = 2, .restart = 2, .solve_method = \"incremental\"}, [&](const Array& r) { return r / D; }).x", sla::gmres(G, B, {.maxiter = 2, .restart = 2, .solve_method = "incremental"}, [&](const Array& r) { return r / D; }).x, {-0.01323738741679581, 0.22500447921957373, 0.34363458296756694, 0.22326964162088192, -0.0031688375147673254, -0.16768598487783717}, {6}},
    {"sla::gmres(G, B, {.tol = 1e-3, .restart = 6, .solve_method = \"incremental\"}).x", sla::gmres(G, B, {.tol = 1e-3, .restart = 6, .solve_method = "incremental"}).x, {-0.011331318160326854, 0.23445211776546016, 0.34909618237555023, 0.2376789057211038, -0.0004639466973339587, -0.18494998410408842}, {6}},
  }, [](const JaxCase&, double want) { return 1e-12 * std::fabs(want) + 1e-13; });
}

TEST(SparseLinalg, ConvergeToTheSolution) {
  SOLVER_INPUTS;
  const std::vector<double> want_s = values(st::linalg::solve(S, B)), want_g = values(st::linalg::solve(G, B));
  const sla::SolverOptions tight{.tol = 1e-12};
  st::testing::expect_relative(sla::cg(S, B, tight).x, want_s, 1e-9, 1e-10);
  st::testing::expect_relative(sla::bicgstab(G, B, tight).x, want_g, 1e-9, 1e-10);
  sla::SolveResult g = sla::gmres(G, B, tight);
  st::testing::expect_relative(g.x, want_g, 1e-9, 1e-10);
  EXPECT_EQ(g.info.item<int32_t>(), 0);
  EXPECT_FALSE(sla::cg(S, B).info.valid());  // None, as JAX's
  // A matrix-free operator (a closure) and a preconditioner; x0 given.
  auto op = [&](const Array& x) { return st::matmul(S, x); };
  st::testing::expect_relative(sla::cg(op, B, {.tol = 1e-12, .x0 = B}, [&](const Array& r) { return r / D; }).x, want_s,
                               1e-9, 1e-10);
  // b with trailing dimensions: each column solved (the operator acts on the first axis).
  Array b2 = st::stack({B, B * 2.0}, 1);
  st::testing::expect_relative(sla::gmres(G, b2, tight).x, values(st::linalg::solve(G, b2)), 1e-9, 1e-10);
  // f32.
  Array x32 = sla::cg(st::astype(S, st::f32), st::astype(B, st::f32)).x;
  EXPECT_EQ(x32.dtype(), st::f32);
  st::testing::expect_relative(x32, want_s, 1e-4, 1e-5);
}

TEST(SparseLinalg, JitVmapDerivatives) {
  SOLVER_INPUTS;
  const sla::SolverOptions tight{.tol = 1e-12};
  auto solve_cg = [tight](const Array& a, const Array& b) { return sla::cg(a, b, tight).x; };
  st::testing::expect_relative(st::jit(solve_cg)(S, B), values(solve_cg(S, B)), 1e-14, 1e-14);
  Array bs = st::stack({B, B * 3.0});
  Array batched = st::vmap([&](const Array& b) { return sla::gmres(G, b, tight).x; })(bs);
  st::testing::expect_relative(batched[1], values(st::linalg::solve(G, B * 3.0)), 1e-9, 1e-10);
  // Reverse mode for a matrix operator (the implicit rule) against the direct solve's gradient.
  auto loss = [tight](const Array& a, const Array& b) { return st::sum(st::sin(sla::bicgstab(a, b, tight).x)); };
  auto direct = [](const Array& a, const Array& b) { return st::sum(st::sin(st::linalg::solve(a, b))); };
  auto [ga, gb] = st::grad(loss, st::argnums<0, 1>)(G, B);
  auto [da, db] = st::grad(direct, st::argnums<0, 1>)(G, B);
  st::testing::expect_relative(ga, values(da), 1e-8, 1e-9);
  st::testing::expect_relative(gb, values(db), 1e-8, 1e-9);
  // Forward mode through the loops with a matrix-free operator closing over the matrix.
  auto fwd = [&](const Array& s) { return sla::cg([&](const Array& x) { return st::matmul(s, x); }, B, tight).x; };
  auto [y, ty] = st::jvp(fwd, S, st::ones_like(S));
  auto [y2, ty2] = st::jvp([&](const Array& s) { return st::linalg::solve(s, B); }, S, st::ones_like(S));
  st::testing::expect_relative(ty, values(ty2), 1e-7, 1e-8);
  // Reverse mode with a function operator (custom_linear_solve): with respect to b and to the
  // matrix the function captures, for each solver, against the direct solve's gradient.
  auto by_closure = [&](auto solver, const Array& m) {
    return st::grad([&](const Array& mm, const Array& b) {
      return st::sum(st::sin(solver([&](const Array& x) { return st::matmul(mm, x); }, b).x));
    }, st::argnums<0, 1>)(m, B);
  };
  auto cg_fn = [&](const auto& op, const Array& b) { return sla::cg(op, b, tight); };
  auto bicgstab_fn = [&](const auto& op, const Array& b) { return sla::bicgstab(op, b, tight); };
  auto gmres_fn = [&](const auto& op, const Array& b) { return sla::gmres(op, b, tight); };
  auto check = [&](const auto& got, const Array& m) {
    auto [dm, db] = st::grad(direct, st::argnums<0, 1>)(m, B);
    st::testing::expect_relative(std::get<0>(got), values(dm), 1e-8, 1e-9);
    st::testing::expect_relative(std::get<1>(got), values(db), 1e-8, 1e-9);
  };
  check(by_closure(cg_fn, S), S);
  check(by_closure(bicgstab_fn, G), G);
  check(by_closure(gmres_fn, G), G);
  auto gmres_inc_fn = [&](const auto& op, const Array& b) {
    return sla::gmres(op, b, {.tol = 1e-12, .restart = 4, .solve_method = "incremental"});
  };
  check(by_closure(gmres_inc_fn, G), G);
  check(st::jit([&](const Array& m) { return by_closure(gmres_inc_fn, m); })(G), G);
  check(st::jit([&](const Array& m) { return by_closure(gmres_fn, m); })(G), G);
}

TEST(SparseLinalg, Errors) {
  SOLVER_INPUTS;
  st::testing::expect_error([&] { sla::cg(P[0], B); }, "cg: expects a square matrix operator, but got shape [6]");
  st::testing::expect_error([&] { sla::gmres(G, st::ones({5}, st::f64)); }, "gmres: expects b [6, ...] for the operator [6,6], but got [5]");
  st::testing::expect_error([&] { sla::bicgstab(G, B, {.x0 = st::ones({3}, st::f64)}); }, "bicgstab: expects x0 of b's shape [6], but got [3]");
  st::testing::expect_error([&] { sla::gmres(G, B, {.solve_method = "qr"}); }, "gmres: solve_method must be \"incremental\" or \"batched\", but got \"qr\"");
}

}  // namespace
