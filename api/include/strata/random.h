// strata/random.h — counter-based random numbers (JAX's threefry2x32 keys), bit for bit as
// jax.random in JAX 0.10.
//
// Randomness is explicit: a key (i32[2], the bits of JAX's uint32[2] raw key) plus a shape
// determine the numbers, so results are reproducible and the functions trace like any other
// op. Never reuse a key: split it (or fold_in).
//
// Compatibility with JAX. By default the streams are JAX's current default layout,
// jax_threefry_partitionable=True (JAX's default since 0.5): element i of a shape is the
// threefry2x32 hash of the counter pair (0, i) — bits are y0 ^ y1 (32-bit) or y0 << 32 | y1
// (64-bit), split(key, n)[i] = (y0, y1). set_threefry_partitionable(false) selects the older
// layout (the hash of iota(n), split in halves) for every function here. The samplers are
// JAX's algorithms step by step, in the requested dtype: uniform (mantissa bits under the
// exponent of 1.0), normal (sqrt(2)·erf_inv(u), u uniform in (-1, 1)), randint (two bit
// streams, modulo), bernoulli, categorical and gumbel ("low" mode), permutation (sort by random
// keys, ceil(3 ln n / ln(2^32 - 1)) rounds), truncated_normal, exponential, gamma
// (Marsaglia–Tsang, one while loop per element under vmap, keys split per element), beta and
// dirichlet (log-space gamma). Where only integer and IEEE arithmetic is involved (bits, key,
// split, fold_in, uniform, randint, bernoulli, permutation, choice) the results equal JAX's
// exactly; where a transcendental function enters (normal's erf_inv, log in gumbel/exponential/
// gamma) they agree to a few ulps, because XLA's log and erf_inv approximations round
// differently from strata's in the last bit (the tests state the measured bound). Floats as
// JAX with x64 enabled for f64; f32 is the same with x64 on or off.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::random {

// The stream layout: true (default) is JAX's jax_threefry_partitionable=True, false the layout
// of JAX before 0.5. Process-wide; a function already jitted keeps the layout it was traced with.
void set_threefry_partitionable(bool on);
bool threefry_partitionable();

// A key from a seed, as jax.random.PRNGKey: [seed >> 32, seed & 0xFFFFFFFF].
Array key(uint64_t seed);
// jax.random.PRNGKey's spelling of key.
inline Array PRNGKey(uint64_t seed) { return key(seed); }
// A key's (or split's) bits as u32 [..., 2] (jax.random.key_data), and keys from such data
// (jax.random.wrap_key_data; u32 or i32 [..., 2]). The same bits: wrap_key_data(key_data(k)) == k.
Array key_data(const Array& keys, SourceLocation loc = SourceLocation::current());
Array wrap_key_data(const Array& data, SourceLocation loc = SourceLocation::current());
// `num` new independent keys, as an i32[num, 2] array (take rows with `slice` or `key_at`).
Array split(const Array& key, int num = 2, SourceLocation loc = SourceLocation::current());
// Row i of a split: an i32[2] key.
Array key_at(const Array& keys, int i, SourceLocation loc = SourceLocation::current());
// A new key from `key` and 32 bits of data (jax.random.fold_in); data is a 0-d integer array
// (traced or not) or a C++ integer.
Array fold_in(const Array& key, const Array& data, SourceLocation loc = SourceLocation::current());
Array fold_in(const Array& key, uint32_t data, SourceLocation loc = SourceLocation::current());
// Uniformly random bit patterns of an integer dtype of 8, 16, 32 or 64 bits (jax.random.bits;
// a signed dtype holds the same bits as its unsigned counterpart); a 2- or 4-bit integer takes
// the low bits of random bytes.
Array bits(const Array& key, const Shape& shape, DType dtype = u32, SourceLocation loc = SourceLocation::current());

// Uniform floats in [minval, maxval); minval/maxval may be arrays broadcasting to `shape`.
Array uniform(const Array& key, const Shape& shape, DType dtype = f32, double minval = 0.0, double maxval = 1.0,
              SourceLocation loc = SourceLocation::current());
Array uniform(const Array& key, const Shape& shape, DType dtype, const Array& minval, const Array& maxval,
              SourceLocation loc = SourceLocation::current());
// Standard normal floats: sqrt(2) erf_inv(u), u uniform in (-1, 1) (jax.random.normal); of a
// complex dtype, (re + i·im) / sqrt(2) with re and im drawn from the two keys of a split (JAX's).
Array normal(const Array& key, const Shape& shape, DType dtype = f32, SourceLocation loc = SourceLocation::current());

// Integers uniform in [minval, maxval) (jax.random.randint, including its slight modulo bias
// for spans that are not powers of 2). An empty range gives minval.
Array randint(const Array& key, const Shape& shape, const Array& minval, const Array& maxval, DType dtype = i32,
              SourceLocation loc = SourceLocation::current());
