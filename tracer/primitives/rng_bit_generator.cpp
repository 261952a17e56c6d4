// tracer/primitives/rng_bit_generator.cpp — `rng_bit_generator[shape, dtype, algorithm]`:
// jax.lax.rng_bit_generator, StableHLO's rng_bit_generator. (key) ↦ (new key, bits): `shape`
// random bits of an unsigned dtype from a counter-based generator whose state is the key,
// u32[4] (JAX's usual form, its 64-bit words little-endian pairs) or u64[2] (u64[3] for
// PHILOX, as XLA takes). The bits are XLA's (its RngBitGeneratorExpander and prng.cc), so
// equal JAX's on CPU and GPU:
//   THREE_FRY: key = word 0, counter = word 1; 64-bit elements are Threefry-2x32 of counter + i
//     (y0 | y1 << 32); 32-bit and narrower ones take y0 and y1 of the counter of half of an
//     even (else the longest) dimension, side by side along it, narrow ones truncated; the
//     counter advances by the number of counters used.
//   PHILOX (and DEFAULT, which XLA's CPU and GPU compilers take as PHILOX): key = word 0, a
//     128-bit counter (low, high) = (word 1, word 0) for two words, (word 1, word 2) for three;
//     Philox-4x32-10 of counter + i gives 32-bit elements 4i..4i+3 (64-bit ones 2i, 2i+1, of
//     word pairs); the counter advances by the number of blocks (its high word kept with three
//     words only).
// The compiled form is the dialect op's expansion (transforms/ExpandRngBitGenerator.cpp), the
// same arithmetic. Not differentiable (bits). vmap is JAX's rule: only the first key of a batch
// is used, for bits of shape [batch, *shape], and the first key is advanced (JAX's quirk, kept so
// that a batch draws the numbers it draws in JAX).
#include <array>
#include <cstdint>
#include <cstring>

#include "batch_rules.h"
#include "common.h"
#include "threefry2x32.h"

namespace strata {
namespace {

constexpr int64_t kDefault = 0, kThreeFry = 1, kPhilox = 2;

std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  primitives::expect_arity("rng_bit_generator", in, 1);
  const int64_t algorithm = p.get_int("algorithm");
  if (algorithm < kDefault || algorithm > kPhilox)
    throw ValueError("rng_bit_generator: expects algorithm 0 (DEFAULT), 1 (THREE_FRY) or 2 (PHILOX), but got " +
                     std::to_string(algorithm));
  const AbstractValue& key = in[0];
  const bool u32x4 = key.dtype == DType::u32 && key.shape == Shape{4};
  const bool u64x2 = key.dtype == DType::u64 && key.shape == Shape{2};
  const bool u64x3 = key.dtype == DType::u64 && key.shape == Shape{3} && algorithm != kThreeFry;
  if (!u32x4 && !u64x2 && !u64x3)
    throw DTypeError(std::string("rng_bit_generator: expects a key of uint32[4] or uint64[2]") +
                     (algorithm != kThreeFry ? " (or uint64[3] for PHILOX)" : "") + ", but got " + key.str());
  DType t = p.get_dtype("dtype");
  if (t != DType::u8 && t != DType::u16 && t != DType::u32 && t != DType::u64)
    throw DTypeError("rng_bit_generator: expects dtype uint8, uint16, uint32 or uint64, but got " +
                     std::string(long_name(t)));
  const IntList& shape = p.get_ints("shape");
  for (int64_t d : shape)
    if (d < 0) throw ShapeError("rng_bit_generator: expects a shape of sizes >= 0, but got " + shape_string(Shape(shape.begin(), shape.end())));
  return {AbstractValue{key.shape, key.dtype, false}, AbstractValue{Shape(shape.begin(), shape.end()), t, false}};
}

uint32_t lo32(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi32(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
uint64_t join(uint32_t lo, uint32_t hi) { return uint64_t{lo} | uint64_t{hi} << 32; }

std::array<uint32_t, 2> threefry(uint64_t key, uint64_t counter) {
  return threefry::block(lo32(key), hi32(key), lo32(counter), hi32(counter));
}

std::array<uint32_t, 4> philox(uint64_t key, uint64_t lo, uint64_t hi) {
  uint32_t k0 = lo32(key), k1 = hi32(key);
  std::array<uint32_t, 4> x = {lo32(lo), hi32(lo), lo32(hi), hi32(hi)};
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{x[0]} * 0xD2511F53u, p1 = uint64_t{x[2]} * 0xCD9E8D57u;
    x = {hi32(p1) ^ x[1] ^ k0, lo32(p1), hi32(p0) ^ x[3] ^ k1, lo32(p0)};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return x;
}

// THREE_FRY's bits as T (truncated); returns the number of counters used.
template <class T> int64_t three_fry_bits(uint64_t key, uint64_t counter, const Shape& shape, T* out) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if constexpr (sizeof(T) == 8) {
    kernels::parallel_for(n, kernels::kElementwiseGrain / 8, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        auto [y0, y1] = threefry(key, counter + static_cast<uint64_t>(i));
        out[i] = join(y0, y1);
      }
    });
    return n;
  }
  if (shape.empty()) {
    out[0] = static_cast<T>(threefry(key, counter)[0]);
    return 1;
  }
  // The split dimension (XLA's SplitShapeIntoHalves): the first even one, else the longest.
  size_t split = shape.size();
  for (size_t d = 0; d < shape.size() && split == shape.size(); ++d)
    if (shape[d] % 2 == 0) split = d;
  if (split == shape.size()) {
    split = 0;
    for (size_t d = 1; d < shape.size(); ++d)
      if (shape[d] > shape[split]) split = d;
  }
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < split; ++d) outer *= shape[d];
  for (size_t d = split + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t s = shape[split], half = (s + 1) / 2, counters = outer * half * inner;
  kernels::parallel_for(counters, kernels::kElementwiseGrain / 8, [&](int64_t b, int64_t e) {
    for (int64_t g = b; g < e; ++g) {
      const int64_t in = g % inner, h = (g / inner) % half, o = g / (inner * half);
      auto [y0, y1] = threefry(key, counter + static_cast<uint64_t>(g));
      out[(o * s + 2 * h) * inner + in] = static_cast<T>(y0);
      if (2 * h + 1 < s) out[(o * s + 2 * h + 1) * inner + in] = static_cast<T>(y1);
    }
  });
  return counters;
}

