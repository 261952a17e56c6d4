// strata/fft.h (jax.numpy.fft): every transform against the DFT's definition summed in long
// double, over lengths of every kind (powers of two, of 3 and 5, other small primes, primes
// that go through Bluestein's algorithm), several axes, crops and pads, norms; NumPy's known
// values; dtypes; jit against eager; derivatives (check_grads); vmap; the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>

#include "../autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::error_message;
using st::testing::expect_contains;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
namespace fft = st::fft;

namespace {

// The DFT of x [shape] along `axis`, summed in long double (sign -1 forward, +1 inverse, the
// inverse scaled by 1/n).
std::vector<c128> dft_axis(const std::vector<c128>& x, const st::Shape& shape, int axis, bool inverse) {
  int64_t n = shape[static_cast<size_t>(axis)], inner = 1, outer = 1;
  for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  for (int d = 0; d < axis; ++d) outer *= shape[static_cast<size_t>(d)];
  std::vector<c128> y(x.size());
  const long double sign = inverse ? 1.0L : -1.0L, pi = 3.14159265358979323846264338327950288L;
  std::vector<long double> cs(static_cast<size_t>(n)), sn(static_cast<size_t>(n));
  for (int64_t t = 0; t < n; ++t) {
    long double a = sign * 2 * pi * static_cast<long double>(t) / static_cast<long double>(n);
    cs[static_cast<size_t>(t)] = std::cos(a), sn[static_cast<size_t>(t)] = std::sin(a);
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t k = 0; k < n; ++k) {
        long double re = 0, im = 0;
        for (int64_t j = 0; j < n; ++j) {
          const size_t t = static_cast<size_t>((j * k) % n);
          c128 v = x[static_cast<size_t>((o * n + j) * inner + i)];
          re += v.real() * cs[t] - v.imag() * sn[t];
          im += v.real() * sn[t] + v.imag() * cs[t];
        }
        if (inverse) re /= static_cast<long double>(n), im /= static_cast<long double>(n);
        y[static_cast<size_t>((o * n + k) * inner + i)] = c128(static_cast<double>(re), static_cast<double>(im));
      }
  return y;
}

std::vector<c128> random_complex(size_t n, uint64_t seed) {
  std::vector<c128> v;
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto next = [&] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) / 9007199254740992.0 * 2 - 1;
  };
  for (size_t i = 0; i < n; ++i) v.push_back(c128(next(), next()));
  return v;
}
std::vector<double> real_parts(const std::vector<c128>& v) {
  std::vector<double> r;
  for (c128 z : v) r.push_back(z.real());
  return r;
}
std::vector<c128> as_complex(const std::vector<double>& v) { return std::vector<c128>(v.begin(), v.end()); }

int64_t numel(const st::Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// |got - want| <= tol · max|want|, elementwise.
template <class T>
void expect_close(const std::vector<T>& got, const std::vector<c128>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1e-300;
  for (c128 w : want) scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < got.size(); ++i) {
    c128 g;
    if constexpr (std::is_floating_point_v<T>)
      g = c128(static_cast<double>(got[i]), 0);
    else
      g = c128(got[i].real(), got[i].imag());
    ASSERT_LE(std::abs(g - want[i]), tol * scale) << what << " at " << i << ": got " << g << ", want " << want[i];
  }
}

// The first n/2+1 entries along the last axis of [rows, n].
std::vector<c128> half_spectrum(const std::vector<c128>& full, int64_t rows, int64_t n) {
  std::vector<c128> r;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t k = 0; k <= n / 2; ++k) r.push_back(full[static_cast<size_t>(i * n + k)]);
  return r;
}

const std::vector<int64_t> kLengths = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 17, 30, 31, 64, 97, 100, 128, 210, 211, 243, 256, 1000};

}  // namespace

