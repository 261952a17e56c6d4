// tracer/kernels/sort.cpp — the sort kernel (sort.h). One key: its bits are turned into an
// unsigned integer of the same order, sorted by an LSD radix sort (stable; passes whose digit
// is the same everywhere are skipped) or, for short lines, an insertion sort. One operand: the
// keys alone when they can be mapped back (no nan or -0.0 that canonicalisation would merge),
// else (key, element) pairs; several operands: (key, index) pairs, then each operand permuted.
// Several keys: a merge sort of indices by the keys in turn. A general comparator: the same
// merge sort, calling it.
#include "sort.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "parallel.h"
#include "types.h"

namespace strata::kernels {

SortOperand sort_operand(void* data, DType dtype) {
  // Complex numbers are never keys (the primitive refuses them): moved as bytes.
  if (is_complex(dtype)) return SortOperand{data, static_cast<int64_t>(itemsize(dtype)), SortKeyKind::kFloat};
  return dispatch(dtype, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = typename ComputeOf<S>::type;
    SortKeyKind kind = std::is_same_v<S, bf16_t>  ? SortKeyKind::kBFloat16
                       : is_float8_storage<S>        ? float8_sort_kind(*float8_format_of<S>)
                       : std::is_floating_point_v<C> ? SortKeyKind::kFloat
                       : std::is_same_v<S, i4_t>     ? SortKeyKind::kSigned4
                       : std::is_same_v<S, i2_t>     ? SortKeyKind::kSigned2
                       : std::is_signed_v<S>         ? SortKeyKind::kSigned
                                                     : SortKeyKind::kUnsigned;
    return SortOperand{data, static_cast<int64_t>(sizeof(S)), kind};
  });
}

