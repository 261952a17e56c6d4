// tracer/kernels/fft.cpp — see fft.h.
#include "fft.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <vector>

#include "complex_math.h"
#include "fft_row_tiles.h"
#include "parallel.h"

namespace strata::kernels {
namespace {

template <class T>
using C = std::complex<T>;

template <class T>
inline C<T> times_minus_i(C<T> a) {
  return {a.imag(), -a.real()};
}

// e^{-2πi t/n} for 0 <= t < n, in double; exact at the quarter turns (cos(π/2) is not 0 in
// floating point), so that a real signal's zero and n/2 frequencies come out exactly real.
inline C<double> root(int64_t t, int64_t n) {
  if ((4 * t) % n == 0) {
    constexpr C<double> kQuarter[] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
    return kQuarter[(4 * t) / n];
  }
  double a = -2.0 * std::numbers::pi * static_cast<double>(t) / static_cast<double>(n);
  return {std::cos(a), std::sin(a)};
}

// Primes above this go through Bluestein's algorithm instead of a p-point DFT butterfly.
constexpr int64_t kLargestRadix = 23;

// Lines per chunk of the thread pool: at least ~32K elements of work each.
int64_t grain_for(int64_t length) { return std::max<int64_t>(1, (int64_t{1} << 15) / std::max<int64_t>(length, 1)); }

// One complex transform of length n (unnormalized), forward: X[k] = Σ x[j] e^{-2πi jk/n};
// inverse: e^{+2πi jk/n}, through conjugation.
template <class T>
class Plan {
 public:
  explicit Plan(int64_t n) : n_(n) {
    std::vector<int64_t> radices = factor(n);
    if (!radices.empty() && radices.back() > kLargestRadix) {
      init_bluestein();
      return;
    }
    int64_t length = n, stride = 1;
    for (int64_t p : radices) {
      const int64_t m = length / p;
      Stage st{static_cast<int>(p), m, stride, twiddles_.size(), roots_.size()};
      for (int64_t j = 0; j < m; ++j)
        for (int64_t k = 1; k < p; ++k) twiddles_.push_back(C<T>(root((j * k) % length, length)));
      if (p > 5 && p != 8)
        for (int64_t k = 0; k < p; ++k) roots_.push_back(C<T>(root(k, p)));
      stages_.push_back(st);
      length = m;
      stride *= p;
    }
  }

  int64_t size() const { return n_; }
  // Complex elements of scratch forward() and inverse() need (Bluestein: the padded line and
  // the sub-plan's own scratch).
  int64_t scratch_size() const { return sub_ ? sub_->size() + sub_->scratch_size() : n_; }

  // Transforms one contiguous line in place; `work` holds scratch_size() elements. Many lines
  // at once go through forward_split (below), whose butterflies vectorize across lines.
  void forward(C<T>* data, C<T>* work) const {
    if (sub_) return bluestein(data, work);
    C<T>* x = data;
    C<T>* y = work;
    for (const Stage& st : stages_) {
      run_stage(st, x, y);
      std::swap(x, y);
    }
    if (x != data) std::memcpy(static_cast<void*>(data), x, static_cast<size_t>(n_) * sizeof(C<T>));
  }

  void inverse(C<T>* data, C<T>* work) const {
    for (int64_t i = 0; i < n_; ++i) data[i] = std::conj(data[i]);
    forward(data, work);
    for (int64_t i = 0; i < n_; ++i) data[i] = std::conj(data[i]);
  }

  bool uses_bluestein() const { return sub_ != nullptr; }

  // The same transform of `lines` lines held split: real parts in re[j·lines + b], imaginary
  // in im[...]; work_re/work_im hold n·lines each. The butterflies then run on plain floats
  // across the lines, which the compiler vectorizes. Not for Bluestein plans. The result is
  // left where the last stage wrote it: true when that is (work_re, work_im).
  bool forward_split(T* re, T* im, T* work_re, T* work_im, int64_t lines) const {
    T *xr = re, *xi = im, *yr = work_re, *yi = work_im;
    for (const Stage& st : stages_) {
      const int64_t s = st.s * lines;
      switch (st.p) {
        case 2: split_butterflies<2>(st, s, xr, xi, yr, yi); break;
        case 3: split_butterflies<3>(st, s, xr, xi, yr, yi); break;
        case 4: split_butterflies<4>(st, s, xr, xi, yr, yi); break;
        case 5: split_butterflies<5>(st, s, xr, xi, yr, yi); break;
        case 8: split_butterflies<8>(st, s, xr, xi, yr, yi); break;
        default: split_butterflies<0>(st, s, xr, xi, yr, yi); break;
      }
      std::swap(xr, yr);
      std::swap(xi, yi);
    }
    return stages_.size() % 2 == 1;
  }
  // The inverse exchanges the parts: swap(DFT(swap(x))) is the unnormalized inverse DFT.
  bool inverse_split(T* re, T* im, T* work_re, T* work_im, int64_t lines) const {
    return forward_split(im, re, work_im, work_re, lines);
  }

 private:
  struct Stage {
    int p;          // radix
    int64_t m, s;   // the current length is p·m; s interleaved sub-transforms
    size_t twiddle;  // w^{jk}, j < m, 1 <= k < p, at twiddles_[twiddle + j(p-1) + k-1]
    size_t roots;   // ω_p^k at roots_[roots + k] (radix above 5)
  };

