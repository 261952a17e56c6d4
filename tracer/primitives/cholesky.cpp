// tracer/primitives/cholesky.cpp — `cholesky a`: the lower Cholesky factor L (L Lᴴ = a, zeros
// above the diagonal) of each symmetric (Hermitian) matrix of a [..., n, n], reading its lower
// triangle (jax.lax.linalg.cholesky's primitive; the API symmetrizes its input first, as JAX).
// A matrix that is not positive definite gives a NaN-filled factor. Kernel: kernels/linalg.h.
// f32, f64, c64, c128, with derivatives.
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

// Φ(X): the lower triangle of X with its diagonal halved.
Array phi(const Array& x) {
  const Shape& s = x.shape();
  Array half = lax::mul(lax::full({s, x.dtype()}, 0.5), eye(Shape(s.begin(), s.end() - 2), s[s.size() - 2], s.back(), x.dtype()));
  return lax::sub(tril(x), lax::mul(x, half));
}

// JAX's cholesky_jvp_rule (Murray 2016): L̇ = L Φ(L⁻¹ ȧ L⁻ᴴ), with ȧ the symmetric (Hermitian)
// tangent the lower triangle sees (JAX uses ȧ as given, which agrees when it is symmetric, as
// it is under jnp.linalg.cholesky's symmetrization; without it, only this is the derivative).
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array> out, const Params&) {
  if (!t[0].valid()) return {Array()};
  const Array& L = out[0];
  Array tmp = triangular_solve(L, sym_from_lower(t[0]), /*left_side=*/false, /*lower=*/true, /*transpose_a=*/true, false,
                               /*conjugate_a=*/is_complex(L.dtype()));
  return {mm(L, phi(triangular_solve(L, tmp, true, true, false, false)))};
}

// The transpose of the JVP: G = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹ (JAX's), folded onto the lower triangle read;
// complex: the JVP transposed by reverse mode.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> out, std::span<const Array> ct,
                       const Params& params) {
  if (is_complex(out[0].dtype())) return transpose_of_jvp(prim::kCholesky, x, out, ct, params);
  if (!ct[0].valid()) return {Array()};
  const Array& L = out[0];
  Array p = phi(mm(mT(L), ct[0]));
  Array tmp = triangular_solve(L, p, /*left_side=*/true, /*lower=*/true, /*transpose_a=*/true, false);
  return {sym_from_lower_transpose(triangular_solve(L, tmp, false, true, false, false))};
}

}  // namespace

const Primitive prim::kCholesky{
    .name = "cholesky",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kCholesky, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kCholesky, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kCholesky, a, d, p); },
};

}  // namespace strata
