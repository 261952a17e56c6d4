// conv_general_dilated as an implicit GEMM (the layout-generic path: any dimension numbers,
// strides, padding, dilations and groups). Per group g the convolution is
//   out[g][row = (n, s)][o] = sum_{col = (k, c)} patch[g][row][col] · W[g][col][o]
// (n a batch row, s an output position, k a window tap, c a feature of the group). The patch
// matrix is never materialised: each task takes a tile of up to kMaxMC rows and walks the
// columns in blocks, multiplying them by the kernel (packed once into panels of NR output
// features) with a register-blocked micro-kernel (kMR rows × NR features in vector
// accumulators). With 16 or more features per group (f32/f64) a block is one tap's features
// and a panel of kMR consecutive output positions of one line reads its rows straight from
// the lhs (row r at r · stride · the last dim's stride); panels at the image's edges, and
// every panel otherwise, are packed (each (row, tap) one copy of Cg contiguous elements or a
// zero fill). The lhs is read features-last (a blocked copy first when its features are not
// innermost). NHWC results accumulate in the output itself; others go through a tile buffer.
// Depthwise convolutions (one feature per group) take their own loop, vectorised across the
// groups. Each output element is summed by one thread in one fixed order, so results do not
// depend on the thread count or the tiling. Feature groups and batch groups are both the
// GEMM's groups: group g reads lhs features [g·Cg, (g+1)·Cg) (feature groups) or lhs batch
// rows [g·N, (g+1)·N) (batch groups) and writes output features [g·Og, (g+1)·Og).
// bf16/f16 are packed as f32, summed in f32, rounded once.
#include "conv.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "copy.h"
#include "parallel.h"
#include "types.h"
#include "wrapping.h"

