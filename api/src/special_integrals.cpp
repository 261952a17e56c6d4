// More of jax.scipy.special (strata/special.h): the exponential integrals expi, exp1, expn,
// Spence's function, the Pochhammer symbol, binomial coefficients, the Box-Cox transforms —
// JAX's algorithms (Cephes' rational tables and series / continued fractions), written over
// the public ops. JAX evaluates its while loops per element under vmap; here they run over the
// whole array, each element stepping until it converges (the others hold their values).
#include <cmath>
#include <tuple>
#include <utility>

#include "op_helpers.h"
#include "special_common.h"
#include "strata/composites.h"
#include "strata/control_flow.h"
#include "strata/grad.h"
#include "strata/selection.h"
#include "strata/special.h"
#include "strata/statistics.h"

namespace strata::special {

using detail::c_like;
using detail::horner;
using detail::loop_until;
using detail::real_inexact;

namespace {

constexpr double kEulerGamma = 0.57721566490153286060651209008240243;

// Cephes' rational approximations of Ei(x) on (0, 2], (2, 4], (4, 8], (8, 16], (16, 32],
// (32, 64] and beyond (as JAX's _expint1 … _expint7).
// 0 < x <= 2
constexpr double kExpint1A[] = {-5.350447357812542947283e0, 2.185049168816613393830e2, -4.176572384826693777058e3, 5.541176756393557601232e4, -3.313381331178144034309e5, 1.592627163384945414220e6};
constexpr double kExpint1B[] = {1.0, -5.250547959112862969197e1, 1.259616186786790571525e3, -1.756549581973534652631e4, 1.493062117002725991967e5, -7.294949239640527645655e5, 1.592627163384945429726e6};
// 2 <= x < 4
constexpr double kExpint2A[] = {1.981808503259689673238e-2, -1.271645625984917501326e0, -2.088160335681228318920e0, 2.755544509187936721172e0, -4.409507048701600257171e-1, 4.665623805935891391017e-2, -1.545042679673485262580e-3, 7.059980605299617478514e-5};
constexpr double kExpint2B[] = {1.0, 1.476498670914921440652e0, 5.629177174822436244827e-1, 1.699017897879307263248e-1, 2.291647179034212017463e-2, 4.450150439728752875043e-3, 1.727439612206521482874e-4, 3.953167195549672482304e-5};
// 4 <= x <= 8
constexpr double kExpint3A[] = {-1.373215375871208729803e0, -7.084559133740838761406e-1, 1.580806855547941010501e0, -2.601500427425622944234e-1, 2.994674694113713763365e-2, -1.038086040188744005513e-3, 4.371064420753005429514e-5, 2.141783679522602903795e-6};
constexpr double kExpint3B[] = {1.0, 8.585231423622028380768e-1, 4.483285822873995129957e-1, 7.687932158124475434091e-2, 2.449868241021887685904e-2, 8.832165941927796567926e-4, 4.590952299511353531215e-4, -4.729848351866523044863e-6, 2.665195537390710170105e-6};
// 8 <= x <= 16
constexpr double kExpint4A[] = {-2.106934601691916512584e0, 1.732733869664688041885e0, -2.423619178935841904839e-1, 2.322724180937565842585e-2, 2.372880440493179832059e-4, -8.343219561192552752335e-5, 1.363408795605250394881e-5, -3.655412321999253963714e-7, 1.464941733975961318456e-8, 6.176407863710360207074e-10};
constexpr double kExpint4B[] = {1.0, -2.298062239901678075778e-1, 1.105077041474037862347e-1, -1.566542966630792353556e-2, 2.761106850817352773874e-3, -2.089148012284048449115e-4, 1.708528938807675304186e-5, -4.459311796356686423199e-7, 1.394634930353847498145e-8, 6.150865933977338354138e-10};
// 16 <= x <= 32
constexpr double kExpint5A[] = {-2.458119367674020323359e-1, -1.483382253322077687183e-1, 7.248291795735551591813e-2, -1.348315687380940523823e-2, 1.342775069788636972294e-3, -7.942465637159712264564e-5, 2.644179518984235952241e-6, -4.239473659313765177195e-8};
constexpr double kExpint5B[] = {1.0, -1.044225908443871106315e-1, -2.676453128101402655055e-1, 9.695000254621984627876e-2, -1.601745692712991078208e-2, 1.496414899205908021882e-3, -8.462452563778485013756e-5, 2.728938403476726394024e-6, -4.239462431819542051337e-8};
// 32 <= x <= 64
constexpr double kExpint6A[] = {1.212561118105456670844e-1, -5.823133179043894485122e-1, 2.348887314557016779211e-1, -3.040034318113248237280e-2, 1.510082146865190661777e-3, -2.523137095499571377122e-5};
constexpr double kExpint6B[] = {1.0, -1.002252150365854016662e0, 2.928709694872224144953e-1, -3.337004338674007801307e-2, 1.560544881127388842819e-3, -2.523137093603234562648e-5};
// x > 64
constexpr double kExpint7A[] = {-7.657847078286127362028e-1, 6.886192415566705051750e-1, -2.132598113545206124553e-1, 3.346107552384193813594e-2, -3.076541477344756050249e-3, 1.747119316454907477380e-4, -6.103711682274170530369e-6, 1.218032765428652199087e-7, -1.086076102793290233007e-9};
constexpr double kExpint7B[] = {1.0, -1.888802868662308731041e0, 1.066691687211408896850e0, -2.751915982306380647738e-1, 3.930852688233823569726e-2, -3.414684558602365085394e-3, 1.866844370703555398195e-4, -6.345146083130515357861e-6, 1.239754287483206878024e-7, -1.086076102793126632978e-9};

// Ei on (0, 2]: x · A(x)/B(x) + γ + log x; beyond: e^x / x · (1 + A(1/x)/B(1/x) / x).
template <size_t NA, size_t NB>
Array expint_tail(const double (&a)[NA], const double (&b)[NB], const Array& x) {
  Array w = 1.0 / x;
  Array f = w * (horner(a, w) / horner(b, w)) + c_like(1, x);
  return exp(x) * w * f;
}

Array machine_eps(const Array& x) {
  return c_like(finfo(x.dtype()).eps, x);
}

// E_n(x) for 0 < x <= 1: the power series (Cephes' expn), ψ(n) - log x with ψ = digamma (JAX
// sums the harmonic numbers in a loop: the same value).
Array expn_series(const Array& n, const Array& x) {
  Array one = c_like(1, x), zero = c_like(0, x), eps = machine_eps(x);
  Array psi = digamma(n) - log(x);
  Array z = negative(x);
  Array n1 = where(n == one, one + one, n);
  // xk, yk, pk, ans, t
  using C = std::tuple<Array, Array, Array, Array, Array>;
  C init{zeros_like(x), ones_like(x), one - n, where(n == one, zero, one / (one - n1)) + zeros_like(x), full_like(x, INFINITY)};
  C r = loop_until(
      init, [eps](const C& c) { return std::get<4>(c) > eps; },
      [z, zero, one](const C& c) {
        auto [xk, yk, pk, ans, t] = c;
        xk = xk + one;
        yk = yk * z / xk;
        pk = pk + one;
        ans = ans + where(pk != zero, yk / where(pk != zero, pk, one), zero);
        t = where(ans != zero, abs(yk / where(ans != zero, ans, one)), one);
        return C{xk, yk, pk, ans, t};
      },
      2000);
  return power(z, n - one) * psi / exp(lgamma(n)) - std::get<3>(r);
}

// E_n(x) for x > 1: the continued fraction (Cephes' expn), renormalised when it grows.
Array expn_fraction(const Array& n, const Array& x) {
  Array one = c_like(1, x), zero = c_like(0, x), eps = machine_eps(x), big = c_like(1.44115188075855872e17, x);
  // k, pkm2, qkm2, pkm1, qkm1, ans, t
  using C = std::tuple<Array, Array, Array, Array, Array, Array, Array>;
  C init{ones_like(x), ones_like(x), x, ones_like(x), x + n, one / (x + n), full_like(x, INFINITY)};
  C r = loop_until(
      init, [eps](const C& c) { return std::get<6>(c) > eps; },
      [x, n, one, zero, big](const C& c) {
        auto [k, pkm2, qkm2, pkm1, qkm1, ans, t] = c;
        k = k + one;
        Array odd = (k % c_like(2, k)) == one;
        Array yk = where(odd, one, x);
        Array xk = where(odd, n + (k - one) / c_like(2, k), k / c_like(2, k));
        Array pk = pkm1 * yk + pkm2 * xk, qk = qkm1 * yk + qkm2 * xk;
        Array nz = qk != zero;
        Array r = pk / where(nz, qk, one);
        t = where(nz, abs((ans - r) / where(r != zero, r, one)), one);
        ans = where(nz, r, ans);
        Array huge = abs(pk) > big;
        auto scaled = [&](const Array& v) { return where(huge, v / big, v); };
        return C{k, scaled(pkm1), scaled(qkm1), scaled(pk), scaled(qk), ans, t};
      },
      5000);
  return std::get<5>(r) * exp(negative(x));
}

// E_n(x) for n >= 5000: the asymptotic expansion.
Array expn_large_n(const Array& n, const Array& x) {
  Array one = c_like(1, x);
  Array xk = x + n, yk = one / (xk * xk), t = n;
  Array ans = yk * t * (c_like(6, x) * x * x - c_like(8, x) * t * x + t * t);
  ans = yk * (ans + t * (t - c_like(2, x) * x));
  ans = yk * (ans + t);
  return (ans + one) * exp(negative(x)) / xk;
}

// The value of E_n(x) (n, x of one shape and float dtype), JAX's cases in its order.
Array expn_value(const Array& n, const Array& x) {
  Array zero = c_like(0, x), one = c_like(1, x), two = c_like(2, x);
  Array bad = logical_or(n < zero, x < zero);
  Array x0 = x == zero;
  Array n0 = logical_and(n == zero, x >= zero);
  Array large_n = n >= c_like(5000, n);
  Array rest = logical_not(logical_or(logical_or(bad, x0), logical_or(n0, large_n)));
  Array use_fraction = logical_and(rest, x > one), use_series = logical_and(rest, x <= one);
  // Each branch on safe inputs where it is not used (no loop runs there, no nan leaks out).
  Array series = expn_series(where(use_series, n, one), where(use_series, x, c_like(0.5, x)));
  Array fraction = expn_fraction(where(use_fraction, n, one), where(use_fraction, x, two));
  Array xs = where(n0, x, one);
  Array r = where(use_series, series, fraction);
  r = where(large_n, expn_large_n(n, x), r);
  r = where(n0, exp(negative(xs)) / xs, r);
  r = where(logical_and(x0, n >= two), one / where(n >= two, n - one, one), r);
  r = where(logical_and(x0, n < two), c_like(INFINITY, x), r);
  return where(bad, c_like(NAN, x), r);
}

// Ei(x) for x >= 0 (JAX's segments; the last also takes x = 0 and gives nan there... as the
// tables do: Ei(0) is -inf, set below).
Array expi_nonneg(const Array& x) {
  Array one = c_like(1, x);
  Array lo = where(x > c_like(0, x), where(x <= c_like(2, x), x, one), one);
  Array first = lo * (horner(kExpint1A, lo) / horner(kExpint1B, lo)) + c_like(kEulerGamma, x) + log(lo);
  auto in = [&](double a, double b) { return logical_and(x > c_like(a, x), x <= c_like(b, x)); };
  auto safe = [&](double a, double b) { return where(in(a, b), x, c_like(b, x)); };
  Array r = expint_tail(kExpint7A, kExpint7B, where(x > c_like(64, x), x, c_like(65, x)));
  r = where(in(32, 64), expint_tail(kExpint6A, kExpint6B, safe(32, 64)), r);
  r = where(in(16, 32), expint_tail(kExpint5A, kExpint5B, safe(16, 32)), r);
  r = where(in(8, 16), expint_tail(kExpint4A, kExpint4B, safe(8, 16)), r);
  r = where(in(4, 8), expint_tail(kExpint3A, kExpint3B, safe(4, 8)), r);
  r = where(in(2, 4), expint_tail(kExpint2A, kExpint2B, safe(2, 4)), r);
  r = where(in(0, 2), first, r);
  return where(x == c_like(0, x), c_like(-INFINITY, x), r);
}

Array expn_diff(const Array& n, const Array& x, const Array& tx) {
  return negative(tx * expn_value(n - c_like(1, n), x));
}

}  // namespace

Array expn(const Array& n_in, const Array& x_in, SourceLocation loc) {
  auto [n0, x0] = api::promote_inexact_dtypes("expn", n_in, x_in, loc);
  if (is_complex(x0.dtype())) throw DTypeError("expn: expects real values, but got " + api::aval(x_in, "expn").str());
  std::vector<Array> b = broadcast_arrays({n0, x0}, loc);
  // d/dx E_n(x) = -E_{n-1}(x); n is an order, not differentiated (as JAX's defjvps).
  auto f = [](const Array& n, const Array& x) { return expn_value(n, x); };
  auto rule = custom_jvp(f, [](const Array& n, const Array& x, const Array&, const Array& tx) {
    return std::make_pair(expn_value(n, x), expn_diff(n, x, tx));
  });
  return rule(b[0], b[1]);
}

Array exp1(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "exp1", loc);
  return expn(c_like(1, x), x, loc);
}

