// conv_general_dilated: eager against an independent loop reference over hundreds of seeded
// random configurations (1-3 spatial dims, layouts, strides, padding, dilations, groups),
// jit against eager, the dimension-number strings, SAME/VALID padding, errors.
#include <gtest/gtest.h>

#include "conv_reference.h"
#include "test_util.h"

namespace st = strata;
using namespace strata::testing;

namespace {

double tolerance(st::DType t) { return t == st::f64 ? 1e-12 : t == st::f32 ? 2e-6 : 1.6e-2; }

void expect_matches(const std::vector<double>& got, const ConvRef& want, st::DType t, const std::string& what) {
  ASSERT_EQ(got.size(), want.value.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want.value[i], tolerance(t) * (want.magnitude[i] + 1e-3)) << what << " element " << i;
}

// Inputs rounded to `t`, so that the reference sees the values the kernel sees.
std::pair<st::Array, std::vector<double>> input(const st::Shape& s, st::DType t, std::mt19937& rng) {
  std::vector<double> v = random_values(count_of(s), rng);
  st::Array a = st::astype(st::array(v, s, st::f64), t);
  return {a, st::astype(a, st::f64).to_vector<double>()};
}

TEST(Conv, RandomConfigurationsEagerMatchReference) {
  std::mt19937 rng(1234);
  const st::DType types[] = {st::f32, st::f64, st::bf16};
  for (int trial = 0; trial < 300; ++trial) {
    ConvCase c = random_conv_case(rng);
    st::DType t = types[trial % 3];
    auto [x, xv] = input(c.lhs, t, rng);
    auto [w, wv] = input(c.rhs, t, rng);
    ConvRef ref = conv_reference(c, xv, wv);
    st::Array y = c.apply(x, w);
    ASSERT_EQ(y.shape(), ref.shape) << c.str();
    ASSERT_EQ(y.dtype(), t);
    expect_matches(st::astype(y, st::f64).to_vector<double>(), ref, t, c.str() + " " + std::string(st::short_name(t)));
  }
}

TEST(Conv, RandomConfigurationsJitMatchesEager) {
  std::mt19937 rng(99);
  const st::DType types[] = {st::f32, st::f64, st::bf16};
  for (int trial = 0; trial < 60; ++trial) {
    ConvCase c = random_conv_case(rng);
    st::DType t = types[trial % 3];
    auto [x, xv] = input(c.lhs, t, rng);
    auto [w, wv] = input(c.rhs, t, rng);
    ConvRef ref = conv_reference(c, xv, wv);
    st::Array jitted = st::jit([c](const st::Array& a, const st::Array& b) { return c.apply(a, b); })(x, w);
    ASSERT_EQ(jitted.shape(), ref.shape) << c.str();
    expect_matches(st::astype(jitted, st::f64).to_vector<double>(), ref, t, "jit " + c.str());
    std::vector<double> eager = st::astype(c.apply(x, w), st::f64).to_vector<double>();
    std::vector<double> compiled = st::astype(jitted, st::f64).to_vector<double>();
    for (size_t i = 0; i < eager.size(); ++i)
      ASSERT_NEAR(compiled[i], eager[i], tolerance(t) * (ref.magnitude[i] + 1e-3)) << "jit vs eager " << c.str();
  }
}

// The kernel's blocking (tracer/kernels/conv.cpp): tiles of up to 288 patch rows in steps of
// 6, column blocks of up to 128, output features in panels of 16, 32 or 64 (f32; half that
// for f64). Each case crosses those edges — rows past a tile and not a multiple of 6, columns
// in several blocks, the last output panel partial — with strides, dilations, padding (some
// negative), groups and layouts whose features are not innermost (the copy into NHWC order);
// f32/f64 with 16 or more features per group read patch rows in place where a panel of 6
// output positions lies inside one output line and the lhs (else packs it).
// Eager against the loop reference; jit against eager bit for bit (one kernel).
TEST(Conv, TileEdgesMatchReference) {
  std::mt19937 rng(7);
  auto make = [](st::Shape lhs, st::Shape rhs, std::vector<int64_t> strides, std::vector<int64_t> lo,
                 std::vector<int64_t> hi, std::vector<int64_t> ld, std::vector<int64_t> rd, st::ConvDimensionNumbers dn,
                 int64_t groups = 1, int64_t batch_groups = 1) {
    ConvCase c;
    c.lhs = std::move(lhs);
    c.rhs = std::move(rhs);
    c.strides = std::move(strides);
    c.lo = std::move(lo);
    c.hi = std::move(hi);
    c.lhs_dil = std::move(ld);
    c.rhs_dil = std::move(rd);
    c.dn = std::move(dn);
    c.groups = groups;
    c.batch_groups = batch_groups;
    return c;
  };
  const st::ConvDimensionNumbers nhwc{"NHWC", "HWIO", "NHWC"}, nchw{"NCHW", "OIHW", "NCHW"};
  const ConvCase cases[] = {
      // 3·13·11 = 429 rows (two tiles, the last partial), 37·9 = 333 columns (three blocks), 70
      // output features (two panels of 64, the second with 6).
      make({3, 13, 11, 37}, {3, 3, 37, 70}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nhwc),
      // NCHW (the copy into NHWC order), stride 2, 20 output features (a partial panel of 32).
      make({2, 19, 17, 23}, {20, 19, 3, 2}, {2, 1}, {0, 1}, {2, 0}, {1, 1}, {1, 1}, nchw),
      // lhs and rhs dilation with negative padding, 5 output features (one panel of 16).
      make({2, 21, 18, 9}, {3, 2, 9, 5}, {1, 2}, {-1, 2}, {1, -1}, {2, 1}, {1, 2}, nhwc),
      // Feature groups (3 groups of 11 in, 17 out each) and batch groups (2), NCHW.
      make({2, 33, 15, 14}, {51, 11, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nchw, 3),
      make({4, 12, 16, 10}, {34, 12, 2, 3}, {1, 2}, {1, 0}, {0, 1}, {1, 1}, {1, 1}, nchw, 1, 2),
      // The filter gradient's shape: batch and features swapped (features not innermost), a
      // 9×9 window over 11×11 (many columns per row, few rows).
      make({3, 11, 11, 8}, {9, 9, 3, 66}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1},
           st::ConvDimensionNumbers{"CHWN", "HWIO", "NHWC"}),
      // Direct reads (features >= 16) with feature groups and rhs dilation; and 150 features
      // per tap (two column blocks of 75).
      make({2, 9, 14, 40}, {3, 3, 20, 34}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 2}, nhwc, 2),
      make({1, 7, 15, 150}, {2, 3, 150, 24}, {1, 1}, {0, 1}, {1, 1}, {1, 1}, {1, 1}, nhwc),
      // NHWC results with whole panels of output features accumulate in the output itself
      // (f32/f64; bf16 through the tile buffer); rows not a multiple of 6 finish in the buffer.
      make({2, 7, 11, 24}, {3, 3, 24, 64}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nhwc),
      make({3, 9, 10, 3}, {3, 3, 3, 16}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nhwc),
      // Depthwise (one feature per group: vectors across the groups), multiplier 2, NCHW,
      // stride 2; and multiplier 1, NHWC, rhs dilation.
      make({2, 24, 13, 11}, {48, 1, 3, 3}, {2, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, nchw, 24),
      make({3, 10, 9, 40}, {3, 3, 1, 40}, {1, 1}, {2, 1}, {2, 1}, {1, 1}, {2, 1}, nhwc, 40),
      // Output positions × taps past 2^20 (packing without the per-(position, tap) table).
      make({1, 2647, 2}, {600, 2, 3}, {1}, {0}, {0}, {1}, {1}, st::ConvDimensionNumbers{"NWC", "WIO", "NWC"}),
      // 1-D and 3-D.
      make({2, 301, 13}, {5, 13, 40}, {3}, {2}, {2}, {1}, {2}, st::ConvDimensionNumbers{"NWC", "WIO", "NWC"}),
      make({1, 9, 8, 7, 6}, {2, 3, 2, 6, 33}, {1, 1, 2}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 1, 1},
           st::ConvDimensionNumbers{"NDHWC", "DHWIO", "NDHWC"}),
  };
  for (const ConvCase& c : cases)
    for (st::DType t : {st::f32, st::f64, st::bf16}) {
      auto [x, xv] = input(c.lhs, t, rng);
      auto [w, wv] = input(c.rhs, t, rng);
      ConvRef ref = conv_reference(c, xv, wv);
      st::Array y = c.apply(x, w);
      ASSERT_EQ(y.shape(), ref.shape) << c.str();
      std::vector<double> eager = st::astype(y, st::f64).to_vector<double>();
      expect_matches(eager, ref, t, c.str() + " " + std::string(st::short_name(t)));
      st::Array jitted = st::jit([c](const st::Array& a, const st::Array& b) { return c.apply(a, b); })(x, w);
      EXPECT_EQ(st::astype(jitted, st::f64).to_vector<double>(), eager) << "jit vs eager " << c.str();
    }
}

