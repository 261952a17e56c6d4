// jax.scipy.special's scaled error functions (strata/special.h): erfcx = e^(x²) erfc(x) and
// Dawson's integral, JAX's algorithms (the direct product below the overflow threshold, the
// asymptotic series above; Cody, Paciorek and Thacher's rational approximations), with JAX's
// derivatives as custom JVPs. bf16/f16 compute in f32, as JAX. Also Owen's T function and the
// Faddeeva function wofz (Weideman's approximation, as JAX), which erfcx of a complex z uses.
#include <cmath>
#include <iterator>

#include "op_helpers.h"
#include "special_common.h"
#include "strata/composites.h"
#include "strata/grad.h"
#include "strata/selection.h"
#include "strata/special.h"
#include "strata/statistics.h"

namespace strata::special {

using detail::c_like;
using detail::horner;
using detail::real_inexact;

namespace {

// Dawson's integral: [0, 3.25) x·P(x²)/Q(x²); [3.25, 6.25) and beyond 0.5/x · (1 + t·P(t)/Q(t)),
// t = 1/x² (Cody, Paciorek, Thacher 1970, as JAX's tables).
constexpr double kDawsnAN[] = {1.13681498971755972054e-11, 8.49262267667473811108e-10, 1.94434204175553054283e-8, 9.53151741254484363489e-7, 3.07828309874913200438e-6, 3.52513368520288738649e-4, -8.50149846724410912031e-4, 4.22618223005546594270e-2, -9.17480371773452345351e-2, 9.99999999999999994612e-1};
constexpr double kDawsnAD[] = {2.40372073066762605484e-11, 1.48864681368493396752e-9, 5.21265281010541664570e-8, 1.27258478273186970203e-6, 2.32490249820789513991e-5, 3.25524741826057911661e-4, 3.48805814657162590916e-3, 2.79448531198828973716e-2, 1.58874241960120565368e-1, 5.74918629489320327824e-1, 1.00000000000000000539e0};
constexpr double kDawsnBN[] = {5.08955156417900903354e-1, -2.44754418142697847934e-1, 9.41512335303534411857e-2, -2.18711255142039025206e-2, 3.66207612329569181322e-3, -4.23209114460388756528e-4, 3.59641304793896631888e-5, -2.14640351719968974225e-6, 9.10010780076391431042e-8, -2.40274520828250956942e-9, 3.59233385440928410398e-11};
constexpr double kDawsnBD[] = {1.00000000000000000000e0, -6.31839869873368190192e-1, 2.36706788228248691528e-1, -5.31806367003223277662e-2, 8.48041718586295374409e-3, -9.47996768486665330168e-4, 7.81025592944552338085e-5, -4.55875153252442634831e-6, 1.89100358111421846170e-7, -4.91324691331920606875e-9, 7.18466403235734541950e-11};
constexpr double kDawsnCN[] = {-5.90592860534773254987e-1, 6.29235242724368800674e-1, -1.72858975380388136411e-1, 1.64837047825189632310e-2, -4.86827613020462700845e-4};
constexpr double kDawsnCD[] = {1.00000000000000000000e0, -2.69820057197544900361e0, 1.73270799045947845857e0, -3.93708582281939493482e-1, 3.44278924041233391079e-2, -9.73655226040941223894e-4};

// x in f32 when it is a float narrower than f32 (the tables and thresholds are for f32 and f64).
Array widened(const Array& x) { return is_narrow_float(x.dtype()) ? astype(x, f32) : x; }

Array erfcx_value(const Array& x_in) {
  Array x = widened(x_in);
  const bool f64_ = x.dtype() == f64;
  // exp(x²) overflows beyond sqrt(log(max)); there the series Σ c_k / x^(2k) / (√π x), with
  // c_k = (-1)^k (2k-1)!! / 2^k, 9 terms in f64 and 5 in f32 (the next below the precision).
  static constexpr double kF64[] = {7918.06640625, -1055.7421875, 162.421875, -29.53125, 6.5625, -1.875, .75, -.5, 1.};
  static constexpr double kF32[] = {6.5625, -1.875, .75, -.5, 1.};
  const double threshold = std::sqrt(std::log(f64_ ? 1.7976931348623157e308 : 3.4028234663852886e38));
  Array large = x > c_like(threshold, x);
  Array safe = where(large, c_like(1, x), x);
  Array direct = exp(safe * safe) * erfc(safe);
  Array big = where(large, x, c_like(threshold + 1, x));
  Array t = c_like(1, x) / (big * big);
  Array asymptotic = (f64_ ? horner(kF64, t) : horner(kF32, t)) / (big * c_like(std::sqrt(M_PI), x));
  return astype(where(large, asymptotic, direct), x_in.dtype());
}

Array dawsn_value(const Array& x_in) {
  Array x = widened(x_in);
  Array ax = abs(x), one = c_like(1, x);
  Array r1 = ax < c_like(3.25, x), r3 = ax >= c_like(6.25, x), r2 = logical_and(logical_not(r1), logical_not(r3));
  // Each region on safe inputs where it is not used (no inf/inf there).
  Array a1 = where(r1, ax, one);
  Array v1 = a1 * horner(kDawsnAN, a1 * a1) / horner(kDawsnAD, a1 * a1);
  Array a2 = where(r2, ax, one), t2 = one / (a2 * a2);
  Array v2 = c_like(0.5, x) / a2 * (one + t2 * horner(kDawsnBN, t2) / horner(kDawsnBD, t2));
  Array a3 = where(r3, ax, one), t3 = one / (a3 * a3);
  Array v3 = c_like(0.5, x) / a3 * (one + t3 * horner(kDawsnCN, t3) / horner(kDawsnCD, t3));
  return astype(sign(x) * where(r1, v1, where(r2, v2, v3)), x_in.dtype());
}

}  // namespace

// erfcx' = 2x·erfcx(x) - 2/√π; dawsn' = 1 - 2x·dawsn(x) (JAX's custom JVPs).
Array erfcx(const Array& x_in, SourceLocation loc) {
  Array xz = api::to_inexact(x_in, "erfcx", loc);
  if (is_complex(xz.dtype())) return wofz(complex(negative(imag(xz, loc), loc), real(xz, loc), loc), loc);  // w(iz)
  Array x = real_inexact(x_in, "erfcx", loc);
  auto rule = custom_jvp([](const Array& v) { return erfcx_value(v); }, [](const Array& v, const Array& t) {
    Array y = erfcx_value(v);
    return std::make_pair(y, t * (c_like(2, v) * v * y - c_like(2 / std::sqrt(M_PI), v)));
  });
  return rule(x);
}

Array dawsn(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "dawsn", loc);
  auto rule = custom_jvp([](const Array& v) { return dawsn_value(v); }, [](const Array& v, const Array& t) {
    Array y = dawsn_value(v);
    return std::make_pair(y, t * (c_like(1, v) - c_like(2, v) * v * y));
  });
  return rule(x);
}