TEST(Fft, OneAxisMatchesTheDefinition) {
  for (int64_t n : kLengths) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const st::Shape shape{3, n};
    std::vector<c128> x = random_complex(static_cast<size_t>(3 * n), static_cast<uint64_t>(n));
    Array a = st::array(x, shape);
    expect_close(fft::fft(a).to_vector<c128>(), dft_axis(x, shape, 1, false), 1e-13, "fft c128");
    expect_close(fft::ifft(a).to_vector<c128>(), dft_axis(x, shape, 1, true), 1e-13, "ifft c128");
    Array a32 = st::astype(a, st::c64);
    std::vector<c128> x32 = as_complex(std::vector<double>());
    for (c64 z : a32.to_vector<c64>()) x32.push_back(c128(z.real(), z.imag()));
    expect_close(fft::fft(a32).to_vector<c64>(), dft_axis(x32, shape, 1, false), 2e-6, "fft c64");
    expect_close(fft::ifft(a32).to_vector<c64>(), dft_axis(x32, shape, 1, true), 2e-6, "ifft c64");
    // Along the first axis (strided lines).
    const st::Shape t{n, 3};
    Array b = st::array(x, t);
    expect_close(fft::fft(b, std::nullopt, 0).to_vector<c128>(), dft_axis(x, t, 0, false), 1e-13, "fft axis 0");
  }
}

TEST(Fft, RealTransformsMatchTheDefinition) {
  for (int64_t n : kLengths) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const st::Shape shape{2, n};
    std::vector<double> x = real_parts(random_complex(static_cast<size_t>(2 * n), static_cast<uint64_t>(n) + 99));
    std::vector<c128> spectrum = dft_axis(as_complex(x), shape, 1, false);
    Array a = st::array(x, shape);
    expect_close(fft::rfft(a).to_vector<c128>(), half_spectrum(spectrum, 2, n), 1e-13, "rfft f64");
    std::vector<float> xf(x.begin(), x.end());
    std::vector<c128> spectrum32 = dft_axis(std::vector<c128>(xf.begin(), xf.end()), shape, 1, false);
    expect_close(fft::rfft(st::array(xf, shape)).to_vector<c64>(), half_spectrum(spectrum32, 2, n), 2e-6, "rfft f32");
    // irfft of the half spectrum gives the signal back; the imaginary parts of the zero (and
    // n/2) frequencies are not read, as NumPy's.
    std::vector<c128> half = half_spectrum(spectrum, 2, n);
    half[0] += c128(0, 5.0);
    if (n % 2 == 0) half[static_cast<size_t>(n / 2)] += c128(0, -3.0);
    Array h = st::array(half, {2, n / 2 + 1});
    expect_close(fft::irfft(h, n).to_vector<double>(), as_complex(x), 1e-13, "irfft f64");
    expect_close(fft::irfft(st::astype(h, st::c64), n).to_vector<float>(), as_complex(x), 2e-6, "irfft f32");
  }
}

// Many rows go through blocks of 16 (c64) or 8 (c128) rows transformed side by side, a full
// block through vector-register tiles (kernels/fft_row_tiles.h), the rest through scalar
// loops; real rows are unpacked (packed) in the block. 37 rows: two or four full blocks and a
// partial one; lengths whose half spectrum is and is not a whole number of tiles, radix 8 and
// 4, odd, and a half length that goes through Bluestein's algorithm (211).
TEST(Fft, ManyRowsInBlocks) {
  const int64_t rows = 37;
  for (int64_t n : {2, 31, 32, 34, 64, 100, 422, 1024}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const st::Shape shape{rows, n};
    std::vector<c128> z = random_complex(static_cast<size_t>(rows * n), static_cast<uint64_t>(n) + 7);
    std::vector<double> x = real_parts(z);
    std::vector<c128> spectrum = dft_axis(as_complex(x), shape, 1, false);
    Array a = st::array(x, shape);
    expect_close(fft::rfft(a).to_vector<c128>(), half_spectrum(spectrum, rows, n), 1e-13, "rfft f64");
    expect_close(fft::rfft(st::astype(a, st::f32)).to_vector<c64>(), half_spectrum(spectrum, rows, n), 2e-6, "rfft f32");
    Array h = st::array(half_spectrum(spectrum, rows, n), {rows, n / 2 + 1});
    expect_close(fft::irfft(h, n).to_vector<double>(), as_complex(x), 1e-13, "irfft f64");
    expect_close(fft::irfft(st::astype(h, st::c64), n).to_vector<float>(), as_complex(x), 2e-6, "irfft f32");
    Array c = st::array(z, shape);
    expect_close(fft::fft(c).to_vector<c128>(), dft_axis(z, shape, 1, false), 1e-13, "fft rows c128");
    expect_close(fft::ifft(st::astype(c, st::c64)).to_vector<c64>(), dft_axis(z, shape, 1, true), 2e-6, "ifft rows c64");
    expect_close(fft::fft(st::astype(c, st::c64), std::nullopt, 0).to_vector<c64>(), dft_axis(z, shape, 0, false), 2e-6,
                 "fft columns c64");
  }
}