TEST(Conv, DimensionNumberStringsAgreeWithExplicitSpecs) {
  std::mt19937 rng(5);
  auto [x, xv] = input({2, 5, 6, 3}, st::f32, rng);  // NHWC
  auto [w, wv] = input({3, 2, 3, 4}, st::f32, rng);  // HWIO
  st::Array nhwc = st::conv_general_dilated(x, w, {1, 2}, "SAME", {}, {}, {"NHWC", "HWIO", "NHWC"});
  st::Array nchw = st::conv_general_dilated(st::transpose(x, {0, 3, 1, 2}), st::transpose(w, {3, 2, 0, 1}), {1, 2},
                                            "SAME", {}, {}, {"NCHW", "OIHW", "NCHW"});
  EXPECT_EQ(nhwc.shape(), (st::Shape{2, 5, 3, 4}));
  std::vector<double> a = st::transpose(nhwc, {0, 3, 1, 2}).to_vector<double>(), b = nchw.to_vector<double>();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5);
  st::ConvDimensionNumbers dn("NHWC", "HWIO", "NHWC");
  EXPECT_EQ(dn.lhs_spec, (std::vector<int64_t>{0, 3, 1, 2}));
  EXPECT_EQ(dn.rhs_spec, (std::vector<int64_t>{3, 2, 0, 1}));
  // 3-d, channels first, as JAX's "NCDHW"/"OIDHW".
  st::ConvDimensionNumbers dn3("NCDHW", "OIDHW", "NCDHW");
  EXPECT_EQ(dn3.lhs_spec, (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

// Output sizes of SAME (ceil(in / stride)), SAME_LOWER and VALID, as jax.lax gives them.
TEST(Conv, StringPaddingShapes) {
  st::Array x = st::ones({1, 1, 7, 8}, st::f32), w = st::ones({1, 1, 3, 2}, st::f32);
  EXPECT_EQ(st::conv_general_dilated(x, w, {2, 3}, "SAME").shape(), (st::Shape{1, 1, 4, 3}));
  EXPECT_EQ(st::conv_general_dilated(x, w, {2, 3}, "VALID").shape(), (st::Shape{1, 1, 3, 3}));
  EXPECT_EQ(st::conv_general_dilated(x, w, {1, 1}, "SAME", {}, {2, 2}).shape(), (st::Shape{1, 1, 7, 8}));
  // SAME with a 2-wide window pads (0, 1); SAME_LOWER (1, 0): the first column sums one 1.
  st::Array same = st::conv_general_dilated(x, w, {1, 1}, "SAME");
  st::Array lower = st::conv_general_dilated(x, w, {1, 1}, "SAME_LOWER");
  EXPECT_EQ(same.to_vector<float>()[8 + 7], 3.0f);  // row 1, last column: padded on the right
  EXPECT_EQ(lower.to_vector<float>()[8 + 0], 3.0f);
  EXPECT_EQ(lower.to_vector<float>()[8 + 7], 6.0f);
}

TEST(Conv, DepthwiseIsPerChannel) {
  // feature_group_count = channels: each channel convolved with its own kernel.
  std::mt19937 rng(8);
  auto [x, xv] = input({1, 3, 5}, st::f64, rng);
  auto [w, wv] = input({3, 1, 2}, st::f64, rng);
  st::Array y = st::conv_general_dilated(x, w, {1}, "VALID", {}, {}, {}, 3);
  std::vector<double> got = y.to_vector<double>();
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < 4; ++s)
      EXPECT_NEAR(got[c * 4 + s], xv[c * 5 + s] * wv[c * 2] + xv[c * 5 + s + 1] * wv[c * 2 + 1], 1e-14);
}

TEST(Conv, Errors) {
  st::Array x = st::ones({1, 4, 5, 5}, st::f32), w = st::ones({8, 3, 3, 3}, st::f32);
  std::string m = error_message<st::ShapeError>([&] { st::conv_general_dilated(x, w, {1, 1}, "VALID"); });
  expect_contains(m, "conv_general_dilated: expects rhs input features");
  expect_contains(m, "[1,4,5,5]");
  expect_contains(m, "[8,3,3,3]");
  expect_contains(error_message<st::DTypeError>([&] {
                    st::conv_general_dilated(x, st::ones({8, 2, 3, 3}, st::f64), {1, 1}, "VALID", {}, {}, {}, 2);
                  }),
                  "one dtype");
  expect_contains(error_message<st::ValueError>([&] { st::conv_general_dilated(x, st::ones({8, 4, 3, 3}, st::f32), {1}, "VALID"); }),
                  "window strides and dilations of length 2");
  expect_contains(error_message<st::ValueError>([&] { st::conv_general_dilated(x, st::ones({8, 4, 3, 3}, st::f32), {1, 1}, "FULL"); }),
                  "expects padding \"SAME\"");
  expect_contains(error_message<st::ValueError>([&] { st::conv_general_dilated(x, st::ones({8, 4, 3, 3}, st::f32), {0, 1}, "VALID"); }),
                  "positive window strides");
  // JAX refuses string padding with lhs dilation (a transposed convolution).
  expect_contains(error_message<st::ValueError>([&] { st::conv_general_dilated(x, st::ones({8, 4, 3, 3}, st::f32), {1, 1}, "SAME", {2, 2}); }),
                  "conv_general_dilated: string padding (\"SAME\") is not implemented for a transposed convolution (lhs_dilation [2, 2])");
  expect_contains(error_message<st::ValueError>([&] { st::ConvDimensionNumbers("NHWC", "HWIO", "NHW"); }), "one length");
  expect_contains(error_message<st::ValueError>([&] { st::ConvDimensionNumbers("NHWC", "HWIO", "NHCC"); }), "exactly once");
  expect_contains(error_message<st::DTypeError>([&] {
                    st::conv_general_dilated(st::ones({1, 4, 5, 5}, st::bool_), st::ones({8, 4, 3, 3}, st::bool_),
                                             {1, 1}, "VALID");
                  }),
                  "expects numeric operands (float, complex or integer), but got bool[1,4,5,5] and bool[8,4,3,3]");
  expect_contains(error_message<st::ShapeError>([&] {
                    st::conv_general_dilated(x, st::ones({8, 4, 3, 3}, st::f32), {1, 1}, "VALID", {}, {}, {}, 2, 2);
                  }),
                  "a feature or a batch group count of 1");
}

// Complex convolutions (JAX takes them; strata computes four real ones of the parts): eager and
// jit against the reference's (a + ib) ⊛ (c + id) = (a ⊛ c − b ⊛ d) + i (a ⊛ d + b ⊛ c), each
// real term by the independent loops; and grad through one (a real loss of |y|²) against
// finite differences of the loss.
TEST(Conv, ComplexConvolutionsMatchReference) {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 40; ++trial) {
    ConvCase c = random_conv_case(rng);
    st::DType t = trial % 2 ? st::c128 : st::c64;
    st::DType r = st::real_dtype(t);
    auto [a, av] = input(c.lhs, r, rng);
    auto [b, bv] = input(c.lhs, r, rng);
    auto [cw, cv] = input(c.rhs, r, rng);
    auto [d, dv] = input(c.rhs, r, rng);
    ConvRef ac = conv_reference(c, av, cv), bd = conv_reference(c, bv, dv), ad = conv_reference(c, av, dv),
            bc = conv_reference(c, bv, cv);
    st::Array x = st::complex(a, b), w = st::complex(cw, d);
    st::Array eager = c.apply(x, w);
    st::Array jitted = st::jit([c](const st::Array& p, const st::Array& q) { return c.apply(p, q); })(x, w);
    ASSERT_EQ(eager.dtype(), t);
    ASSERT_EQ(eager.shape(), ac.shape) << c.str();
    for (const st::Array& y : {eager, jitted}) {
      std::vector<double> re = st::astype(st::real(y), st::f64).to_vector<double>();
      std::vector<double> im = st::astype(st::imag(y), st::f64).to_vector<double>();
      for (size_t i = 0; i < re.size(); ++i) {
        double tol = tolerance(r) * (ac.magnitude[i] + bd.magnitude[i] + ad.magnitude[i] + bc.magnitude[i] + 1e-3);
        ASSERT_NEAR(re[i], ac.value[i] - bd.value[i], tol) << c.str() << " element " << i;
        ASSERT_NEAR(im[i], ad.value[i] + bc.value[i], tol) << c.str() << " element " << i;
      }
    }
    // The compiled program convolves the same parts: the same bits.
    EXPECT_EQ(st::real(eager).to_vector<double>(), st::real(jitted).to_vector<double>()) << c.str();
    EXPECT_EQ(st::imag(eager).to_vector<double>(), st::imag(jitted).to_vector<double>()) << c.str();
  }
}