namespace strata::kernels {
namespace {

using shape_rules::ConvParams;

#if defined(__AVX512F__)
// Clang's tuning for recent x86 prefers 256-bit vectors and would split each 512-bit one in
// two (twice the registers: the accumulators spill); the micro-kernel asks for 512-bit ones.
#define STRATA_CONV_VECTOR_ATTR __attribute__((noinline, min_vector_width(512)))
constexpr int kVectorBytes = 64;
constexpr int kMaxNV = 4;  // 6 × 4 accumulators + 4 kernel vectors + 1 broadcast of 32 registers
#else
#define STRATA_CONV_VECTOR_ATTR __attribute__((noinline))
constexpr int kVectorBytes = 32;
constexpr int kMaxNV = 2;  // 6 × 2 + 2 + 1 of 16
#endif
constexpr int kMR = 6;          // patch rows per micro-kernel call
constexpr int64_t kMaxKC = 128;  // columns per packed block: KC × NR of the kernel stays in L1
constexpr int64_t kMaxMC = 288;  // rows per tile: MC × KC of patches stays in L2

template <class C>
constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(C));

// Ct[r][0, NV·lanes) (+)= sum_k A[r·lda + k] · B[k·NR + ...] for r < kMR: the GEMM's inner
// block, the accumulators in registers across the kc steps.
template <class C, int NV>
STRATA_CONV_VECTOR_ATTR void micro_kernel(int64_t kc, const C* A, int64_t lda, const C* B, C* Ct, int64_t ldc, bool accumulate) {
  constexpr int L = kLanes<C>, NR = NV * L;
  using V = C __attribute__((ext_vector_type(L)));
  V acc[kMR][NV];
  for (int r = 0; r < kMR; ++r)
    for (int v = 0; v < NV; ++v) {
      if (accumulate) std::memcpy(&acc[r][v], Ct + r * ldc + v * L, sizeof(V));
      else acc[r][v] = V(0);
    }
  for (int64_t k = 0; k < kc; ++k) {
    V b[NV];
    for (int v = 0; v < NV; ++v) std::memcpy(&b[v], B + k * NR + v * L, sizeof(V));
    for (int r = 0; r < kMR; ++r) {
      V a = V(A[r * lda + k]);
      for (int v = 0; v < NV; ++v) acc[r][v] = __builtin_elementwise_fma(a, b[v], acc[r][v]);
    }
  }
  for (int r = 0; r < kMR; ++r)
    for (int v = 0; v < NV; ++v) std::memcpy(Ct + r * ldc + v * L, &acc[r][v], sizeof(V));
}

// dst (contiguous [sizes...]) = src read at strides `from` (in elements), where the last dim
// (the features) goes innermost and another dim is the source's contiguous one: a transpose
// of that dim and the features in 16 × 16 blocks (each block reads and writes whole cache
// lines), over every index of the remaining dims.
template <class T>
void features_last(const T* src, T* dst, const std::vector<int64_t>& sizes, const std::vector<int64_t>& from) {
  const size_t rank = sizes.size(), f = rank - 1;
  size_t a = 0;  // the dim the source is contiguous along (the smallest stride of the others)
  for (size_t d = 1; d < f; ++d)
    if (from[d] < from[a]) a = d;
  std::vector<int64_t> to(rank, 1);
  for (size_t d = rank - 1; d-- > 0;) to[d] = to[d + 1] * sizes[d + 1];
  std::vector<size_t> outer;
  int64_t count = 1;
  for (size_t d = 0; d < f; ++d)
    if (d != a) {
      outer.push_back(d);
      count *= sizes[d];
    }
  constexpr int64_t kB = 16;
  const int64_t na = sizes[a], nf = sizes[f], ablocks = (na + kB - 1) / kB;
  parallel_for(count * ablocks, std::max<int64_t>(1, 4096 / (kB * nf)), [&](int64_t lo, int64_t hi) {
    for (int64_t t = lo; t < hi; ++t) {
      int64_t rem = t / ablocks, so = 0, dout = 0;
      for (size_t i = outer.size(); i-- > 0;) {
        const size_t d = outer[i];
        so += rem % sizes[d] * from[d];
        dout += rem % sizes[d] * to[d];
        rem /= sizes[d];
      }
      const int64_t a0 = t % ablocks * kB, a1 = std::min(na, a0 + kB);
      for (int64_t f0 = 0; f0 < nf; f0 += kB) {
        const int64_t f1 = std::min(nf, f0 + kB);
        for (int64_t i = a0; i < a1; ++i)
          for (int64_t j = f0; j < f1; ++j) dst[dout + i * to[a] + j] = src[so + i * from[a] + j * from[f]];
      }
    }
  });
}

// What both kernels read off the shapes: the feature and batch group counts, the batch per
// group, input features (in all and per group), output features per group, and per spatial dim
// the output, window and input sizes with their products S, K and Sin.
struct ConvGeometry {
  size_t nsp;
  int64_t G, B, NG, N, Cin, Cg, Og;
  std::vector<int64_t> os, ks, is;
  int64_t S = 1, K = 1, Sin = 1;
  ConvGeometry(const Shape& xs, const Shape& ws, const Shape& ys, const ConvParams& p)
      : nsp(xs.size() - 2), G(p.feature_group_count), B(p.batch_group_count), NG(G * B),
        N(xs[static_cast<size_t>(p.lhs_spec[0])] / B), Cin(xs[static_cast<size_t>(p.lhs_spec[1])]), Cg(Cin / G),
        Og(ws[static_cast<size_t>(p.rhs_spec[0])] / NG), os(nsp), ks(nsp), is(nsp) {
    for (size_t i = 0; i < nsp; ++i) {
      os[i] = ys[static_cast<size_t>(p.out_spec[i + 2])];
      ks[i] = ws[static_cast<size_t>(p.rhs_spec[i + 2])];
      is[i] = xs[static_cast<size_t>(p.lhs_spec[i + 2])];
      S *= os[i];
      K *= ks[i];
      Sin *= is[i];
    }
  }
};

template <class T, class C, int NV>
void conv_tiled(const T* x, const T* w, T* y, const Shape& xs, const Shape& ws, const Shape& ys,
                const ConvParams& p) {
  const ConvGeometry geo(xs, ws, ys, p);
  const size_t nsp = geo.nsp;
  const int64_t G = geo.G, B = geo.B, NG = geo.NG, N = geo.N, Cin = geo.Cin, Cg = geo.Cg, Og = geo.Og;
  const int64_t S = geo.S, K = geo.K, Sin = geo.Sin;
  const std::vector<int64_t>&os = geo.os, &ks = geo.ks, &is = geo.is;

  // The lhs with its features innermost and contiguous ([batch][spatial...][features]): read
  // in place when it already is (NHWC-like), else a copy, so that every (row, tap) of the
  // patch matrix is one contiguous run of Cg elements.
  const std::vector<int64_t> xst = contiguous_strides(xs);
  std::unique_ptr<T[]> canon;
  std::vector<int64_t> spst(nsp);  // spatial strides of the layout read
  int64_t xN;                      // batch stride; features at stride 1
  if (Cin == 1 || xst[static_cast<size_t>(p.lhs_spec[1])] == 1) {
    xN = xst[static_cast<size_t>(p.lhs_spec[0])];
    for (size_t i = 0; i < nsp; ++i) spst[i] = xst[static_cast<size_t>(p.lhs_spec[i + 2])];
  } else {
    std::vector<int64_t> sizes{N * B}, from{xst[static_cast<size_t>(p.lhs_spec[0])]};
    for (size_t i = 0; i < nsp; ++i) {
      sizes.push_back(is[i]);
      from.push_back(xst[static_cast<size_t>(p.lhs_spec[i + 2])]);
    }
    sizes.push_back(Cin);
    from.push_back(xst[static_cast<size_t>(p.lhs_spec[1])]);
    canon.reset(new T[static_cast<size_t>(sizes[0] * Sin * Cin)]);
    features_last(x, canon.get(), sizes, from);
    x = canon.get();
    xN = Sin * Cin;
    for (size_t i = nsp; i-- > 0;) spst[i] = (i + 1 == nsp ? Cin : spst[i + 1] * is[i + 1]);
  }

  // src[i][s·ks + k]: the offset along spatial dim i read by output s and window tap k, or -1
  // where that lands in padding or between lhs-dilated elements.
  std::vector<std::vector<int64_t>> src(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t ld = p.lhs_dilation[i];
    src[i].resize(static_cast<size_t>(os[i] * ks[i]));
    for (int64_t s = 0; s < os[i]; ++s)
      for (int64_t k = 0; k < ks[i]; ++k) {
        int64_t pos = s * p.window_strides[i] + k * p.rhs_dilation[i] - p.padding_low[i];
        bool ok = pos >= 0 && pos % ld == 0 && pos / ld < is[i];
        src[i][static_cast<size_t>(s * ks[i] + k)] = ok ? (pos / ld) * spst[i] : -1;
      }
  }
  // Each flat output position / window tap as its per-dimension indices (row-major).
  auto unflatten = [&](int64_t count, const std::vector<int64_t>& sizes) {
    std::vector<int64_t> idx(static_cast<size_t>(count) * nsp);
    for (int64_t f = 0; f < count; ++f)
      for (size_t i = nsp, r = static_cast<size_t>(f); i-- > 0;) {
        idx[static_cast<size_t>(f) * nsp + i] = static_cast<int64_t>(r) % sizes[i];
        r /= static_cast<size_t>(sizes[i]);
      }
    return idx;
  };
  const std::vector<int64_t> sidx = unflatten(S, os), kidx = unflatten(K, ks);

  const std::vector<int64_t> wst = contiguous_strides(ws), yst = contiguous_strides(ys);
  const int64_t wO = wst[static_cast<size_t>(p.rhs_spec[0])], wI = wst[static_cast<size_t>(p.rhs_spec[1])];
  const int64_t yN = yst[static_cast<size_t>(p.out_spec[0])], yF = yst[static_cast<size_t>(p.out_spec[1])];
  auto tap_offset = [&](const std::vector<int64_t>& strides, const std::vector<int64_t>& spec, int64_t k) {
    int64_t off = 0;
    for (size_t i = 0; i < nsp; ++i) off += kidx[static_cast<size_t>(k) * nsp + i] * strides[static_cast<size_t>(spec[i + 2])];
    return off;
  };

  // Depthwise (one input feature per group, any multiplier Og): a GEMM of one column per
  // group would waste the micro-kernel; instead each output position sums its taps with
  // vectors across the groups (the features, contiguous in the layout read).
  if (Cg == 1 && B == 1 && G > 1) {
    const int64_t F = G * Og;
    std::unique_ptr<C[]> wk(new C[static_cast<size_t>(K * F)]);
    for (int64_t k = 0; k < K; ++k)
      for (int64_t o = 0; o < F; ++o) wk[static_cast<size_t>(k * F + o)] = static_cast<C>(w[tap_offset(wst, p.rhs_spec, k) + o * wO]);
    parallel_for(N * S, std::max<int64_t>(1, kElementwiseGrain / (K * F)), [&](int64_t lo, int64_t hi) {
      // Each product rounded, then added in tap order: StableHLO's reference semantics (its
      // interpreter's dot over each window) and NumPy's. A fused multiply-add rounds once
      // less, which a sum that cancels turns into ulps of difference from the reference.
#pragma clang fp contract(off)
      std::vector<C> acc(static_cast<size_t>(F));
      for (int64_t r = lo; r < hi; ++r) {
        const int64_t n = r / S, s = r % S;
        std::fill(acc.begin(), acc.end(), C(0));
        for (int64_t k = 0; k < K; ++k) {
          int64_t off = n * xN;
          bool ok = true;
          for (size_t i = 0; i < nsp && ok; ++i) {
            int64_t o = src[i][static_cast<size_t>(sidx[static_cast<size_t>(s) * nsp + i] * ks[i] +
                                                    kidx[static_cast<size_t>(k) * nsp + i])];
            ok = o >= 0;
            off += o;
          }
          if (!ok) continue;
          const T* xr = x + off;
          const C* wr = wk.get() + k * F;
          if (Og == 1) {
            for (int64_t g = 0; g < G; ++g) acc[static_cast<size_t>(g)] += static_cast<C>(xr[g]) * wr[g];
          } else {
            for (int64_t g = 0; g < G; ++g) {
              const C v = static_cast<C>(xr[g]);
              for (int64_t j = 0; j < Og; ++j) acc[static_cast<size_t>(g * Og + j)] += v * wr[g * Og + j];
            }
          }
        }
        int64_t off = n * yN;
        for (size_t i = 0; i < nsp; ++i)
          off += sidx[static_cast<size_t>(s) * nsp + i] * yst[static_cast<size_t>(p.out_spec[i + 2])];
        for (int64_t o = 0; o < F; ++o) y[off + o * yF] = convert_value<T>(acc[static_cast<size_t>(o)]);
      }
    });
    return;
  }

  // The kernel packed as [NG][Og / NR panels][K·Cg][NR] (output features past Og are zeros).
  constexpr int64_t NR = NV * kLanes<C>;
  const int64_t rows = N * S, cols = K * Cg, panels = (Og + NR - 1) / NR, ldc = panels * NR;
  std::unique_ptr<C[]> packed(new C[static_cast<size_t>(NG * panels * cols * NR)]);
  parallel_for(NG * cols, std::max<int64_t>(1, kElementwiseGrain / ldc), [&](int64_t lo, int64_t hi) {
    for (int64_t gk = lo; gk < hi; ++gk) {
      const int64_t g = gk / cols, col = gk % cols, k = col / Cg, c = col % Cg;
      int64_t off = c * wI + g * Og * wO;
      for (size_t i = 0; i < nsp; ++i)
        off += kidx[static_cast<size_t>(k) * nsp + i] * wst[static_cast<size_t>(p.rhs_spec[i + 2])];
      for (int64_t j = 0; j < panels; ++j) {
        C* dst = packed.get() + ((g * panels + j) * cols + col) * NR;
        const int64_t n = std::min(NR, Og - j * NR);
        const T* from = w + off + j * NR * wO;
        if (wO == 1) for (int64_t e = 0; e < n; ++e) dst[e] = static_cast<C>(from[e]);
        else for (int64_t e = 0; e < n; ++e) dst[e] = static_cast<C>(from[e * wO]);
        std::fill(dst + n, dst + NR, C(0));
      }
    }
  });

  // Tiles of rows, as many as keep the threads evenly busy and each under kMaxMC rows.
  const int threads = num_threads();
  int64_t per_group = std::max<int64_t>(1, (rows + kMaxMC - 1) / kMaxMC);
  if (NG * per_group < threads) per_group = std::min<int64_t>((threads + NG - 1) / NG, (rows + kMR - 1) / kMR);
  else if (NG == 1 && per_group % threads) per_group += threads - per_group % threads;
  const int64_t mc = ((rows + per_group - 1) / per_group + kMR - 1) / kMR * kMR;
  per_group = (rows + mc - 1) / mc;
  // Column blocks: in direct mode one tap's features (or a chunk of them) each, so that a
  // micro-panel of kMR consecutive output positions along the last spatial dim reads its
  // patch rows straight from the lhs (row r at r · lda); other blocks up to kMaxKC columns.
  // Direct mode needs the lhs in the compute type and no lhs dilation (evenly spaced reads),
  // and features enough to amortise a micro-kernel call per tap.
  bool direct = std::is_same_v<T, C> && nsp > 0 && Cg >= 16;
  for (size_t i = 0; i < nsp; ++i) direct = direct && p.lhs_dilation[i] == 1;
  const int64_t chunks = (Cg + kMaxKC - 1) / kMaxKC, chunk = (Cg + chunks - 1) / chunks;
  const int64_t kblocks = direct ? K * chunks : (cols + kMaxKC - 1) / kMaxKC;
  const int64_t kc_max = direct ? chunk : (cols + kblocks - 1) / kblocks;
  const int64_t last = direct ? os[nsp - 1] : 0, lda_direct = direct ? p.window_strides[nsp - 1] * spst[nsp - 1] : 0;

  // Packs patch rows [r, r + count) × columns [k0, k0 + kc) row-major into dst, rows past r1
  // (the tile's end) zero.
  // tapoff[s·K + k]: the lhs offset (spatial part) output position s reads for tap k, or -1
  // (padding, between dilated elements): one load per (row, tap) while packing, when the table
  // is small; else the per-dimension tables above.
  std::vector<int64_t> tapoff;
  if (S * K <= (int64_t{1} << 20)) {
    tapoff.resize(static_cast<size_t>(S * K));
    for (int64_t s = 0; s < S; ++s)
      for (int64_t k = 0; k < K; ++k) {
        int64_t off = 0;
        for (size_t i = 0; i < nsp && off >= 0; ++i) {
          const int64_t o = src[i][static_cast<size_t>(sidx[static_cast<size_t>(s) * nsp + i] * ks[i] +
                                                        kidx[static_cast<size_t>(k) * nsp + i])];
          off = o < 0 ? -1 : off + o;
        }
        tapoff[static_cast<size_t>(s * K + k)] = off;
      }
  }
  auto pack = [&](int64_t r, int64_t count, int64_t r1, int64_t k0, int64_t kc, int64_t batch0, int64_t f0, C* dst,
                  int64_t* sb) {
    for (int64_t e = r; e < r + count; ++e) {
      if (e >= r1) {
        std::fill_n(dst, kc, C(0));
        dst += kc;
        continue;
      }
      const int64_t n = e / S, s = e % S, base = (batch0 + n) * xN + f0;
      const int64_t* row_taps = tapoff.empty() ? nullptr : tapoff.data() + s * K;
      if (!row_taps)
        for (size_t i = 0; i < nsp; ++i) sb[i] = sidx[static_cast<size_t>(s) * nsp + i] * ks[i];
      // Tap by tap (no division per segment: the first tap may start mid-way).
      int64_t k = k0 / Cg, c = k0 % Cg;
      for (int64_t left = kc; left > 0; ++k, c = 0) {
        const int64_t len = std::min(Cg - c, left);
        int64_t off = base + c;
        bool ok = true;
        if (row_taps) {
          ok = row_taps[k] >= 0;
          off += row_taps[k];
        } else {
          const int64_t* kk = kidx.data() + k * static_cast<int64_t>(nsp);
          for (size_t i = 0; i < nsp && ok; ++i) {
            const int64_t o = src[i][static_cast<size_t>(sb[i] + kk[i])];
            ok = o >= 0;
            off += o;
          }
        }
        if (!ok) std::fill_n(dst, len, C(0));
        else for (int64_t i = 0; i < len; ++i) dst[i] = static_cast<C>(x[off + i]);
        dst += len;
        left -= len;
      }
    }
  };
  // Direct mode: the lhs address of patch row r's columns from tap k, feature c, when rows
  // [r, r + kMR) are kMR consecutive positions of one output line (r1: the tile's end) whose
  // reads for tap k all lie inside the lhs; else null (the panel is packed).
  auto direct_row = [&](int64_t r, int64_t r1, int64_t k, int64_t c, int64_t batch0, int64_t f0) -> const T* {
    const int64_t rb = r + kMR - 1, s = r % S;
    if (rb >= r1 || s % last > last - kMR || r / S != rb / S) return nullptr;
    int64_t off = (batch0 + r / S) * xN + f0 + c;
    for (size_t i = 0; i < nsp; ++i) {
      const size_t at = static_cast<size_t>(sidx[static_cast<size_t>(s) * nsp + i] * ks[i] +
                                            kidx[static_cast<size_t>(k) * nsp + i]);
      const int64_t o = src[i][at];
      if (o < 0) return nullptr;
      if (i + 1 == nsp && src[i][at + static_cast<size_t>((kMR - 1) * ks[i])] < 0) return nullptr;
      off += o;
    }
    return reinterpret_cast<const T*>(x) + off;
  };

  // Tasks run tile-major, groups innermost: consecutive tasks of a thread read one region of
  // the lhs (a grouped convolution's groups share its rows).
  parallel_for(NG * per_group, 1, [&](int64_t lo, int64_t hi) {
    std::vector<C> a(static_cast<size_t>((direct ? kMR : mc) * kc_max)), ct(static_cast<size_t>(mc * ldc));
    std::vector<int64_t> offs(static_cast<size_t>(mc)), sb(nsp + 1);  // sb: pack's scratch
    for (int64_t t = lo; t < hi; ++t) {
      const int64_t g = t % NG, r0 = t / NG * mc, r1 = std::min(rows, r0 + mc);
      const int64_t batch0 = B > 1 ? g * N : 0, f0 = G > 1 ? g * Cg : 0;
      // Where each row of the tile goes in the output.
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t n = r / S, s = r % S;
        int64_t off = n * yN + g * Og * yF;
        for (size_t i = 0; i < nsp; ++i)
          off += sidx[static_cast<size_t>(s) * nsp + i] * yst[static_cast<size_t>(p.out_spec[i + 2])];
        offs[static_cast<size_t>(r - r0)] = off;
      }
      // When the tile's rows are consecutive rows of Og contiguous features in the output (NHWC
      // results, Og a whole number of panels), its full micro-panels accumulate in the output
      // itself: no second pass over the result. Rows [r0, full) do; the rest go through ct.
      int64_t full = r0;
      if (std::is_same_v<T, C> && yF == 1 && ldc == Og) {
        full = r0 + (r1 - r0) / kMR * kMR;
        for (int64_t r = r0 + 1; r < full && full > r0; ++r)
          if (offs[static_cast<size_t>(r - r0)] != offs[0] + (r - r0) * Og) full = r0;
      }
      auto target = [&](int64_t i, int64_t j) -> std::pair<C*, int64_t> {
        if (r0 + i < full) return {reinterpret_cast<C*>(y + offs[0]) + i * Og + j * NR, Og};
        return {ct.data() + i * ldc + j * NR, ldc};
      };
      for (int64_t b = 0; b < kblocks; ++b) {
        const int64_t k0 = direct ? b / chunks * Cg + b % chunks * chunk : b * kc_max;
        const int64_t kc = direct ? std::min(chunk, Cg - b % chunks * chunk) : std::min(kc_max, cols - k0);
        if (direct) {
          for (int64_t i = 0; i < mc; i += kMR) {
            const C* ap;
            int64_t lda;
            if (const T* d = direct_row(r0 + i, r1, b / chunks, b % chunks * chunk, batch0, f0)) {
              ap = reinterpret_cast<const C*>(d);
              lda = lda_direct;
            } else {
              pack(r0 + i, kMR, r1, k0, kc, batch0, f0, a.data(), sb.data());
              ap = a.data();
              lda = kc;
            }
            for (int64_t j = 0; j < panels; ++j) {
              auto [out, ld] = target(i, j);
              micro_kernel<C, NV>(kc, ap, lda, packed.get() + ((g * panels + j) * cols + k0) * NR, out, ld, b > 0);
            }
          }
          continue;
        }
        pack(r0, mc, r1, k0, kc, batch0, f0, a.data(), sb.data());
        for (int64_t j = 0; j < panels; ++j) {
          const C* bp = packed.get() + ((g * panels + j) * cols + k0) * NR;
          for (int64_t i = 0; i < mc; i += kMR) {
            auto [out, ld] = target(i, j);
            micro_kernel<C, NV>(kc, a.data() + i * kc, kc, bp, out, ld, k0 > 0);
          }
        }
      }
      // The other rows into the output's layout: row by row when the features are innermost,
      // else feature by feature (consecutive rows are then usually consecutive addresses).
      if (yF == 1) {
        for (int64_t r = full; r < r1; ++r) {
          const C* row = ct.data() + (r - r0) * ldc;
          T* out = y + offs[static_cast<size_t>(r - r0)];
          for (int64_t o = 0; o < Og; ++o) out[o] = convert_value<T>(row[o]);
        }
      } else {
        for (int64_t o = 0; o < Og; ++o)
          for (int64_t r = r0; r < r1; ++r)
            y[offs[static_cast<size_t>(r - r0)] + o * yF] = convert_value<T>(ct[static_cast<size_t>((r - r0) * ldc + o)]);
      }
    }
  });
}