// PHILOX's bits as T (truncated) from the 128-bit counter (lo, hi); returns the number of
// blocks used.
template <class T> int64_t philox_bits(uint64_t key, uint64_t lo, uint64_t hi, int64_t n, T* out) {
  constexpr bool kWide = sizeof(T) == 8;
  const int64_t words = kWide ? 2 * n : n, blocks = (words + 3) / 4;
  kernels::parallel_for(blocks, kernels::kElementwiseGrain / 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const uint64_t c = lo + static_cast<uint64_t>(i);
      const std::array<uint32_t, 4> y = philox(key, c, hi + (c < lo ? 1 : 0));
      if constexpr (kWide) {
        for (int64_t j = 0; j < 2 && 2 * i + j < n; ++j) out[2 * i + j] = join(y[2 * j], y[2 * j + 1]);
      } else {
        for (int64_t j = 0; j < 4 && 4 * i + j < n; ++j) out[4 * i + j] = static_cast<T>(y[j]);
      }
    }
  });
  return blocks;
}

void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  // The state as 64-bit words (u32[4]: little-endian pairs).
  std::array<uint64_t, 3> w{};
  const bool narrow_key = in[0].dtype() == DType::u32;
  const int64_t nwords = narrow_key ? 2 : in[0].size();
  if (narrow_key) {
    const uint32_t* k = in[0].as<uint32_t>();
    w[0] = join(k[0], k[1]);
    w[1] = join(k[2], k[3]);
  } else {
    std::memcpy(w.data(), in[0].data, sizeof(uint64_t) * static_cast<size_t>(nwords));
  }
  std::array<uint64_t, 3> next = w;
  const bool three_fry = p.get_int("algorithm") == kThreeFry;
  const uint64_t lo = w[1], hi = nwords == 3 ? w[2] : w[0];
  auto draw = [&]<class T>(T* bits) {
    if (three_fry) next[1] = w[1] + static_cast<uint64_t>(three_fry_bits(w[0], w[1], out[1].shape(), bits));
    else next[1] = lo + static_cast<uint64_t>(philox_bits(w[0], lo, hi, out[1].size(), bits));
  };
  switch (out[1].dtype()) {
    case DType::u8: draw(out[1].as<uint8_t>()); break;
    case DType::u16: draw(out[1].as<uint16_t>()); break;
    case DType::u32: draw(out[1].as<uint32_t>()); break;
    default: draw(out[1].as<uint64_t>());
  }
  if (!three_fry && nwords == 3) next[2] = hi + (next[1] < lo ? 1 : 0);
  if (narrow_key) {
    uint32_t* k = out[0].as<uint32_t>();
    for (int i = 0; i < 2; ++i) k[2 * i] = lo32(next[i]), k[2 * i + 1] = hi32(next[i]);
  } else {
    std::memcpy(out[0].data, next.data(), sizeof(uint64_t) * static_cast<size_t>(nwords));
  }
}

// JAX's rule: the first key draws bits of shape [batch, *shape] and is advanced; the other
// keys come back unchanged.
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  if (dims[0] == not_mapped) return {lax::bind(prim::kRngBitGenerator, args, p), {not_mapped, not_mapped}};
  Array keys = batching::front(args, dims);
  const int64_t n = keys.shape(0), k = keys.shape(1);
  Array first = lax::reshape(lax::slice(keys, {0, 0}, {1, k}, {1, 1}), {k});
  Params q = p;
  IntList shape = p.get_ints("shape");
  shape.insert(shape.begin(), n);
  q.set("shape", shape);
  std::vector<Array> r = lax::bind(prim::kRngBitGenerator, std::span<const Array>(&first, 1), q);
  Array rest[] = {lax::reshape(r[0], {1, k}), lax::slice(keys, {1, 0}, {n, k}, {1, 1})};
  Array new_keys = lax::bind1(prim::kConcatenate, {rest[0], rest[1]}, Params{{"dimension", int64_t{0}}});
  return {{new_keys, r[1]}, {0, 0}};
}

}  // namespace

const Primitive prim::kRngBitGenerator{
    .name = "rng_bit_generator",
    .arity = 1,
    .traits = kNotDifferentiable,
    .shape_rule = rule,
    .eager = kernel,
    .batch = batch,
};

}  // namespace strata