TEST(Conv, ComplexConvolutionGradMatchesFiniteDifferences) {
  std::mt19937 rng(5);
  ConvCase c = random_conv_case(rng);
  while (count_of(c.lhs) == 0 || count_of(c.rhs) == 0 || conv_reference(c, std::vector<double>(count_of(c.lhs)),
                                                                         std::vector<double>(count_of(c.rhs))).value.empty())
    c = random_conv_case(rng);
  auto [a, av] = input(c.lhs, st::f64, rng);
  auto [b, bv] = input(c.lhs, st::f64, rng);
  auto [cw, cv] = input(c.rhs, st::f64, rng);
  auto [d, dv] = input(c.rhs, st::f64, rng);
  st::Array w = st::complex(cw, d);
  // A real loss of the real and imaginary parts of x: grad with respect to both.
  auto loss = [&](const st::Array& re, const st::Array& im) {
    st::Array y = c.apply(st::complex(re, im), w);
    return st::sum(st::real(y * st::conj(y)) + st::imag(y));
  };
  auto [gre, gim] = st::grad(loss, st::argnums<0, 1>)(a, b);
  std::vector<double> g = gre.to_vector<double>(), h = gim.to_vector<double>();
  const double eps = 1e-6;
  for (size_t i = 0; i < av.size(); ++i) {
    auto bump = [&](std::vector<double> v, double e) { v[i] += e; return st::array(v, c.lhs, st::f64); };
    double fd_re = (loss(bump(av, eps), b).item<double>() - loss(bump(av, -eps), b).item<double>()) / (2 * eps);
    double fd_im = (loss(a, bump(bv, eps)).item<double>() - loss(a, bump(bv, -eps)).item<double>()) / (2 * eps);
    ASSERT_NEAR(g[i], fd_re, 1e-5 * (1 + std::fabs(fd_re))) << c.str() << " element " << i;
    ASSERT_NEAR(h[i], fd_im, 1e-5 * (1 + std::fabs(fd_im))) << c.str() << " element " << i;
  }
  // And grad with respect to the complex x itself is JAX's ∂L/∂re − i ∂L/∂im.
  st::Array gz = st::grad([&](const st::Array& z) { return loss(st::real(z), st::imag(z)); })(st::complex(a, b));
  std::vector<double> zr = st::real(gz).to_vector<double>(), zi = st::imag(gz).to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) {
    EXPECT_NEAR(zr[i], g[i], 1e-12 * (1 + std::fabs(g[i])));
    EXPECT_NEAR(zi[i], -h[i], 1e-12 * (1 + std::fabs(h[i])));
  }
}