// One long real row: its unpack (pack) splits across the thread pool. Against the complex
// transform of the same signal (itself checked against the definition above) and the round trip.
TEST(Fft, LongRealRow) {
  for (int64_t n : {int64_t{1} << 17, int64_t{3} << 16}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<double> x = real_parts(random_complex(static_cast<size_t>(n), static_cast<uint64_t>(n)));
    Array a = st::array(x, {n});
    std::vector<c128> full = fft::fft(st::astype(a, st::c128)).to_vector<c128>();
    std::vector<c128> half(full.begin(), full.begin() + n / 2 + 1);
    expect_close(fft::rfft(a).to_vector<c128>(), half, 1e-13, "rfft f64");
    expect_close(fft::rfft(st::astype(a, st::f32)).to_vector<c64>(), half, 2e-6, "rfft f32");
    Array h = st::array(half, {n / 2 + 1});
    expect_close(fft::irfft(h, n).to_vector<double>(), as_complex(x), 1e-13, "irfft f64");
    expect_close(fft::irfft(st::astype(h, st::c64), n).to_vector<float>(), as_complex(x), 2e-6, "irfft f32");
  }
}

TEST(Fft, SeveralAxes) {
  // fftn over every axis; fft2 over non-adjacent axes; rfftn/irfftn of even and odd lengths.
  const st::Shape s{4, 6, 5};
  std::vector<c128> x = random_complex(static_cast<size_t>(numel(s)), 3);
  Array a = st::array(x, s);
  std::vector<c128> want = dft_axis(dft_axis(dft_axis(x, s, 0, false), s, 1, false), s, 2, false);
  expect_close(fft::fftn(a).to_vector<c128>(), want, 1e-13, "fftn");
  std::vector<c128> inv = dft_axis(dft_axis(dft_axis(x, s, 0, true), s, 1, true), s, 2, true);
  expect_close(fft::ifftn(a).to_vector<c128>(), inv, 1e-13, "ifftn");
  expect_close(fft::fft2(a, std::nullopt, {0, 2}).to_vector<c128>(), dft_axis(dft_axis(x, s, 0, false), s, 2, false), 1e-13,
               "fft2 axes (0, 2)");
  expect_close(fft::fft2(a, std::nullopt, {2, 0}).to_vector<c128>(), dft_axis(dft_axis(x, s, 0, false), s, 2, false), 1e-13,
               "fft2 axes (2, 0)");
  // Blocks of lines: rows (21 of them: a block of 16 and one of 5) and columns (40: blocks of
  // 16, 16 and 8), c64 and c128.
  const st::Shape big{3, 7, 40};
  std::vector<c128> z = random_complex(static_cast<size_t>(numel(big)), 4);
  std::vector<c128> want2 = dft_axis(dft_axis(z, big, 1, false), big, 2, false);
  expect_close(fft::fft2(st::array(z, big)).to_vector<c128>(), want2, 1e-13, "fft2 [3,7,40] c128");
  expect_close(fft::fft2(st::astype(st::array(z, big), st::c64)).to_vector<c64>(), want2, 2e-6, "fft2 [3,7,40] c64");
  // Even stage counts (16 = 4·4) and Bluestein lengths (31) in blocks of rows and of columns,
  // inverse (scaled at the last axis).
  for (const st::Shape& sh : {st::Shape{21, 16}, st::Shape{20, 31}, st::Shape{31, 20}}) {
    SCOPED_TRACE(st::shape_string(sh));
    std::vector<c128> v = random_complex(static_cast<size_t>(numel(sh)), 6);
    std::vector<c128> want3 = dft_axis(dft_axis(v, sh, 0, true), sh, 1, true);
    expect_close(fft::ifft2(st::array(v, sh)).to_vector<c128>(), want3, 1e-13, "ifft2 c128");
    expect_close(fft::fft(st::array(v, sh), std::nullopt, 0).to_vector<c128>(), dft_axis(v, sh, 0, false), 1e-13,
                 "fft axis 0 c128");
    // c64: 16 rows a block (whole 16 × 16 tiles and a tail of columns where the rows allow).
    std::vector<c128> v32;
    Array a32 = st::astype(st::array(v, sh), st::c64);
    for (c64 z : a32.to_vector<c64>()) v32.push_back(c128(z.real(), z.imag()));
    expect_close(fft::ifft2(a32).to_vector<c64>(), dft_axis(dft_axis(v32, sh, 0, true), sh, 1, true), 2e-6, "ifft2 c64");
    expect_close(fft::fft(a32).to_vector<c64>(), dft_axis(v32, sh, 1, false), 2e-6, "fft rows c64");
  }
  for (const st::Shape& r : {st::Shape{3, 4, 6}, st::Shape{3, 5, 7}, st::Shape{2, 3, 4, 8}}) {
    SCOPED_TRACE(st::shape_string(r));
    std::vector<double> v = real_parts(random_complex(static_cast<size_t>(numel(r)), 5));
    const int rank = static_cast<int>(r.size());
    std::vector<c128> full = as_complex(v);
    for (int d = std::max(0, rank - 3); d < rank; ++d) full = dft_axis(full, r, d, false);
    const int64_t n = r.back();
    std::vector<c128> halfs = half_spectrum(full, numel(r) / n, n);
    Array rx = st::array(v, r);
    Array y = fft::rfftn(rx, std::nullopt, rank > 3 ? std::optional<std::vector<int>>({1, 2, 3}) : std::nullopt);
    expect_close(y.to_vector<c128>(), halfs, 1e-12, "rfftn");
    std::vector<int64_t> lengths(r.end() - std::min(3, rank), r.end());
    Array back = fft::irfftn(y, lengths, rank > 3 ? std::optional<std::vector<int>>({1, 2, 3}) : std::nullopt);
    expect_close(back.to_vector<double>(), as_complex(v), 1e-12, "irfftn");
    EXPECT_EQ(back.shape(), r);
  }
  // rfft2 and irfft2 on the last two axes.
  Array m = st::array(real_parts(random_complex(48, 8)), {6, 8});
  expect_close(fft::irfft2(fft::rfft2(m), std::vector<int64_t>{6, 8}).to_vector<double>(), as_complex(m.to_vector<double>()),
               1e-13, "irfft2(rfft2)");
}