  // The 4-point DFT of a[0], a[S], a[2S], a[3S] (parts apart) into b[0..3].
  template <int S>
  static void split_dft4(const T* ar, const T* ai, T* br, T* bi) {
    T t0r = ar[0] + ar[2 * S], t0i = ai[0] + ai[2 * S], t1r = ar[0] - ar[2 * S], t1i = ai[0] - ai[2 * S];
    T t2r = ar[S] + ar[3 * S], t2i = ai[S] + ai[3 * S], t3r = ai[S] - ai[3 * S], t3i = ar[3 * S] - ar[S];  // -i·(a1 - a3)
    br[0] = t0r + t2r, bi[0] = t0i + t2i;
    br[1] = t1r + t3r, bi[1] = t1i + t3i;
    br[2] = t0r - t2r, bi[2] = t0i - t2i;
    br[3] = t1r - t3r, bi[3] = t1i - t3i;
  }

  // One Stockham step on split data (see run_stage), radix P (0: the plain DFT butterfly).
  template <int P>
  void split_butterflies(const Stage& st, int64_t s, const T* __restrict xr, const T* __restrict xi, T* __restrict yr,
                         T* __restrict yi) const {
    const int p = P ? P : st.p;
    const int64_t m = st.m, step = s * m;
    T wr[kLargestRadix], wi[kLargestRadix];
    for (int64_t j = 0; j < m; ++j) {
      const C<T>* w = twiddles_.data() + st.twiddle + static_cast<size_t>(j * (p - 1));
      for (int k = 0; k + 1 < p; ++k) wr[k] = w[k].real(), wi[k] = w[k].imag();
      const T* ir = xr + s * j;
      const T* ii = xi + s * j;
      T* orr = yr + s * p * j;
      T* oi = yi + s * p * j;
      if constexpr (P == 0) {
        const C<T>* roots = roots_.data() + st.roots;
        for (int64_t q = 0; q < s; ++q)
          for (int k = 0; k < p; ++k) {
            T sr = ir[q], si = ii[q];
            for (int r = 1, rk = k; r < p; ++r, rk = rk + k >= p ? rk + k - p : rk + k) {
              T ar = ir[q + r * step], ai = ii[q + r * step];
              sr += ar * roots[rk].real() - ai * roots[rk].imag();
              si += ar * roots[rk].imag() + ai * roots[rk].real();
            }
            if (k == 0) {
              orr[q] = sr, oi[q] = si;
            } else {
              orr[q + s * k] = sr * wr[k - 1] - si * wi[k - 1];
              oi[q + s * k] = sr * wi[k - 1] + si * wr[k - 1];
            }
          }
      } else {
        for (int64_t q = 0; q < s; ++q) {
          T ar[P], ai[P], br[P], bi[P];
          for (int r = 0; r < P; ++r) ar[r] = ir[q + r * step], ai[r] = ii[q + r * step];
          if constexpr (P == 2) {
            br[0] = ar[0] + ar[1], bi[0] = ai[0] + ai[1];
            br[1] = ar[0] - ar[1], bi[1] = ai[0] - ai[1];
          } else if constexpr (P == 3) {
            constexpr T kSin60 = T(0.86602540378443864676372317075293618);
            T t1r = ar[1] + ar[2], t1i = ai[1] + ai[2];
            T t2r = ar[0] - T(0.5) * t1r, t2i = ai[0] - T(0.5) * t1i;
            T t3r = kSin60 * (ai[1] - ai[2]), t3i = -kSin60 * (ar[1] - ar[2]);  // -i·sin60·(a1 - a2)
            br[0] = ar[0] + t1r, bi[0] = ai[0] + t1i;
            br[1] = t2r + t3r, bi[1] = t2i + t3i;
            br[2] = t2r - t3r, bi[2] = t2i - t3i;
          } else if constexpr (P == 4) {
            split_dft4<1>(ar, ai, br, bi);
          } else if constexpr (P == 8) {
            // Two 4-point transforms (even and odd inputs), the odd one's k-th output times
            // ω8^k: X[k] = E[k] + ω8^k O[k], X[k + 4] = E[k] - ω8^k O[k].
            T er[4], ei[4], qr[4], qi[4];
            split_dft4<2>(ar, ai, er, ei);
            split_dft4<2>(ar + 1, ai + 1, qr, qi);
            constexpr T h = T(0.70710678118654752440084436210484904);  // 1/√2
            T o1r = h * (qr[1] + qi[1]), o1i = h * (qi[1] - qr[1]);    // (1 - i)/√2 · O1
            T o3r = h * (qi[3] - qr[3]), o3i = -h * (qr[3] + qi[3]);   // (-1 - i)/√2 · O3
            T pr[4] = {qr[0], o1r, qi[2], o3r}, pi[4] = {qi[0], o1i, -qr[2], o3i};  // -i · O2
            for (int k = 0; k < 4; ++k) {
              br[k] = er[k] + pr[k], bi[k] = ei[k] + pi[k];
              br[k + 4] = er[k] - pr[k], bi[k + 4] = ei[k] - pi[k];
            }
          } else {  // P == 5
            constexpr T c1 = T(0.30901699437494742410229341718281906), c2 = T(-0.80901699437494742410229341718281906);
            constexpr T s1 = T(0.95105651629515357211643933337938214), s2 = T(0.58778525229247312916870595463907277);
            T t1r = ar[1] + ar[4], t1i = ai[1] + ai[4], t2r = ar[2] + ar[3], t2i = ai[2] + ai[3];
            T t3r = ar[1] - ar[4], t3i = ai[1] - ai[4], t4r = ar[2] - ar[3], t4i = ai[2] - ai[3];
            T m1r = ar[0] + c1 * t1r + c2 * t2r, m1i = ai[0] + c1 * t1i + c2 * t2i;
            T m2r = ar[0] + c2 * t1r + c1 * t2r, m2i = ai[0] + c2 * t1i + c1 * t2i;
            T u1r = s1 * t3r + s2 * t4r, u1i = s1 * t3i + s2 * t4i;  // n1 = -i·u1
            T u2r = s2 * t3r - s1 * t4r, u2i = s2 * t3i - s1 * t4i;  // n2 = -i·u2
            br[0] = ar[0] + t1r + t2r, bi[0] = ai[0] + t1i + t2i;
            br[1] = m1r + u1i, bi[1] = m1i - u1r;
            br[4] = m1r - u1i, bi[4] = m1i + u1r;
            br[2] = m2r + u2i, bi[2] = m2i - u2r;
            br[3] = m2r - u2i, bi[3] = m2i + u2r;
          }
          orr[q] = br[0], oi[q] = bi[0];
          for (int k = 1; k < P; ++k) {
            orr[q + s * k] = br[k] * wr[k - 1] - bi[k] * wi[k - 1];
            oi[q + s * k] = br[k] * wi[k - 1] + bi[k] * wr[k - 1];
          }
        }
      }
    }
  }