// Booleans, true with probability p (uniform(p's dtype) < p); the shape defaults to p's. A C++
// scalar p (weak) draws in f32, as a Python float in JAX without x64.
Array bernoulli(const Array& key, const Array& p = Array(0.5), std::optional<Shape> shape = std::nullopt,
                SourceLocation loc = SourceLocation::current());
// Indices (i32) drawn from the categorical distribution with unnormalised log-probabilities
// `logits` along `axis` (argmax of logits + gumbel). `shape` defaults to logits' shape without
// `axis`, and must end with it.
Array categorical(const Array& key, const Array& logits, int axis = -1, std::optional<Shape> shape = std::nullopt,
                  SourceLocation loc = SourceLocation::current());
// A random permutation of 0..n-1 (i32) …
Array permutation(const Array& key, int64_t n, SourceLocation loc = SourceLocation::current());
// … or of x along `axis`: whole slices move together, or (independent) each 1-d slice along
// `axis` is permuted on its own.
Array permutation(const Array& key, const Array& x, int axis = 0, bool independent = false,
                  SourceLocation loc = SourceLocation::current());
// The same as permutation(key, x, axis): x's slices along `axis` in random order.
Array shuffle(const Array& key, const Array& x, int axis = 0, SourceLocation loc = SourceLocation::current());
// Draws of `shape` from 0..n-1 (i32): uniformly (with or without replacement) or with
// probabilities p (a 1-d array of n weights, normalised by their sum), as jax.random.choice.
Array choice(const Array& key, int64_t n, const Shape& shape = {}, bool replace = true,
             const std::optional<Array>& p = std::nullopt, SourceLocation loc = SourceLocation::current());
// … or of the slices of `a` along `axis` (the drawn indices' shape takes that axis' place).
Array choice(const Array& key, const Array& a, const Shape& shape, bool replace = true,
             const std::optional<Array>& p = std::nullopt, int axis = 0, SourceLocation loc = SourceLocation::current());
// Standard normal truncated to (lower, upper) (arrays broadcasting to `shape`, which defaults
// to their broadcast shape): the inverse CDF of a uniform between erf(lower/√2) and erf(upper/√2).
Array truncated_normal(const Array& key, const Array& lower, const Array& upper, std::optional<Shape> shape = std::nullopt,
                       DType dtype = f32, SourceLocation loc = SourceLocation::current());
// Standard Gumbel: -log(-log(u)), u uniform in [tiny, 1) (jax.random.gumbel, mode "low").
Array gumbel(const Array& key, const Shape& shape, DType dtype = f32, SourceLocation loc = SourceLocation::current());
// Standard exponential: -log1p(-u).
Array exponential(const Array& key, const Shape& shape, DType dtype = f32, SourceLocation loc = SourceLocation::current());
// Gamma(a, 1) (Marsaglia–Tsang; a < 1 boosted through Gamma(a + 1) · u^(1/a)); the shape
// defaults to a's. Differentiable in a as JAX's: implicitly, d sample/da =
// random_gamma_grad(a, sample) (the sample's change at a fixed CDF value), so gamma, loggamma,
// beta and dirichlet give reparameterised gradients in their parameters (jvp, grad, jacfwd).
Array gamma(const Array& key, const Array& a, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
            SourceLocation loc = SourceLocation::current());
// log of a Gamma(a, 1) draw, computed in log space (accurate for tiny a), as jax.random.loggamma.
Array loggamma(const Array& key, const Array& a, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
               SourceLocation loc = SourceLocation::current());
// Beta(a, b) from two log-space gamma draws.
Array beta(const Array& key, const Array& a, const Array& b, std::optional<Shape> shape = std::nullopt,
           DType dtype = f32, SourceLocation loc = SourceLocation::current());
// Dirichlet(alpha) over alpha's last axis: softmax of log-space gamma draws; `shape` (the batch
// shape) defaults to alpha's shape without its last axis.
Array dirichlet(const Array& key, const Array& alpha, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
                SourceLocation loc = SourceLocation::current());

// Poisson(lam) counts (jax.random.poisson), in an integer dtype; the shape defaults to lam's,
// lam is taken in f32 as JAX does. JAX's samplers with JAX's key schedule, so the draws equal
// jax.random.poisson's for the same key: Knuth's product of uniforms for lam < 10, Hörmann's
// transformed rejection (PTRS) above, each a while_loop over the whole array that splits the
// key once per round. lam = 0 gives 0; nan gives -1 (as JAX). Not differentiable (integers).
Array poisson(const Array& key, const Array& lam, std::optional<Shape> shape = std::nullopt, DType dtype = i32,
              SourceLocation loc = SourceLocation::current());