// Integer convolutions: wrapping arithmetic in the element type (StableHLO's and XLA's
// semantics), so the order of the sum does not matter. A direct loop per output row (batch
// row and output position) over every output feature, its group's input features and the
// window's taps; the tap offsets of the row computed once. Integer convolutions are small and
// rare (quantised models go through dot_general), so this is not blocked like the float path.
template <class T>
void conv_integer(const T* x, const T* w, T* y, const Shape& xs, const Shape& ws, const Shape& ys, const ConvParams& p) {
  // Products and sums in an unsigned type of at least 32 bits: wraps without undefined
  // behaviour (u16 · u16 would overflow int), truncated to T's width at the end.
  using W = wrap_unsigned_t<T>;  // `unsigned` for types narrower than it (sub-byte ones too)
  const ConvGeometry geo(xs, ws, ys, p);
  const size_t nsp = geo.nsp;
  const int64_t G = geo.G, B = geo.B, N = geo.N, Cg = geo.Cg, Og = geo.Og, O = Og * geo.NG, S = geo.S, K = geo.K;
  const std::vector<int64_t>&os = geo.os, &ks = geo.ks, &is = geo.is;
  const std::vector<int64_t> xst = contiguous_strides(xs), wst = contiguous_strides(ws), yst = contiguous_strides(ys);
  auto at = [](const std::vector<int64_t>& st, int64_t d) { return st[static_cast<size_t>(d)]; };
  // The kernel offset of each tap (row-major over the window).
  std::vector<int64_t> wtap(static_cast<size_t>(K));
  for (int64_t k = 0; k < K; ++k) {
    int64_t off = 0;
    for (size_t i = nsp, r = static_cast<size_t>(k); i-- > 0;) {
      off += static_cast<int64_t>(r) % ks[i] * at(wst, p.rhs_spec[i + 2]);
      r /= static_cast<size_t>(ks[i]);
    }
    wtap[static_cast<size_t>(k)] = off;
  }
  const int64_t xN = at(xst, p.lhs_spec[0]), xC = at(xst, p.lhs_spec[1]);
  const int64_t wO = at(wst, p.rhs_spec[0]), wI = at(wst, p.rhs_spec[1]);
  const int64_t yN = at(yst, p.out_spec[0]), yF = at(yst, p.out_spec[1]);
  parallel_for(N * S, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, O * Cg * K)), [&](int64_t lo, int64_t hi) {
    std::vector<int64_t> xtap(static_cast<size_t>(K));  // lhs offset of each tap, -1 outside
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t n = r / S;
      int64_t yoff = n * yN;
      std::vector<int64_t> pos(nsp);
      for (size_t i = nsp, rem = static_cast<size_t>(r % S); i-- > 0;) {
        pos[i] = static_cast<int64_t>(rem) % os[i];
        rem /= static_cast<size_t>(os[i]);
        yoff += pos[i] * at(yst, p.out_spec[i + 2]);
      }
      for (int64_t k = 0; k < K; ++k) {
        int64_t off = 0;
        for (size_t i = nsp, rem = static_cast<size_t>(k); i-- > 0 && off >= 0;) {
          const int64_t tap = static_cast<int64_t>(rem) % ks[i], ld = p.lhs_dilation[i];
          rem /= static_cast<size_t>(ks[i]);
          const int64_t q = pos[i] * p.window_strides[i] + tap * p.rhs_dilation[i] - p.padding_low[i];
          off = (q >= 0 && q % ld == 0 && q / ld < is[i]) ? off + q / ld * at(xst, p.lhs_spec[i + 2]) : -1;
        }
        xtap[static_cast<size_t>(k)] = off;
      }
      for (int64_t o = 0; o < O; ++o) {
        const int64_t g = o / Og;
        const T* xb = x + (B > 1 ? g * N + n : n) * xN + (G > 1 ? g * Cg : 0) * xC;
        const T* wb = w + o * wO;
        W sum = 0;
        for (int64_t c = 0; c < Cg; ++c)
          for (int64_t k = 0; k < K; ++k) {
            const int64_t xo = xtap[static_cast<size_t>(k)];
            if (xo >= 0)
              sum += static_cast<W>(static_cast<W>(xb[c * xC + xo]) * static_cast<W>(wb[c * wI + wtap[static_cast<size_t>(k)]]));
          }
        y[yoff + o * yF] = static_cast<T>(sum);
      }
    }
  });
}