Array expi(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "expi", loc);
  auto f = [](const Array& v) {
    Array neg = v < c_like(0, v);
    Array pos_in = where(neg, c_like(1, v), v), neg_in = where(neg, negative(v), c_like(1, v));
    return where(neg, negative(expn_value(c_like(1, v) + zeros_like(v), neg_in)), expi_nonneg(pos_in));
  };
  // Ei'(x) = e^x / x (JAX's custom JVP).
  auto rule = custom_jvp(f, [f](const Array& v, const Array& t) { return std::make_pair(f(v), t * exp(v) / v); });
  return rule(x);
}

// Spence's function (scipy's: ∫_1^x log t / (1 - t) dt), Cephes' rational approximation on
// the reflected argument as JAX's.
Array spence(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "spence", loc);
  if (x.dtype() != f32 && x.dtype() != f64)
    throw DTypeError("spence: expects f32 or f64 values (as JAX), but got " + api::aval(x_in, "spence").str());
  static constexpr double kA[] = {4.65128586073990045278E-5, 7.31589045238094711071E-3, 1.33847639578309018650E-1,
                                  8.79691311754530315341E-1, 2.71149851196553469920E0,  4.25697156008121755724E0,
                                  3.29771340985225106936E0,  1.00000000000000000126E0};
  static constexpr double kB[] = {6.90990488912553276999E-4, 2.54043763932544379113E-2, 2.82974860602568089943E-1,
                                  1.41172597751831069617E0,  3.63800533345137075418E0,  5.03278880143316990390E0,
                                  3.54771340985225096217E0,  9.99999999999999998740E-1};
  Array zero = c_like(0, x), one = c_like(1, x);
  const double pi2_6 = M_PI * M_PI / 6;
  Array valid = logical_and(x > zero, x != one);
  Array v = where(valid, x, c_like(0.75, x));
  Array inverted = v > c_like(2, x);
  v = where(inverted, one / v, v);
  Array above = v > c_like(1.5, x), below = v < c_like(0.5, x);
  inverted = logical_or(inverted, above);
  Array w = where(above, one / v - one, where(below, negative(v), v - one));
  Array y = negative(w) * horner(kA, w) / horner(kB, w);
  Array vb = where(below, v, c_like(0.25, x));
  y = where(below, c_like(pi2_6, x) - log(vb) * log(one - vb) - y, y);
  y = where(inverted, c_like(-0.5, x) * log(v) * log(v) - y, y);
  y = where(x == one, zero, where(x == zero, c_like(pi2_6, x), y));
  return where(x < zero, c_like(NAN, x), y);
}