TEST(Fft, LengthsCropAndPad) {
  std::vector<c128> x = random_complex(5, 11);
  Array a = st::array(x, {5});
  std::vector<c128> padded = x;
  padded.resize(8);
  expect_close(fft::fft(a, 8).to_vector<c128>(), dft_axis(padded, {8}, 0, false), 1e-13, "n = 8 pads");
  std::vector<c128> cropped(x.begin(), x.begin() + 3);
  expect_close(fft::fft(a, 3).to_vector<c128>(), dft_axis(cropped, {3}, 0, false), 1e-13, "n = 3 crops");
  // irfft's n is the output's length: odd n reads (n+1)/2 frequencies.
  std::vector<double> sig = real_parts(random_complex(7, 12));
  Array spec = fft::rfft(st::array(sig, {7}));
  EXPECT_EQ(spec.shape(), (st::Shape{4}));
  expect_close(fft::irfft(spec, 7).to_vector<double>(), as_complex(sig), 1e-13, "irfft n = 7");
  EXPECT_EQ(fft::irfft(spec).shape(), (st::Shape{6}));  // 2·(4-1)
  // s with axes: crop one axis, pad another.
  Array b = st::array(random_complex(12, 13), {3, 4});
  EXPECT_EQ(fft::fftn(b, std::vector<int64_t>{2, 6}).shape(), (st::Shape{2, 6}));
  EXPECT_EQ(fft::fftn(b, std::vector<int64_t>{5}, std::vector<int>{0}).shape(), (st::Shape{5, 4}));
}