// Zhang and Jin's backward recurrence from order n_iter (JAX's scan, unrolled: the length is
// static): f_k = 2(k+1)/z · f_(k+1) - f_(k+2), normalised by J0 + 2 Σ J_2k = 1.
Array bessel_jn(const Array& z_in, int v, int n_iter, SourceLocation loc) {
  Array z = real_inexact(z_in, "bessel_jn", loc);
  if (v < 0) throw ValueError("bessel_jn: expects an order v >= 0, but got " + std::to_string(v));
  if (n_iter < v) throw ValueError("bessel_jn: n_iter (" + std::to_string(n_iter) + ") must be at least the order v (" + std::to_string(v) + ")");
  Array f0 = zeros_like(z), f1 = c_like(1e-16, z) + zeros_like(z), bs = zeros_like(z);
  std::vector<Array> f_at(static_cast<size_t>(n_iter) + 1);
  for (int k = n_iter; k >= 0; --k) {
    Array f = c_like(2.0 * (k + 1), z) * f1 / z - f0;
    if (k % 2 == 0) bs = bs + c_like(2, z) * f;
    f0 = f1;
    f1 = f;
    f_at[static_cast<size_t>(k)] = f;
  }
  Array norm = bs - f_at[0];
  std::vector<Array> orders;
  for (int k = 0; k <= v; ++k) orders.push_back(f_at[static_cast<size_t>(k)] / norm);
  return stack(orders, 0, loc);
}