Array poch(const Array& z_in, const Array& m_in, SourceLocation loc) {
  auto [z, m] = api::promote_inexact_dtypes("poch", z_in, m_in, loc);
  if (is_complex(z.dtype())) throw DTypeError("poch: expects real values, but got " + api::aval(z_in, "poch").str());
  return where(m == c_like(0, m), c_like(1, z), gamma(z + m, loc) / gamma(z, loc), loc);
}

Array comb(const Array& n_in, const Array& k_in, bool repetition, SourceLocation loc) {
  auto [n, k] = api::promote_inexact_dtypes("comb", n_in, k_in, loc);
  if (repetition) {
    Array ok = logical_and(k == c_like(0, k), n >= c_like(0, n));
    return where(ok, c_like(1, n), comb(n + k - c_like(1, n), k, false, loc), loc);
  }
  Array ok = logical_and(logical_and(k <= n, n >= c_like(0, n)), k >= c_like(0, k));
  Array sn = where(ok, n, c_like(0, n)), sk = where(ok, k, c_like(0, k));
  Array one = c_like(1, n);
  Array r = exp(gammaln(sn + one, loc) - gammaln(sk + one, loc) - gammaln(sn + one - sk, loc));
  return where(ok, r, c_like(0, r), loc);
}

namespace {
// (x'^λ - 1) / λ, x' = log_of(x) exponentiated: log_of(x) at λ = 0.
Array box_cox(const char* op, bool shifted, const Array& x_in, const Array& l_in, const SourceLocation& loc) {
  auto [x, l] = api::promote_inexact_dtypes(op, x_in, l_in, loc);
  Array zero = l == c_like(0, l);
  Array safe = where(zero, c_like(1, l), l);
  Array lx = shifted ? log1p(x) : log(x);
  return where(zero, lx, expm1(safe * lx) / safe, loc);
}
}  // namespace

