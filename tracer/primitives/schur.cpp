// tracer/primitives/schur.cpp — `schur[compute_schur_vectors] a`: the Schur form t of each
// square matrix of a [..., n, n] and (as asked) the Schur vectors z, a = z t zᴴ with z unitary
// (jax.lax.linalg.schur; LAPACK gees's meaning). t is upper triangular for complex a and
// quasi-upper-triangular for real a (a 2×2 diagonal block per complex conjugate pair of
// eigenvalues). The form is not unique (the order of the eigenvalues on the diagonal, the
// columns' phases): kernels/linalg.h (nonsymmetric_eigen.h's and complex_eigen.h's QR iterations),
// CPU only, as in JAX.
//
// Not differentiable, as in JAX (which has no rule for it): both rules refuse.
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

constexpr char kNoDerivatives[] =
    "schur: derivatives of the Schur decomposition are not implemented (as in JAX); differentiate through eig or "
    "eigh instead";

}  // namespace

const Primitive prim::kSchur{
    .name = "schur",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kSchur, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kSchur, in, out, p); },
    .jvp = refuse_to_differentiate<kNoDerivatives>,
    .vjp = refuse_to_differentiate<kNoDerivatives>,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kSchur, a, d, p); },
};

}  // namespace strata
