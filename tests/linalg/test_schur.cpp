// jax.scipy.linalg's Schur-form family: schur and hessenberg (the primitives: their defining
// properties, as the forms are not unique — a = z t zᴴ, z unitary, t's structure, the
// eigenvalues on t's diagonal; batches, jit, every dtype; no derivatives, as JAX), and rsf2csf
// (from JAX's own real Schur form), sqrtm, funm, polar and solve_sylvester against the values
// JAX 0.10.2 prints (x64; tests/linalg/schur_jax_values.py) and their equations.
#include <gtest/gtest.h>

#include <cmath>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace la = strata::linalg;
using st::Array;
using st::testing::JaxCase;
using st::testing::real_imag;
using st::testing::values;

namespace {

Array seq(const st::Shape& shape, double a, double b) { return st::testing::sin_sequence(shape, a, b); }
Array sq(const st::Shape& shape, double a, double b) { return st::testing::sin_squares(shape, a, b); }
Array eye(int64_t n, st::DType t = st::f64) { return st::eye(n, n, 0, t); }
Array adjoint(const Array& x) { return st::conj(st::matrix_transpose(x)); }

// The value script's inputs (built inside each test: arrays must not outlive main's set-up).
#define SCHUR_INPUTS                                                                              \
  Array A = sq({5, 5}, 0.83, 0.2) + 1.5 * eye(5);                                                 \
  Array P0 = sq({4, 4}, 0.57, 0.3);                                                               \
  Array P = st::matmul(P0, st::transpose(P0)) + 4.0 * eye(4);                                     \
  Array C = st::complex(sq({3, 3}, 0.41, 0.1), sq({3, 3}, 0.37, 0.9)) + st::astype(2.0 * eye(3), st::c128); \
  Array W = sq({4, 3}, 0.77, 0.5);                                                                \
  Array B = sq({3, 3}, 0.29, 0.4) + 3.0 * eye(3);                                                 \
  Array Q = seq({5, 3}, 0.61, 0.7)

// JAX's (LAPACK's) real Schur form of A: rsf2csf's input.
const std::vector<double> kT = {2.652644319151028, 0.5380060610410087, 1.079665688993898, -0.8821825924391, 0.5766247644868032, 0.0, 0.6995391905344289, -1.0356795733888742, 1.130499312499686, 0.09800953405648931, 0.0, 0.751887577286822, 0.6995391905344289, -0.21706811275446286, -2.072455662022962, 0.0, 0.0, 0.0, 1.4119692775502342, -1.1000208136275536, 0.0, 0.0, 0.0, 0.20714977281433394, 1.4119692775502342};
const std::vector<double> kZ = {-0.028884428142112714, -0.2883011519181219, -0.7442662485658098, 0.15110154909368628, 0.5824810801398206, -0.22046654840257884, 0.6406853698964217, 0.2438953652990301, -0.19042100574249501, 0.6672118473122381, -0.7450568047627604, -0.12575088049402616, -0.2090248251723171, -0.5822953846776915, -0.21521566201470033, -0.4605681923315935, -0.5206957180957668, 0.5194146795478766, 0.41332678034081966, 0.27590265075278003, 0.4281675942145454, -0.4684734654332962, 0.2703697748700624, -0.6565068317006731, 0.3051296252685119};

// a = z t zᴴ, z unitary, t (quasi-)triangular with a's eigenvalues on its diagonal (blocks).
void expect_schur(const Array& a, const la::SchurResult& s, bool triangular, double tol) {
  const int64_t n = a.shape().back();
  const Array want = st::astype(a, s.t.dtype());  // a complex form of a real a
  st::testing::expect_relative(real_imag(st::matmul(st::matmul(s.z, s.t), adjoint(s.z))), values(real_imag(want)), tol, tol);
  st::testing::expect_relative(real_imag(st::matmul(adjoint(s.z), s.z)),
                               values(real_imag(st::broadcast_to(st::astype(eye(n), s.z.dtype()), s.z.shape()))), tol, tol);
  std::vector<double> t = values(real_imag(s.t));
  const size_t parts = st::is_complex(s.t.dtype()) ? 2 : 1, per = static_cast<size_t>(n * n) * parts;
  for (size_t b = 0; b < t.size() / per; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j + (triangular ? 0 : 1) < i; ++j)
        for (size_t c = 0; c < parts; ++c)
          EXPECT_EQ(t[b * per + static_cast<size_t>(i * n + j) * parts + c], 0.0) << "t[" << i << ", " << j << "]";
}

// got and want (complex, [n]) hold the same values within tol·(1 + |w|), matched by nearest
// value: sorting them instead orders a conjugate pair by real parts that differ in the last bit
// when one kernel made them equal and the other did not.
void expect_same_spectrum(const Array& got, const Array& want, double tol) {
  std::vector<double> gv = values(real_imag(got)), wv = values(real_imag(want));
  ASSERT_EQ(gv.size(), wv.size());
  std::vector<bool> used(gv.size() / 2, false);
  for (size_t i = 0; i < wv.size(); i += 2) {
    size_t best = used.size();
    double dist = 0;
    for (size_t j = 0; j < used.size(); ++j) {
      const double d = std::hypot(gv[2 * j] - wv[i], gv[2 * j + 1] - wv[i + 1]);
      if (!used[j] && (best == used.size() || d < dist)) best = j, dist = d;
    }
    ASSERT_LT(best, used.size());
    EXPECT_LE(dist, tol * (1 + std::hypot(wv[i], wv[i + 1]))) << "eigenvalue " << wv[i] << " + " << wv[i + 1] << "i";
    used[best] = true;
  }
}

TEST(Schur, DefiningPropertiesEveryDtype) {
  SCHUR_INPUTS;
  for (st::DType d : {st::f64, st::f32, st::c64, st::c128}) {
    SCOPED_TRACE(std::string(st::short_name(d)));
    const double tol = st::real_dtype(d) == st::f32 ? 2e-5 : 1e-13;
    Array a = st::is_complex(d) ? st::astype(st::complex(A, st::transpose(A)), d) : st::astype(A, d);
    la::SchurResult s = la::schur(a);
    EXPECT_EQ(s.t.dtype(), d);
    expect_schur(a, s, st::is_complex(d), tol);
    // The eigenvalues on t's diagonal (each 2×2 block holding a conjugate pair).
    if (st::is_complex(d))
      expect_same_spectrum(st::diagonal(s.t), la::eigvals(a), 50 * tol);
    la::SchurResult c = la::schur(a, "complex");
    EXPECT_TRUE(st::is_complex(c.t.dtype()));
    expect_schur(a, c, true, tol);
    expect_same_spectrum(st::diagonal(c.t), la::eigvals(a), 50 * tol);
    la::HessenbergResult h = la::hessenberg(a);
    expect_schur(a, {h.h, h.q}, false, tol);
    std::vector<double> hv = values(real_imag(h.h));
    const size_t parts = st::is_complex(d) ? 2 : 1;
    for (int64_t i = 2; i < 5; ++i)
      for (int64_t j = 0; j + 1 < i; ++j) EXPECT_EQ(hv[static_cast<size_t>(i * 5 + j) * parts], 0.0);
  }
}

// Real matrices take the blocked reduction (panels of 32 reflections; 120 ends mid-panel),
// scaled by powers of two whose squares overflow or underflow: LAPACK's signs (h's first
// subdiagonal entry opposite a's), exact zeros, and h = a's scale times the unscaled h.
TEST(Schur, HessenbergOfLargeAndBadlyScaledRealMatrices) {
  const int64_t n = 120;
  for (st::DType d : {st::f32, st::f64}) {
    const bool f32 = d == st::f32;
    const double tol = f32 ? 1e-4 : 1e-12;
    Array a1 = st::astype(seq({n, n}, 0.71, 0.3), d);
    la::HessenbergResult h1 = la::hessenberg(a1);
    expect_schur(a1, {h1.h, h1.q}, false, tol);
    EXPECT_LT(h1.h[1][0].item<double>() * a1[1][0].item<double>(), 0.0);
    for (int e : f32 ? std::vector<int>{100, -100} : std::vector<int>{900, -900}) {
      SCOPED_TRACE(std::string(st::short_name(d)) + " scaled by 2^" + std::to_string(e));
      const double scale = std::ldexp(1.0, e);
      la::HessenbergResult h = la::hessenberg(a1 * scale);
      st::testing::expect_relative(h.h, values(h1.h * scale), 0, 0);
      st::testing::expect_relative(h.q, values(h1.q), 0, 0);
    }
  }
}

// Complex matrices from 112 rows (c128) or 160 (c64) take the blocked reduction, on the matrix
// scaled by a power of two: exact zeros, and the same h (times the scale) and q for a scaled by
// powers of two to the ends of the exponent range; jit ≡ eager bit for bit.
TEST(Schur, HessenbergOfLargeComplexMatrices) {
  const int64_t n = 200;
  for (st::DType d : {st::c64, st::c128}) {
    const bool c64 = d == st::c64;
    const double tol = c64 ? 2e-4 : 1e-12;
    Array a1 = st::astype(st::complex(seq({n, n}, 0.71, 0.3), seq({n, n}, 0.37, 0.9)), d);
    la::HessenbergResult h1 = la::hessenberg(a1);
    expect_schur(a1, {h1.h, h1.q}, false, tol);
    for (int e : c64 ? std::vector<int>{100, -100} : std::vector<int>{900, -900}) {
      SCOPED_TRACE(std::string(st::short_name(d)) + " scaled by 2^" + std::to_string(e));
      const Array scale = st::astype(Array(std::ldexp(1.0, e)), d);
      la::HessenbergResult h = la::hessenberg(a1 * scale);
      st::testing::expect_relative(real_imag(h.h), values(real_imag(h1.h * scale)), 0, 0);
      st::testing::expect_relative(real_imag(h.q), values(real_imag(h1.q)), 0, 0);
    }
    auto f = [](const Array& a) {
      la::HessenbergResult h = la::hessenberg(a);
      return std::make_tuple(h.h, h.q);
    };
    auto [jh, jq] = st::jit(f)(a1);
    st::testing::expect_relative(real_imag(jh), values(real_imag(h1.h)), 0, 0);
    st::testing::expect_relative(real_imag(jq), values(real_imag(h1.q)), 0, 0);
  }
}

TEST(Schur, RealFormHasTwoByTwoBlocksAndBatchesJit) {
  SCHUR_INPUTS;
  la::SchurResult s = la::schur(A);
  // Two complex pairs: two nonzero subdiagonal entries.
  int blocks = 0;
  for (int64_t i = 1; i < 5; ++i) blocks += s.t[i][i - 1].item<double>() != 0.0;
  EXPECT_EQ(blocks, 2);
  // LAPACK's standard form (dlanv2): each 2×2 block has equal diagonal entries and b·c < 0, and
  // its eigenvalues a ± sqrt(b·c) are JAX's (LAPACK's) blocks' — the T of JAX's gees up to the
  // order of the blocks and the signs of the off-diagonal entries.
  std::vector<double> tv = values(s.t);
  for (int64_t k = 0; k + 1 < 5; ++k) {
    double a = tv[static_cast<size_t>(k * 6)], b = tv[static_cast<size_t>(k * 5 + k + 1)];
    double c = tv[static_cast<size_t>((k + 1) * 5 + k)], d = tv[static_cast<size_t>((k + 1) * 6)];
    if (c == 0.0) continue;
    EXPECT_NEAR(a, d, 1e-14) << "block at " << k;
    EXPECT_LT(b * c, 0.0) << "block at " << k;
    const double im = std::sqrt(-b * c);
    bool found = false;
    for (size_t j : {size_t{1}, size_t{3}}) {  // JAX's blocks start at rows 1 and 3
      const double ja = kT[j * 6], jim = std::sqrt(-kT[j * 5 + j + 1] * kT[(j + 1) * 5 + j]);
      found = found || (std::fabs(ja - a) < 1e-12 && std::fabs(jim - im) < 1e-12);
    }
    EXPECT_TRUE(found) << "block " << a << " ± " << im << "i is not one of JAX's";
    ++k;
  }
  // rsf2csf of strata's own real form is a complex Schur form of A.
  expect_schur(A, la::rsf2csf(s.t, s.z), true, 1e-13);
  // Batched, through jit and vmap: the same bits as one at a time.
  Array batch = st::stack({A, st::transpose(A), A * 2.0});
  la::SchurResult sb = la::schur(batch);
  for (int64_t i = 0; i < 3; ++i) {
    la::SchurResult one = la::schur(batch[i]);
    st::testing::expect_relative(sb.t[i], values(one.t), 0, 0);
    st::testing::expect_relative(sb.z[i], values(one.z), 0, 0);
  }
  auto f = [](const Array& a) {
    la::SchurResult r = la::schur(a);
    la::HessenbergResult h = la::hessenberg(a);
    return std::make_tuple(r.t, r.z, h.h, h.q);
  };
  auto [t, z, hh, hq] = st::jit(f)(batch);
  auto [t0, z0, hh0, hq0] = f(batch);
  st::testing::expect_relative(t, values(t0), 0, 0);
  st::testing::expect_relative(z, values(z0), 0, 0);
  st::testing::expect_relative(hh, values(hh0), 0, 0);
  st::testing::expect_relative(hq, values(hq0), 0, 0);
  auto [vt, vz, vh, vq] = st::vmap(f)(batch);
  st::testing::expect_relative(vt, values(t0), 0, 0);
  // Edge shapes and values: 1×1, 0×0, NaN in → NaN out.
  EXPECT_EQ(la::schur(st::zeros({0, 0}, st::f64)).t.shape(), (st::Shape{0, 0}));
  st::testing::expect_relative(la::schur(st::full({1, 1}, 3.0, st::f64)).t, {3.0}, 0, 0);
  Array bad = A.at({1, 2}).set(Array(NAN));
  EXPECT_TRUE(std::isnan(la::schur(bad).t[0][0].item<double>()));
  EXPECT_TRUE(std::isnan(la::hessenberg(bad).q[0][0].item<double>()));
}

TEST(Schur, NotDifferentiableAndErrors) {
  SCHUR_INPUTS;
  st::testing::expect_error([&] { st::grad([](const Array& a) { return st::sum(la::schur(a).t); })(A); },
                            "schur: derivatives of the Schur decomposition are not implemented (as in JAX)");
  st::testing::expect_error([&] { st::grad([](const Array& a) { return st::sum(la::hessenberg(a).h); })(A); },
                            "hessenberg: derivatives of the Hessenberg decomposition are not implemented");
  st::testing::expect_error([&] { la::schur(W); }, "schur: expects square matrices [..., n, n], but got f64[4,3]");
  st::testing::expect_error([&] { la::schur(A, "quasi"); }, "schur: expects output \"real\" or \"complex\"");
  st::testing::expect_error([&] { la::hessenberg(seq({3}, 1, 1)); }, "hessenberg: expects an array of rank >= 2");
  st::testing::expect_error([&] { la::polar(W, "up"); }, "polar: expects side \"right\" or \"left\"");
  st::testing::expect_error([&] { la::polar(W, "right", "qdwh"); }, "polar: method \"qdwh\" is not implemented");
  st::testing::expect_error([&] { la::solve_sylvester(A, B, W); }, "solve_sylvester: expects a [..., m, m], b [..., n, n] and c [..., m, n]");
  st::testing::expect_error([&] { la::solve_sylvester(A, B, Q, "bartels"); }, "solve_sylvester: expects method");
  st::testing::expect_error([&] { la::rsf2csf(A, B); }, "rsf2csf: expects t and z of one size");
  st::testing::expect_error([&] { la::funm(st::stack({A, A}), [](const Array& x) { return x; }); },
                            "funm: expects one square matrix [n, n]");
  st::testing::expect_error([&] { la::funm(A, [](const Array& x) { return st::sum(x); }); },
                            "funm: expects func to map the eigenvalues [5] to as many values, but got c128[]");
}

TEST(SchurFunctions, AsJax) {
  SCHUR_INPUTS;
  const Array TJ = st::array(kT, {5, 5}, st::f64), ZJ = st::array(kZ, {5, 5}, st::f64);
  st::testing::expect_jax_cases({
    {"la::rsf2csf(TJ, ZJ).t", real_imag(la::rsf2csf(TJ, ZJ).t), {2.652644319151028, 0.0, 0.7002200983780777, 0.40951394116732664, -0.3489252838452166, -0.8218088669624245, 0.22954581931727933, -0.8092688083164825, 0.35118388671548073, -0.5289658172825731, 0.0, 0.0, 0.699539190534429, 0.8824480751187632, 0.2837919961020523, -5.551115123125783e-17, 0.2543149534250131, -0.15884232626860656, -0.012393441699568797, 1.575558116887127, 0.0, 0.0, 0.0, 0.0, 0.699539190534429, -0.8824480751187632, 0.1262654885090374, -1.3005649471904852, -1.1552369927976827, 0.12408456286237043, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.4119692775502348, 0.4773563256457242, 0.8928710408132197, -7.771561172376096e-16, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.4119692775502344, -0.4773563256457242}, {5, 5, 2}},
    {"la::rsf2csf(TJ, ZJ).z", real_imag(la::rsf2csf(TJ, ZJ).z), {-0.028884428142112714, 0.0, -0.482695885497552, -0.21944611690177793, 0.18697849067218195, 0.5665129573786976, 0.23187713225689724, 0.1386127674903804, -0.060151299463681314, -0.5343380992004684, -0.22046654840257884, 0.0, 0.15817899783662503, 0.4876703254362248, -0.4155182269025528, -0.18564577522192183, 0.26560720174027164, -0.17468240896659176, 0.07580379558842464, -0.6120657346866529, -0.7450568047627604, 0.0, -0.13556361486490434, -0.09571776677892276, 0.08155607315141285, 0.15910337476960576, -0.08567418277819293, -0.5341677517614745, 0.23180320963056714, 0.19742774775019464, -0.4605681923315935, 0.0, 0.3368677931693423, -0.39633783168493975, 0.3376986141791918, -0.3953627438884961, 0.1098327784711461, 0.37916466935363474, -0.16453929883422114, -0.2530988610518005, 0.4281675942145454, 0.0, 0.17534904766158946, -0.35658783246919834, 0.3038297311817933, -0.20579729504408428, 0.12146760622147716, -0.6022455055172833, 0.26134569281678993, -0.2799101799780186}, {5, 5, 2}},
    {"la::sqrtm(A)", real_imag(la::sqrtm(A)), {1.4226225862447743, 7.771561172376096e-16, 0.3829069582775095, 0.0, -0.19426760508424323, -3.0531133177191805e-16, 0.4923535763724858, -4.440892098500626e-16, 0.3748249906878055, -7.216449660063518e-16, 0.3050071737235326, -6.661338147750939e-16, 0.777034494261048, 2.7755575615628914e-17, 0.012002297165207301, 2.6020852139652106e-16, -0.08080584127371673, 2.0816681711721685e-16, -0.48398499901844505, -8.326672684688674e-16, 0.38700836626097446, 2.220446049250313e-16, 0.04892114258282701, -1.6653345369377348e-16, 1.3391213524313412, 0.0, 0.2636837607652029, 1.1102230246251565e-16, -0.16895199069668734, 4.163336342344337e-17, -0.5157058551224347, -2.7755575615628914e-17, -0.2919593323735655, 6.106226635438361e-16, 0.38628407925669817, -6.938893903907228e-17, 0.8424955736974612, 3.0531133177191805e-16, -0.3586389250376676, 8.517492267046123e-16, -0.3011598838381117, 8.881784197001252e-16, 0.44897220323203435, 5.273559366969494e-16, -0.07392166858661081, -1.3877787807814457e-16, -0.13326120399259142, -6.938893903907228e-17, 1.5675796825567976, 4.996003610813204e-16}, {5, 5, 2}},
    {"la::sqrtm(P)", real_imag(la::sqrtm(P)), {2.335750558204231, 0.0, 0.24210890296029197, 0.0, 0.08997497445039998, 0.0, 0.01615960273140231, 0.0, 0.24210890296029208, 0.0, 2.359769732623972, 0.0, 0.24834490147833177, 0.0, -0.028664404705911556, 0.0, 0.08997497445040015, 0.0, 0.24834490147833188, 0.0, 2.3244730205204576, 0.0, -0.13771212193474752, 0.0, 0.016159602731402142, 0.0, -0.02866440470591139, 0.0, -0.1377121219347476, 0.0, 2.3889267143725395, 0.0}, {4, 4, 2}},
    {"la::sqrtm(C)", real_imag(la::sqrtm(C)), {1.4620778300705055, 0.24511864195643845, 0.17027505312457467, 0.26397252969965757, 0.3115522800193563, 0.23736782263838976, -0.2290501031261814, -0.21825309776417057, 1.5697590995104251, 0.2107986553615187, -0.23664949060933727, -0.16132513594951545, 0.26142646371119216, 0.3278217313432655, 0.30678050686252306, 0.013891821568489143, 1.7420496007575166, -0.18266734926630956}, {3, 3, 2}},
    {"la::funm(A, [](const Array& x) { return st::sin(x); })", real_imag(la::funm(A, [](const Array& x) { return st::sin(x); })), {1.5108774652278218, -5.551115123125783e-17, 0.46201352859900124, -1.6653345369377348e-16, -0.30038976098326403, 5.551115123125783e-17, 0.71815924173018, -2.7755575615628914e-17, 0.5579270391157006, -1.6653345369377348e-16, 0.21063582712011897, 2.7755575615628914e-17, 0.609779984054215, -3.469446951953614e-17, -0.02395296339717827, -1.1102230246251565e-16, -0.5066542062259205, 1.6653345369377348e-16, -0.5003358079442929, -5.551115123125783e-17, 0.027275180084433453, 8.326672684688674e-17, 0.14780550059058706, 8.326672684688674e-17, 0.7448780611222848, -9.71445146547012e-17, -0.3067714439196064, 7.632783294297951e-17, 0.22680329464078636, -5.0306980803327406e-17, -0.8958162668045919, -1.1102230246251565e-16, -0.015728922401763545, -5.551115123125783e-17, 0.0740341485744161, 1.1796119636642288e-16, 0.38905379307133064, -1.1102230246251565e-16, -0.02645043290534395, 1.5265566588595902e-16, -0.3948962292201852, 8.326672684688674e-17, 0.2917337602189477, 6.938893903907228e-17, 0.24200796146455816, 1.3877787807814457e-17, 0.21136441848687773, -5.551115123125783e-17, 1.2417519104902084, 1.1102230246251565e-16}, {5, 5, 2}},
    {"la::funm(C, [](const Array& x) { return st::exp(x); })", real_imag(la::funm(C, [](const Array& x) { return st::exp(x); })), {12.445792356061515, 9.242886141540723, 3.2882370160887255, 16.295258434935732, 15.360888954506397, 2.37084218932805, 1.0407903910688932, -17.97421162396722, 14.263953492755466, -5.690752553427874, -11.397150216375934, -15.79784687392193, 8.449924710492425, 6.372654689902527, 9.911593800650696, 7.359114331726449, 15.359283024460353, -7.727618004800721}, {3, 3, 2}},
    {"la::polar(W).u", real_imag(la::polar(W).u), {0.5917218243646976, 0.3625595966760232, -0.4889546778026507, 0.6254699731432731, 0.2563254097884131, 0.7008901829110408, 0.2304643175819971, 0.12016645712007361, -0.5149619740417513, -0.45336386444900023, 0.8879233332546965, 0.0670107442493852}, {4, 3}},
    {"la::polar(W).p", real_imag(la::polar(W).p), {0.8490018776008691, 0.4478394461637507, 0.37900422817997126, 0.4478394461637507, 1.2371043472322982, -0.4940752983183656, 0.37900422817997126, -0.4940752983183656, 0.9604802311101461}, {3, 3}},
    {"la::polar(st::transpose(W), \"left\").u", real_imag(la::polar(st::transpose(W), "left").u), {0.5917218243646976, 0.6254699731432731, 0.2304643175819971, -0.45336386444900023, 0.3625595966760232, 0.2563254097884131, 0.12016645712007361, 0.8879233332546965, -0.4889546778026507, 0.7008901829110408, -0.5149619740417513, 0.0670107442493852}, {3, 4}},
    {"la::polar(st::transpose(W), \"left\").p", real_imag(la::polar(st::transpose(W), "left").p), {0.8490018776008691, 0.4478394461637507, 0.37900422817997126, 0.4478394461637507, 1.2371043472322982, -0.4940752983183656, 0.37900422817997126, -0.4940752983183656, 0.9604802311101461}, {3, 3}},
    {"la::polar(C).p", real_imag(la::polar(C).p), {2.532241777681531, 0.0, 0.05659335641728443, 0.45181504201006223, 0.9048814361503323, -0.5381223124130103, 0.05659335641728443, -0.45181504201006223, 2.7445758928839634, 0.0, 0.31526210069357824, -0.39994282653692753, 0.9048814361503323, 0.5381223124130103, 0.31526210069357824, 0.39994282653692753, 3.169523814271408, 0.0}, {3, 3, 2}},
    {"la::solve_sylvester(A, B, Q)", real_imag(la::solve_sylvester(A, B, Q)), {0.06877046809139906, 0.05732281344570497, 0.16438288392416256, 0.10927686499871289, 0.08003431260256909, -0.2378183904640726, -0.21010456833500157, -0.25216749805779276, -0.08681257258086925, 0.13924547031954618, 0.28874342559499944, 0.15713252427018878, 0.17807166681907874, 0.1456960384557933, 0.05251099261360399}, {5, 3}},
    {"la::solve_sylvester(A, B, Q, \"eigen\")", real_imag(la::solve_sylvester(A, B, Q, "eigen")), {0.068770468091399, 0.0573228134457047, 0.16438288392416256, 0.10927686499871257, 0.08003431260256921, -0.23781839046407283, -0.2101045683350014, -0.2521674980577929, -0.08681257258086926, 0.1392454703195461, 0.2887434255949999, 0.1571325242701887, 0.17807166681907874, 0.1456960384557935, 0.05251099261360421}, {5, 3}},
    {"la::solve_sylvester(C, B, st::astype(Q[st::Slice(0, 3)], st::c128))", real_imag(la::solve_sylvester(C, B, st::astype(Q[st::Slice(0, 3)], st::c128))), {0.1547553537039639, -0.004207620414653546, 0.2149178687502433, 0.0012115345684418737, 0.13280355420946233, 0.005948763024314567, 0.0769739845478122, -0.005050926169306823, 0.013855320678299553, -0.0020797132863957374, -0.10945075522433795, 0.02683825343971964, -0.17865055333781502, -0.04076139625853803, -0.1924541549724249, -0.056213177006484275, -0.04231385723903232, -0.011531266861789624}, {3, 3, 2}},
  }, [](const JaxCase&, double want) { return 1e-10 * std::fabs(want) + 1e-10; });
}

TEST(SchurFunctions, TheirEquationsBatchesAndDerivatives) {
  SCHUR_INPUTS;
  // sqrtm(a)² = a; funm(a, exp) = expm(a).
  Array r = la::sqrtm(A);
  st::testing::expect_relative(real_imag(st::matmul(r, r)), values(real_imag(st::astype(A, st::c128))), 1e-12, 1e-12);
  st::testing::expect_relative(real_imag(la::funm(A, [](const Array& x) { return st::exp(x); })),
                               values(real_imag(st::astype(la::expm(A), st::c128))), 1e-10, 1e-10);
  // a x + x b = c.
  Array x = la::solve_sylvester(A, B, Q);
  EXPECT_EQ(x.dtype(), st::f64);
  st::testing::expect_relative(st::matmul(A, x) + st::matmul(x, B), values(Q), 1e-12, 1e-12);
  // polar: u with orthonormal columns, p symmetric positive definite, u p = w.
  la::PolarResult pr = la::polar(W);
  st::testing::expect_relative(st::matmul(pr.u, pr.p), values(W), 1e-13, 1e-13);
  st::testing::expect_relative(st::matmul(st::transpose(pr.u), pr.u), values(eye(3)), 1e-13, 1e-13);
  // Batches: each as alone.
  Array batch = st::stack({P, P * 2.0});
  st::testing::expect_relative(real_imag(la::sqrtm(batch)[1]), values(real_imag(la::sqrtm(P * 2.0))), 1e-14, 1e-14);
  Array xs = la::solve_sylvester(st::stack({A, A * 2.0}), B, Q);
  st::testing::expect_relative(xs[1], values(la::solve_sylvester(A * 2.0, B, Q)), 1e-13, 1e-13);
  // jit equals eager.
  auto s = [](const Array& a) { return la::sqrtm(a); };
  st::testing::expect_relative(real_imag(st::jit(s)(A)), values(real_imag(s(A))), 1e-14, 1e-14);
  // polar differentiates through the SVD.
  using V = std::vector<Array>;
  st::testing::check_grads([](const V& v) { return la::polar(v[0]).p; }, {W}, "polar");
  // No unique solution (λ_a + λ_b = 0): NaN, as JAX.
  Array nan = la::solve_sylvester(eye(2), -eye(2), st::ones({2, 2}, st::f64));
  EXPECT_TRUE(std::isnan(nan[0][0].item<double>()));
}

}  // namespace