Array boxcox(const Array& x, const Array& lmbda, SourceLocation loc) { return box_cox("boxcox", false, x, lmbda, loc); }
Array boxcox1p(const Array& x, const Array& lmbda, SourceLocation loc) { return box_cox("boxcox1p", true, x, lmbda, loc); }

namespace {

// Cephes' sici: rational functions of x² on [0, 4], the auxiliary f and g in 1/x² on (4, 8)
// and [8, 1e9], the leading asymptotic terms beyond (JAX's _sici_series/_asympt/_approx).
constexpr double kSiciSN[] = {-8.39167827910303881427E-11, 4.62591714427012837309E-8, -9.75759303843632795789E-6, 9.76945438170435310816E-4, -4.13470316229406538752E-2, 1.00000000000000000302E0};
constexpr double kSiciSD[] = {2.03269266195951942049E-12, 1.27997891179943299903E-9, 4.41827842801218905784E-7, 9.96412122043875552487E-5, 1.42085239326149893930E-2, 9.99999999999999996984E-1};
constexpr double kSiciCN[] = {2.02524002389102268789E-11, -1.35249504915790756375E-8, 3.59325051419993077021E-6, -4.74007206873407909465E-4, 2.89159652607555242092E-2, -1.00000000000000000080E0};
constexpr double kSiciCD[] = {4.07746040061880559506E-12, 3.06780997581887812692E-9, 1.23210355685883423679E-6, 3.17442024775032769882E-4, 5.10028056236446052392E-2, 4.00000000000000000080E0};
constexpr double kSiciFN4[] = {4.23612862892216586994E0, 5.45937717161812843388E0, 1.62083287701538329132E0, 1.67006611831323023771E-1, 6.81020132472518137426E-3, 1.08936580650328664411E-4, 5.48900223421373614008E-7};
constexpr double kSiciFD4[] = {1.0, 8.16496634205391016773E0, 7.30828822505564552187E0, 1.86792257950184183883E0, 1.78792052963149907262E-1, 7.01710668322789753610E-3, 1.10034357153915731354E-4, 5.48900252756255700982E-7};
constexpr double kSiciGN4[] = {8.71001698973114191777E-2, 6.11379109952219284151E-1, 3.97180296392337498885E-1, 7.48527737628469092119E-2, 5.38868681462177273157E-3, 1.61999794598934024525E-4, 1.97963874140963632189E-6, 7.82579040744090311069E-9};
constexpr double kSiciGD4[] = {1.0, 1.64402202413355338886E0, 6.66296701268987968381E-1, 9.88771761277688796203E-2, 6.22396345441768420760E-3, 1.73221081474177119497E-4, 2.02659182086343991969E-6, 7.82579218933534490868E-9};
constexpr double kSiciFN8[] = {4.55880873470465315206E-1, 7.13715274100146711374E-1, 1.60300158222319456320E-1, 1.16064229408124407915E-2, 3.49556442447859055605E-4, 4.86215430826454749482E-6, 3.20092790091004902806E-8, 9.41779576128512936592E-11, 9.70507110881952024631E-14};
constexpr double kSiciFD8[] = {1.0, 9.17463611873684053703E-1, 1.78685545332074536321E-1, 1.22253594771971293032E-2, 3.58696481881851580297E-4, 4.92435064317881464393E-6, 3.21956939101046018377E-8, 9.43720590350276732376E-11, 9.70507110881952025725E-14};
constexpr double kSiciGN8[] = {6.97359953443276214934E-1, 3.30410979305632063225E-1, 3.84878767649974295920E-2, 1.71718239052347903558E-3, 3.48941165502279436777E-5, 3.47131167084116673800E-7, 1.70404452782044526189E-9, 3.85945925430276600453E-12, 3.14040098946363334640E-15};
constexpr double kSiciGD8[] = {1.0, 1.68548898811011640017E0, 4.87852258695304967486E-1, 4.67913194259625806320E-2, 1.90284426674399523638E-3, 3.68475504442561108162E-5, 3.57043223443740838771E-7, 1.72693748966316146736E-9, 3.87830166023954706752E-12, 3.14040098946363335242E-15};

std::pair<Array, Array> sici_value(const Array& x) {
  Array ax = abs(x), one = c_like(1, x);
  Array small = ax <= c_like(4, x), huge = ax > c_like(1e9, x), mid = logical_and(logical_not(small), logical_not(huge));
  // Series on [0, 4] (safe input elsewhere; Si(0) = 0, Ci(0) = -inf).
  Array xs = where(logical_and(small, ax > c_like(0, x)), ax, one);
  Array t = xs * xs;
  Array si_s = xs * horner(kSiciSN, t) / horner(kSiciSD, t);
  Array ci_s = c_like(kEulerGamma, x) + log(xs) + t * horner(kSiciCN, t) / horner(kSiciCD, t);
  si_s = where(ax == c_like(0, x), c_like(0, x), si_s);
  ci_s = where(ax == c_like(0, x), c_like(-INFINITY, x), ci_s);
  // Asymptotic f, g on (4, 1e9].
  Array xm = where(mid, ax, c_like(5, x));
  Array z = one / (xm * xm);
  Array near = xm < c_like(8, x);
  Array f = where(near, horner(kSiciFN4, z) / (xm * horner(kSiciFD4, z)), horner(kSiciFN8, z) / (xm * horner(kSiciFD8, z)));
  Array g = where(near, z * horner(kSiciGN4, z) / horner(kSiciGD4, z), z * horner(kSiciGN8, z) / horner(kSiciGD8, z));
  Array sn = sin(xm), cs = cos(xm);
  Array si_m = c_like(M_PI / 2, x) - f * cs - g * sn, ci_m = f * sn - g * cs;
  // Beyond 1e9: π/2 - cos x / x and sin x / x (π/2 and 0 at +inf).
  Array xh = where(huge, ax, c_like(2e9, x));
  Array fin = isinf(xh);
  Array xf = where(fin, c_like(2e9, x), xh);
  Array si_h = where(fin, c_like(M_PI / 2, x), c_like(M_PI / 2, x) - cos(xf) / xf);
  Array ci_h = where(fin, c_like(0, x), sin(xf) / xf);
  Array si = where(small, si_s, where(mid, si_m, si_h));
  Array ci = where(small, ci_s, where(mid, ci_m, ci_h));
  si = sign(x) * si;
  ci = where(x == c_like(-INFINITY, x), c_like(NAN, x), ci);
  return {si, ci};
}

}  // namespace

