# tests/api/stats_jax_values.py — prints the JAX values that tests/api/test_stats.cpp pastes
# (the C++ definitions of the inputs, which it wraps in STATS_INPUTS, and one JaxCase per C++
# expression), each evaluated by the same
# expression in Python (`S::a::b(` becomes `stats.a.b(`; PY overrides where the signatures differ).
# Not run by the tests (it needs jax):  /work/venv-jax/bin/python tests/api/stats_jax_values.py
import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
import jax.scipy.stats as stats
import numpy as np

INPUTS = {  # name: (values, shape, dtype)
    "X": ([-3.0, -1.2, -0.3, 0.0, 0.4, 1.0, 2.5, 7.0], [8], "f64"),
    "Q": ([0.0, 1e-10, 0.05, 0.3, 0.5, 0.8, 0.999, 1.0], [8], "f64"),
    "XT": ([-40.0, -10.0, -1.0, 5.0, 10.0, 40.0], [6], "f64"),
    "T": ([2.5, 3.0, 3.5, 5.0, 6.0, 6.5], [6], "f64"),
    "P": ([-1.0, 0.0, 0.1, 0.5, 1.0, 2.5, 6.0, 15.0], [8], "f64"),
    "A": ([0.5, 1.0, 2.5, 4.0], [4, 1], "f64"),
    "U": ([-0.1, 0.0, 0.05, 0.3, 0.5, 0.9, 1.0, 1.2], [8], "f64"),
    "P2": ([0.5, 1.5, 1.6, 2.0, 4.0, 10.0], [6], "f64"),
    "W": ([-0.5, 0.0, 1.0, 3.0, 6.0, 6.5], [6], "f64"),
    "K": ([-1.0, 0.0, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0], [8], "f64"),
    "M": ([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 99.0, 100.0, 500.0], [9], "f64"),
    "XI": ([2, 3, 5, 1, 1, 1], [2, 3], "i32"),
    "P3": ([0.2, 0.3, 0.5], [3], "f64"),
    "XM": ([0.3, -1.0, 2.0, 1.5, 0.0, 0.2, -0.7, 0.4, 1.1, 2.0, 2.0, 2.0], [4, 3], "f64"),
    "MU": ([0.5, -0.5, 1.0], [3], "f64"),
    "COV": ([2.0, 0.3, -0.4, 0.3, 1.0, 0.2, -0.4, 0.2, 1.5], [3, 3], "f64"),
    "COVB": ([2.0, 0.3, -0.4, 0.3, 1.0, 0.2, -0.4, 0.2, 1.5, 1.0, 0.0, 0.0, 0.0, 2.0, 0.5, 0.0, 0.5, 3.0], [2, 3, 3], "f64"),
    "XD": ([0.2, 0.5, 0.1, 0.3, 0.3, 0.25, 0.5, 0.5, 0.0, 0.45, 0.3, 0.0], [3, 4], "f64"),
    "XD2": ([0.2, 0.5, 0.1, 0.3, 0.3, 0.25, 0.5, 0.5], [2, 4], "f64"),
    "AL": ([1.5, 2.0, 0.8], [3], "f64"),
    "D2": ([0.1, 1.3, -0.4, 2.2, 0.8, -1.1, 0.5, 1.9, -0.2, 0.7, 1.5, 0.0, -0.9, 1.1, 0.3, 2.5, -1.5, 0.6, 1.0, 0.2,
            1.0, 0.4, -0.3, 1.8, 0.9, -0.6, 0.2, 2.1, 0.0, 0.5, 1.2, -0.4, -1.0, 0.7, 0.1, 2.0, -1.2, 0.8, 1.4, 0.3], [2, 20], "f64"),
    "PTS": ([0.0, 1.0, -1.0, 2.0, 0.5, 0.5, -0.5, 1.5, 0.3, 3.0], [2, 5], "f64"),
    "W20": ([1.0, 2.0, 0.5, 1.5, 1.0, 3.0, 0.2, 1.0, 1.0, 0.7, 1.3, 2.2, 0.4, 1.0, 0.9, 1.1, 0.6, 1.0, 2.0, 0.3], [20], "f64"),
    "D1": ([0.1, 1.3, -0.4, 2.2, 0.8, -1.1, 0.5, 1.9, -0.2, 0.7], [10], "f64"),
    "D1B": ([0.5, -0.3, 1.7, 0.9, 2.4, -0.8, 1.1], [7], "f64"),
    "MI": ([1, 2, 2, 3, 2, 1, 1, 1, 3, 4, 4, 0], [4, 3], "i32"),
    "R": ([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0], [10], "f64"),
    "R2": ([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 3.0, 3.0], [3, 4], "f64"),
    "XIN": ([-0.5, 0.0, 0.4, 1.0, 1.9], [5], "f64"),
    "RN": ([3.0, float("nan"), 4.0], [3], "f64"),
    "SN": ([1.0, 2.0, float("nan"), 4.0, 5.0, 7.0], [2, 3], "f64"),
}