namespace {

// The largest magnitude that is not a nan (+inf's bits; bf16 has f32's exponent field; e4m3fn,
// with no inf, its largest finite number; the 6- and 4-bit floats, with no nan, every magnitude).
uint64_t exponent_mask(SortKeyKind kind, int64_t bytes) {
  if (kind == SortKeyKind::kBFloat16) return 0x7F80;
  if (kind == SortKeyKind::kFloat8E4M3FN) return 0x7E;
  if (kind == SortKeyKind::kFloat8E5M2) return 0x7C;
  if (kind == SortKeyKind::kFloat8E4M3) return 0x78;
  if (kind == SortKeyKind::kFloat8E3M4) return 0x70;
  if (kind == SortKeyKind::kFloat8FNUZ) return 0x7F;
  if (kind == SortKeyKind::kFloat6) return 0x1F;
  if (kind == SortKeyKind::kFloat4) return 0x07;
  switch (bytes) {
    case 2: return 0x7C00;
    case 4: return 0x7F800000u;
    default: return 0x7FF0000000000000ull;
  }
}

uint64_t load_bits(const char* p, int64_t bytes) {
  switch (bytes) {
    case 1: return *reinterpret_cast<const uint8_t*>(p);
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// The element's bits as an unsigned integer whose order is the key's order.
struct KeyMap {
  SortKeyKind kind;
  int64_t bytes;
  bool canonical, descending;
  uint64_t sign, all, exp;
  KeyMap(const SortOperand& op, const SortSpec& spec)
      : kind(op.kind), bytes(op.bytes), canonical(spec.canonical_floats), descending(spec.descending) {
    sign = kind == SortKeyKind::kSigned4 || kind == SortKeyKind::kFloat4 ? 0x8
           : kind == SortKeyKind::kSigned2                                ? 0x2
           : kind == SortKeyKind::kFloat6                                 ? 0x20
                                                                          : uint64_t{1} << (8 * bytes - 1);
    // The 6- and 4-bit floats' keys keep to their width (a negative one's complement would
    // set the byte's zero high bits); the signed sub-byte integers' (u ^ sign) need not.
    all = kind == SortKeyKind::kFloat4 ? 0x0F : kind == SortKeyKind::kFloat6 ? 0x3F
          : bytes == 8                 ? ~uint64_t{0}
                                       : (uint64_t{1} << (8 * bytes)) - 1;
    exp = is_signed() || kind == SortKeyKind::kUnsigned ? 0 : exponent_mask(kind, bytes);
  }
  bool is_signed() const {
    return kind == SortKeyKind::kSigned || kind == SortKeyKind::kSigned4 || kind == SortKeyKind::kSigned2;
  }
  // The fnuz formats: 255 numbers and one nan (0x80, where -0 would be) in one byte, keyed
  // -max .. -min, 0, min .. max, nan as 0 .. 255 (no -0 to merge, one nan: canonical as is).
  bool fnuz() const { return kind == SortKeyKind::kFloat8FNUZ; }
  uint64_t operator()(uint64_t u) const {
    uint64_t k = u;
    if (fnuz()) {
      k = u == 0x80 ? 0xFF : (u & 0x80) ? 0x7F - (u & 0x7F) : 0x7F + u;
    } else if (is_signed()) {
      k = u ^ sign;
    } else if (exp) {
      uint64_t mag = u & ~sign & all;
      if (canonical && mag > exp) u = all & ~sign;  // every nan: above +inf
      else if (canonical && mag == 0) u = 0;        // -0.0 == 0.0
      k = (u & sign) ? (~u & all) : (u | sign);
    }
    return descending ? (~k & all) : k;
  }
  // The element's bits back from its key, when the key came without canonicalisation.
  uint64_t bits_of(uint64_t k) const {
    if (descending) k = ~k & all;
    if (fnuz()) return k == 0xFF ? 0x80 : k < 0x7F ? 0x80 | (0x7F - k) : k - 0x7F;
    if (is_signed()) return k ^ sign;
    if (exp) return (k & sign) ? (k & ~sign) : (~k & all);
    return k;
  }
  // Whether canonicalisation leaves u as it is (not a nan, not -0.0).
  bool plain(uint64_t u) const {
    if (!exp || !canonical || fnuz()) return true;
    uint64_t mag = u & ~sign & all;
    return mag <= exp && u != sign;
  }
};

template <class K, class P> struct Pair {
  K key;
  P payload;
};
template <class K, class P> K key_of(const Pair<K, P>& e) { return e.key; }
template <class K> K key_of(K e) { return e; }

// Stable LSD radix sort of v by key_of (tmp: scratch of the same size); the result ends in v.
// Digits of 11 bits for keys of 32 bits and more (3 passes for 32), 8 below; a pass whose
// digit is the same everywhere is skipped.
template <class E> void radix_sort(std::vector<E>& v, std::vector<E>& tmp) {
  using K = decltype(key_of(v[0]));
  constexpr int kBits = sizeof(K) >= 4 ? 11 : 8, kBuckets = 1 << kBits;
  constexpr int kPasses = (8 * static_cast<int>(sizeof(K)) + kBits - 1) / kBits;
  constexpr K kMask = static_cast<K>(kBuckets - 1);
  const size_t n = v.size();
  std::vector<uint32_t> hist(static_cast<size_t>(kPasses) * kBuckets, 0);
  for (const E& e : v) {
    K k = key_of(e);
    for (int p = 0; p < kPasses; ++p) ++hist[p * kBuckets + ((k >> (kBits * p)) & kMask)];
  }
  tmp.resize(n);
  for (int p = 0; p < kPasses; ++p) {
    uint32_t* h = &hist[p * kBuckets];
    if (*std::max_element(h, h + kBuckets) == n) continue;  // one bucket: nothing moves
    uint32_t sum = 0;
    for (int i = 0; i < kBuckets; ++i) {
      uint32_t c = h[i];
      h[i] = sum;
      sum += c;
    }
    for (const E& e : v) tmp[h[(key_of(e) >> (kBits * p)) & kMask]++] = e;
    v.swap(tmp);
  }
}

// Short lines: insertion sort (stable), cheaper than the radix sort's histograms.
template <class E> void sort_keys(std::vector<E>& v, std::vector<E>& tmp) {
  if (v.size() > 48) return radix_sort(v, tmp);
  for (size_t i = 1; i < v.size(); ++i) {
    E e = v[i];
    size_t j = i;
    for (; j > 0 && key_of(e) < key_of(v[j - 1]); --j) v[j] = v[j - 1];
    v[j] = e;
  }
}

// Per-thread scratch, reused across the lines a chunk sorts.
struct Scratch {
  std::vector<int64_t> perm, perm_tmp;
  std::vector<uint64_t> keys;
  std::vector<char> bytes;
  std::vector<const void*> lhs, rhs;
};

struct Line {
  std::span<const SortOperand> ops;
  const SortSpec& spec;
  char* at(size_t op, int64_t base, int64_t k) const {
    return static_cast<char*>(ops[op].data) + (base + k * spec.inner) * ops[op].bytes;
  }
};

void apply_perm(const Line& line, int64_t base, const std::vector<int64_t>& perm, Scratch& s, size_t first_op = 0) {
  const int64_t n = line.spec.n;
  for (size_t op = first_op; op < line.ops.size(); ++op) {
    int64_t w = line.ops[op].bytes;
    s.bytes.resize(static_cast<size_t>(n * w));
    for (int64_t k = 0; k < n; ++k) std::memcpy(&s.bytes[k * w], line.at(op, base, perm[k]), w);
    for (int64_t k = 0; k < n; ++k) std::memcpy(line.at(op, base, k), &s.bytes[k * w], w);
  }
}

// Two operands, the key invertible: (key, operand 1's element) pairs, no permutation after.
template <class K, class P> void sort_with_payload(const Line& line, int64_t base, const KeyMap& map) {
  const int64_t n = line.spec.n, w = line.ops[0].bytes;
  std::vector<Pair<K, P>> v(n), tmp;
  for (int64_t k = 0; k < n; ++k)
    v[k] = {static_cast<K>(map(load_bits(line.at(0, base, k), w))), static_cast<P>(load_bits(line.at(1, base, k), sizeof(P)))};
  sort_keys(v, tmp);
  for (int64_t k = 0; k < n; ++k) {
    K u = static_cast<K>(map.bits_of(v[k].key));
    std::memcpy(line.at(0, base, k), &u, w);
    std::memcpy(line.at(1, base, k), &v[k].payload, sizeof(P));
  }
}

// One key: pairs of the key's integer image and a payload.
template <class K> void sort_one_key(const Line& line, int64_t base, Scratch& s) {
  const int64_t n = line.spec.n;
  KeyMap map(line.ops[0], line.spec);
  const int64_t w = line.ops[0].bytes;
  if (line.ops.size() == 1) {
    // Without nans and -0.0 the key is invertible: sort keys alone and map them back.
    std::vector<K> keys(n), ktmp;
    bool plain = true;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t u = load_bits(line.at(0, base, k), w);
      plain = plain && map.plain(u);
      keys[k] = static_cast<K>(map(u));
    }
    if (plain) {
      sort_keys(keys, ktmp);
      for (int64_t k = 0; k < n; ++k) {
        K u = static_cast<K>(map.bits_of(keys[k]));
        std::memcpy(line.at(0, base, k), &u, w);
      }
      return;
    }
    // Otherwise the payload is the element's bits.
    std::vector<Pair<K, K>> v(n), tmp;
    for (int64_t k = 0; k < n; ++k) {
      uint64_t u = load_bits(line.at(0, base, k), w);
      v[k] = {static_cast<K>(map(u)), static_cast<K>(u)};
    }
    sort_keys(v, tmp);
    for (int64_t k = 0; k < n; ++k) {
      K u = v[k].payload;
      std::memcpy(line.at(0, base, k), &u, w);
    }
    return;
  }
  if (line.ops.size() == 2 && line.ops[1].bytes <= 8) {  // (key, the other operand's element) pairs when the key maps back
    bool plain = true;
    for (int64_t k = 0; k < n && plain; ++k) plain = map.plain(load_bits(line.at(0, base, k), w));
    if (plain) {
      switch (line.ops[1].bytes) {
        case 1: return sort_with_payload<K, uint8_t>(line, base, map);
        case 2: return sort_with_payload<K, uint16_t>(line, base, map);
        case 4: return sort_with_payload<K, uint32_t>(line, base, map);
        default: return sort_with_payload<K, uint64_t>(line, base, map);  // 8 (16-byte c128: apply_perm below)
      }
    }
  }
  std::vector<Pair<K, uint32_t>> v(n), tmp;
  for (int64_t k = 0; k < n; ++k)
    v[k] = {static_cast<K>(map(load_bits(line.at(0, base, k), w))), static_cast<uint32_t>(k)};
  sort_keys(v, tmp);
  s.perm.resize(n);
  for (int64_t k = 0; k < n; ++k) s.perm[k] = v[k].payload;
  apply_perm(line, base, s.perm, s);
}

// Bottom-up merge sort of perm by `before(a, b)`: stable, and in bounds whatever `before` says.
template <class Before> void merge_sort(std::vector<int64_t>& perm, std::vector<int64_t>& tmp, Before before) {
  const int64_t n = static_cast<int64_t>(perm.size());
  tmp.resize(n);
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n), i = lo, j = mid, o = lo;
      while (i < mid && j < hi) tmp[o++] = before(perm[j], perm[i]) ? perm[j++] : perm[i++];
      while (i < mid) tmp[o++] = perm[i++];
      while (j < hi) tmp[o++] = perm[j++];
    }
    perm.swap(tmp);
  }
}