// Si' = sin x / x, Ci' = cos x / x (JAX's custom JVP). Ci of a negative x is Ci(|x|) (scipy's
// real part), as JAX.
std::pair<Array, Array> sici(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "sici", loc);
  auto f = [](const Array& v) { return sici_value(v); };
  auto rule = custom_jvp(f, [](const Array& v, const Array& t) {
    auto out = sici_value(v);
    return std::make_pair(out, std::make_pair(t * sinc(v / c_like(M_PI, v)), t * cos(v) / v));
  });
  return rule(x);
}

namespace {

// Cephes' fresnl (scipy's double-precision tables) and fresnlf (single precision, used for
// f32/f16/bf16), as JAX's fresnel.
constexpr double kFresnelF32SN[] = {1.647629463788700e-9, -1.522754752581096e-7, 8.424748808502400e-6, -3.120693124703272e-4, 7.244727626597022e-3, -9.228055941124598e-2, 5.235987735681432e-1};
constexpr double kFresnelF32CN[] = {1.416802502367354e-8, -1.157231412229871e-6, 5.387223446683264e-5, -1.604381798862293e-3, 2.818489036795073e-2, -2.467398198317899e-1, 9.999999760004487e-1};
constexpr double kFresnelF32FN[] = {-1.903009855649792e12, 1.355942388050252e11, -4.158143148511033e9, 7.343848463587323e7, -8.732356681548485e5, 8.560515466275470e3, -1.032877601091159e2, 2.999401847870011e0};
constexpr double kFresnelF32GN[] = {-1.860843997624650e11, 1.278350673393208e10, -3.779387713202229e8, 6.492611570598858e6, -7.787789623358162e4, 8.602931494734327e2, -1.493439396592284e1, 9.999841934744914e-1};
constexpr double kFresnelF64SN[] = {-2.99181919401019853726e3, 7.08840045257738576863e5, -6.29741486205862506537e7, 2.54890880573376359104e9, -4.42979518059697779103e10, 3.18016297876567817986e11};
constexpr double kFresnelF64SD[] = {1.00000000000000000000e0, 2.81376268889994315696e2, 4.55847810806532581675e4, 5.17343888770096400730e6, 4.19320245898111231129e8, 2.24411795645340920940e10, 6.07366389490084639049e11};
constexpr double kFresnelF64CN[] = {-4.98843114573573548651e-8, 9.50428062829859605134e-6, -6.45191435683965050962e-4, 1.88843319396703850064e-2, -2.05525900955013891793e-1, 9.99999999999999998822e-1};
constexpr double kFresnelF64CD[] = {3.99982968972495980367e-12, 9.15439215774657478799e-10, 1.25001862479598821474e-7, 1.22262789024179030997e-5, 8.68029542941784300606e-4, 4.12142090722199792936e-2, 1.00000000000000000118e0};
constexpr double kFresnelF64FN[] = {4.21543555043677546506e-1, 1.43407919780758885261e-1, 1.15220955073585758835e-2, 3.45017939782574027900e-4, 4.63613749287867322088e-6, 3.05568983790257605827e-8, 1.02304514164907233465e-10, 1.72010743268161828879e-13, 1.34283276233062758925e-16, 3.76329711269987889006e-20};
constexpr double kFresnelF64FD[] = {1.00000000000000000000e0, 7.51586398353378947175e-1, 1.16888925859191382142e-1, 6.44051526508858611005e-3, 1.55934409164153020873e-4, 1.84627567348930545870e-6, 1.12699224763999035261e-8, 3.60140029589371370404e-11, 5.88754533621578410010e-14, 4.52001434074129701496e-17, 1.25443237090011264384e-20};
constexpr double kFresnelF64GN[] = {5.04442073643383265887e-1, 1.97102833525523411709e-1, 1.87648584092575249293e-2, 6.84079380915393090172e-4, 1.15138826111884280931e-5, 9.82852443688422223854e-8, 4.45344415861750144738e-10, 1.08268041139020870318e-12, 1.37555460633261799868e-15, 8.36354435630677421531e-19, 1.86958710162783235106e-22};
constexpr double kFresnelF64GD[] = {1.00000000000000000000e0, 1.47495759925128324529e0, 3.37748989120019970451e-1, 2.53603741420338795122e-2, 8.14679107184306179049e-4, 1.27545075667729118702e-5, 1.04314589657571990585e-7, 4.60680728146520428211e-10, 1.10273215066240270757e-12, 1.38796531259578871258e-15, 8.39158816283118707363e-19, 1.86958710162783236342e-22};

// sin(π x²/2) and cos(π x²/2) without the rounding of x²: r = (x²/2) mod 2 from s = x mod 2
// as s (x - s/2) mod 2, then sinpi/cospi of r by quadrant (scipy's, as JAX).
std::pair<Array, Array> sincos_pi_half_square(const Array& x_in) {
  Array x = abs(x_in), two = c_like(2, x), one = c_like(1, x), half = c_like(0.5, x);
  Array sm = fmod(x, two);
  Array r = fmod(sm * (x - sm / two), two);
  Array pi = c_like(M_PI, x);
  Array sinpi = where(r < half, sin(pi * r), where(r > c_like(1.5, x), sin(pi * (r - two)), negative(sin(pi * (r - one)))));
  Array cospi = where(r == half, c_like(0, x), where(r < one, negative(sin(pi * (r - half))), sin(pi * (r - c_like(1.5, x)))));
  return {sinpi, cospi};
}

std::pair<Array, Array> fresnel_value(const Array& x_in) {
  const DType out = x_in.dtype();
  const bool single = out != f64;
  Array xx = single ? astype(x_in, f32) : x_in;
  Array x = abs(xx), x2 = x * x, one = c_like(1, x), half = c_like(0.5, x);
  Array t = x2 * x2;
  Array s_small = single ? x * x2 * horner(kFresnelF32SN, t) : x * x2 * horner(kFresnelF64SN, t) / horner(kFresnelF64SD, t);
  Array c_small = single ? x * horner(kFresnelF32CN, t) : x * horner(kFresnelF64CN, t) / horner(kFresnelF64CD, t);
  auto [sinpi, cospi] = sincos_pi_half_square(x);
  Array inv_pix = one / (c_like(M_PI, x) * x);
  Array c_large = single ? half : half + inv_pix * sinpi;
  Array s_large = single ? half : half - inv_pix * cospi;
  Array tt = c_like(M_PI, x) * x2;
  Array u = one / (tt * tt);
  tt = one / tt;
  Array f = single ? one - u * horner(kFresnelF32FN, u) : one - u * horner(kFresnelF64FN, u) / horner(kFresnelF64FD, u);
  Array g = single ? tt * horner(kFresnelF32GN, u) : tt * horner(kFresnelF64GN, u) / horner(kFresnelF64GD, u);
  Array c_other = half + (f * sinpi - g * cospi) * inv_pix;
  Array s_other = half - (f * cospi + g * sinpi) * inv_pix;
  Array inf = isinf(xx), small = x2 < c_like(2.5625, x), large = x > c_like(36974.0, x);
  Array sv = where(inf, half, where(small, s_small, where(large, s_large, s_other)));
  Array cv = where(inf, half, where(small, c_small, where(large, c_large, c_other)));
  Array neg = xx < c_like(0, x);
  return {astype(where(neg, negative(sv), sv), out), astype(where(neg, negative(cv), cv), out)};
}

}  // namespace

// S' = sin(π x²/2), C' = cos(π x²/2) (JAX's custom JVP).
std::pair<Array, Array> fresnel(const Array& x_in, SourceLocation loc) {
  Array x = real_inexact(x_in, "fresnel", loc);
  auto f = [](const Array& v) { return fresnel_value(v); };
  auto rule = custom_jvp(f, [](const Array& v, const Array& t) {
    auto [sp, cp] = sincos_pi_half_square(v);
    return std::make_pair(fresnel_value(v), std::make_pair(sp * t, cp * t));
  });
  return rule(x);
}

}  // namespace strata::special
