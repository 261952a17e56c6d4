// tracer/primitives/svd.cpp — `svd[full_matrices, compute_uv] a`: s (descending singular
// values, [..., k], k = min(m, n), real), and with compute_uv u, vt with a = u diag(s) vt for each
// matrix of a [..., m, n]; reduced (u [..., m, k], vt [..., k, n]) or full (u [..., m, m],
// vt [..., n, n]) (jax.lax.linalg.svd's order: s, u, vt). Kernel: kernels/linalg.h (Eigen's
// BDCSVD; vt = Vᴴ for complex a). f32, f64, c64, c128; derivatives of real matrices. The
// derivative of u, vt divides by gaps between singular values (and by the values
// when m ≠ n): it is not defined at repeated (or zero) singular values.
#include "linalg_common.h"
#include "strata/errors.h"

namespace strata {
namespace {

using namespace linalg_prim;

// F[i, j] = 1 / (s[j]² - s[i]²) off the diagonal, 0 on it (JAX's svd_jvp_rule), the difference
// of squares as (s[j] + s[i])(s[j] - s[i]).
Array gap_inverse(const Array& s) {
  return off_diagonal_inverse(s, [](const Array& sj, const Array& si) { return lax::mul(lax::add(sj, si), lax::sub(sj, si)); });
}

// s, u, vt (reduced) of the primal: the outputs when they hold them, else a second decomposition.
std::vector<Array> reduced(const Array& a, std::span<const Array> out, const Params& p) {
  const Shape& s = a.shape();
  int64_t m = s[s.size() - 2], n = s.back();
  if (p.get<bool>("full_matrices") && m != n)
    throw ValueError("svd: derivatives of full_matrices=true are defined (as in JAX) only for square matrices, but got " +
                     type_string(a.dtype(), s));
  if (p.get<bool>("compute_uv")) return {out[0], out[1], out[2]};
  return lax::bind(prim::kSvd, std::span<const Array>(&a, 1), Params{{"full_matrices", false}, {"compute_uv", true}});
}

Array inv(const Array& s) { return lax::div(lax::full({s.shape(), s.dtype()}, 1.0), s); }

// JAX's svd_jvp_rule (real): dS = uᵀ ȧ v, ṡ = diag(dS), u̇ = u (F ∘ (dS S + S dSᵀ)),
// v̇ = v (F ∘ (S dS + dSᵀ S)), plus the parts outside the span of u (m > n) or v (n > m).
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> out,
                       const Params& p) {
  real_derivatives_only("svd", x[0]);
  bool uv = p.get<bool>("compute_uv");
  if (!t[0].valid()) return std::vector<Array>(uv ? 3 : 1);
  std::vector<Array> f = reduced(x[0], out, p);
  const Array &s = f[0], &u = f[1], &vt = f[2], &da = t[0];
  Array v = mT(vt);
  Array ds_m = mm(mm(mT(u), da), v);
  Array ds = diagonal(ds_m);
  if (!uv) return {ds};
  Array F = gap_inverse(s);
  Array dss = scale_cols(ds_m, s), sds = scale_rows(ds_m, s);
  Array du = mm(u, lax::mul(F, lax::add(dss, mT(dss))));
  Array dv = mm(v, lax::mul(F, lax::add(sds, mT(sds))));
  const Shape& sh = x[0].shape();
  int64_t m = sh[sh.size() - 2], n = sh.back();
  if (m > n) {
    Array dav = mm(da, v);
    du = lax::add(du, scale_cols(lax::sub(dav, mm(u, mm(mT(u), dav))), inv(s)));
  }
  if (n > m) {
    Array dahu = mm(mT(da), u);
    dv = lax::add(dv, scale_cols(lax::sub(dahu, mm(v, mm(vt, dahu))), inv(s)));
  }
  return {ds, du, mT(dv)};
}

// The JVP transposed: dS̄ = diag(s̄) + (J₁ + J₁ᵀ) S + S (J₂ + J₂ᵀ) with J₁ = F ∘ (uᵀ ū),
// J₂ = F ∘ (vᵀ v̄); ā = u dS̄ vt, plus (I - u uᵀ) ū S⁻¹ vt (m > n) and u S⁻¹ v̄ᵀ (I - v vᵀ) (n > m).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> out, std::span<const Array> ct,
                       const Params& p) {
  real_derivatives_only("svd", x[0]);
  bool any = false;
  for (const Array& c : ct) any = any || c.valid();
  if (!any) return {Array()};
  std::vector<Array> f = reduced(x[0], out, p);
  const Array &s = f[0], &u = f[1], &vt = f[2];
  Array v = mT(vt);
  const Shape& sh = x[0].shape();
  int64_t m = sh[sh.size() - 2], n = sh.back(), k = std::min(m, n);
  Shape batch(sh.begin(), sh.end() - 2), kk = batch;
  kk.push_back(k);
  kk.push_back(k);
  Array dsm = ct[0].valid() ? diag_embed(ct[0]) : lax::zeros({kk, s.dtype()});
  Array F;
  const Array* ubar = ct.size() > 1 && ct[1].valid() ? &ct[1] : nullptr;
  const Array* vtbar = ct.size() > 2 && ct[2].valid() ? &ct[2] : nullptr;
  if (ubar || vtbar) F = gap_inverse(s);
  if (ubar) {
    Array j1 = lax::mul(F, mm(mT(u), *ubar));
    dsm = lax::add(dsm, scale_cols(lax::add(j1, mT(j1)), s));
  }
  Array vbar;
  if (vtbar) {
    vbar = mT(*vtbar);
    Array j2 = lax::mul(F, mm(vt, vbar));
    dsm = lax::add(dsm, scale_rows(lax::add(j2, mT(j2)), s));
  }
  Array abar = mm(mm(u, dsm), vt);
  if (m > n && ubar)
    abar = lax::add(abar, mm(scale_cols(lax::sub(*ubar, mm(u, mm(mT(u), *ubar))), inv(s)), vt));
  if (n > m && vtbar)
    abar = lax::add(abar, mm(u, mT(scale_cols(lax::sub(vbar, mm(v, mm(vt, vbar))), inv(s)))));
  return {abar};
}

}  // namespace

const Primitive prim::kSvd{
    .name = "svd",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kSvd, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kSvd, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kSvd, a, d, p); },
};

}  // namespace strata
