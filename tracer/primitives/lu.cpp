// tracer/primitives/lu.cpp — `lu a`: the LU decomposition with partial pivoting of each matrix
// of a [..., m, n] (jax.lax.linalg.lu): lu [..., m, n] (L's strict lower part with a unit
// diagonal understood, U's upper part), pivots [..., min(m, n)] i32 (LAPACK's swaps, 0-based)
// and permutation [..., m] i32 with a[permutation] = L U. A singular matrix gives a zero on U's
// diagonal (no error). Kernel: kernels/linalg.h. f32, f64, c64, c128 (pivots by |re| + |im|,
// as LAPACK's), with derivatives.
#include "linalg_common.h"

namespace strata {
namespace {

using namespace linalg_prim;

// The permutation as a matrix P with P x = x[perm] (rows).
Array perm_matrix(const Array& perm, DType dtype) {
  const Shape& s = perm.shape();
  int64_t m = s.back();
  Shape full = s;
  full.push_back(m);
  IntList dims;
  for (size_t i = 0; i < s.size(); ++i) dims.push_back(static_cast<int64_t>(i));
  Array rows = lax::broadcast_in_dim(perm, full, dims);
  Array cols = lax::bind1(prim::kIota, {},
                          Params{{"dtype", DType::i32}, {"shape", IntList(full.begin(), full.end())},
                                 {"dimension", static_cast<int64_t>(full.size()) - 1}});
  return lax::convert_element_type(lax::eq(rows, cols), dtype);
}

// L (m × m, unit lower) and U (n × n, upper; ones on the diagonal past min(m, n)) from the
// packed factor, as JAX's lu_jvp_rule builds them.
std::pair<Array, Array> factors(const Array& lu) {
  const Shape& s = lu.shape();
  int64_t r = static_cast<int64_t>(s.size()), m = s[r - 2], n = s[r - 1], k = std::min(m, n);
  Shape batch(s.begin(), s.end() - 2);
  IntList start(r, 0), strides(r, 1), lo(r, 0), interior(r, 0);
  Array zero = lax::scalar(0.0, lu.dtype());
  IntList limit_l(s.begin(), s.end());
  limit_l[r - 1] = k;
  IntList high_l(r, 0);
  high_l[r - 1] = m - k;
  Array l = lax::pad(tril(lax::slice(lu, start, limit_l, strides), -1), zero, lo, high_l, interior);
  l = lax::add(l, eye(batch, m, m, lu.dtype()));
  IntList limit_u(s.begin(), s.end());
  limit_u[r - 2] = k;
  IntList high_u(r, 0);
  high_u[r - 2] = n - k;
  Array u = lax::pad(triu(lax::slice(lu, start, limit_u, strides)), zero, lo, high_u, interior);
  if (n > k) {
    IntList low_e(r, 0), high_e(r, 0);
    low_e[r - 2] = low_e[r - 1] = k;
    u = lax::add(u, lax::pad(eye(batch, n - k, n - k, lu.dtype()), zero, low_e, high_e, interior));
  }
  return {l, u};
}

// JAX's lu_jvp_rule: with x = P ȧ, la = L⁻¹ x, lau = la U⁻¹: lu̇ = L tril(lau, -1) + triu(lau) U.
std::vector<Array> jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array> out, const Params&) {
  if (!t[0].valid()) return {Array(), Array(), Array()};
  auto [l, u] = factors(out[0]);
  Array x = mm(perm_matrix(out[2], t[0].dtype()), t[0]);
  Array la = triangular_solve(l, x, /*left_side=*/true, /*lower=*/true, /*transpose_a=*/false, /*unit_diagonal=*/true);
  Array lau = triangular_solve(u, la, false, false, false, false);
  return {lax::add(mm(l, tril(lau, -1)), mm(triu(lau), u)), Array(), Array()};
}

// The JVP transposed: lau¯ = tril(Lᵀ c, -1) + triu(c Uᵀ), la¯ = lau¯ U⁻ᵀ, x¯ = L⁻ᵀ la¯, ā = Pᵀ x¯
// (complex: by reverse mode).
std::vector<Array> vjp(std::span<const Array> in, std::span<const Array> out, std::span<const Array> ct,
                       const Params& p) {
  if (is_complex(out[0].dtype())) return transpose_of_jvp(prim::kLu, in, out, ct, p);
  if (!ct[0].valid()) return {Array()};
  auto [l, u] = factors(out[0]);
  const Array& c = ct[0];
  Array lau = lax::add(tril(mm(mT(l), c), -1), triu(mm(c, mT(u))));
  Array la = triangular_solve(u, lau, /*left_side=*/false, /*lower=*/false, /*transpose_a=*/true, false);
  Array x = triangular_solve(l, la, true, true, true, /*unit_diagonal=*/true);
  return {mm(mT(perm_matrix(out[2], c.dtype())), x)};
}

}  // namespace

const Primitive prim::kLu{
    .name = "lu",
    .arity = 1,
    .traits = kTakesComplex,
    .shape_rule = [](std::span<const AbstractValue> in, const Params& p) { return rule(Kind::kLu, in, p); },
    .eager = [](std::span<const KernelArg> in, std::span<const KernelArg> out,
                const Params& p) { kernel(Kind::kLu, in, out, p); },
    .jvp = jvp,
    .vjp = vjp,
    .batch = [](std::span<const Array> a, std::span<const int> d, const Params& p) { return batch(prim::kLu, a, d, p); },
};

}  // namespace strata