  static std::vector<int64_t> factor(int64_t n) {
    std::vector<int64_t> r;
    // The factors of two as radix 8 as far as they go, then 4 (4·4 rather than 8·2: a pass of
    // radix 2 costs about what one of radix 8 does); fewer passes over the block.
    int twos = 0;
    for (; n % 2 == 0; n /= 2) ++twos;
    if (twos % 3 == 1 && twos >= 4) r.insert(r.end(), {4, 4}), twos -= 4;
    for (; twos >= 3; twos -= 3) r.push_back(8);
    if (twos == 2) r.push_back(4);
    if (twos == 1) r.push_back(2);
    for (int64_t p = 3; p * p <= n; ++p)
      while (n % p == 0) {
        r.push_back(p);
        n /= p;
      }
    if (n > 1) r.push_back(n);
    // Radix 8, then 4, first; then the rest ascending.
    auto rank = [](int64_t p) { return p == 8 ? 0 : p == 4 ? 1 : 2; };
    std::sort(r.begin(), r.end(), [&](int64_t a, int64_t b) { return rank(a) != rank(b) ? rank(a) < rank(b) : a < b; });
    return r;
  }

  // One Stockham step: x holds s interleaved transforms of length p·m; their first radix-p
  // step goes to y as p·s interleaved transforms of length m (natural order at the end).
  void run_stage(const Stage& st, const C<T>* x, C<T>* y) const {
    const int64_t s = st.s;
    auto range = [&](int64_t j0, int64_t j1, int64_t q0, int64_t q1) {
      switch (st.p) {
        case 2: return butterflies<2>(st, s, x, y, j0, j1, q0, q1);
        case 3: return butterflies<3>(st, s, x, y, j0, j1, q0, q1);
        case 4: return butterflies<4>(st, s, x, y, j0, j1, q0, q1);
        case 5: return butterflies<5>(st, s, x, y, j0, j1, q0, q1);
        case 8: return butterflies<8>(st, s, x, y, j0, j1, q0, q1);
        default: return butterflies<0>(st, s, x, y, j0, j1, q0, q1);
      }
    };
    const int64_t work = st.m * s * st.p;
    if (work < (int64_t{1} << 15)) return range(0, st.m, 0, s);
    if (st.m >= s)
      parallel_for(st.m, std::max<int64_t>(1, 4096 / (s * st.p)), [&](int64_t a, int64_t b) { range(a, b, 0, s); });
    else
      parallel_for(s, std::max<int64_t>(1, 4096 / (st.m * st.p)), [&](int64_t a, int64_t b) { range(0, st.m, a, b); });
  }

  // The 4-point DFT of a[0], a[S], a[2S], a[3S] into b[0..3].
  template <int S>
  static void dft4(const C<T>* a, C<T>* b) {
    C<T> t0 = a[0] + a[2 * S], t1 = a[0] - a[2 * S], t2 = a[S] + a[3 * S], t3 = times_minus_i(a[S] - a[3 * S]);
    b[0] = t0 + t2;
    b[1] = t1 + t3;
    b[2] = t0 - t2;
    b[3] = t1 - t3;
  }

