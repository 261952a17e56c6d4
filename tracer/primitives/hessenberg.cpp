// tracer/primitives/hessenberg.cpp — `hessenberg a`: the Hessenberg form h (zero below the
// first subdiagonal) of each square matrix of a [..., n, n] and the unitary q with a = q h qᴴ,
// by Householder reflections (LAPACK gehrd's reduction; jax.lax.linalg.hessenberg returns the
// reflectors packed, jax.scipy.linalg.hessenberg unpacks them to these two). Kernel:
// kernels/linalg.h (real: hessenberg.h, blocked as gehrd; complex: Eigen), CPU only, as in JAX.
//
// Not differentiable, as in JAX: both rules refuse.
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

constexpr char kNoDerivatives[] =
    "hessenberg: derivatives of the Hessenberg decomposition are not implemented (as in JAX)";

}  // namespace

const Primitive prim::kHessenberg{
    .name = "hessenberg",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kHessenberg, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kHessenberg, in, out, p); },
    .jvp = refuse_to_differentiate<kNoDerivatives>,
    .vjp = refuse_to_differentiate<kNoDerivatives>,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) {
      return batch(prim::kHessenberg, a, d, p);
    },
};

}  // namespace strata