# C++ expression, or (C++ expression, Python expression) where they differ.
CASES = [
    "S::norm::logpdf(X, 0.5, 2.0)", "S::norm::pdf(X, 0.5, 2.0)", "S::norm::cdf(X, 0.5, 2.0)",
    "S::norm::logcdf(X, 0.5, 2.0)", "S::norm::sf(X, 0.5, 2.0)", "S::norm::logsf(X, 0.5, 2.0)",
    "S::norm::ppf(Q, -1.0, 3.0)", "S::norm::isf(Q, -1.0, 3.0)", "S::norm::logcdf(XT)", "S::norm::logsf(XT)",
    "S::truncnorm::logpdf(X, -1.0, 2.0)", "S::truncnorm::pdf(X, -1.0, 2.0, 0.5, 1.5)",
    "S::truncnorm::cdf(X, -1.0, 2.0)", "S::truncnorm::logcdf(X, -1.0, 2.0, 0.5, 1.5)",
    "S::truncnorm::sf(X, -1.0, 2.0)", "S::truncnorm::logsf(X, -1.0, 2.0, 0.5, 1.5)",
    "S::truncnorm::logpdf(T, 3.0, 6.0)", "S::truncnorm::logcdf(T, 3.0, 6.0)", "S::truncnorm::logsf(T, 3.0, 6.0)",
    "S::truncnorm::logpdf(X, 2.0, 1.0)",
    "S::t::logpdf(X, 3.5, 0.5, 2.0)", "S::t::pdf(X, A)",
    "S::cauchy::logpdf(X, 0.5, 2.0)", "S::cauchy::pdf(X, 0.5, 2.0)", "S::cauchy::cdf(X, 0.5, 2.0)",
    "S::cauchy::logcdf(X, 0.5, 2.0)", "S::cauchy::sf(X, 0.5, 2.0)", "S::cauchy::logsf(X, 0.5, 2.0)",
    "S::cauchy::ppf(Q, 0.5, 2.0)", "S::cauchy::isf(Q, 0.5, 2.0)",
    "S::laplace::logpdf(X, 0.5, 2.0)", "S::laplace::pdf(X, 0.5, 2.0)", "S::laplace::cdf(X, 0.5, 2.0)",
    "S::logistic::logpdf(X, 0.5, 2.0)", "S::logistic::pdf(X, 0.5, 2.0)", "S::logistic::cdf(X, 0.5, 2.0)",
    "S::logistic::sf(X, 0.5, 2.0)", "S::logistic::ppf(Q, 0.5, 2.0)", "S::logistic::isf(Q, 0.5, 2.0)",
    "S::expon::logpdf(X, -0.5, 2.0)", "S::expon::pdf(X, -0.5, 2.0)", "S::expon::cdf(X, -0.5, 2.0)",
    "S::expon::logcdf(X, -0.5, 2.0)", "S::expon::sf(X, -0.5, 2.0)", "S::expon::logsf(X, -0.5, 2.0)",
    "S::expon::ppf(Q, -0.5, 2.0)",
    "S::gamma::logpdf(X, 2.5, -0.5, 1.5)", "S::gamma::pdf(X, 2.5, -0.5, 1.5)", "S::gamma::cdf(X, 2.5, -0.5, 1.5)",
    "S::gamma::logcdf(X, 2.5, -0.5, 1.5)", "S::gamma::sf(X, 2.5, -0.5, 1.5)", "S::gamma::logsf(X, 2.5, -0.5, 1.5)",
    "S::gamma::cdf(P, A)",
    "S::beta::logpdf(U, 2.5, 0.7)", "S::beta::pdf(U, 2.5, 0.7)", "S::beta::cdf(U, 2.5, 0.7)",
    "S::beta::logcdf(U, 2.5, 0.7)", "S::beta::sf(U, 2.5, 0.7)", "S::beta::logsf(U, 2.5, 0.7)",
    "S::beta::logpdf(X, 2.0, 3.0, -1.0, 4.0)", "S::beta::cdf(X, 2.0, 3.0, -1.0, 4.0)", "S::beta::logpdf(U, -1.0, 2.0)",
    "S::chi2::logpdf(P, 3.0)", "S::chi2::pdf(P, 3.0)", "S::chi2::cdf(P, 3.0)", "S::chi2::logcdf(P, 3.0)",
    "S::chi2::sf(P, 3.0)", "S::chi2::logsf(P, 3.0)", "S::chi2::logpdf(X, 4.0, -1.0, 2.0)", "S::chi2::cdf(X, 4.0, -1.0, 2.0)",
    "S::uniform::logpdf(X, -1.0, 3.0)", "S::uniform::pdf(X, -1.0, 3.0)", "S::uniform::cdf(X, -1.0, 3.0)",
    "S::uniform::ppf(Q, -1.0, 3.0)",
    "S::pareto::logpdf(P2, 2.5, 0.0, 1.5)", "S::pareto::pdf(P2, 2.5, 0.0, 1.5)", "S::pareto::cdf(P2, 2.5, 0.0, 1.5)",
    "S::pareto::logcdf(P2, 2.5, 0.0, 1.5)", "S::pareto::sf(P2, 2.5, 0.0, 1.5)", "S::pareto::logsf(P2, 2.5, 0.0, 1.5)",
    "S::pareto::ppf(Q, 2.5, 0.0, 1.5)",
    "S::gennorm::logpdf(X, 1.5)", "S::gennorm::pdf(X, 1.5)", "S::gennorm::cdf(X, 1.5)", "S::gennorm::cdf(X, A)",
    "S::gumbel_r::logpdf(X, 0.5, 2.0)", "S::gumbel_r::pdf(X, 0.5, 2.0)", "S::gumbel_r::cdf(X, 0.5, 2.0)",
    "S::gumbel_r::logcdf(X, 0.5, 2.0)", "S::gumbel_r::sf(X, 0.5, 2.0)", "S::gumbel_r::logsf(X, 0.5, 2.0)",
    "S::gumbel_r::ppf(Q, 0.5, 2.0)", "S::gumbel_r::logpdf(X, 0.5, -2.0)",
    "S::gumbel_l::logpdf(X, 0.5, 2.0)", "S::gumbel_l::pdf(X, 0.5, 2.0)", "S::gumbel_l::cdf(X, 0.5, 2.0)",
    "S::gumbel_l::logcdf(X, 0.5, 2.0)", "S::gumbel_l::sf(X, 0.5, 2.0)", "S::gumbel_l::logsf(X, 0.5, 2.0)",
    "S::gumbel_l::ppf(Q, 0.5, 2.0)",
    "S::vonmises::logpdf(X, 2.0)", "S::vonmises::pdf(X, A)", "S::vonmises::logpdf(X, 0.0)",
    "S::wrapcauchy::logpdf(W, 0.3)", "S::wrapcauchy::pdf(W, 0.7)", "S::wrapcauchy::logpdf(W, 1.0)",
    "S::poisson::logpmf(K, 3.5)", "S::poisson::pmf(K, 3.5, 1.0)", "S::poisson::cdf(K, 3.5)", "S::poisson::entropy(M)",
    "S::bernoulli::logpmf(K, 0.3)", "S::bernoulli::pmf(K, 0.3, -1.0)", "S::bernoulli::cdf(K, 0.3)",
    "S::bernoulli::ppf(Q, 0.3)", "S::bernoulli::cdf(K, 1.5)",
    "S::binom::logpmf(K, 10.0, 0.35)", "S::binom::pmf(K, 10.0, 0.35)", "S::binom::pmf(K, 5.0, 1.0)",
    "S::binom::logpmf(K, 0.0, 0.35)", "S::binom::pmf(K, 10.0, 0.35, 1.0)",
    "S::nbinom::logpmf(K, 4.0, 0.35)", "S::nbinom::pmf(K, 4.0, 0.35, 1.0)",
    "S::geom::logpmf(K, 0.35)", "S::geom::pmf(K, 0.35, -1.0)",
    "S::betabinom::logpmf(K, 10.0, 2.5, 0.7)", "S::betabinom::pmf(K, 10.0, 2.5, 0.7)",
    "S::betabinom::pmf(K, 10.0, 2.5, 0.7, 1.0)", "S::betabinom::logpmf(K, 0.0, 2.5, 0.7)", "S::betabinom::logpmf(K, 10.0, -1.0, 0.7)",
    ("S::multinomial::logpmf(XI[0], 10, P3)", "stats.multinomial.logpmf(XI[0], 10, P3)"),
    ("S::multinomial::pmf(XI[1], 3, P3)", "stats.multinomial.pmf(XI[1], 3, P3)"),
    ("S::multinomial::logpmf(XI[1], 4, P3)", "stats.multinomial.logpmf(XI[1], 4, P3)"),
    "S::multivariate_normal::logpdf(XM, MU, COV)", "S::multivariate_normal::pdf(XM, MU, COV)",
    "S::multivariate_normal::logpdf(XM, MU, 1.7)", "S::multivariate_normal::logpdf(X, 0.5, 2.0)",
    ("S::multivariate_normal::logpdf(XM[{st::Slice(0, 2)}], MU, COVB)", "stats.multivariate_normal.logpdf(XM[0:2], MU, COVB)"),
    "S::dirichlet::logpdf(XD, AL)", "S::dirichlet::pdf(XD, AL)", "S::dirichlet::logpdf(XD2, AL)",
    "S::gaussian_kde(D2).evaluate(PTS)", "S::gaussian_kde(D2).logpdf(PTS)",
    ("S::gaussian_kde(D2, \"scott\", W20)(PTS)", "stats.gaussian_kde(D2, 'scott', W20)(PTS)"),
    ("S::gaussian_kde(D2, \"silverman\").pdf(PTS)", "stats.gaussian_kde(D2, 'silverman').pdf(PTS)"),
    "S::gaussian_kde(D2, 0.3).evaluate(PTS)", "S::gaussian_kde(D1).evaluate(D1B)",
    "S::gaussian_kde(D1).integrate_box_1d(-0.5, 1.0)",
    ("S::gaussian_kde(D2).integrate_gaussian(MU[{st::Slice(0, 2)}], COV[{st::Slice(0, 2), st::Slice(0, 2)}])",
     "stats.gaussian_kde(D2).integrate_gaussian(MU[0:2], COV[0:2, 0:2])"),
    "S::gaussian_kde(D1).integrate_kde(S::gaussian_kde(D1B))",
    ("S::gaussian_kde(D2, \"scott\", W20).covariance()", "stats.gaussian_kde(D2, 'scott', W20).covariance"),
    ("S::gaussian_kde(D2, \"scott\", W20).neff()", "stats.gaussian_kde(D2, 'scott', W20).neff"),
    ("S::gaussian_kde(D2, \"scott\", W20).resample(st::random::key(3), {4})",
     "stats.gaussian_kde(D2, 'scott', W20).resample(jax.random.PRNGKey(3), (4,))"),
    "S::mode(MI).mode", "S::mode(MI).count", "S::mode(MI, 1).mode", "S::mode(MI, 1).count",
    ("S::mode(MI, std::nullopt).mode", "stats.mode(MI, None).mode"),
    ("S::mode(MI, -1, true).count", "stats.mode(MI, -1, keepdims=True).count"),
    "S::rankdata(R)", "S::rankdata(R, \"min\")", "S::rankdata(R, \"max\")", "S::rankdata(R, \"dense\")",
    "S::rankdata(R, \"ordinal\")",
    ("S::rankdata(R2, \"average\", 1)", "stats.rankdata(R2, 'average', axis=1)"),
    ("S::rankdata(R2, \"min\", 0)", "stats.rankdata(R2, 'min', axis=0)"), "S::rankdata(RN)",
    "S::sem(R2)", "S::sem(R2, 1)", ("S::sem(R2, std::nullopt, 0)", "stats.sem(R2, None, 0)"),
    ("S::sem(SN, 1, 1, \"omit\")", "stats.sem(SN, 1, 1, 'omit')"), "S::sem(SN, 1)",
]