// The Chowla–Hartung formula as JAX: B_0..B_2 given, odd ones from 3 on are 0, and
// B_2m = (-1)^(m+1) 2 (2m)! / (2π)^(2m) · ζ(2m). JAX sums ζ's series to k = 49 (B_4 is 3e-6
// off); here the Euler–Maclaurin tail past it makes ζ exact to double precision.
Array bernoulli(int n, DType dtype) {
  if (n < 0) throw ValueError("bernoulli: expects n >= 0, but got " + std::to_string(n));
  if (!is_floating(dtype)) throw DTypeError("bernoulli: expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  std::vector<double> b(static_cast<size_t>(n) + 1, 0.0);
  const double first[] = {1, -0.5, 1.0 / 6};
  for (int i = 0; i <= std::min(n, 2); ++i) b[static_cast<size_t>(i)] = first[i];
  double q1 = 1 / (M_PI * M_PI);
  for (int m = 4; m <= n; m += 2) {
    q1 *= -(m - 1.0) * m / 4 / (M_PI * M_PI);
    double q2 = 0;
    for (int k = 2; k < 50; ++k) q2 += std::pow(static_cast<double>(k), -m);
    const double N = 50, sm = m;  // Σ_{k>=N} k^-s ≈ N^(1-s)/(s-1) + N^-s/2 + s N^(-s-1)/12 - s(s+1)(s+2) N^(-s-3)/720
    q2 += std::pow(N, 1 - sm) / (sm - 1) + std::pow(N, -sm) / 2 + sm * std::pow(N, -sm - 1) / 12 -
          sm * (sm + 1) * (sm + 2) * std::pow(N, -sm - 3) / 720;
    b[static_cast<size_t>(m)] = q1 * (1 + q2);
  }
  return array(b, {static_cast<int64_t>(b.size())}, dtype);
}

namespace {

// Patefield and Tandy's method T5 (as JAX): a 13-point Gauss rule for
// T(h, a) = a Σ w_i exp(-h²(1 + a² t_i)/2) / (1 + a² t_i), with 1/2π in the weights.
constexpr double kOwensTPoints[] = {0.0035082039676451715, 0.031279042338030754, 0.085266826283219451, 0.16245071730812277,
                                    0.25851196049125435,   0.36807553840697534,  0.48501092905604697,  0.60277514152618577,
                                    0.71477884217753227,   0.81475510988760099,  0.89711029755948966,  0.95723808085944262,
                                    0.99178832974629704};
constexpr double kOwensTWeights[] = {0.018831438115323503, 0.018567086243977649, 0.018042093461223386, 0.017263829606398753,
                                     0.016243219975989857, 0.014994592034116705, 0.013535474469662088, 0.011886351605820165,
                                     0.010070377242777432, 0.0081130545742299587, 0.0060419009528470239, 0.0038862217010742058,
                                     0.0016793031084546090};

Array owens_t_value(const Array& h_in, const Array& a) {
  Array h = abs(h_in), abs_a = abs(a), one = c_like(1, a);
  Array root2 = c_like(std::sqrt(2.0), h);
  Array h_normed = h / root2;
  Array small = abs_a <= one;
  Array ma = where(small, abs_a, one / abs_a), mh = where(small, h, abs_a * h);
  Array sum = zeros_like(ma);
  for (size_t i = 0; i < std::size(kOwensTPoints); ++i) {
    Array r = ma * ma * c_like(kOwensTPoints[i], a);
    sum = sum + c_like(kOwensTWeights[i], a) * exp(c_like(-0.5, a) * mh * mh * (one + r)) / (one + r);
  }
  Array result = ma * sum;
  // Exact values at h = 0 and a = 1.
  result = where(mh == c_like(0, a), atan(ma) / c_like(2 * M_PI, a), result);
  result = where(ma == one, c_like(0.125, a) * erfc(negative(mh) / root2) * erfc(mh / root2), result);
  // |a| > 1: T(h, a) from T(ah, 1/a) by the reciprocal relation.
  Array normh = erfc(h_normed), normah = erfc(abs_a * h_normed);
  Array low = c_like(0.25, a) - c_like(0.25, a) * erf(h_normed) * erf(abs_a * h_normed) - result;
  Array high = c_like(0.25, a) * (normh + normah - normh * normah) - result;
  result = where(abs_a > one, where(abs_a * h <= c_like(0.67, a), low, high), result);
  result = sign(a) * result;
  return where(logical_or(isnan(a), isnan(h_in)), c_like(NAN, a), result);
}

}  // namespace

// ∂T/∂h = -e^(-h²/2) erf(ah/√2) / (2√(2π)), ∂T/∂a = e^(-(1+a²)h²/2) / (2π(1 + a²)) (JAX's JVP).
Array owens_t(const Array& h_in, const Array& a_in, SourceLocation loc) {
  auto [h0, a0] = api::promote_inexact_dtypes("owens_t", h_in, a_in, loc);
  if (is_complex(h0.dtype())) throw DTypeError("owens_t: expects real values, but got " + api::aval(h_in, "owens_t").str());
  std::vector<Array> b = broadcast_arrays({h0, a0}, loc);
  auto f = [](const Array& h, const Array& a) { return owens_t_value(h, a); };
  auto rule = custom_jvp(f, [](const Array& h, const Array& a, const Array& th, const Array& ta) {
    Array root2 = c_like(std::sqrt(2.0), h);
    Array dh = negative(exp(c_like(-0.5, h) * h * h)) * erf(a * h / root2) / c_like(2 * std::sqrt(2 * M_PI), h);
    Array da = exp(c_like(-0.5, h) * (a * a + c_like(1, a)) * h * h) / (c_like(2 * M_PI, a) * (a * a + c_like(1, a)));
    return std::make_pair(owens_t_value(h, a), dh * th + da * ta);
  });
  return rule(b[0], b[1]);
}

namespace {

// Weideman's (1994) N = 32 rational approximation, as JAX: for Im z >= 0,
// w(z) = 2 p(Z) / (L - iz)² + 1 / (√π (L - iz)), Z = (L + iz) / (L - iz); below the real axis
// w(z) = 2 e^(-z²) - w(-z).
constexpr double kWofzL = 4.7568284600108841;
constexpr double kWofzC[] = {
    -1.3034426067909105e-12, 3.7411838373738471e-12,  8.030427700497756e-12,   -2.1543593557490879e-11,
    -5.5442449963237932e-11, 1.165824698850374e-10,   4.1537441121999766e-10,  -5.2310202114920615e-10,
    -3.2080151339721323e-09, 8.1248864216535907e-10,  2.3797556530014025e-08,  2.2930438438915445e-08,
    -1.4813078929137642e-07, -4.1840763750512053e-07, 4.2558331397138446e-07,  4.4015317312832251e-06,
    6.8210319443575151e-06,  -2.1409619201999998e-05, -0.00013075449254579421, -0.00024532980270038237,
    0.00039259136070109705,  0.0045195411053493093,   0.019006155784845501,    0.057304403529837282,
    0.14060716226893755,     0.29544451071508743,     0.54601397206393376,     0.9019254893648001,
    1.3455441692345449,      1.8256696296324815,      2.2635372999002676,      2.5722534081245696};

Array times_i(const Array& z) { return complex(negative(imag(z)), real(z)); }

Array wofz_upper(const Array& z) {
  Array L = c_like(kWofzL, z), iz = times_i(z);
  Array denom = L - iz;
  Array big_z = (L + iz) / denom;
  return c_like(2, z) * horner(kWofzC, big_z) / (denom * denom) + c_like(1 / std::sqrt(M_PI), z) / denom;
}

Array wofz_value(const Array& z) {
  Array upper = imag(z) >= c_like(0, real(z));
  Array w = wofz_upper(where(upper, z, negative(z)));
  return where(upper, w, c_like(2, z) * exp(negative(z * z)) - w);
}

// w'(z) = -2z w(z) + 2i/√π (JAX's custom JVP).
Array wofz_rule(const Array& z) {
  auto rule = custom_jvp([](const Array& v) { return wofz_value(v); }, [](const Array& v, const Array& t) {
    Array w = wofz_value(v);
    Array two_i = complex(c_like(0, real(v)), c_like(2 / std::sqrt(M_PI), real(v)));
    return std::make_pair(w, t * (negative(c_like(2, v) * v * w) + two_i));
  });
  return rule(z);
}

}  // namespace

Array wofz(const Array& z_in, SourceLocation loc) {
  Array z = api::to_inexact(z_in, "wofz", loc);
  if (!is_complex(z.dtype())) z = astype(z, complex_dtype(z.dtype()), loc);
  return wofz_rule(z);
}

}  // namespace strata::special
