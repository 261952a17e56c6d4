// Counter-based random numbers: JAX's threefry2x32 PRNG, built from primitives so that it
// traces like any other op.
#include <cmath>

#include "op_helpers.h"
#include "strata/creation.h"
#include "strata/random.h"

namespace strata::random {

using lax::bind1;

namespace {

void check_key(const Array& key, std::string_view op) {
  const AbstractValue& av = api::aval(key, op);
  if (av.dtype != DType::i32 || av.shape != Shape{2})
    throw ValueError(std::string(op) + ": expects a key (i32[2], from random::key or random::split), but got " + av.str());
}

Array iota(int64_t n, const SourceLocation& loc) {
  return bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList{n}}, {"dimension", int64_t{0}}}, loc);
}

// JAX's threefry_2x32(key, counts): hashes the counts (padded to even length) in two halves.
Array hash(const Array& key, int64_t n, const SourceLocation& loc) {
  Array k0 = reshape(slice(key, {0}, {1}, {}, loc), {}, loc);
  Array k1 = reshape(slice(key, {1}, {2}, {}, loc), {}, loc);
  int64_t padded = n + (n % 2);
  Array counts = iota(padded, loc);
  int64_t h = padded / 2;
  Array x0 = slice(counts, {0}, {h}, {}, loc), x1 = slice(counts, {h}, {padded}, {}, loc);
  Array ins[] = {k0, k1, x0, x1};
  std::vector<Array> ys = lax::bind(prim::kThreefry2x32, ins, {}, loc);
  Array bits = concatenate({ys[0], ys[1]}, 0, loc);
  return padded == n ? bits : slice(bits, {0}, {n}, {}, loc);
}

}  // namespace

Array key(uint64_t seed) {
  int32_t v[2] = {static_cast<int32_t>(static_cast<uint32_t>(seed >> 32)),
                  static_cast<int32_t>(static_cast<uint32_t>(seed & 0xFFFFFFFFu))};
  return array_from_data(v, 2, DType::i32, {2}, DType::i32);
}

Array split(const Array& key, int num, SourceLocation loc) {
  check_key(key, "random::split");
  if (num < 1) throw ValueError("random::split: expects num >= 1, but got " + std::to_string(num));
  return reshape(hash(key, 2 * static_cast<int64_t>(num), loc), {num, 2}, loc);
}

Array key_at(const Array& keys, int i, SourceLocation loc) {
  const AbstractValue& av = api::aval(keys, "random::key_at");
  if (av.dtype != DType::i32 || av.ndim() != 2 || av.shape[1] != 2)
    throw ValueError("random::key_at: expects split keys (i32[n,2]), but got " + av.str());
  if (i < 0 || i >= av.shape[0])
    throw ValueError("random::key_at: index " + std::to_string(i) + " is out of range for " + av.str());
  return reshape(slice(keys, {i, 0}, {i + 1, 2}, {}, loc), {2}, loc);
}

Array bits(const Array& key, const Shape& shape, SourceLocation loc) {
  check_key(key, "random::bits");
  for (int64_t d : shape)
    if (d < 0) throw ValueError("random::bits: expects non-negative dimensions, but got " + shape_string(shape));
  return reshape(hash(key, num_elements(shape), loc), shape, loc);
}

Array uniform(const Array& key, const Shape& shape, DType dtype, double minval, double maxval, SourceLocation loc) {
  check_key(key, "random::uniform");
  if (!is_floating(dtype))
    throw DTypeError("random::uniform: expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  // Random mantissa bits under the exponent of 1.0 give a float in [1, 2); minus 1: [0, 1).
  // As many bits as `dtype` has (at most f32's 23), so that rounding to bf16 or f16 cannot
  // carry a value up to 1.0 (as jax.random.uniform, which draws in the target dtype).
  int nmant = dtype == DType::bf16 ? 7 : dtype == DType::f16 ? 10 : 23;
  Array b = bits(key, shape, loc);
  Array mant = bind1(prim::kShiftRightLogical, {b, Array(32 - nmant)}, {}, loc);
  if (nmant < 23) mant = multiply(mant, Array(int32_t{1} << (23 - nmant)), loc);  // back under the exponent
  Array one_two = bind1(prim::kOr, {mant, Array(int32_t{0x3F800000})}, {}, loc);
  Array u = subtract(bind1(prim::kBitcastConvertType, {one_two}, Params{{"new_dtype", DType::f32}}, loc), Array(1.0f), loc);
  if (minval != 0.0 || maxval != 1.0)
    u = maximum(add(multiply(u, Array(maxval - minval), loc), Array(minval), loc), Array(minval), loc);
  return astype(u, dtype, loc);
}

Array normal(const Array& key, const Shape& shape, DType dtype, SourceLocation loc) {
  check_key(key, "random::normal");
  if (!is_floating(dtype))
    throw DTypeError("random::normal: expects a floating-point dtype, but got " + std::string(short_name(dtype)));
  Array keys = split(key, 2, loc);
  Array u1 = uniform(key_at(keys, 0, loc), shape, DType::f32, 0.0, 1.0, loc);
  Array u2 = uniform(key_at(keys, 1, loc), shape, DType::f32, 0.0, 1.0, loc);
  // Box–Muller; 1 - u1 lies in (0, 1], so the log is finite.
  Array r = sqrt(multiply(Array(-2.0f), log(subtract(Array(1.0f), u1, loc), loc), loc), loc);
  Array z = multiply(r, cos(multiply(Array(static_cast<float>(2.0 * M_PI)), u2, loc), loc), loc);
  return astype(z, dtype, loc);
}

}  // namespace strata::random