void sort_line(const Line& line, int64_t base, SortLess less, void* ctx, Scratch& s) {
  const int64_t n = line.spec.n;
  const size_t nops = line.ops.size();
  if (n < 2) return;
  if (!less && line.spec.num_keys == 1 && n <= int64_t{0xFFFFFFFF}) {
    switch (line.ops[0].bytes) {
      case 1: return sort_one_key<uint8_t>(line, base, s);
      case 2: return sort_one_key<uint16_t>(line, base, s);
      case 4: return sort_one_key<uint32_t>(line, base, s);
      default: return sort_one_key<uint64_t>(line, base, s);
    }
  }
  s.perm.resize(n);
  std::iota(s.perm.begin(), s.perm.end(), int64_t{0});
  if (!less) {  // several keys: their images side by side, compared in turn
    const int64_t nk = std::min<int64_t>(line.spec.num_keys, static_cast<int64_t>(nops));
    s.keys.resize(static_cast<size_t>(n * nk));
    for (int64_t key = 0; key < nk; ++key) {
      KeyMap map(line.ops[key], line.spec);
      for (int64_t k = 0; k < n; ++k) s.keys[k * nk + key] = map(load_bits(line.at(key, base, k), line.ops[key].bytes));
    }
    const uint64_t* keys = s.keys.data();
    merge_sort(s.perm, s.perm_tmp, [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(keys + a * nk, keys + a * nk + nk, keys + b * nk, keys + b * nk + nk);
    });
  } else {
    s.lhs.resize(nops);
    s.rhs.resize(nops);
    merge_sort(s.perm, s.perm_tmp, [&](int64_t a, int64_t b) {
      for (size_t op = 0; op < nops; ++op) {
        s.lhs[op] = line.at(op, base, a);
        s.rhs[op] = line.at(op, base, b);
      }
      return less(ctx, s.lhs.data(), s.rhs.data());
    });
  }
  apply_perm(line, base, s.perm, s);
}

}  // namespace

void sort(std::span<const SortOperand> operands, const SortSpec& spec, SortLess less, void* ctx) {
  const int64_t lines = spec.outer * spec.inner;
  if (spec.n < 2 || lines == 0 || operands.empty()) return;
  Line line{operands, spec};
  int64_t grain = std::max<int64_t>(1, kElementwiseGrain / (4 * spec.n));
  parallel_for(lines, grain, [&](int64_t lo, int64_t hi) {
    Scratch s;
    for (int64_t l = lo; l < hi; ++l) {
      int64_t o = l / spec.inner, i = l % spec.inner;
      sort_line(line, o * spec.n * spec.inner + i, less, ctx, s);
    }
  });
}

}  // namespace strata::kernels
