// tracer/primitives/eigh.cpp — `eigh[lower] a`: v, w with a v = v diag(w) for each symmetric
// (Hermitian) matrix of a [..., n, n] (its lower triangle read), eigenvalues w ascending and
// real, eigenvectors the columns of v (jax.lax.linalg.eigh's order: v first). Kernel:
// kernels/linalg.h. f32, f64, c64, c128; derivatives of real matrices. The derivative of v
// divides by eigenvalue gaps: it is not defined at a repeated eigenvalue.
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

// F[i, j] = 1 / (w[j] - w[i]) off the diagonal, 0 on it (JAX's Fmat).
Array gap_inverse(const Array& w) {
  return off_diagonal_inverse(w, [](const Array& wj, const Array& wi) { return lax::sub(wj, wi); });
}

// JAX's eigh_jvp_rule: G = vᵀ ȧ v; v̇ = v (F ∘ G), ẇ = diag(G), with ȧ the symmetric tangent
// the lower triangle sees (as cholesky's).
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array> out, const Params&) {
  real_derivatives_only("eigh", out[0]);
  if (!t[0].valid()) return {Array(), Array()};
  const Array &v = out[0], &w = out[1];
  Array g = mm(mm(mT(v), sym_from_lower(t[0])), v);
  return {mm(v, lax::mul(gap_inverse(w), g)), diagonal(g)};
}

// The JVP transposed: v (F ∘ (vᵀ v̄) + diag(w̄)) vᵀ, folded onto the lower triangle.
std::vector<Array> vjp(std::span<const Array>, std::span<const Array> out, std::span<const Array> ct, const Params&) {
  real_derivatives_only("eigh", out[0]);
  if (!ct[0].valid() && !ct[1].valid()) return {Array()};
  const Array &v = out[0], &w = out[1];
  Array g;
  if (ct[0].valid()) g = lax::mul(gap_inverse(w), mm(mT(v), ct[0]));
  if (ct[1].valid()) g = g.valid() ? lax::add(g, diag_embed(ct[1])) : diag_embed(ct[1]);
  return {sym_from_lower_transpose(mm(mm(v, g), mT(v)))};
}

}  // namespace

const Primitive prim::kEigh{
    .name = "eigh",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kEigh, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kEigh, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kEigh, a, d, p); },
};

}  // namespace strata