  template <int P>
  void butterflies(const Stage& st, int64_t s, const C<T>* x, C<T>* y, int64_t j0, int64_t j1, int64_t q0,
                   int64_t q1) const {
    const int p = P ? P : st.p;
    const int64_t m = st.m;
    const C<T>* roots = roots_.data() + st.roots;
    C<T> a[kLargestRadix], b[kLargestRadix];
    for (int64_t j = j0; j < j1; ++j) {
      const C<T>* w = twiddles_.data() + st.twiddle + static_cast<size_t>(j * (p - 1));
      for (int64_t q = q0; q < q1; ++q) {
        for (int r = 0; r < p; ++r) a[r] = x[q + s * (j + r * m)];
        if constexpr (P == 2) {
          b[0] = a[0] + a[1];
          b[1] = a[0] - a[1];
        } else if constexpr (P == 3) {
          constexpr T kSin60 = T(0.86602540378443864676372317075293618);
          C<T> t1 = a[1] + a[2], t2 = a[0] - T(0.5) * t1, t3 = times_minus_i(kSin60 * (a[1] - a[2]));
          b[0] = a[0] + t1;
          b[1] = t2 + t3;
          b[2] = t2 - t3;
        } else if constexpr (P == 4) {
          dft4<1>(a, b);
        } else if constexpr (P == 8) {  // as split_butterflies' radix 8
          C<T> e[4], o[4];
          dft4<2>(a, e);
          dft4<2>(a + 1, o);
          constexpr T h = T(0.70710678118654752440084436210484904);
          o[1] = C<T>(h * (o[1].real() + o[1].imag()), h * (o[1].imag() - o[1].real()));
          o[2] = times_minus_i(o[2]);
          o[3] = C<T>(h * (o[3].imag() - o[3].real()), -h * (o[3].real() + o[3].imag()));
          for (int k = 0; k < 4; ++k) b[k] = e[k] + o[k], b[k + 4] = e[k] - o[k];
        } else if constexpr (P == 5) {
          constexpr T c1 = T(0.30901699437494742410229341718281906), c2 = T(-0.80901699437494742410229341718281906);
          constexpr T s1 = T(0.95105651629515357211643933337938214), s2 = T(0.58778525229247312916870595463907277);
          C<T> t1 = a[1] + a[4], t2 = a[2] + a[3], t3 = a[1] - a[4], t4 = a[2] - a[3];
          C<T> m1 = a[0] + c1 * t1 + c2 * t2, m2 = a[0] + c2 * t1 + c1 * t2;
          C<T> n1 = times_minus_i(s1 * t3 + s2 * t4), n2 = times_minus_i(s2 * t3 - s1 * t4);
          b[0] = a[0] + t1 + t2;
          b[1] = m1 + n1;
          b[4] = m1 - n1;
          b[2] = m2 + n2;
          b[3] = m2 - n2;
        } else {
          for (int k = 0; k < p; ++k) {
            C<T> sum = a[0];
            for (int r = 1, rk = k; r < p; ++r, rk = rk + k >= p ? rk + k - p : rk + k) sum += plain_mul(a[r], roots[rk]);
            b[k] = sum;
          }
        }
        C<T>* out = y + q + s * p * j;
        out[0] = b[0];
        for (int k = 1; k < p; ++k) out[s * k] = plain_mul(b[k], w[k - 1]);
      }
    }
  }

  // Bluestein: X[k] = c[k] Σ_j (x[j] c[j]) conj(c[k-j]), c[k] = e^{-iπ k²/n}, the sum a
  // circular convolution of length M (a power of two >= 2n-1) done by transforms.
  void init_bluestein() {
    int64_t m = 1;
    while (m < 2 * n_ - 1) m *= 2;
    sub_ = std::make_unique<Plan>(m);
    chirp_.resize(static_cast<size_t>(n_));
    for (int64_t k = 0; k < n_; ++k) {
      // k² mod 2n keeps the angle exact for large k.
      int64_t t = static_cast<int64_t>((static_cast<unsigned __int128>(k) * static_cast<unsigned __int128>(k)) %
                                       static_cast<unsigned __int128>(2 * n_));
      chirp_[static_cast<size_t>(k)] = C<T>(root(t, 2 * n_));
    }
    filter_.assign(static_cast<size_t>(m), C<T>(0));
    const T inv = T(1.0 / static_cast<double>(m));
    for (int64_t k = 0; k < n_; ++k) {
      C<T> v = std::conj(chirp_[static_cast<size_t>(k)]) * inv;
      filter_[static_cast<size_t>(k)] = v;
      if (k) filter_[static_cast<size_t>(m - k)] = v;
    }
    std::vector<C<T>> work(static_cast<size_t>(sub_->scratch_size()));
    sub_->forward(filter_.data(), work.data());
  }

  void bluestein(C<T>* data, C<T>* work) const {
    const int64_t m = sub_->size();
    C<T>* a = work;
    C<T>* rest = work + m;
    for (int64_t k = 0; k < n_; ++k) a[k] = plain_mul(data[k], chirp_[static_cast<size_t>(k)]);
    std::fill(a + n_, a + m, C<T>(0));
    sub_->forward(a, rest);
    for (int64_t k = 0; k < m; ++k) a[k] = plain_mul(a[k], filter_[static_cast<size_t>(k)]);
    sub_->inverse(a, rest);
    for (int64_t k = 0; k < n_; ++k) data[k] = plain_mul(a[k], chirp_[static_cast<size_t>(k)]);
  }