G = "st::grad([&](const Array& v) { return st::sum(%s); })(%s)"  # C++ gradient of a sum
GRADS = [  # (C++, Python) pairs
    (G % ("S::norm::logcdf(v)", "XT"), "jax.grad(lambda v: jnp.sum(stats.norm.logcdf(v)))(XT)"),
    (G % ("S::norm::logpdf(X, v, 2.0)", "Array(0.5)"), "jax.grad(lambda v: jnp.sum(stats.norm.logpdf(X, v, 2.0)))(0.5)"),
    (G % ("S::gamma::logpdf(1.7, v)", "st::ravel(A)"), "jax.grad(lambda v: jnp.sum(stats.gamma.logpdf(1.7, v)))(jnp.ravel(A))"),
    (G % ("S::beta::logpdf(U[{st::Slice(2, 6)}], v, 0.7)", "Array(2.5)"), "jax.grad(lambda v: jnp.sum(stats.beta.logpdf(U[2:6], v, 0.7)))(2.5)"),
    (G % ("S::t::logpdf(X, v)", "Array(3.5)"), "jax.grad(lambda v: jnp.sum(stats.t.logpdf(X, v)))(3.5)"),
    (G % ("S::truncnorm::logcdf(v, -1.0, 2.0)", "XIN"), "jax.grad(lambda v: jnp.sum(stats.truncnorm.logcdf(v, -1.0, 2.0)))(XIN)"),
    (G % ("S::poisson::logpmf(K, v)", "Array(3.5)"), "jax.grad(lambda v: jnp.sum(stats.poisson.logpmf(K, v)))(3.5)"),
    (G % ("S::multivariate_normal::logpdf(XM, v, COV)", "MU"), "jax.grad(lambda v: jnp.sum(stats.multivariate_normal.logpdf(XM, v, COV)))(MU)"),
    (G % ("S::multivariate_normal::logpdf(XM, MU, v)", "COV"), "jax.grad(lambda v: jnp.sum(stats.multivariate_normal.logpdf(XM, MU, v)))(COV)"),
    (G % ("S::gaussian_kde(D2).logpdf(v)", "PTS"), "jax.grad(lambda v: jnp.sum(stats.gaussian_kde(D2).logpdf(v)))(PTS)"),
]