template <class T>
void conv_impl(const T* x, const T* w, T* y, const Shape& xs, const Shape& ws, const Shape& ys, const ConvParams& p) {
  using C = typename ComputeOf<T>::type;
  const int64_t total = num_elements(ys);
  if (total == 0) return;
  int64_t inner = 1;  // window × features per group: zero means a sum of nothing
  for (size_t i = 2; i < xs.size(); ++i) inner *= ws[static_cast<size_t>(p.rhs_spec[i])];
  inner *= xs[static_cast<size_t>(p.lhs_spec[1])] / p.feature_group_count;
  if (inner == 0) {
    std::fill_n(y, total, T(0));
    return;
  }
  // The narrowest micro-kernel that covers the output features per group.
  const int64_t og = ws[static_cast<size_t>(p.rhs_spec[0])] / (p.feature_group_count * p.batch_group_count);
  if (og <= kLanes<C>) conv_tiled<T, C, 1>(x, w, y, xs, ws, ys, p);
  else if (og <= 2 * kLanes<C> || kMaxNV == 2) conv_tiled<T, C, 2>(x, w, y, xs, ws, ys, p);
  else conv_tiled<T, C, kMaxNV>(x, w, y, xs, ws, ys, p);
}

// Complex convolutions as four real ones over the parts, (a + ib) ⊛ (c + id) =
// (a ⊛ c − b ⊛ d) + i (a ⊛ d + b ⊛ c): the sums the compiled program (strata.convolution of
// the parts, convolutionOfComplexParts) computes too, so jit and eager agree bit for bit.
template <class R>
void conv_complex(const std::complex<R>* x, const std::complex<R>* w, std::complex<R>* y, const Shape& xs,
                  const Shape& ws, const Shape& ys, const ConvParams& p) {
  const int64_t nx = num_elements(xs), nw = num_elements(ws), ny = num_elements(ys);
  std::vector<R> a(nx), b(nx), c(nw), d(nw), re(ny), im(ny), t(ny);
  for (int64_t i = 0; i < nx; ++i) a[i] = x[i].real(), b[i] = x[i].imag();
  for (int64_t i = 0; i < nw; ++i) c[i] = w[i].real(), d[i] = w[i].imag();
  conv_impl<R>(a.data(), c.data(), re.data(), xs, ws, ys, p);
  conv_impl<R>(b.data(), d.data(), t.data(), xs, ws, ys, p);
  for (int64_t i = 0; i < ny; ++i) re[i] -= t[i];
  conv_impl<R>(a.data(), d.data(), im.data(), xs, ws, ys, p);
  conv_impl<R>(b.data(), c.data(), t.data(), xs, ws, ys, p);
  for (int64_t i = 0; i < ny; ++i) y[i] = std::complex<R>(re[i], im[i] + t[i]);
}

}  // namespace

void conv_general_dilated(DType dtype, const void* lhs, const void* rhs, void* out, const Shape& lhs_shape,
                          const Shape& rhs_shape, const Shape& out_shape, const ConvParams& p) {
  dispatch_any(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_storage<T>)
      conv_complex<typename T::value_type>(static_cast<const T*>(lhs), static_cast<const T*>(rhs), static_cast<T*>(out),
                                           lhs_shape, rhs_shape, out_shape, p);
    else if constexpr (is_float_storage<T>)
      conv_impl<T>(static_cast<const T*>(lhs), static_cast<const T*>(rhs), static_cast<T*>(out), lhs_shape,
                   rhs_shape, out_shape, p);
    else if constexpr (is_int_storage<T>) {
      if (num_elements(out_shape) > 0)
        conv_integer<T>(static_cast<const T*>(lhs), static_cast<const T*>(rhs), static_cast<T*>(out), lhs_shape,
                        rhs_shape, out_shape, p);
    } else
      throw DTypeError("conv_general_dilated: expects numeric operands, not bool");
  });
}

}  // namespace strata::kernels