  int64_t n_;
  std::vector<Stage> stages_;
  std::vector<C<T>> twiddles_, roots_;
  std::unique_ptr<Plan> sub_;
  std::vector<C<T>> chirp_, filter_;
};

// Plans (Plan<T>, RealPlan<T>) by length, kept: building one costs a sine and cosine per element.
template <class P>
std::shared_ptr<const P> cached_plan(int64_t n) {
  static std::mutex mu;
  static std::map<int64_t, std::shared_ptr<const P>> plans;
  std::lock_guard<std::mutex> lock(mu);
  auto it = plans.find(n);
  if (it != plans.end()) return it->second;
  if (plans.size() >= 64) plans.clear();
  auto p = std::make_shared<const P>(n);
  plans.emplace(n, p);
  return p;
}

template <class T>
std::shared_ptr<const Plan<T>> plan_for(int64_t n) {
  return cached_plan<Plan<T>>(n);
}

// Lines transformed together (interleaved): 128 bytes of each line's elements side by side.
template <class T>
constexpr int64_t kBlock = 128 / sizeof(C<T>);

// Line b < lines of a block has element j at src[b·step + j·stride] (complex numbers), the lines
// rows (stride 1) or columns (step 1): into re/im[j·lines + b]. Gathers write the block in
// order and scatters read it in order (strided stores are the slow side): rows are read element
// j of every line at a time, a full block of whole rows through tiles transposed in vector
// registers where the CPU can; columns a contiguous run of `lines` at a time (its loop on a
// constant stride, so that it vectorizes).
template <class T>
void gather_lines(const C<T>* src, int64_t len, int64_t step, int64_t stride, int64_t lines, T* re, T* im) {
  const T* from = reinterpret_cast<const T*>(src);
  if (stride == 1) {
    const int64_t j0 = step == len && lines == kBlock<T> ? fft_row_tiles::gather(from, len, re, im) : 0;
    for (int64_t j = j0; j < len; ++j)
      for (int64_t b = 0; b < lines; ++b) re[j * lines + b] = from[2 * (b * step + j)], im[j * lines + b] = from[2 * (b * step + j) + 1];
    return;
  }
  for (int64_t j = 0; j < len; ++j) {
    const T* run = from + 2 * j * stride;
    T* r = re + j * lines;
    T* i = im + j * lines;
    for (int64_t b = 0; b < lines; ++b) r[b] = run[2 * b], i[b] = run[2 * b + 1];
  }
}

// The inverse, each element times `scale`: re/im[j·lines + b] to element j of line b.
template <class T>
void scatter_lines(const T* re, const T* im, int64_t len, int64_t step, int64_t stride, int64_t lines, T scale,
                   C<T>* dst) {
  T* to = reinterpret_cast<T*>(dst);
  if (stride == 1) {
    const int64_t j0 = step == len && lines == kBlock<T> ? fft_row_tiles::scatter(to, len, re, im, scale) : 0;
    for (int64_t b = 0; b < lines; ++b) {
      T* row = to + 2 * b * step;
      for (int64_t j = j0; j < len; ++j) row[2 * j] = re[j * lines + b] * scale, row[2 * j + 1] = im[j * lines + b] * scale;
    }
    return;
  }
  for (int64_t j = 0; j < len; ++j) {
    T* run = to + 2 * j * stride;
    const T* r = re + j * lines;
    const T* i = im + j * lines;
    for (int64_t b = 0; b < lines; ++b) run[2 * b] = r[b] * scale, run[2 * b + 1] = i[b] * scale;
  }
}

// Uninitialized scratch (std::vector and std::complex would zero it first): every element of a
// block is written before it is read.
template <class T>
std::unique_ptr<T[]> scratch(int64_t count) {
  return std::make_unique_for_overwrite<T[]>(static_cast<size_t>(count));
}

// The complex transform along the middle dimension of a contiguous [outer, n, inner] buffer,
// from src to dst (the same buffer or disjoint ones), every output times `scale`: blocks of up
// to kBlock lines gathered side by side, transformed, scattered.
template <class T>
void transform_axis(const C<T>* src, C<T>* dst, int64_t outer, int64_t n, int64_t inner, bool inverse, T scale) {
  const int64_t total = outer * n * inner;
  if (total == 0) return;
  auto scale_all = [&] {
    if (scale != T(1))
      parallel_for(total, kElementwiseGrain, [&](int64_t a, int64_t b) {
        for (int64_t i = a; i < b; ++i) dst[i] *= scale;
      });
  };
  if (n == 1 || (outer == 1 && inner == 1)) {  // one line: parallel inside the stages
    if (src != dst) std::memcpy(static_cast<void*>(dst), src, static_cast<size_t>(total) * sizeof(C<T>));
    if (n != 1) {
      std::shared_ptr<const Plan<T>> plan = plan_for<T>(n);
      std::vector<C<T>> work(static_cast<size_t>(plan->scratch_size()));
      inverse ? plan->inverse(dst, work.data()) : plan->forward(dst, work.data());
    }
    return scale_all();
  }
  std::shared_ptr<const Plan<T>> plan = plan_for<T>(n);
  // Blocks: within one outer index, kBlock consecutive lines (inner == 1: consecutive rows;
  // else consecutive columns of the [n, inner] slab).
  const int64_t per_outer = inner == 1 ? 1 : (inner + kBlock<T> - 1) / kBlock<T>;
  const int64_t blocks = inner == 1 ? (outer + kBlock<T> - 1) / kBlock<T> : outer * per_outer;
  const bool split = !plan->uses_bluestein();
  parallel_for(blocks, std::max<int64_t>(1, grain_for(n) / kBlock<T>), [&](int64_t begin, int64_t end) {
    const int64_t size = n * kBlock<T>;
    // Parts apart: re, im, then the work arrays, each n·lines (Bluestein: a line and its scratch).
    std::unique_ptr<T[]> buffer = scratch<T>(split ? 4 * size : 2 * (n + plan->scratch_size()));
    for (int64_t bi = begin; bi < end; ++bi) {
      // Line b of the block starts at first + b·step and steps by stride.
      int64_t first, lines, step, stride;
      if (inner == 1) {
        first = bi * kBlock<T> * n, lines = std::min(kBlock<T>, outer - bi * kBlock<T>), step = n, stride = 1;
      } else {
        const int64_t o = bi / per_outer, c = (bi % per_outer) * kBlock<T>;
        first = o * n * inner + c, lines = std::min(kBlock<T>, inner - c), step = 1, stride = inner;
      }
      if (!split) {  // Bluestein: one line at a time (its sub-transforms are long; they run split-free)
        C<T>* work = reinterpret_cast<C<T>*>(buffer.get());
        for (int64_t b = 0; b < lines; ++b) {
          C<T>* line = stride == 1 ? dst + first + b * step : work + plan->scratch_size();
          for (int64_t j = 0; j < n; ++j) line[j] = src[first + b * step + j * stride];
          inverse ? plan->inverse(line, work) : plan->forward(line, work);
          for (int64_t j = 0; j < n; ++j) dst[first + b * step + j * stride] = line[j] * scale;
        }
        continue;
      }
      T* re = buffer.get();
      T* im = re + n * lines;
      T* wre = im + n * lines;
      T* wim = wre + n * lines;
      gather_lines(src + first, n, step, stride, lines, re, im);
      const bool in_work = inverse ? plan->inverse_split(re, im, wre, wim, lines)
                                   : plan->forward_split(re, im, wre, wim, lines);
      scatter_lines(in_work ? wre : re, in_work ? wim : im, n, step, stride, lines, scale, dst + first);
    }
  });
}

// The complex transforms over the first `count` (at least 1) dimensions of [batch, dims...],
// from src to dst (the first axis reads src; the others work in dst), times `scale`.
template <class T>
void transform_dims(const C<T>* src, C<T>* dst, int64_t batch, const shape_rules::IntList& dims, size_t count,
                    bool inverse, T scale) {
  int64_t total = batch;
  for (int64_t d : dims) total *= d;
  if (total == 0) return;
  for (size_t a = 0; a < count; ++a) {
    int64_t inner = 1;
    for (size_t b = a + 1; b < dims.size(); ++b) inner *= dims[b];
    const int64_t n = dims[a];
    transform_axis(a == 0 ? src : dst, dst, total / (n * inner), n, inner, inverse, a + 1 == count ? scale : T(1));
  }
}

// Row transforms between n reals and their n/2+1 non-negative frequencies.
template <class T>
class RealPlan {
 public:
  explicit RealPlan(int64_t n) : n_(n) {
    if (n % 2 == 0) {
      half_ = plan_for<T>(n / 2);
      w_.resize(static_cast<size_t>(n / 2 + 1));
      for (int64_t k = 0; k <= n / 2; ++k) w_[static_cast<size_t>(k)] = C<T>(root(k, n));
    } else {
      full_ = plan_for<T>(n);
    }
  }
  // Complex elements of scratch a row needs.
  int64_t scratch_size() const { return half_ ? n_ / 2 + half_->scratch_size() : n_ + full_->scratch_size(); }

