// tracer/primitives/qr.cpp — `qr[full_matrices] a`: q, r with q r = a, q orthonormal (unitary) columns,
// r upper triangular, for each matrix of a [..., m, n]; reduced (q [..., m, k], r [..., k, n],
// k = min(m, n)) or full (q [..., m, m], r [..., m, n]) (jax.lax.linalg.qr; Householder, the
// signs of r's diagonal as the algorithm leaves them, real). Kernel: kernels/linalg.h. f32, f64,
// c64, c128, with derivatives.
#include "linalg_common.h"
#include "strata/errors.h"

namespace strata {
namespace {

using namespace linalg_prim;

// JAX defines the derivative for m >= n, and full matrices only when square.
void check_differentiable(const Array& a, const Params& p) {
  const Shape& s = a.shape();
  int64_t m = s[s.size() - 2], n = s.back();
  if (m < n || (p.get<bool>("full_matrices") && m != n))
    throw ValueError("qr: derivatives are defined (as in JAX) for m >= n, with full_matrices only when square, but got " +
                     type_string(a.dtype(), s) + (p.get<bool>("full_matrices") ? " with full_matrices" : ""));
}

// JAX's qr_jvp_rule: D = ȧ R⁻¹, C = Qᴴ D, Ω = tril(C, -1) - tril(C, -1)ᴴ (complex: plus
// i Im diag(C), R's real diagonal staying real); Q̇ = Q (Ω - C) + D, Ṙ = (C - Ω) R.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> out,
                       const Params& p) {
  if (!t[0].valid()) return {Array(), Array()};
  check_differentiable(x[0], p);
  const Array &q = out[0], &r = out[1];
  Array d = triangular_solve(r, t[0], /*left_side=*/false, /*lower=*/false, false, false);
  Array c = mm(mH(q), d);
  Array cl = tril(c, -1);
  Array omega = lax::sub(cl, mH(cl));
  if (is_complex(c.dtype())) {
    Array dc = diagonal(c);
    omega = lax::add(omega, diag_embed(lax::sub(dc, as_dtype_of(lax::real(dc), dc))));
  }
  return {lax::add(mm(q, lax::sub(omega, c)), d), mm(lax::sub(c, omega), r)};
}

// The JVP transposed: M = R̄ Rᵀ - Qᵀ Q̄, C̄ = M - tril(M - Mᵀ, -1), ā = (Q̄ + Q C̄) R⁻ᵀ (complex:
// by reverse mode).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> out, std::span<const Array> ct,
                       const Params& p) {
  if (is_complex(x[0].dtype())) return transpose_of_jvp(prim::kQr, x, out, ct, p);
  if (!ct[0].valid() && !ct[1].valid()) return {Array()};
  check_differentiable(x[0], p);
  const Array &q = out[0], &r = out[1];
  Array qbar = ct[0].valid() ? ct[0] : lax::zeros({q.shape(), q.dtype()});
  Array m = lax::neg(mm(mT(q), qbar));
  if (ct[1].valid()) m = lax::add(m, mm(ct[1], mT(r)));
  Array cbar = lax::sub(m, tril(lax::sub(m, mT(m)), -1));
  Array dbar = lax::add(qbar, mm(q, cbar));
  return {triangular_solve(r, dbar, /*left_side=*/false, /*lower=*/false, /*transpose_a=*/true, false)};
}

}  // namespace

const Primitive prim::kQr{
    .name = "qr",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kQr, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kQr, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kQr, a, d, p); },
};

}  // namespace strata
