// custom_linear_solve, custom_root and closure_convert (strata/custom_solve.h), and custom_jvp /
// custom_vjp functions that capture traced values: values against direct computation, every
// derivative against finite differences (check_grads) and against differentiating the direct
// computation, jit against eager, vmap against a loop, the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_relative;
using st::testing::sin_sequence;
using st::testing::sin_squares;
using st::testing::values;

namespace {

Array spd() {  // a symmetric positive definite 5x5
  Array p = sin_squares({5, 5}, 0.57, 0.3);
  return st::matmul(p, st::transpose(p)) + 4.0 * st::eye(5, 5, 0, st::f64);
}
Array general() { return sin_squares({5, 5}, 0.83, 0.2) + 3.0 * st::eye(5, 5, 0, st::f64); }
Array rhs() { return sin_sequence({5}, 0.7, 0.1); }

// A dense solve as the user's `solve`: it only sees matvec, so it builds the matrix from it.
Array solve_by_columns(const std::function<Array(const Array&)>& matvec, const Array& b) {
  Array a = st::vmap(matvec)(st::eye(5, 5, 0, st::f64));  // rows: A e_i = column i
  return st::linalg::solve(st::transpose(a), b);
}

// Conjugate gradients written as a plain loop: not differentiable in reverse mode by itself.
Array cg_loop(const std::function<Array(const Array&)>& matvec, const Array& b) {
  auto step = [&](const Array&, std::tuple<Array, Array, Array> c) {
    auto [x, r, p] = c;
    Array ap = matvec(p);
    Array alpha = st::vdot(r, r) / st::vdot(p, ap);
    Array x1 = x + alpha * p, r1 = r - alpha * ap;
    Array beta = st::vdot(r1, r1) / st::vdot(r, r);
    return std::make_tuple(x1, r1, r1 + beta * p);
  };
  auto out = st::fori_loop(0, 30, step, std::make_tuple(st::zeros_like(b), b, b));
  return std::get<0>(out);
}

// x = A⁻¹b by custom_linear_solve with A captured; `general` adds transpose_solve.
Array solve_captured(const Array& a, const Array& b, bool symmetric_cg) {
  auto matvec = [&](const Array& v) { return st::matmul(a, v); };
  if (symmetric_cg) return st::custom_linear_solve(matvec, b, [](auto mv, const Array& r) { return cg_loop(mv, r); }, true);
  auto solve = [](auto mv, const Array& r) { return solve_by_columns(mv, r); };
  return st::custom_linear_solve(matvec, b, solve, solve);
}

TEST(CustomLinearSolve, ValuesAndProgram) {
  Array a = general(), s = spd(), b = rhs();
  expect_relative(solve_captured(a, b, false), values(st::linalg::solve(a, b)), 1e-12, 1e-13);
  expect_relative(solve_captured(s, b, true), values(st::linalg::solve(s, b)), 1e-10, 1e-11);
  st::Jaxpr j = st::make_jaxpr([&](const Array& bb) { return solve_captured(a, bb, false); })(b);
  EXPECT_EQ(j.primitive_names(), std::vector<std::string>{"custom_linear_solve"}) << j;
  // jit: the solve program runs compiled.
  auto f = [](const Array& aa, const Array& bb) { return solve_captured(aa, bb, true); };
  expect_relative(st::jit(f)(s, b), values(f(s, b)), 1e-12, 1e-13);
}

TEST(CustomLinearSolve, DerivativesThroughTheCapturedOperator) {
  Array a = general(), s = spd(), b = rhs();
  for (bool cg : {false, true}) {
    SCOPED_TRACE(cg ? "cg, symmetric" : "dense, transpose_solve");
    Array m = cg ? s : a;
    // The loss differentiated with respect to the captured matrix and b, against the direct solve.
    auto loss = [cg](const Array& mm, const Array& bb) { return st::sum(st::sin(solve_captured(mm, bb, cg))); };
    auto direct = [](const Array& mm, const Array& bb) { return st::sum(st::sin(st::linalg::solve(mm, bb))); };
    auto [gm, gb] = st::grad(loss, st::argnums<0, 1>)(m, b);
    auto [dm, db] = st::grad(direct, st::argnums<0, 1>)(m, b);
    expect_relative(gm, values(dm), 1e-8, 1e-10);
    expect_relative(gb, values(db), 1e-8, 1e-10);
    auto [gm_jit, gb_jit] = st::jit(st::grad(loss, st::argnums<0, 1>))(m, b);
    expect_relative(gm_jit, values(gm), 1e-10, 1e-12);
    expect_relative(gb_jit, values(gb), 1e-10, 1e-12);
    // Forward and reverse against finite differences (a symmetric direction keeps cg's matrix SPD).
    st::testing::check_grads(
        [cg](const std::vector<Array>& x) {
          Array mm = cg ? (x[0] + st::transpose(x[0])) * 0.5 : x[0];
          return solve_captured(mm, x[1], cg);
        },
        {m, b}, "custom_linear_solve", 1e-6);
  }
}

TEST(CustomLinearSolve, SecondOrderAndVmap) {
  Array a = general(), b = rhs();
  // d²/db² of Σ x³ (x = A⁻¹b) along a direction: forward over reverse.
  auto loss = [&](const Array& bb) { return st::sum(st::power(solve_captured(a, bb, false), st::full({}, 3.0, st::f64))); };
  auto direct = [&](const Array& bb) { return st::sum(st::power(st::linalg::solve(a, bb), st::full({}, 3.0, st::f64))); };
  Array t = sin_sequence({5}, 0.3, 0.9);
  auto [g, hv] = st::jvp(st::grad(loss), b, t);
  auto [g2, hv2] = st::jvp(st::grad(direct), b, t);
  expect_relative(hv, values(hv2), 1e-8, 1e-10);
  // vmap over right-hand sides and over matrices, each against its own solve.
  Array bs = st::stack({b, b * 2.0, b - 1.0});
  Array xs = st::vmap([&](const Array& bb) { return solve_captured(a, bb, false); })(bs);
  Array as = st::stack({a, a * 2.0, a + st::eye(5, 5, 0, st::f64)});
  Array ys = st::vmap([&](const Array& aa) { return solve_captured(aa, b, false); })(as);
  for (int i = 0; i < 3; ++i) {
    expect_relative(xs[i], values(st::linalg::solve(a, bs[i])), 1e-11, 1e-12);
    expect_relative(ys[i], values(st::linalg::solve(as[i], b)), 1e-11, 1e-12);
  }
  // grad of a vmapped solve.
  Array gb = st::grad([&](const Array& bb) { return st::sum(st::vmap([&](const Array& aa) { return solve_captured(aa, bb, false); })(as)); })(b);
  Array gb2 = st::grad([&](const Array& bb) { return st::sum(st::vmap([&](const Array& aa) { return st::linalg::solve(aa, bb); })(as)); })(b);
  expect_relative(gb, values(gb2), 1e-9, 1e-11);
}

TEST(CustomLinearSolve, PytreeRightHandSide) {
  // Two blocks [x1; x2] with matvec (2x1 + x2, x1 + 3x2), solved by the explicit inverse.
  using P = std::pair<Array, Array>;
  Array w = st::full({}, 1.5, st::f64);
  auto run = [](const Array& ww, const P& b) {
    auto matvec = [&](const P& v) { return P{ww * v.first + v.second, v.first + 3.0 * v.second}; };
    auto solve = [&](auto, const P& r) {  // inverse of [[w, 1], [1, 3]]
      Array det = 3.0 * ww - 1.0;
      return P{(3.0 * r.first - r.second) / det, (ww * r.second - r.first) / det};
    };
    return st::custom_linear_solve(matvec, b, solve, true);
  };
  P b{sin_sequence({3}, 0.4, 0.2), sin_sequence({3}, 0.9, 0.1)};
  P x = run(w, b);
  expect_relative(w * x.first + x.second, values(b.first), 1e-13, 1e-14);
  expect_relative(x.first + 3.0 * x.second, values(b.second), 1e-13, 1e-14);
  st::testing::check_grads([&](const std::vector<Array>& v) {
    P y = run(v[0], P{v[1], v[2]});
    return st::concatenate({y.first, y.second}, 0);
  }, {w, b.first, b.second}, "pytree custom_linear_solve", 1e-6);
}

// has_aux (jax.lax.custom_linear_solve(..., has_aux=True)): solve returns (x, aux); the result
// is (x, aux) from one solve, aux without derivative; derivatives of x as without aux, under
// jit and vmap too; transpose_solve returns an aux of its own, which reverse mode drops.
TEST(CustomLinearSolve, AuxiliaryOutputs) {
  Array a = general(), s = spd(), b = rhs();
  // CG that also returns its residual norm and the number of steps it took (an integer).
  auto cg_aux = [](auto mv, const Array& r) {
    Array x = cg_loop(mv, r);
    return std::make_pair(x, std::make_tuple(st::sqrt(st::vdot(r - mv(x), r - mv(x))), st::Array(int32_t{30})));
  };
  auto solve_sym = [&](const Array& m, const Array& bb) {
    return st::custom_linear_solve([&](const Array& v) { return st::matmul(m, v); }, bb, cg_aux, true, st::has_aux);
  };
  auto [x, aux] = solve_sym(s, b);
  expect_relative(x, values(st::linalg::solve(s, b)), 1e-10, 1e-11);
  EXPECT_LT(std::get<0>(aux).item<double>(), 1e-10);
  EXPECT_EQ(std::get<1>(aux).item<int32_t>(), 30);
  EXPECT_EQ(std::get<1>(aux).dtype(), st::i32);
  // One custom_linear_solve with three outputs: x, the residual and the count.
  st::Jaxpr j = st::make_jaxpr([&](const Array& bb) { return solve_sym(s, bb); })(b);
  EXPECT_EQ(j.primitive_names(), std::vector<std::string>{"custom_linear_solve"}) << j;
  // The derivative of x is the implicit one; the aux adds nothing to a loss that uses it.
  auto loss = [&](const Array& m, const Array& bb) {
    auto [xx, au] = solve_sym(m, bb);
    return st::sum(st::sin(xx)) + st::stop_gradient(std::get<0>(au));
  };
  auto direct = [](const Array& m, const Array& bb) { return st::sum(st::sin(st::linalg::solve(m, bb))); };
  auto [gm, gb] = st::grad(loss, st::argnums<0, 1>)(s, b);
  auto [dm, db] = st::grad(direct, st::argnums<0, 1>)(s, b);
  expect_relative(gm, values(dm), 1e-8, 1e-10);
  expect_relative(gb, values(db), 1e-8, 1e-10);
  // The aux has zero tangent: d(residual)/db through the aux alone is 0 (JAX: symbolic zero).
  auto aux_only = [&](const Array& bb) { return std::get<0>(solve_sym(s, bb).second); };
  EXPECT_EQ(st::jvp(aux_only, b, st::ones_like(b)).second.item<double>(), 0.0);
  // jit and vmap.
  auto both = [&](const Array& m, const Array& bb) {
    auto [xx, au] = solve_sym(m, bb);
    return std::make_pair(xx, std::get<1>(au));
  };
  auto [xj, nj] = st::jit(both)(s, b);
  expect_relative(xj, values(x), 1e-12, 1e-13);
  EXPECT_EQ(nj.item<int32_t>(), 30);
  Array bs = st::stack({b, 2.0 * b, -b});
  auto [xv, nv] = st::vmap([&](const Array& bb) { return both(s, bb); })(bs);
  expect_relative(xv, values(st::stack({x, 2.0 * x, -x})), 1e-9, 1e-10);
  EXPECT_EQ(nv.to_vector<int32_t>(), (std::vector<int32_t>{30, 30, 30}));
  // transpose_solve with an aux of another type: reverse mode through the general matrix.
  auto dense_aux = [](auto mv, const Array& r) { return std::make_pair(solve_by_columns(mv, r), st::Array(1.5)); };
  auto dense_t_aux = [](auto mv, const Array& r) { return std::make_pair(solve_by_columns(mv, r), st::Array(int32_t{7})); };
  auto loss_g = [&](const Array& m, const Array& bb) {
    auto [xx, au] = st::custom_linear_solve([&](const Array& v) { return st::matmul(m, v); }, bb, dense_aux, dense_t_aux,
                                            st::has_aux);
    EXPECT_EQ(au.dtype(), st::f64);
    return st::sum(st::sin(xx));
  };
  auto [ga, gba] = st::grad(loss_g, st::argnums<0, 1>)(a, b);
  auto [da, dba] = st::grad(direct, st::argnums<0, 1>)(a, b);
  expect_relative(ga, values(da), 1e-8, 1e-10);
  expect_relative(gba, values(dba), 1e-8, 1e-10);
}

TEST(CustomLinearSolve, Errors) {
  Array a = general(), b = rhs();
  auto matvec = [&](const Array& v) { return st::matmul(a, v); };
  auto no_transpose = [&](const Array& bb) {
    return st::sum(st::custom_linear_solve(matvec, bb, [](auto mv, const Array& r) { return solve_by_columns(mv, r); }));
  };
  EXPECT_NO_THROW(st::jvp(no_transpose, b, b));
  st::testing::expect_error([&] { st::grad(no_transpose)(b); },
                            "custom_linear_solve: reverse-mode differentiation (grad, vjp) needs transpose_solve");
  st::testing::expect_error(
      [&] {
        st::custom_linear_solve([&](const Array& v) { return st::matmul(a, v)[st::Slice(0, 4)]; }, b,
                                [](auto, const Array& r) { return r; });
      },
      "custom_linear_solve: matvec's result");
  st::testing::expect_error(
      [&] { st::custom_linear_solve(matvec, b, [](auto, const Array& r) { return st::astype(r, st::f32); }); },
      "custom_linear_solve: solve's result");
}

// Newton's method on f(x) = x² − a: the root √a, whose derivative is 1/(2√a).
Array newton_sqrt(const Array& a) {
  auto f = [&](const Array& x) { return x * x - a; };
  auto solve = [](auto fn, const Array& x0) {
    return st::fori_loop(0, 40, [&](const Array&, const Array& x) { return x - fn(x) / st::grad([&](const Array& y) { return fn(y); })(x); }, x0);
  };
  auto tangent_solve = [](auto g, const Array& r) { return r / g(st::ones_like(r)); };
  return st::custom_root(f, st::ones_like(a), solve, tangent_solve);
}

TEST(CustomRoot, ScalarNewton) {
  Array a = st::full({}, 2.5, st::f64);
  EXPECT_NEAR(newton_sqrt(a).item<double>(), std::sqrt(2.5), 1e-14);
  EXPECT_NEAR(st::grad(newton_sqrt)(a).item<double>(), 0.5 / std::sqrt(2.5), 1e-13);
  EXPECT_NEAR(st::jvp(newton_sqrt, a, st::full({}, 1.0, st::f64)).second.item<double>(), 0.5 / std::sqrt(2.5), 1e-13);
  EXPECT_NEAR(st::jit(st::grad(newton_sqrt))(a).item<double>(), 0.5 / std::sqrt(2.5), 1e-13);
  // Second derivative: −¼ a^(−3/2).
  EXPECT_NEAR(st::grad(st::grad(newton_sqrt))(a).item<double>(), -0.25 * std::pow(2.5, -1.5), 1e-12);
  Array as = st::array(std::vector<double>{1.0, 4.0, 9.0}, {3}, st::f64);
  expect_relative(st::vmap(st::grad(newton_sqrt))(as), {0.5, 0.25, 1.0 / 6.0}, 1e-13);
}

// has_aux (jax.lax.custom_root(..., has_aux=True)): solve returns (root, aux); the root's
// derivative is the implicit one, the aux (here the last Newton step and the step count) has
// none, under jit and vmap too.
TEST(CustomRoot, AuxiliaryOutputs) {
  auto sqrt_aux = [](const Array& a) {
    auto f = [&](const Array& x) { return x * x - a; };
    auto solve = [](auto fn, const Array& x0) {
      auto step = [&](const Array&, std::tuple<Array, Array> c) {
        Array x = std::get<0>(c);
        Array dx = fn(x) / st::grad([&](const Array& y) { return fn(y); })(x);
        return std::make_tuple(x - dx, dx);
      };
      auto [x, last] = st::fori_loop(0, 40, step, std::make_tuple(x0, st::zeros_like(x0)));
      return std::make_pair(x, std::make_tuple(st::abs(last), st::Array(int32_t{40})));
    };
    auto tangent_solve = [](auto g, const Array& r) { return r / g(st::ones_like(r)); };
    return st::custom_root(f, st::ones_like(a), solve, tangent_solve, st::has_aux);
  };
  Array a = st::full({}, 2.5, st::f64);
  auto [x, aux] = sqrt_aux(a);
  EXPECT_NEAR(x.item<double>(), std::sqrt(2.5), 1e-14);
  EXPECT_LT(std::get<0>(aux).item<double>(), 1e-14);
  EXPECT_EQ(std::get<1>(aux).item<int32_t>(), 40);
  auto root = [&](const Array& v) { return sqrt_aux(v).first; };
  auto step = [&](const Array& v) { return std::get<0>(sqrt_aux(v).second); };
  EXPECT_NEAR(st::grad(root)(a).item<double>(), 0.5 / std::sqrt(2.5), 1e-13);
  EXPECT_NEAR(st::jit(st::grad(root))(a).item<double>(), 0.5 / std::sqrt(2.5), 1e-13);
  EXPECT_EQ(st::jvp(step, a, st::full({}, 1.0, st::f64)).second.item<double>(), 0.0);
  EXPECT_EQ(st::grad(step)(a).item<double>(), 0.0);
  Array as = st::array(std::vector<double>{1.0, 4.0, 9.0}, {3}, st::f64);
  expect_relative(st::vmap(st::grad(root))(as), {0.5, 0.25, 1.0 / 6.0}, 1e-13);
  auto counts = st::vmap([&](const Array& v) { return std::get<1>(sqrt_aux(v).second); })(as);
  EXPECT_EQ(counts.to_vector<int32_t>(), (std::vector<int32_t>{40, 40, 40}));
}

TEST(CustomRoot, VectorSystem) {
  // f(x) = A x + 0.1 x³ − θ (elementwise cube): a root by Newton with the Jacobian, and
  // tangent_solve a dense solve of the linearised map.
  Array a = spd();
  auto root = [&](const Array& theta) {
    auto f = [&](const Array& x) { return st::matmul(a, x) + 0.1 * x * x * x - theta; };
    auto solve = [](auto fn, const Array& x0) {
      return st::fori_loop(0, 30, [&](const Array&, const Array& x) {
        return x - st::linalg::solve(st::jacfwd([&](const Array& y) { return fn(y); })(x), fn(x));
      }, x0);
    };
    auto tangent_solve = [](auto g, const Array& r) {
      return st::linalg::solve(st::jacfwd([&](const Array& y) { return g(y); })(r), r);
    };
    return st::custom_root(f, st::zeros({5}, st::f64), solve, tangent_solve);
  };
  Array theta = rhs();
  Array x = root(theta);
  expect_relative(st::matmul(a, x) + 0.1 * x * x * x, values(theta), 1e-12, 1e-13);
  st::testing::check_grads([&](const std::vector<Array>& v) { return root(v[0]); }, {theta}, "custom_root", 1e-6);
  // The Jacobian is (A + 0.3 diag(x²))⁻¹.
  Array jac = st::jacrev(root)(theta);
  Array want = st::linalg::inv(a + 0.3 * st::diag(x * x));
  expect_relative(jac, values(want), 1e-10, 1e-12);
}

TEST(CustomCalls, CaptureTracersOfJitAndVmap) {
  // custom_vjp / custom_jvp functions that capture a traced value: jit and vmap pass it through.
  Array w = sin_sequence({4}, 0.3, 0.5), x = sin_sequence({4}, 0.8, 0.2);
  auto scaled = [](const Array& ww, const Array& xx) {
    auto f = st::custom_vjp([&](const Array& v) { return st::sin(v) * ww; },
                            [&](const Array& v) { return std::make_pair(st::sin(v) * ww, v); },
                            [&](const Array& v, const Array& ct) { return ct * st::cos(v) * ww; });
    auto g = st::custom_jvp([&](const Array& v) { return st::exp(v) * ww; },
                            [&](const Array& v, const Array& t) { return std::make_pair(st::exp(v) * ww, t * st::exp(v) * ww); });
    return f(xx) + g(xx);
  };
  Array eager = scaled(w, x);
  expect_relative(st::jit(scaled)(w, x), values(eager), 1e-13, 1e-14);
  Array ws = st::stack({w, w * 2.0});
  Array batched = st::vmap([&](const Array& ww) { return scaled(ww, x); })(ws);
  expect_relative(batched[1], values(scaled(w * 2.0, x)), 1e-13, 1e-14);
  // vmap over x with the captured w unbatched (it stays unbatched inside the call), and grad of
  // that vmapped function: the rules run on the batched programs with w as it is.
  Array xs2 = st::stack({x, x * 0.5, x + 1.0});
  Array bx = st::vmap([&](const Array& v) { return scaled(w, v); })(xs2);
  for (int i = 0; i < 3; ++i) expect_relative(bx[i], values(scaled(w, xs2[i])), 1e-14, 1e-15);
  Array gbx = st::grad([&](const Array& v) { return st::sum(st::vmap([&](const Array& u) { return scaled(w, u); })(v)); })(xs2);
  expect_relative(gbx, values((st::cos(xs2) + st::exp(xs2)) * w), 1e-13, 1e-14);
  st::Jaxpr vj = st::make_jaxpr([&](const Array& v) { return st::vmap([&](const Array& u) { return scaled(w, u); })(v); })(xs2);
  // w is passed once (fun, fwd and bwd all capture it) and not repeated per example.
  EXPECT_NE(vj.to_string().find("fun={ lambda ; a:f64[4] b:f64[3,4]."), std::string::npos) << vj;
  EXPECT_EQ(vj.to_string().find("num_consts=3"), std::string::npos) << vj;
  // Differentiating with respect to the explicit argument while the capture is a jit tracer.
  auto gx = [&](const Array& ww, const Array& xx) { return st::grad([&](const Array& v) { return st::sum(scaled(ww, v)); })(xx); };
  Array want = (st::cos(x) + st::exp(x)) * w;
  expect_relative(gx(w, x), values(want), 1e-13, 1e-14);
  expect_relative(st::jit(gx)(w, x), values(want), 1e-13, 1e-14);
  // Forward mode (custom_jvp's rule; custom_vjp has none) with a captured value.
  auto exp_part = [&](const Array& ww, const Array& v) {
    return st::custom_jvp([&](const Array& u) { return st::exp(u) * ww; },
                          [&](const Array& u, const Array& t) { return std::make_pair(st::exp(u) * ww, t * st::exp(u) * ww); })(v);
  };
  auto [y, t] = st::jit([&](const Array& ww, const Array& v) { return st::jvp([&](const Array& u) { return exp_part(ww, u); }, v, st::ones_like(v)); })(w, x);
  expect_relative(t, values(st::exp(x) * w), 1e-13, 1e-14);
  // Differentiating with respect to the captured value is refused, forward and reverse.
  auto by_w = [&](const Array& ww) { return st::sum(scaled(ww, x)); };
  st::testing::expect_error([&] { st::grad(by_w)(w); }, "closes over");
  st::testing::expect_error([&] { st::jit(st::grad(by_w))(w); }, "closes over");
  st::testing::expect_error([&] { st::jvp([&](const Array& ww) { return exp_part(ww, x); }, w, w); },
                            "custom_jvp: cannot differentiate with respect to a value the function (or its rule) closes over");
}

TEST(CustomCalls, InsideCondAndScanUnderJit) {
  // A custom_vjp capturing a jit argument inside a cond branch and a scan body: the cond's and
  // scan's backward programs differentiate only what the differentiated input reaches, so the
  // captured value (reached by nothing differentiated) is not refused.
  auto rule = [](const Array& a) {
    return st::custom_vjp([a](const Array& v) { return st::sin(v) * a; },
                          [a](const Array& v) { return std::make_pair(st::sin(v) * a, v); },
                          [a](const Array& v, const Array& ct) { return ct * st::cos(v) * a; });
  };
  auto in_cond = [&](const Array& a, const Array& x) {
    return st::grad([&](const Array& v) {
      auto f = rule(a);
      return st::sum(st::cond(st::sum(v) > 0.0, [&](const Array& u) { return f(u); }, [](const Array& u) { return u; }, v));
    })(x);
  };
  auto in_scan = [&](const Array& a, const Array& x) {
    return st::grad([&](const Array& v) {
      auto [c, ys] = st::scan([&](const Array& cc, const Array& e) { return std::make_pair(cc + rule(a[0])(e), cc); },
                              st::zeros({}, st::f64), v);
      (void)ys;
      return c;
    })(x);
  };
  Array a = st::full({3}, 2.0, st::f64), x = sin_sequence({3}, 0.5, 0.3);
  Array want = st::cos(x) * 2.0;
  expect_relative(in_cond(a, x), values(want), 1e-14, 1e-15);
  expect_relative(st::jit(in_cond)(a, x), values(want), 1e-14, 1e-15);
  expect_relative(in_scan(a, x), values(want), 1e-14, 1e-15);
  expect_relative(st::jit(in_scan)(a, x), values(want), 1e-14, 1e-15);
}

TEST(CustomCalls, ClosureConvertMakesCapturesArguments) {
  // The captured weight becomes an explicit argument of a custom_vjp, so it gets a gradient.
  Array w = sin_sequence({4}, 0.3, 0.5), x = sin_sequence({4}, 0.8, 0.2);
  auto loss = [&](const Array& ww) {
    auto model = [&](const Array& v) { return st::tanh(v * ww); };
    auto [g, consts] = st::closure_convert(model, x);
    EXPECT_EQ(consts.size(), 1u);
    auto f = st::custom_vjp(
        [&](const std::vector<Array>& c, const Array& v) { return g(c, v); },
        [&](const std::vector<Array>& c, const Array& v) { return std::make_pair(g(c, v), std::make_pair(c, v)); },
        [&](const std::pair<std::vector<Array>, Array>& res, const Array& ct) {
          // The rule: the ordinary VJP of g, with the captured values as arguments.
          auto [out, back] = st::vjp([&](const std::vector<Array>& c, const Array& v) { return g(c, v); }, res.first, res.second);
          return back(ct);
        });
    return st::sum(f(consts, x));
  };
  Array want = st::grad([&](const Array& ww) { return st::sum(st::tanh(x * ww)); })(w);
  expect_relative(st::grad(loss)(w), values(want), 1e-13, 1e-14);
  expect_relative(st::jit(st::grad(loss))(w), values(want), 1e-13, 1e-14);
}

}  // namespace