  // out[0..n/2] = the transform of in[0..n).
  void forward(const T* in, C<T>* out, C<T>* work) const {
    if (full_) {
      C<T>* z = work;
      for (int64_t j = 0; j < n_; ++j) z[j] = C<T>(in[j], 0);
      full_->forward(z, work + n_);
      std::copy(z, z + n_ / 2 + 1, out);
      return;
    }
    const int64_t h = n_ / 2;
    C<T>* z = work;
    std::memcpy(static_cast<void*>(z), in, static_cast<size_t>(n_) * sizeof(T));
    half_->forward(z, work + h);
    T* zt = reinterpret_cast<T*>(z);
    T* o = reinterpret_cast<T*>(out);
    parallel_for(h + 1, kElementwiseGrain, [&](int64_t k0, int64_t k1) { unpack(zt, zt + 1, o, o + 1, 2, 1, k0, k1); });
  }

  // out[0..n) = scale × the unnormalized inverse transform of the Hermitian row whose first n/2+1 entries
  // are in[] (the imaginary parts of the zero and n/2 frequencies not read, as NumPy's).
  void inverse(const C<T>* in, T* out, T scale, C<T>* work) const {
    if (full_) {
      C<T>* z = work;
      const int64_t h = n_ / 2 + 1;
      for (int64_t k = 0; k < n_; ++k) z[k] = k < h ? in[k] : std::conj(in[n_ - k]);
      full_->inverse(z, work + n_);
      for (int64_t j = 0; j < n_; ++j) out[j] = z[j].real() * scale;
      return;
    }
    const int64_t h = n_ / 2;
    C<T>* z = work;
    const T* x = reinterpret_cast<const T*>(in);
    T* zt = reinterpret_cast<T*>(z);
    parallel_for(h, kElementwiseGrain, [&](int64_t k0, int64_t k1) { pack(x, x + 1, zt, zt + 1, 2, 1, k0, k1); });
    half_->inverse(z, work + h);  // 2·(n/2)·(x[2j] + i x[2j+1]) = n·(...)
    parallel_for(n_, kElementwiseGrain, [&](int64_t a, int64_t b) {
      for (int64_t j = a; j < b; ++j) out[j] = zt[j] * scale;
    });
  }