// Integer convolutions: small integer inputs make the double reference exact, so eager and
// jit (ConvolutionToLinalg) must equal it; every integer dtype, every configuration kind.
TEST(Conv, IntegerConvolutionsEagerAndJitMatchReference) {
  std::mt19937 rng(4321);
  const st::DType types[] = {st::i32, st::i64, st::i8, st::u8, st::i16, st::u32};
  for (int trial = 0; trial < 60; ++trial) {
    ConvCase c = random_conv_case(rng);
    st::DType t = types[trial % 6];
    const bool is_unsigned = st::is_unsigned_integer(t);
    auto ints = [&](const st::Shape& s) {
      std::vector<double> v(static_cast<size_t>(count_of(s)));
      for (double& e : v) e = std::uniform_int_distribution<int>(is_unsigned ? 0 : -3, 3)(rng);
      return v;
    };
    std::vector<double> xv = ints(c.lhs), wv = ints(c.rhs);
    st::Array x = st::astype(st::array(xv, c.lhs, st::f64), t), w = st::astype(st::array(wv, c.rhs, st::f64), t);
    ConvRef ref = conv_reference(c, xv, wv);
    // The sums of 8-bit operands can wrap: the reference wraps the same way.
    auto wrapped = [&](double v) {
      if (t == st::i8) return static_cast<double>(static_cast<int8_t>(static_cast<int64_t>(v)));
      if (t == st::u8) return static_cast<double>(static_cast<uint8_t>(static_cast<int64_t>(v)));
      return v;
    };
    st::Array y = c.apply(x, w);
    ASSERT_EQ(y.dtype(), t);
    ASSERT_EQ(y.shape(), ref.shape) << c.str();
    st::Array yj = st::jit([c](const st::Array& a, const st::Array& b) { return c.apply(a, b); })(x, w);
    ASSERT_EQ(yj.dtype(), t);
    std::vector<double> got = st::astype(y, st::f64).to_vector<double>(), gotj = st::astype(yj, st::f64).to_vector<double>();
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], wrapped(ref.value[i])) << c.str() << " " << st::short_name(t) << " element " << i;
      ASSERT_EQ(gotj[i], got[i]) << "jit " << c.str() << " " << st::short_name(t) << " element " << i;
    }
  }
}

