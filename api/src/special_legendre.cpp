// Associated Legendre functions and spherical harmonics (strata/special.h), as JAX's lpmn,
// lpmn_values and sph_harm_y: P_l^m(x) for 0 ≤ m, l ≤ l_max by the three-term recurrence in l,
// one superdiagonal l − m = i at a time (JAX runs the same recurrence over the whole
// [m, l, x] cube with masks), then the derivatives by JAX's recurrences in m. The recurrences'
// coefficients depend only on (m, l): they are computed here once, as constants.
#include <cmath>
#include <numbers>

#include "op_helpers.h"
#include "special_common.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/selection.h"
#include "strata/sorting.h"
#include "strata/indexing.h"
#include "strata/special.h"

namespace strata::special {

using detail::c_like;

namespace {

// A host-computed [rows, cols] table as a constant of x's dtype, broadcastable against
// [rows, cols, N] (a trailing 1).
Array table(const std::vector<double>& v, int64_t rows, int64_t cols, const Array& x) {
  return astype(array(v, {rows, cols, 1}, DType::f64), x.dtype());
}
Array column(const std::vector<double>& v, const Array& x) {
  return astype(array(v, {static_cast<int64_t>(v.size()), 1}, DType::f64), x.dtype());
}

// P[m, l, k] = P_l^m(x_k) for x [N], l_max + 1 rows and columns (zero for l < m); normalized:
// times √((2l+1)/(4π) (l−m)!/(l+m)!) (the spherical harmonics' factor). Condon–Shortley phase.
Array legendre(int64_t l_max, const Array& x, bool normalized) {
  const int64_t L = l_max + 1, N = x.shape()[0];
  const double init = normalized ? 0.5 / std::sqrt(std::numbers::pi) : 1.0;
  // The diagonal P_l^l = init · f_a[l] · (1 − x²)^(l/2), f_a the running product.
  std::vector<double> fa{init}, fb;
  double prod = 1;
  for (int64_t a = 1; a < L; ++a) {
    prod *= normalized ? -std::sqrt(1.0 + 0.5 / static_cast<double>(a)) : 1.0 - 2.0 * static_cast<double>(a);
    fa.push_back(init * prod);
  }
  for (int64_t b = 0; b + 1 < L; ++b)
    fb.push_back(normalized ? std::sqrt(2.0 * static_cast<double>(b) + 3.0) : 2.0 * static_cast<double>(b) + 1.0);
  Array y = sqrt(c_like(1, x) - x * x);
  Array powers = ones({1, N}, x.dtype());  // y^l, by repeated products as JAX's cumprod
  if (L > 1) powers = concatenate({powers, cumprod(broadcast_to(reshape(y, {1, N}), {L - 1, N}), 0)}, 0);
  std::vector<Array> s{column(fa, x) * powers};  // s[i][m] = P_(m+i)^m
  if (L > 1) s.push_back((column(fb, x) * reshape(x, {1, N})) * index(s[0], {Slice(0, L - 1)}));
  for (int64_t i = 2; i < L; ++i) {
    std::vector<double> d0, d1;
    for (int64_t m = 0; m + i < L; ++m) {
      const double l = static_cast<double>(m + i), mm = static_cast<double>(m);
      if (normalized) {
        d0.push_back(std::sqrt((4.0 * l * l - 1.0) / (l * l - mm * mm)));
        d1.push_back(std::sqrt(((2.0 * l + 1.0) * ((l - 1.0) * (l - 1.0) - mm * mm)) / ((2.0 * l - 3.0) * (l * l - mm * mm))));
      } else {
        d0.push_back((2.0 * l - 1.0) / (l - mm));
        d1.push_back((l + mm - 1.0) / (l - mm));
      }
    }
    const int64_t rows = L - i;
    s.push_back(column(d0, x) * (index(s[static_cast<size_t>(i - 1)], {Slice(0, rows)}) * reshape(x, {1, N})) -
                column(d1, x) * index(s[static_cast<size_t>(i - 2)], {Slice(0, rows)}));
  }
  // q[m, i] = s[i][m] (zero rows below), then P[m, l] = q[m, l − m] for l ≥ m.
  std::vector<Array> padded;
  for (int64_t i = 0; i < L; ++i) padded.push_back(pad(s[static_cast<size_t>(i)], {{0, i}, {0, 0}}));
  Array q = stack(padded, 1);  // [L, L, N]
  Array m_idx = reshape(arange(L), {L, 1, 1}), l_idx = reshape(arange(L), {1, L, 1});
  Array shift = broadcast_to(maximum(l_idx - m_idx, zeros_like(l_idx)), {L, L, N});
  return where(l_idx >= m_idx, take_along_axis(q, shift, 1), zeros_like(q));
}

// dP_l^m/dx from P (unnormalized), JAX's _gen_derivatives: the recurrences in m through
// P_l^(m±1), with P^(-1), P^(-2) of the first rows from P^1, P^2, and the m = 1 row apart.
Array legendre_derivatives(const Array& p, const Array& x) {
  const int64_t L = p.shape()[0], N = p.shape()[2];
  auto at = [&](const std::vector<double>& v) { return table(v, L, L, x); };
  // P_(l−1)^m, P_(l−1)^(m+2), P_(l−1)^(m−2) (rows 0 and 1: the negative orders).
  Array p_lm1 = index(pad(p, {{0, 0}, {1, 0}, {0, 0}}), {Slice(), Slice(0, L)});
  Array rows2 = pad(p_lm1, {{0, 2}, {0, 0}, {0, 0}});
  Array p_mp2 = index(rows2, {Slice(2, L + 2)});
  std::vector<double> ca(static_cast<size_t>(L), 0.0), cb(static_cast<size_t>(L), 0.0);
  for (int64_t l = 2; l < L; ++l) ca[static_cast<size_t>(l)] = -1.0 / static_cast<double>(l * (l - 1));
  for (int64_t l = 3; l < L; ++l) cb[static_cast<size_t>(l)] = 1.0 / static_cast<double>((l + 1) * l * (l - 1) * (l - 2));
  auto row_coeff = [&](const std::vector<double>& v) { return astype(array(v, {1, L, 1}, DType::f64), x.dtype()); };
  std::vector<Array> mm2_rows{row_coeff(cb) * index(rows2, {Slice(2, 3)}), row_coeff(ca) * index(rows2, {Slice(1, 2)})};
  if (L > 2) mm2_rows.push_back(index(p_lm1, {Slice(0, L - 2)}));
  Array p_mm2 = index(concatenate(mm2_rows, 0), {Slice(0, L)});
  // The coefficient tables, zero below the diagonal (l < m); a0 and c0 zero in row m = 1.
  std::vector<double> a0(static_cast<size_t>(L * L), 0.0), c0 = a0, d0 = a0, e0 = a0, f0 = a0;
  for (int64_t m = 0; m < L; ++m)
    for (int64_t l = m; l < L; ++l) {
      const size_t k = static_cast<size_t>(m * L + l);
      const double mm = static_cast<double>(m), b = static_cast<double>(l + m);
      if (m != 1) {
        a0[k] = -0.5 / (mm - 1.0);
        c0[k] = a0[k] * (b - 2.0) * (b - 1.0);
      }
      d0[k] = -0.5 / (mm + 1.0);
      e0[k] = d0[k] * b * (b + 1.0);
      f0[k] = b * (static_cast<double>(l) - mm + 1.0) / 2.0;
    }
  Array p_mm1_l = at(a0) * p_lm1 + at(c0) * p_mm2;
  Array p_mp1_l = at(d0) * p_mp2 + at(e0) * p_lm1;
  Array d = at(f0) * p_mm1_l - c_like(0.5, x) * p_mp1_l;
  if (L == 1) return d;
  // m = 1: ((l+1) l P_l^0 − P_l^2) / (2 √(1 − x²)), zero at l = 0.
  std::vector<double> ll;
  for (int64_t l = 0; l < L; ++l) ll.push_back(static_cast<double>((l + 1) * l));
  Array g = column(ll, x) * p[0];
  if (L > 2) g = g - p[2];
  Array row1 = reshape(c_like(0.5, x) / sqrt(c_like(1, x) - x * x), {1, N}) * g;
  row1 = concatenate({zeros({1, N}, x.dtype()), index(row1, {Slice(1, L)})}, 0);
  std::vector<Array> parts{index(d, {Slice(0, 1)}), reshape(row1, {1, L, N})};
  if (L > 2) parts.push_back(index(d, {Slice(2, L)}));
  return concatenate(parts, 0);
}

const AbstractValue& check_lpmn(const char* op, int m, int n, const Array& z) {
  const AbstractValue& av = api::aval(z, op);
  if (av.dtype != DType::f32 && av.dtype != DType::f64)
    throw DTypeError(std::string(op) + ": expects z of f32 or f64, but got " + av.str());
  if (av.ndim() != 1) throw ShapeError(std::string(op) + ": expects a 1-d z, but got " + av.str());
  if (m != n)
    throw ValueError(std::string(op) + ": computations for m != n are not implemented (as in JAX), but got m = " +
                     std::to_string(m) + ", n = " + std::to_string(n));
  if (n < 0) throw ValueError(std::string(op) + ": expects n >= 0, but got " + std::to_string(n));
  return av;
}

}  // namespace

LpmnResult lpmn(int m, int n, const Array& z, SourceLocation) {  // NOLINT: loc unused (no op of its own)
  check_lpmn("lpmn", m, n, z);
  Array p = legendre(n, z, false);
  return {p, legendre_derivatives(p, z)};
}

Array lpmn_values(int m, int n, const Array& z, bool is_normalized, SourceLocation) {
  check_lpmn("lpmn_values", m, n, z);
  return legendre(n, z, is_normalized);
}

Array sph_harm_y(const Array& n, const Array& m, const Array& theta, const Array& phi, std::optional<int> n_max,
                 SourceLocation loc) {
  const char* op = "sph_harm_y";
  for (const Array* a : {&n, &m})
    if (!is_integer(api::aval(*a, op).dtype))
      throw DTypeError("sph_harm_y: expects integer degrees n and orders m, but got " + api::aval(*a, op).str());
  auto [th, ph] = api::promote_inexact_dtypes(op, theta, phi, loc);
  if (is_complex(th.dtype())) throw DTypeError("sph_harm_y: expects real angles, but got " + api::aval(th, op).str());
  if (!n_max) {
    if (n.is_tracer())
      throw ConcretizationError("sph_harm_y: n_max must be given when n is traced (under jit, vmap or grad): "
                                "it sets the size of the Legendre table, a static shape");
    std::vector<int64_t> ns = n.to_vector<int64_t>();
    n_max = 0;
    for (int64_t v : ns) n_max = std::max<int>(*n_max, static_cast<int>(v));
  }
  if (*n_max < 0) throw ValueError("sph_harm_y: expects n_max >= 0, but got " + std::to_string(*n_max));
  std::vector<Array> v = broadcast_arrays({n, m, th, ph}, loc);
  const Shape shape = v[0].shape();
  const int64_t k = api::aval(v[0], op).size();
  Array nf = reshape(v[0], {k}), mf = reshape(v[1], {k}), t = reshape(v[2], {k}), p = reshape(v[3], {k});
  Array leg = legendre(*n_max, cos(t), true);
  // leg[|m|, n, k] with JAX's clipping of out-of-range degrees and orders.
  Array top = Array(static_cast<int32_t>(*n_max));
  Array am = clip(astype(abs(mf), DType::i32), Array(int32_t{0}), top), an = clip(astype(nf, DType::i32), Array(int32_t{0}), top);
  Array value = leg[{am, an, arange(k)}];
  Array angle = astype(abs(mf), t.dtype()) * p;
  Array h = complex(value * cos(angle), value * sin(angle));
  Array odd = (abs(mf) % 2) == 1;
  Array flipped = where(odd, -conj(h), conj(h));
  return reshape(where(mf < 0, flipped, h), shape);
}

}  // namespace strata::special