TEST(Fft, NormsAndHermitianTransforms) {
  std::vector<c128> x = random_complex(12, 21);
  Array a = st::array(x, {12});
  const double r = std::sqrt(12.0);
  std::vector<c128> f = dft_axis(x, {12}, 0, false), fi = dft_axis(x, {12}, 0, true);
  auto scaled = [](std::vector<c128> v, double s) {
    for (c128& z : v) z *= s;
    return v;
  };
  expect_close(fft::fft(a, std::nullopt, -1, "ortho").to_vector<c128>(), scaled(f, 1 / r), 1e-13, "fft ortho");
  expect_close(fft::ifft(a, std::nullopt, -1, "ortho").to_vector<c128>(), scaled(fi, r), 1e-13, "ifft ortho");
  expect_close(fft::fft(a, std::nullopt, -1, "forward").to_vector<c128>(), scaled(f, 1 / 12.0), 1e-13, "fft forward");
  expect_close(fft::ifft(a, std::nullopt, -1, "forward").to_vector<c128>(), scaled(fi, 12.0), 1e-13, "ifft forward");
  expect_close(fft::ifft(fft::fft(a, std::nullopt, -1, "ortho"), std::nullopt, -1, "ortho").to_vector<c128>(), x, 1e-13,
               "ortho round trip");
  // NumPy: hfft(a, n) = irfft(conj(a), n)·n; ihfft(x) = conj(rfft(x))/n.
  Array h = st::array(random_complex(5, 22), {5});
  std::vector<c128> want = as_complex(fft::irfft(st::conj(h), 8).to_vector<double>());
  expect_close(fft::hfft(h, 8).to_vector<double>(), scaled(want, 8.0), 1e-13, "hfft");
  Array sig = st::array(real_parts(random_complex(8, 23)), {8});
  std::vector<c128> rf = fft::rfft(sig).to_vector<c128>();
  for (c128& z : rf) z = std::conj(z) / 8.0;
  expect_close(fft::ihfft(sig).to_vector<c128>(), rf, 1e-13, "ihfft");
  expect_close(fft::hfft(fft::ihfft(sig), 8).to_vector<double>(), as_complex(sig.to_vector<double>()), 1e-13, "hfft(ihfft)");
}