TEST(Conv, IntegerConvolutionWrapsInItsType) {
  // 100 · 100 · 3 taps = 30000 = 117 · 256 + 48: 48 in u8 and i8, exact in i16 (< 32768).
  for (auto [t, want] : {std::pair{st::u8, 48.0}, std::pair{st::i8, 48.0}, std::pair{st::i16, 30000.0}}) {
    st::Array x = st::full({1, 1, 3}, 100, t), w = st::full({1, 1, 3}, 100, t);
    auto f = [](const st::Array& a, const st::Array& b) { return st::conv_general_dilated(a, b, {1}, "VALID"); };
    EXPECT_EQ(st::astype(f(x, w), st::f64).item<double>(), want) << st::short_name(t);
    EXPECT_EQ(st::astype(st::jit(f)(x, w), st::f64).item<double>(), want) << "jit " << st::short_name(t);
  }
  // u32 products past 2^32 wrap too: 70000² = 4,900,000,000 ≡ 605,032,704 (mod 2^32).
  st::Array x = st::full({1, 1, 1}, 70000, st::u32);
  auto f = [](const st::Array& a, const st::Array& b) { return st::conv_general_dilated(a, b, {1}, "VALID"); };
  EXPECT_EQ(st::astype(f(x, x), st::f64).item<double>(), 605032704.0);
  EXPECT_EQ(st::astype(st::jit(f)(x, x), st::f64).item<double>(), 605032704.0);
}