# JAX 0.10's betaln loses digits for some arguments (betaln(3.5, 9.7) = -7.16194513 where scipy
# and strata give -7.16194588); betabinom's cases use JAX's formula over lgamma(a) + lgamma(b) -
# lgamma(a + b), which agrees with scipy's betaln to 1e-15 at these arguments.
import jax._src.scipy.stats.betabinom as _betabinom
from jax.scipy.special import gammaln
_betabinom.betaln = lambda a, b: gammaln(a) + gammaln(b) - gammaln(a + b)

env = {"stats": stats, "jnp": jnp, "jax": jax}
for name, (v, shape, dt) in INPUTS.items():
    env[name] = jnp.array(np.array(v, dtype=np.float64 if dt == "f64" else np.int32).reshape(shape))
    print(f"const Array {name} = st::array(D{{{', '.join(repr(x) if x == x else 'NAN' for x in v)}}}, {{{', '.join(map(str, shape))}}}, st::{dt});")
print()


def num(x):
    x = float(x)
    if np.isnan(x): return "NAN"
    if np.isinf(x): return "INFINITY" if x > 0 else "-INFINITY"
    return repr(x)


for case in CASES + [None] + GRADS:
    if case is None:
        print()
        continue
    cpp, py = case if isinstance(case, tuple) else (case, case.replace("S::", "stats.").replace("::", "."))
    got = np.asarray(eval(py, env))
    shape = "{" + ", ".join(map(str, got.shape)) + "}"
    esc = cpp.replace('"', '\\"')
    print(f'    {{"{esc}", {cpp}, {{{", ".join(num(x) for x in got.ravel())}}}, {shape}}},')