TEST(Fft, NumpysValues) {
  // np.fft.rfft([1, 2, 3, 4, 5]) and np.fft.fft([0, 1j, 2, 3j]).
  std::vector<c128> r = fft::rfft(st::array(std::vector<double>{1, 2, 3, 4, 5}, {5})).to_vector<c128>();
  expect_close(r, {c128(15, 0), c128(-2.5, 3.440954801177933), c128(-2.5, 0.8122992405822659)}, 1e-15, "rfft");
  std::vector<c128> f = fft::fft(st::array(std::vector<c128>{0, c128(0, 1), 2, c128(0, 3)}, {4})).to_vector<c128>();
  expect_close(f, {c128(2, 4), c128(-4, 0), c128(2, -4), c128(0, 0)}, 1e-15, "fft");
  // np.fft.fftfreq(8, d=0.1), np.fft.rfftfreq(7), np.fft.fftshift(np.arange(5)).
  expect_close(fft::fftfreq(8, 0.1, st::f64).to_vector<double>(),
               as_complex({0.0, 1.25, 2.5, 3.75, -5.0, -3.75, -2.5, -1.25}), 1e-15, "fftfreq");
  expect_close(fft::rfftfreq(7, 1.0, st::f64).to_vector<double>(), as_complex({0.0, 1 / 7.0, 2 / 7.0, 3 / 7.0}), 1e-15,
               "rfftfreq");
  EXPECT_EQ(fft::fftshift(st::arange(5)).to_vector<int32_t>(), (std::vector<int32_t>{3, 4, 0, 1, 2}));
  EXPECT_EQ(fft::ifftshift(st::arange(5)).to_vector<int32_t>(), (std::vector<int32_t>{2, 3, 4, 0, 1}));
  Array m = st::reshape(st::arange(6), {2, 3});
  EXPECT_EQ(fft::fftshift(m).to_vector<int32_t>(), (std::vector<int32_t>{5, 3, 4, 2, 0, 1}));
  EXPECT_EQ(fft::fftshift(m, std::vector<int>{1}).to_vector<int32_t>(), (std::vector<int32_t>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(fft::ifftshift(fft::fftshift(m)).to_vector<int32_t>(), m.to_vector<int32_t>());
}

TEST(Fft, DtypesFollowJnp) {
  EXPECT_EQ(fft::fft(st::arange(4)).dtype(), st::c64);
  EXPECT_EQ(fft::fft(st::ones({4}, st::f64)).dtype(), st::c128);
  EXPECT_EQ(fft::fft(st::ones({4}, st::bf16)).dtype(), st::c64);
  EXPECT_EQ(fft::rfft(st::ones({4}, st::f16)).dtype(), st::c64);
  EXPECT_EQ(fft::rfft(st::arange(4)).dtype(), st::c64);
  EXPECT_EQ(fft::irfft(st::ones({3}, st::c128)).dtype(), st::f64);
  EXPECT_EQ(fft::irfft(st::ones({3}, st::f32)).dtype(), st::f32);
  // fft of a real signal is the full spectrum of rfft.
  Array x = st::array(std::vector<float>{1, -2, 0.5f, 3, 4, -1}, {6});
  std::vector<c64> full = fft::fft(x).to_vector<c64>(), half = fft::rfft(x).to_vector<c64>();
  for (size_t k = 0; k < half.size(); ++k) EXPECT_LT(std::abs(full[k] - half[k]), 1e-5) << k;
}

TEST(Fft, JitEqualsEagerAndShowsThePrimitive) {
  Array x = st::array(real_parts(random_complex(2 * 3 * 10, 31)), {2, 3, 10});
  Array z = st::astype(st::array(random_complex(2 * 3 * 10, 32), {2, 3, 10}), st::c64);
  std::vector<std::pair<const char*, std::function<Array(const Array&)>>> fns = {
      {"fft", [](const Array& a) { return fft::fft(a); }},
      {"ifft axis 1", [](const Array& a) { return fft::ifft(a, std::nullopt, 1); }},
      {"fft2 ortho", [](const Array& a) { return fft::fft2(a, std::nullopt, {-2, -1}, "ortho"); }},
      {"fftn n pad", [](const Array& a) { return fft::fftn(a, std::vector<int64_t>{4, 12}); }},
      {"rfft", [](const Array& a) { return fft::rfft(st::real(a)); }},
      {"irfft", [](const Array& a) { return fft::irfft(a, 17); }},
      {"rfftn", [](const Array& a) { return fft::rfftn(st::real(a)); }},
      {"irfft2 forward", [](const Array& a) { return fft::irfft2(a, std::nullopt, {0, 2}, "forward"); }},
      {"exp(fft)·2", [](const Array& a) { return st::exp(fft::fft(a) * 0.01) * 2.0; }},
  };
  for (const Array& in : {x, z})
    for (auto& [name, f] : fns) {
      SCOPED_TRACE(std::string(name) + " of " + st::shape_string(in.shape()));
      Array e = f(in), j = st::jit(f)(in);
      ASSERT_EQ(e.dtype(), j.dtype());
      ASSERT_EQ(e.shape(), j.shape());
      // One kernel for both: the same bits, except where jit fuses the elementwise tail.
      std::vector<c128> ev = st::astype(e, st::c128).to_vector<c128>(), jv = st::astype(j, st::c128).to_vector<c128>();
      if (std::string(name).find("exp") == std::string::npos)
        EXPECT_EQ(ev, jv);
      else
        expect_close(jv, ev, 1e-6, "fused tail");
    }
  std::string text = st::make_jaxpr([](const Array& a) { return fft::rfft2(a); })(x).to_string();
  expect_contains(text, "fft[fft_lengths=(3, 10) fft_type=2]");
  std::string ir = st::jit([](const Array& a) { return fft::irfft(a); }).lower(z).as_text("strata");
  expect_contains(ir, "strata.fft");
  expect_contains(ir, "type = IRFFT, length = [18]");
}

TEST(Fft, DerivativesMatchFiniteDifferences) {
  using st::testing::check_grads;
  using V = std::vector<Array>;
  Array x = st::array(real_parts(random_complex(24, 41)), {4, 6});
  Array y = st::array(real_parts(random_complex(24, 42)), {4, 6});
  Array w = st::array(real_parts(random_complex(16, 43)), {4, 4});
  check_grads([](const V& v) { return st::real(fft::fft(st::complex(v[0], v[1]))) * 0.7 + st::imag(fft::fft(v[0])); }, {x, y},
              "fft");
  check_grads([](const V& v) { return st::abs(fft::ifft(st::complex(v[0], v[1]), 8)); }, {x, y}, "ifft padded, abs");
  check_grads([](const V& v) { return st::imag(fft::fft2(st::complex(v[0], v[1]), std::nullopt, {0, 1}, "ortho")); }, {x, y},
              "fft2 ortho");
  check_grads([](const V& v) { return st::real(fft::rfft(v[0])) + st::imag(fft::rfft(v[0])) * 2.0; }, {x}, "rfft");
  check_grads([](const V& v) { return st::abs(fft::rfftn(v[0])); }, {x}, "rfftn abs");
  check_grads([](const V& v) { return fft::irfft(st::complex(v[0], v[1])); }, {w, w * 0.5}, "irfft even");
  check_grads([](const V& v) { return fft::irfft(st::complex(v[0], v[1]), 7); }, {w, w * 0.3 + 0.1}, "irfft odd");
  check_grads([](const V& v) { return fft::irfftn(st::complex(v[0], v[1]), std::vector<int64_t>{4, 5}); }, {w, w * 0.5},
              "irfftn");
  check_grads([](const V& v) { return fft::hfft(st::complex(v[0], v[1])); }, {w, w * 0.2}, "hfft");
  // grad of a scalar loss, eager and jitted.
  auto loss = [](const Array& a) { return st::sum(st::abs(fft::rfft(a)) * st::abs(fft::rfft(a))); };
  Array g = st::grad(loss)(x), gj = st::jit(st::grad(loss))(x);
  // Parseval: sum |rfft|² differentiated is 2·(the weights of each frequency)·x; compare jit and eager.
  std::vector<double> a = g.to_vector<double>(), b = gj.to_vector<double>();
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12) << i;
}

TEST(Fft, VmapMovesTheBatchDimension) {
  Array xs = st::array(real_parts(random_complex(40, 51)), {8, 5});
  // Mapping over axis 1: each example is a column of 8 samples.
  Array mapped = st::vmap([](const Array& a) { return fft::rfft(a); }, {1})(xs);
  EXPECT_EQ(mapped.shape(), (st::Shape{5, 5}));
  Array want = st::transpose(fft::rfft(xs, std::nullopt, 0));
  EXPECT_EQ(mapped.to_vector<c64>(), want.to_vector<c64>());
  Array z = st::astype(st::array(random_complex(40, 52), {4, 10}), st::c64);
  Array m2 = st::vmap([](const Array& a) { return fft::ifft(a); }, {0})(z);
  EXPECT_EQ(m2.to_vector<c64>(), fft::ifft(z).to_vector<c64>());
}

TEST(Fft, BadInputNamesTheFunction) {
  Array z = st::ones({4}, st::c64), x = st::ones({2, 3, 4, 5});
  expect_contains(error_message<st::DTypeError>([&] { (void)fft::rfft(z); }),
                  "rfft: expects a real array (use fft for complex ones), but got c64[4]");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fft(z, std::nullopt, -1, "unitary"); }),
                  "fft: expects norm \"backward\", \"ortho\" or \"forward\", but got \"unitary\"");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fftn(x); }),
                  "fftn: transforms 1 to 3 axes at once (as XLA), but got 4 axes of f32[2,3,4,5]");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fft2(x, std::nullopt, {1, -3}); }),
                  "fft2: expects distinct axes, but got axis 1 twice");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fft(z, 0); }), "fft: expects lengths >= 1, but got (0,)");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::irfft(st::ones({1}, st::c64)); }),
                  "irfft: expects transform lengths >= 1, but got (0,) from c64[1] (give n: the output length)");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fftn(x, std::vector<int64_t>{2, 2}, std::vector<int>{0}); }),
                  "fftn: expects s and axes of one length, but got 2 and 1");
  expect_contains(error_message<st::Error>([&] { (void)fft::fft(z, std::nullopt, 3); }), "fft");
  expect_contains(error_message<st::ValueError>([&] { (void)fft::fftfreq(0); }), "fftfreq: expects n >= 1, but got 0");
  // Nothing the user passed is modified.
  Array keep = st::array(std::vector<c128>{1, 2, 3, 4}, {4});
  (void)fft::ifft(fft::fft(keep));
  EXPECT_EQ(keep.to_vector<c128>(), (std::vector<c128>{1, 2, 3, 4}));
}