// A depthwise convolution (one feature per group) rounds each product and adds in tap order,
// as StableHLO's interpreter and NumPy do: the sum p0 + p1 + p2 in float equals the
// unfused left-to-right sum bit for bit, eager and jit.
TEST(Conv, DepthwiseSumsRoundedProductsInTapOrder) {
  std::mt19937 rng(7);
  std::vector<float> xv(2 * 3 * 9), wv(12 * 3);
  for (float& v : xv) v = std::uniform_real_distribution<float>(-6, 6)(rng);
  for (float& v : wv) v = std::uniform_real_distribution<float>(-6, 6)(rng);
  st::Array x = st::array(xv, {2, 3, 9}), w = st::array(wv, {12, 1, 3});
  auto f = [](const st::Array& a, const st::Array& b) {
    return st::conv_general_dilated(a, b, {1}, "VALID", {}, {2}, {}, 3);
  };
  std::vector<float> eager = f(x, w).to_vector<float>(), jitted = st::jit(f)(x, w).to_vector<float>();
  ASSERT_EQ(eager.size(), 2u * 12 * 5);
  for (int n = 0; n < 2; ++n)
    for (int o = 0; o < 12; ++o)
      for (int s = 0; s < 5; ++s) {
        const int g = o / 4;
        volatile float sum = 0;  // volatile: each step rounded to float, no contraction here
        for (int k = 0; k < 3; ++k) {
          volatile float prod = xv[(n * 3 + g) * 9 + s + 2 * k] * wv[o * 3 + k];
          sum = sum + prod;
        }
        const size_t i = static_cast<size_t>((n * 12 + o) * 5 + s);
        EXPECT_EQ(eager[i], sum) << n << "," << o << "," << s;
        EXPECT_EQ(jitted[i], sum) << "jit " << n << "," << o << "," << s;
      }
}