  // Whether many rows go through forward_rows/inverse_rows: even n whose half transform runs
  // split (not Bluestein's).
  bool blocked() const { return half_ && !half_->uses_bluestein(); }

  // forward() of `rows` rows (blocked() plans): blocks of kBlock rows read as n/2 complex
  // numbers each, transformed side by side, unpacked and written as n/2+1 frequencies — one
  // pass over memory, the unpack vectorized across the block's rows.
  void forward_rows(const T* in, C<T>* out, int64_t rows) const {
    const int64_t h = n_ / 2;
    each_block(rows, [&](int64_t first, int64_t lines, T* re, T* im, T* wre, T* wim) {
      gather_lines(reinterpret_cast<const C<T>*>(in) + first * h, h, h, 1, lines, re, im);
      if (half_->forward_split(re, im, wre, wim, lines)) std::swap(re, wre), std::swap(im, wim);
      unpack(re, im, wre, wim, lines, lines, 0, h + 1);
      scatter_lines(wre, wim, h + 1, h + 1, 1, lines, T(1), out + first * (h + 1));
    });
  }

  // inverse() of `rows` Hermitian rows of n/2+1 entries (blocked() plans), into rows of n reals.
  void inverse_rows(const C<T>* in, T* out, int64_t rows, T scale) const {
    const int64_t h = n_ / 2;
    each_block(rows, [&](int64_t first, int64_t lines, T* re, T* im, T* wre, T* wim) {
      gather_lines(in + first * (h + 1), h + 1, h + 1, 1, lines, re, im);
      pack(re, im, wre, wim, lines, lines, 0, h);
      if (!half_->inverse_split(wre, wim, re, im, lines)) std::swap(re, wre), std::swap(im, wim);
      scatter_lines(re, im, h, h, 1, lines, scale, reinterpret_cast<C<T>*>(out) + first * h);
    });
  }

 private:
  // f(first row, lines, re, im, work re, work im) for each block of up to kBlock rows, the four
  // arrays of (n/2 + 1)·lines reals each; blocks split across the pool.
  template <class F>
  void each_block(int64_t rows, F f) const {
    const int64_t h = n_ / 2, blocks = (rows + kBlock<T> - 1) / kBlock<T>;
    parallel_for(blocks, std::max<int64_t>(1, grain_for(h) / kBlock<T>), [&](int64_t begin, int64_t end) {
      std::unique_ptr<T[]> buffer = scratch<T>(4 * (h + 1) * kBlock<T>);
      for (int64_t bi = begin; bi < end; ++bi) {
        const int64_t first = bi * kBlock<T>, lines = std::min(kBlock<T>, rows - first), part = (h + 1) * lines;
        T* re = buffer.get();
        f(first, lines, re, re + part, re + 2 * part, re + 3 * part);
      }
    });
  }

  // Even n: frequencies k0 <= k < k1 (of the n/2 + 1) out of z, the transform of a row read as
  // n/2 complex numbers x[2j] + i x[2j+1]. `lines` rows at once: entry k of line b at
  // [k·pitch + b] of the real parts zr, outr and the imaginary parts zi, outi (a block held
  // split: pitch = lines; one interleaved row: pitch 2, zi = zr + 1).
  void unpack(const T* zr, const T* zi, T* outr, T* outi, int64_t pitch, int64_t lines, int64_t k0, int64_t k1) const {
    const int64_t h = n_ / 2;
    for (int64_t k = k0; k < k1; ++k) {
      // out[k] = e + w^k·o: e = (z[k] + conj z[h-k])/2, o = -i·(z[k] - conj z[h-k])/2.
      const T* ar = zr + (k % h) * pitch;
      const T* ai = zi + (k % h) * pitch;
      const T* cr = zr + ((h - k) % h) * pitch;
      const T* ci = zi + ((h - k) % h) * pitch;
      const T wr = w_[static_cast<size_t>(k)].real(), wi = w_[static_cast<size_t>(k)].imag();
      T* yr = outr + k * pitch;
      T* yi = outi + k * pitch;
      for (int64_t b = 0; b < lines; ++b) {
        const T er = T(0.5) * (ar[b] + cr[b]), ei = T(0.5) * (ai[b] - ci[b]);
        const T or_ = T(0.5) * (ai[b] + ci[b]), oi = T(0.5) * (cr[b] - ar[b]);
        yr[b] = er + (wr * or_ - wi * oi);
        yi[b] = ei + (wr * oi + wi * or_);
      }
    }
  }

