// tracer/primitives/eig.cpp — `eig[compute_left_eigenvectors, compute_right_eigenvectors] a`:
// the eigenvalues w [..., n] of each square matrix of a [..., n, n] (real or complex), then (as asked) the
// left eigenvectors vl (u_jᴴ a = w_j u_jᴴ) and the right ones vr (a v_j = w_j v_j) as the
// columns of [..., n, n]; all complex (jax.lax.linalg.eig's order and LAPACK geev's unit-norm
// vectors). Kernel: kernels/linalg.h (nonsymmetric_eigen.h for real a, complex_eigen.h for
// complex a: LAPACK geev's iteration and dtrevc/ztrevc's vectors), CPU only, as in JAX.
//
// Derivatives: of the eigenvalues only, as JAX (its issue 2748): ẇ_k = u_kᴴ ȧ v_k / u_kᴴ v_k,
// not defined at a repeated eigenvalue. The JVP refuses when eigenvectors are computed (their
// tangents would be needed); the VJP only when an eigenvector's cotangent is not zero, so the
// gradient of a function of w alone goes through even when eig also gave vectors. Real and
// complex matrices.
#include <string>

#include "linalg_common.h"
#include "strata/errors.h"

namespace strata {
namespace {

using namespace linalg_prim;

constexpr const char* kVectorsNotDifferentiable =
    "eig: derivatives of eigenvectors are not implemented (as in JAX), only of eigenvalues; call eig with "
    "compute_left_eigenvectors=false and compute_right_eigenvectors=false (linalg::eigvals) to differentiate";

// The left and right eigenvectors of the primal a, and the pairing u_kᴴ v_k of each.
struct Vectors {
  Array ul, vr, pairing;  // conj(vl) [..., n, n], vr [..., n, n], [..., n]
};

Vectors vectors(const Array& a) {
  std::vector<Array> r = lax::bind(prim::kEig, std::span<const Array>(&a, 1),
                                   Params{{"compute_left_eigenvectors", true}, {"compute_right_eigenvectors", true}});
  const int64_t rows = static_cast<int64_t>(a.shape().size()) - 2;
  Array ul = lax::conj(r[1]);
  return {ul, r[2], lax::reduce_sum(lax::mul(ul, r[2]), {rows})};
}

std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> out,
                       const Params& p) {
  if (p.get<bool>("compute_left_eigenvectors") || p.get<bool>("compute_right_eigenvectors"))
    throw ValueError(kVectorsNotDifferentiable);
  if (!t[0].valid()) return std::vector<Array>(out.size());
  Vectors v = vectors(x[0]);
  const int64_t rows = static_cast<int64_t>(x[0].shape().size()) - 2;
  // ẇ_k = Σ_i conj(vl)_ik (ȧ vr)_ik / pairing_k.
  Array at = lax::convert_element_type(t[0], out[0].dtype());
  return {lax::div(lax::reduce_sum(lax::mul(v.ul, mm(at, v.vr)), {rows}), v.pairing)};
}

// The JVP transposed: ā_ij = Σ_k conj(vl)_ik (w̄_k / pairing_k) vr_jk (its real part for a real a).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array>, std::span<const Array> ct, const Params&) {
  for (size_t i = 1; i < ct.size(); ++i)
    if (ct[i].valid()) throw ValueError(kVectorsNotDifferentiable);
  if (!ct[0].valid()) return {Array()};
  Vectors v = vectors(x[0]);
  Array abar = mm(scale_cols(v.ul, lax::div(ct[0], v.pairing)), mT(v.vr));
  return {is_complex(x[0].dtype()) ? abar : lax::real(abar)};
}

}  // namespace

const Primitive prim::kEig{
    .name = "eig",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kEig, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kEig, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kEig, a, d, p); },
};

}  // namespace strata