// Draws of N(mean, cov) (jax.random.multivariate_normal): mean [..., n], cov [..., n, n]; the
// result is shape + [n] (shape defaults to the broadcast of mean's and cov's batch shapes).
// mean + factor · z for z standard normal, with factor cov's Cholesky factor ("cholesky", JAX's
// default), u·sqrt(s) of its SVD ("svd") or v·sqrt(w) of its eigendecomposition ("eigh"). A cov
// that is not positive definite gives nan with "cholesky", as in JAX.
Array multivariate_normal(const Array& key, const Array& mean, const Array& cov, std::optional<Shape> shape = std::nullopt,
                          DType dtype = f32, const std::string& method = "cholesky",
                          SourceLocation loc = SourceLocation::current());

// jax.random.orthogonal: n × m matrices (m defaults to n) with orthonormal columns (rows when
// n < m), uniformly distributed (Haar), batched over `shape`: the QR of a normal draw with R's
// diagonal signs folded into Q, as JAX (the same matrices as JAX for the same key, up to the
// rounding of the decomposition).
Array orthogonal(const Array& key, int64_t n, const Shape& shape = {}, DType dtype = f32, std::optional<int64_t> m = std::nullopt,
                 SourceLocation loc = SourceLocation::current());

// More of jax.random's distributions (random_more.cpp), JAX's transforms with JAX's key splits, so
// the draws are JAX's for the same key (parameters broadcast to `shape`, which defaults to
// their broadcast shape):
// standard Cauchy tan(π(u - ½)); Laplace sign(u)·log1p(-|u|); logistic log(u) - log1p(-u);
// lognormal exp(σ·z); Pareto exp(e/b) (e exponential); Rademacher ±1 (signed integers or
// floats); Rayleigh scale·sqrt(-2 log u); triangular(left, mode, right); Wald (inverse
// Gaussian) with the given mean; Weibull scale·(-log1p(-u))^(1/concentration); Maxwell (the
// norm of 3 normals) and its double-sided form ±maxwell·scale + loc (shape then the
// parameters' shape, as JAX); χ²(df) = 2·exp(loggamma(df/2)); Snedecor's F; Student's t;
// geometric (trials to the first success, an integer dtype); generalized normal (density
// ∝ exp(-|x|^p)); uniform points in the d-dimensional unit p-ball.
Array cauchy(const Array& key, const Shape& shape = {}, DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array laplace(const Array& key, const Shape& shape = {}, DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array logistic(const Array& key, const Shape& shape = {}, DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array lognormal(const Array& key, const Array& sigma = Array(1.0f), std::optional<Shape> shape = std::nullopt, DType dtype = f32,
                SourceLocation loc = SourceLocation::current());
Array pareto(const Array& key, const Array& b, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
             SourceLocation loc = SourceLocation::current());
Array rademacher(const Array& key, const Shape& shape = {}, DType dtype = i32, SourceLocation loc = SourceLocation::current());
Array rayleigh(const Array& key, const Array& scale = Array(1.0f), std::optional<Shape> shape = std::nullopt, DType dtype = f32,
               SourceLocation loc = SourceLocation::current());
Array triangular(const Array& key, const Array& left, const Array& mode, const Array& right,
                 std::optional<Shape> shape = std::nullopt, DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array wald(const Array& key, const Array& mean, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
           SourceLocation loc = SourceLocation::current());
Array weibull_min(const Array& key, const Array& scale, const Array& concentration, std::optional<Shape> shape = std::nullopt,
                  DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array maxwell(const Array& key, const Shape& shape = {}, DType dtype = f32, SourceLocation loc = SourceLocation::current());
Array double_sided_maxwell(const Array& key, const Array& loc_, const Array& scale, const Shape& shape = {}, DType dtype = f32,
                           SourceLocation loc = SourceLocation::current());
Array chisquare(const Array& key, const Array& df, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
                SourceLocation loc = SourceLocation::current());
Array f(const Array& key, const Array& dfnum, const Array& dfden, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
        SourceLocation loc = SourceLocation::current());
Array t(const Array& key, const Array& df, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
        SourceLocation loc = SourceLocation::current());
Array geometric(const Array& key, const Array& p, std::optional<Shape> shape = std::nullopt, DType dtype = i32,
                SourceLocation loc = SourceLocation::current());
Array generalized_normal(const Array& key, const Array& p, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
                         SourceLocation loc = SourceLocation::current());
Array ball(const Array& key, int64_t d, double p = 2.0, const Shape& shape = {}, DType dtype = f32,
           SourceLocation loc = SourceLocation::current());

// Binomial(n, p) counts as floats (jax.random.binomial: inversion for n·min(p, 1-p) <= 10, BTRS
// above; the same draws as JAX): nan for a nan p or a nan or negative n, inf for n = inf. A weak
// p (a C++ scalar) draws in f32. multinomial: counts over p's last axis (n trials per row),
// as JAX's sequence of binomials on the remainder.
Array binomial(const Array& key, const Array& n, const Array& p, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
               SourceLocation loc = SourceLocation::current());
Array multinomial(const Array& key, const Array& n, const Array& p, std::optional<Shape> shape = std::nullopt, DType dtype = f32,
                  SourceLocation loc = SourceLocation::current());

}  // namespace strata::random
