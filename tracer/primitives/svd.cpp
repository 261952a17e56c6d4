// tracer/primitives/svd.cpp — `svd[full_matrices, compute_uv] a`: s (descending singular
// values, [..., k], k = min(m, n), real), and with compute_uv u, vt with a = u diag(s) vt for each
// matrix of a [..., m, n]; reduced (u [..., m, k], vt [..., k, n]) or full (u [..., m, m],
// vt [..., n, n]) (jax.lax.linalg.svd's order: s, u, vt). Kernel: kernels/linalg.h (real:
// kernels/bidiagonal.h, gesdd's bidiagonal reduction with dqds or divide and conquer; complex
// and small: Eigen's BDCSVD, vt = Vᴴ for complex a). f32, f64, c64, c128, with derivatives. The derivative of u,
// vt divides by gaps between singular values (and by the values when m ≠ n): it is not defined
// at repeated (or zero) singular values; nor, for complex a, is the phase of a pair of singular
// vectors (only phase-invariant functions of u, vt have a derivative, as in JAX).
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

// JAX's svd_jvp_rule: dS = uᴴ ȧ v, ṡ = Re diag(dS), u̇ = u (F ∘ (dS S + S dSᴴ) + i Im diag(dS) S⁻¹)
// (that last term is zero for real a), v̇ = v (F ∘ (S dS + dSᴴ S)), plus the parts outside the
// span of u (m > n) or v (n > m).
std::vector<Array> jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> out,
                       const Params& p) {
  bool uv = p.get<bool>("compute_uv");
  if (!t[0].valid()) return std::vector<Array>(uv ? 3 : 1);
  std::vector<Array> f = reduced(x[0], out, p);
  const Array &s = f[0], &u = f[1], &vt = f[2], &da = t[0];
  const bool complex = is_complex(da.dtype());
  Array v = mH(vt);
  Array ds_m = mm(mm(mH(u), da), v);
  Array ds = diagonal(ds_m);
  Array ds_real = complex ? lax::real(ds) : ds;
  if (!uv) return {ds_real};
  Array F = as_dtype_of(gap_inverse(s), ds_m);
  Array dss = scale_cols(ds_m, s), sds = scale_rows(ds_m, s);
  Array inner_u = lax::mul(F, lax::add(dss, mH(dss)));
  if (complex) {  // i Im diag(dS) / s, 0 where s = 0 (JAX's s_inv)
    Array zero = lax::eq(s, lax::zeros({s.shape(), s.dtype()}));
    Array s_inv = lax::select(zero, lax::zeros({s.shape(), s.dtype()}), inv(lax::select(zero, lax::full({s.shape(), s.dtype()}, 1.0), s)));
    inner_u = lax::add(inner_u, diag_embed(lax::mul(lax::sub(ds, as_dtype_of(ds_real, ds)), as_dtype_of(s_inv, ds))));
  }
  Array du = mm(u, inner_u);
  Array dv = mm(v, lax::mul(F, lax::add(sds, mH(sds))));
  const Shape& sh = x[0].shape();
  int64_t m = sh[sh.size() - 2], n = sh.back();
  if (m > n) {
    Array dav = mm(da, v);
    du = lax::add(du, scale_cols(lax::sub(dav, mm(u, mm(mH(u), dav))), inv(s)));
  }
  if (n > m) {
    Array dahu = mm(mH(da), u);
    dv = lax::add(dv, scale_cols(lax::sub(dahu, mm(v, mm(vt, dahu))), inv(s)));
  }
  return {ds_real, du, mH(dv)};
}

// The JVP transposed: dS̄ = diag(s̄) + (J₁ + J₁ᵀ) S + S (J₂ + J₂ᵀ) with J₁ = F ∘ (uᵀ ū),
// J₂ = F ∘ (vᵀ v̄); ā = u dS̄ vt, plus (I - u uᵀ) ū S⁻¹ vt (m > n) and u S⁻¹ v̄ᵀ (I - v vᵀ) (n > m).
std::vector<Array> vjp(std::span<const Array> x, std::span<const Array> out, std::span<const Array> ct,
                       const Params& p) {
  if (is_complex(x[0].dtype())) return transpose_of_jvp(prim::kSvd, x, out, ct, p);
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