// The CPU runtime's convolution reads its operands through pointers taken before
// bufferization; CSE merged the two calls' reads of `a` into one before the first call, and
// bufferization then wrote `b` (a nest over a tensor.empty CSE had shared with `a`'s) into
// `a`'s buffer before the second call read it: jit gave 17·17 = 289, not 17·4 = 68 (found by
// fuzz_differential; --strata-runtime-reads-at-calls puts each read at its call).
TEST(Conv, JitCallsReadOperandsAnElementwiseNestCouldOverwrite) {
  auto conv = [](const st::Array& x, const st::Array& w) { return st::conv_general_dilated(x, w, {1}, "VALID"); };
  auto f = [&](const st::Array& x) {
    st::Array a = x * 2.0f;
    st::Array b = conv(a, a) + 1.0f;
    return conv(b, a);
  };
  for (st::DType t : {st::f32, st::f64, st::bf16, st::i32}) {
    st::Array x = st::full({1, 1, 1}, 2, t);
    EXPECT_EQ(st::jit(f)(x).to_vector<double>(), std::vector<double>{68}) << st::type_string(t, {});
    EXPECT_EQ(f(x).to_vector<double>(), std::vector<double>{68}) << st::type_string(t, {});
  }
  // Wider: the same shape for every value, so that every nest could take `a`'s buffer.
  std::mt19937 rng(3);
  st::Array x = input({2, 3, 8}, st::f32, rng).first;
  auto g = [&](const st::Array& x) {
    st::Array a = x * 2.0f;
    st::Array w = st::ones({3, 3, 1}, st::f32);
    st::Array b = conv(a, w) + 1.0f;
    return conv(b, w) + conv(a, w) * 3.0f;
  };
  std::vector<double> got = st::jit(g)(x).to_vector<double>(), want = g(x).to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i]))) << i;
}

TEST(Conv, EmptyBatchAndNarrowInputs) {
  st::Array y = st::conv_general_dilated(st::ones({0, 2, 5}, st::f32), st::ones({3, 2, 2}, st::f32), {1}, "VALID");
  EXPECT_EQ(y.shape(), (st::Shape{0, 3, 4}));
  // A window wider than the padded input: no output positions.
  st::Array z = st::conv_general_dilated(st::ones({1, 2, 2}, st::f32), st::ones({3, 2, 4}, st::f32), {1}, "VALID");
  EXPECT_EQ(z.shape(), (st::Shape{1, 3, 0}));
  st::Array zj = st::jit([](const st::Array& a, const st::Array& b) {
    return st::conv_general_dilated(a, b, {1}, "VALID");
  })(st::ones({1, 2, 2}, st::f32), st::ones({3, 2, 4}, st::f32));
  EXPECT_EQ(zj.shape(), (st::Shape{1, 3, 0}));
}

TEST(Conv, JaxprShowsOnePrimitive) {
  auto f = [](const st::Array& a, const st::Array& b) {
    return st::conv_general_dilated(a, b, {1, 1}, "SAME", {}, {}, {"NHWC", "HWIO", "NHWC"});
  };
  std::string text = st::make_jaxpr(f)(st::ones({1, 4, 4, 2}, st::f32), st::ones({3, 3, 2, 5}, st::f32)).to_string();
  expect_contains(text, "conv_general_dilated[");
  expect_contains(text, "lhs_spec=(0, 3, 1, 2)");
}

}  // namespace