  // Even n: entries k0 <= k < k1 of the n/2 complex numbers whose unnormalized inverse
  // transform is n/2·(x[2j] + i x[2j+1]) (twice each value: the 1/2 is in the caller's scale),
  // from the Hermitian row's first n/2 + 1 entries (inverse's first step); the layouts of unpack.
  void pack(const T* xr, const T* xi, T* zr, T* zi, int64_t pitch, int64_t lines, int64_t k0, int64_t k1) const {
    const int64_t h = n_ / 2;
    // z[k] = e + i·o: e = x[k] + conj x[h-k], o = (x[k] - conj x[h-k])·conj w^k; the zero and
    // n/2 frequencies taken as real (w^0 = 1).
    const T* lr = xr + h * pitch;
    if (k0 == 0)
      for (int64_t b = 0; b < lines; ++b) zr[b] = xr[b] + lr[b], zi[b] = xr[b] - lr[b];
    for (int64_t k = std::max<int64_t>(k0, 1); k < k1; ++k) {
      const T* ar = xr + k * pitch;
      const T* ai = xi + k * pitch;
      const T* cr = xr + (h - k) * pitch;
      const T* ci = xi + (h - k) * pitch;
      const T wr = w_[static_cast<size_t>(k)].real(), wi = w_[static_cast<size_t>(k)].imag();
      T* yr = zr + k * pitch;
      T* yi = zi + k * pitch;
      for (int64_t b = 0; b < lines; ++b) {
        const T er = ar[b] + cr[b], ei = ai[b] - ci[b], dr = ar[b] - cr[b], di = ai[b] + ci[b];
        const T or_ = dr * wr + di * wi, oi = di * wr - dr * wi;
        yr[b] = er - oi;
        yi[b] = ei + or_;
      }
    }
  }

  int64_t n_;
  std::shared_ptr<const Plan<T>> half_, full_;
  std::vector<C<T>> w_;
};

template <class T>
void run(const FftCall& c, const void* in_ptr, void* out_ptr) {
  const shape_rules::IntList& L = c.lengths;
  const size_t k = L.size();
  int64_t points = 1;
  for (int64_t n : L) points *= n;
  if (c.batch == 0 || points == 0) return;
  switch (c.type) {
    case fft_rules::Type::kFft:
    case fft_rules::Type::kIfft: {
      const bool inverse = c.type == fft_rules::Type::kIfft;
      const T scale = inverse ? T(1.0 / static_cast<double>(points)) : T(1);
      transform_dims(static_cast<const C<T>*>(in_ptr), static_cast<C<T>*>(out_ptr), c.batch, L, k, inverse, scale);
      return;
    }
    case fft_rules::Type::kRfft: {
      const int64_t n = L.back(), h = n / 2 + 1, rows = c.batch * points / n;
      const T* in = static_cast<const T*>(in_ptr);
      auto* out = static_cast<C<T>*>(out_ptr);
      const std::shared_ptr<const RealPlan<T>> kept = cached_plan<RealPlan<T>>(n);
      const RealPlan<T>& plan = *kept;
      if (plan.blocked() && rows > 1) {
        plan.forward_rows(in, out, rows);
      } else {
        parallel_for(rows, grain_for(n), [&](int64_t a, int64_t b) {
          std::vector<C<T>> work(static_cast<size_t>(plan.scratch_size()));
          for (int64_t r = a; r < b; ++r) plan.forward(in + r * n, out + r * h, work.data());
        });
      }
      shape_rules::IntList dims = L;
      dims.back() = h;
      transform_dims<T>(out, out, c.batch, dims, k - 1, false, T(1));
      return;
    }
    case fft_rules::Type::kIrfft: {
      const int64_t n = L.back(), h = n / 2 + 1, rows = c.batch * points / n;
      // The leading dimensions' inverse transforms into a buffer of our own (the input is read only).
      const auto* in = static_cast<const C<T>*>(in_ptr);
      std::vector<C<T>> spectrum(k > 1 ? static_cast<size_t>(rows * h) : 0);
      if (k > 1) {
        shape_rules::IntList dims = L;
        dims.back() = h;
        transform_dims<T>(in, spectrum.data(), c.batch, dims, k - 1, true, T(1));
        in = spectrum.data();
      }
      auto* out = static_cast<T*>(out_ptr);
      const std::shared_ptr<const RealPlan<T>> kept = cached_plan<RealPlan<T>>(n);
      const RealPlan<T>& plan = *kept;
      // Both row paths compute n·x: the scale is 1/N over every transformed dimension.
      const T scale = T(1.0 / static_cast<double>(points));
      if (plan.blocked() && rows > 1) return plan.inverse_rows(in, out, rows, scale);
      parallel_for(rows, grain_for(n), [&](int64_t a, int64_t b) {
        std::vector<C<T>> work(static_cast<size_t>(plan.scratch_size()));
        for (int64_t r = a; r < b; ++r) plan.inverse(in + r * h, out + r * n, scale, work.data());
      });
      return;
    }
  }
}

}  // namespace

void fft(const FftCall& call, const void* in, void* out) {
  if (call.f64)
    run<double>(call, in, out);
  else
    run<float>(call, in, out);
}

}  // namespace strata::kernels
