// tracer/primitives/triangular_solve.cpp — `triangular_solve[left_side, lower, transpose_a,
// conjugate_a, unit_diagonal] a b`: x with op(a) x = b (left_side) or x op(a) = b, op(a) = aᵀ
// with transpose_a, conj(a) with conjugate_a, aᴴ with both, reading only a's lower (upper)
// triangle, its diagonal taken as ones with unit_diagonal (jax.lax.linalg.triangular_solve).
// a [..., m, m], b [..., m, k] or [..., k, m]. A zero on the diagonal gives inf/nan. f32, f64,
// c64, c128, with derivatives (transposes under JAX's pairing Re Σ a·b: no conjugation but op's).
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

struct Flags {
  bool left, lower, trans, conj, unit;
  explicit Flags(const Params& p)
      : left(p.get<bool>("left_side")), lower(p.get<bool>("lower")), trans(p.get<bool>("transpose_a")),
        conj(p.get<bool>("conjugate_a")), unit(p.get<bool>("unit_diagonal")) {}
};

// The part of a that the solve reads (the triangle; strictly, with a unit diagonal).
Array triangle(const Array& a, const Flags& f) {
  int64_t k = f.unit ? 1 : 0;
  return f.lower ? tril(a, -k) : triu(a, k);
}
// op(a): transposed and/or conjugated as the flags say (conjugation only matters when complex).
Array op(const Array& a, const Flags& f) {
  Array r = f.trans ? mT(a) : a;
  return f.conj && is_complex(a.dtype()) ? lax::conj(r) : r;
}

// ẋ = solve(ḃ) - op(a)⁻¹ op(ȧ) x (left) or - x op(ȧ) op(a)⁻¹ (right): JAX's
// triangular_solve_jvp_rule_a and the linear rule in b.
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> out,
                       const Params& p) {
  Flags f(p);
  Array r;
  if (t[1].valid()) r = lax::bind1(prim::kTriangularSolve, {x[0], t[1]}, p);
  if (t[0].valid()) {
    Array da = op(triangle(t[0], f), f);
    Array rhs = lax::neg(f.left ? mm(da, out[0]) : mm(out[0], da));
    Array d = lax::bind1(prim::kTriangularSolve, {x[0], rhs}, p);
    r = r.valid() ? lax::add(r, d) : d;
  }
  return {r};
}

// b̄ = op(a)⁻ᵀ x̄ (x̄ op(a)⁻ᵀ on the right): the same solve with transpose_a flipped (op(a)ᵀ is
// conj(a)ᵀ when op conjugates: conjugate_a stays); ā from d op(a) = -b̄ xᵀ (left) or -xᵀ b̄
// (right) through op's transpose (which conjugates back), restricted to the triangle read.
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> out, std::span<const Array> ct,
                       const Params& p) {
  if (!ct[0].valid()) return {Array(), Array()};
  Flags f(p);
  Array bbar = triangular_solve(x[0], ct[0], f.left, f.lower, !f.trans, f.unit, f.conj);
  Array dop = lax::neg(f.left ? mm(bbar, mT(out[0])) : mm(mT(out[0]), bbar));
  return {triangle(op(dop, f), f), bbar};
}

}  // namespace

const Primitive prim::kTriangularSolve{
    .name = "triangular_solve",
    .arity = 2,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kTriangularSolve, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kTriangularSolve, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d,
                const Params& p) { return batch(prim::kTriangularSolve, a, d, p); },
};

}  // namespace strata
