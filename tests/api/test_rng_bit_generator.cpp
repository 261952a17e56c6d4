// st::rng_bit_generator (jax.lax.rng_bit_generator): the bits and new keys JAX 0.10.2 gives on
// CPU for each algorithm (DEFAULT is PHILOX there), dtype and shape, eagerly and compiled, bit
// for bit; the 128-bit counter's carry; large draws by a checksum; JAX's vmap rule; refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::RngAlgorithm;

namespace {

Array key_of(std::vector<uint32_t> words) { return st::array(words, {static_cast<int64_t>(words.size())}); }

// The bits as u64 (every dtype widened), eager or jit.
std::pair<std::vector<uint32_t>, std::vector<uint64_t>> draw(const Array& key, const st::Shape& shape, st::DType t,
                                                               RngAlgorithm a, bool compiled) {
  auto f = [&](const Array& k) {
    auto [next, bits] = st::rng_bit_generator(k, shape, t, a);
    return std::make_tuple(next, bits);
  };
  auto [next, bits] = compiled ? st::jit(f)(key) : f(key);
  EXPECT_EQ(bits.dtype(), t);
  EXPECT_EQ(bits.shape(), shape);
  return {next.to_vector<uint32_t>(), st::astype(bits, st::u64).to_vector<uint64_t>()};
}

struct Case {
  RngAlgorithm algorithm;
  st::Shape shape;
  st::DType dtype;
  std::vector<uint32_t> key;
  std::vector<uint64_t> bits;
};

const std::vector<uint32_t> kKey = {0x12345678, 0x9abcdef0, 0x0fedcba9, 0x87654321};

// jax.lax.rng_bit_generator(key, shape, dtype, algorithm) on CPU.
const std::vector<Case> kCases = {
    {RngAlgorithm::kPhilox, {5}, st::u32, {0x12345678, 0x9abcdef0, 0xfedcbab, 0x87654321},
     {0x24b5f219, 0x724afc49, 0x6fa8a0e5, 0x27733f90, 0xa8093bb9}},
    {RngAlgorithm::kDefault, {3, 3}, st::u32, {0x12345678, 0x9abcdef0, 0xfedcbac, 0x87654321},
     {0x24b5f219, 0x724afc49, 0x6fa8a0e5, 0x27733f90, 0xa8093bb9, 0xf6d3e39c, 0x23bb1469, 0xba6f6c6b, 0xcb7768bb}},
    {RngAlgorithm::kPhilox, {2, 3}, st::u64, {0x12345678, 0x9abcdef0, 0xfedcbac, 0x87654321},
     {0x724afc4924b5f219, 0x27733f906fa8a0e5, 0xf6d3e39ca8093bb9, 0xba6f6c6b23bb1469, 0x1907210cb7768bb,
      0xd37d9097af5bb591}},
    {RngAlgorithm::kDefault, {7}, st::u8, {0x12345678, 0x9abcdef0, 0xfedcbab, 0x87654321},
     {0x19, 0x49, 0xe5, 0x90, 0xb9, 0x9c, 0x69}},
    {RngAlgorithm::kPhilox, {}, st::u16, {0x12345678, 0x9abcdef0, 0xfedcbaa, 0x87654321}, {0xf219}},
    {RngAlgorithm::kDefault, {3}, st::u64, {0x12345678, 0x9abcdef0, 0xfedcbab, 0x87654321},
     {0x724afc4924b5f219, 0x27733f906fa8a0e5, 0xf6d3e39ca8093bb9}},
    {RngAlgorithm::kThreeFry, {5}, st::u32, {0x12345678, 0x9abcdef0, 0xfedcbac, 0x87654321},
     {0x814878c9, 0xfbd8efaa, 0xbb976c84, 0x7094db2c, 0xbc220d92}},
    {RngAlgorithm::kThreeFry, {3, 3}, st::u32, {0x12345678, 0x9abcdef0, 0xfedcbaf, 0x87654321},
     {0x814878c9, 0xbb976c84, 0xbc220d92, 0xfbd8efaa, 0x7094db2c, 0x3f03d8c9, 0x57b50dc6, 0x36ff29c1, 0x856ee894}},
    {RngAlgorithm::kThreeFry, {2, 3}, st::u64, {0x12345678, 0x9abcdef0, 0xfedcbaf, 0x87654321},
     {0xfbd8efaa814878c9, 0x7094db2cbb976c84, 0x3f03d8c9bc220d92, 0x7b17a65a57b50dc6, 0x633f780336ff29c1,
      0xae58f2bb856ee894}},
    {RngAlgorithm::kThreeFry, {7}, st::u8, {0x12345678, 0x9abcdef0, 0xfedcbad, 0x87654321},
     {0xc9, 0xaa, 0x84, 0x2c, 0x92, 0xc9, 0xc6}},
    {RngAlgorithm::kThreeFry, {}, st::u16, {0x12345678, 0x9abcdef0, 0xfedcbaa, 0x87654321}, {0x78c9}},
};

}  // namespace

TEST(RngBitGenerator, BitsAndKeysAsJax) {
  for (const Case& c : kCases) {
    for (bool compiled : {false, true}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(c.algorithm)) + " " + st::shape_string(c.shape) + " " +
                   std::string(st::short_name(c.dtype)) + (compiled ? " jit" : " eager"));
      auto [key, bits] = draw(key_of(kKey), c.shape, c.dtype, c.algorithm, compiled);
      EXPECT_EQ(key, c.key);
      EXPECT_EQ(bits, c.bits);
    }
  }
}

// The 128-bit counter (low word 2^64 - 2) wraps: PHILOX with a u32[4] key keeps the low word
// only (its high word is the key); THREE_FRY's 64-bit counter simply advances.
TEST(RngBitGenerator, CounterWrapsAsJax) {
  Array key = key_of({3, 4, 0xfffffffe, 0xffffffff});
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "jit" : "eager");
    auto [k1, b1] = draw(key, {11}, st::u32, RngAlgorithm::kPhilox, compiled);
    EXPECT_EQ(k1, (std::vector<uint32_t>{3, 4, 1, 0}));
    EXPECT_EQ(b1, (std::vector<uint64_t>{0xfbbf7869, 0x35f4fab5, 0x96d26c33, 0x4b1d0c13, 0x2557959c, 0x85820d17,
                                         0x65c70e49, 0x3a559ce6, 0xe9020e8e, 0x9667fa2e, 0x4459143d}));
    auto [k2, b2] = draw(key, {4}, st::u64, RngAlgorithm::kPhilox, compiled);
    EXPECT_EQ(k2, (std::vector<uint32_t>{3, 4, 0, 0}));
    EXPECT_EQ(b2, (std::vector<uint64_t>{0x35f4fab5fbbf7869, 0x4b1d0c1396d26c33, 0x85820d172557959c, 0x3a559ce665c70e49}));
    auto [k3, b3] = draw(key, {4}, st::u64, RngAlgorithm::kThreeFry, compiled);
    EXPECT_EQ(k3, (std::vector<uint32_t>{3, 4, 2, 0}));
    EXPECT_EQ(b3, (std::vector<uint64_t>{0xbbd7b58454232fa2, 0xd128f916976b0067, 0x885f91a4437bdde, 0x6b3f4edfa0922344}));
  }
}

// u64 keys: two words (JAX's other form), three for PHILOX (the counter's own high word, which
// takes the carry; XLA's compiler gave these).
TEST(RngBitGenerator, WideKeys) {
  Array two = st::array(std::vector<uint64_t>{7, 11}, {2});
  Array three = st::array(std::vector<uint64_t>{7, 0xfffffffffffffffeull, 9}, {3});
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "jit" : "eager");
    auto f = [](const Array& k, const st::Shape& s) { return st::rng_bit_generator(k, s, st::u32, RngAlgorithm::kPhilox); };
    auto g2 = [&](const Array& k) { auto [a, b] = f(k, {4}); return std::make_tuple(a, b); };
    auto g3 = [&](const Array& k) { auto [a, b] = f(k, {6}); return std::make_tuple(a, b); };
    auto [k2, b2] = compiled ? st::jit(g2)(two) : g2(two);
    EXPECT_EQ(k2.to_vector<uint64_t>(), (std::vector<uint64_t>{7, 12}));
    EXPECT_EQ(b2.to_vector<uint32_t>(), (std::vector<uint32_t>{0x63737cfd, 0x9d1ff039, 0x106df2d6, 0x4b6c7bf2}));
    auto [k3, b3] = compiled ? st::jit(g3)(three) : g3(three);
    EXPECT_EQ(k3.to_vector<uint64_t>(), (std::vector<uint64_t>{7, 0, 10}));
    EXPECT_EQ(b3.to_vector<uint32_t>(),
              (std::vector<uint32_t>{0xb3d3c2ca, 0x434bbb9f, 0xf06d7566, 0x4fe1e875, 0x3282737c, 0x95362b70}));
  }
}

// Draws split across the thread pool and long vector loops: sum of bits[i] * (i + 1) mod 2^64.
TEST(RngBitGenerator, LargeDrawsAsJax) {
  struct Large {
    RngAlgorithm algorithm;
    st::Shape shape;
    st::DType dtype;
    uint32_t counter;
    uint64_t checksum;
  };
  const Large cases[] = {
      {RngAlgorithm::kPhilox, {1000, 37}, st::u32, 0x2425, 0x145a89c7179dea99},
      {RngAlgorithm::kPhilox, {333, 7}, st::u64, 0x491, 0xd3c187053e696d95},
      {RngAlgorithm::kPhilox, {5, 101}, st::u16, 0x82, 0xf206ce32},
      {RngAlgorithm::kPhilox, {4, 3, 5}, st::u8, 0x12, 0x33710},
      {RngAlgorithm::kPhilox, {100003}, st::u32, 0x61ac, 0x95380a959032f3e8},
      {RngAlgorithm::kThreeFry, {1000, 37}, st::u32, 0x4847, 0x144c239005777b2d},
      {RngAlgorithm::kThreeFry, {333, 7}, st::u64, 0x91e, 0x327cc0c7fe8464ff},
      {RngAlgorithm::kThreeFry, {5, 101}, st::u16, 0x102, 0xfab0024a},
      {RngAlgorithm::kThreeFry, {4, 3, 5}, st::u8, 0x21, 0x3bdaf},
      {RngAlgorithm::kThreeFry, {100003}, st::u32, 0xc355, 0x94d4c765642dec2d},
  };
  for (const Large& c : cases) {
    for (bool compiled : {false, true}) {
      SCOPED_TRACE(st::shape_string(c.shape) + " " + std::string(st::short_name(c.dtype)) + (compiled ? " jit" : " eager"));
      auto [key, bits] = draw(key_of({1, 2, 3, 4}), c.shape, c.dtype, c.algorithm, compiled);
      EXPECT_EQ(key, (std::vector<uint32_t>{1, 2, c.counter, 4}));
      uint64_t sum = 0;
      for (size_t i = 0; i < bits.size(); ++i) sum += bits[i] * (i + 1);
      EXPECT_EQ(sum, c.checksum);
    }
  }
}

TEST(RngBitGenerator, EmptyShapes) {
  for (RngAlgorithm a : {RngAlgorithm::kPhilox, RngAlgorithm::kThreeFry}) {
    for (bool compiled : {false, true}) {
      auto [key, bits] = draw(key_of(kKey), {3, 0}, st::u32, a, compiled);
      EXPECT_TRUE(bits.empty());
      EXPECT_EQ(key, kKey);
    }
  }
}

// JAX's batching rule: the first key draws [batch, *shape] and advances; the others are
// returned unchanged (jax.vmap(lambda k: lax.rng_bit_generator(k, (2,)))(keys) on CPU).
TEST(RngBitGenerator, VmapAsJax) {
  Array keys = st::array(std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcba9, 0x87654321, 0xfffffffe, 0xffffffff, 5,
                                               6, 0x1234567b, 0x9abcdef3, 0x0fedcbac, 0x87654324},
                         {3, 4});
  auto f = [](const Array& k) {
    auto [next, bits] = st::rng_bit_generator(k, {2});
    return std::make_tuple(next, bits);
  };
  for (bool compiled : {false, true}) {
    SCOPED_TRACE(compiled ? "jit" : "eager");
    auto g = st::vmap(f);
    auto [next, bits] = compiled ? st::jit(g)(keys) : g(keys);
    EXPECT_EQ(next.shape(), (st::Shape{3, 4}));
    EXPECT_EQ(next.to_vector<uint32_t>(),
              (std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcbab, 0x87654321, 0xfffffffe, 0xffffffff, 5, 6,
                                     0x1234567b, 0x9abcdef3, 0x0fedcbac, 0x87654324}));
    EXPECT_EQ(bits.shape(), (st::Shape{3, 2}));
    EXPECT_EQ(bits.to_vector<uint32_t>(),
              (std::vector<uint32_t>{0x24b5f219, 0x724afc49, 0x6fa8a0e5, 0x27733f90, 0xa8093bb9, 0xf6d3e39c}));
  }
}

// The bits have no derivative: a function of a float that also draws differentiates as if the
// draw were a constant.
TEST(RngBitGenerator, NotDifferentiable) {
  auto f = [](const Array& x) {
    auto [next, bits] = st::rng_bit_generator(key_of(kKey), {3});
    return st::sum(x * st::astype(bits, st::f32) / 4294967296.0f);
  };
  Array x = st::ones({3});
  Array g = st::grad(f)(x);
  auto [next, bits] = st::rng_bit_generator(key_of(kKey), {3});
  std::vector<float> want;
  for (uint32_t b : bits.to_vector<uint32_t>()) want.push_back(static_cast<float>(b) / 4294967296.0f);
  EXPECT_EQ(g.to_vector<float>(), want);
}

TEST(RngBitGenerator, RefusesBadKeysAndDtypes) {
  st::testing::expect_error([] { st::rng_bit_generator(st::zeros({4}, st::i32), {2}); },
                                            "rng_bit_generator: expects a key of uint32[4] or uint64[2] (or uint64[3] for PHILOX), but got i32[4]");
  st::testing::expect_error(
      [] { st::rng_bit_generator(st::zeros({3}, st::u64), {2}, st::u32, RngAlgorithm::kThreeFry); },
      "rng_bit_generator: expects a key of uint32[4] or uint64[2], but got u64[3]");
  st::testing::expect_error([] { st::rng_bit_generator(key_of(kKey), {2}, st::f32); },
                                            "rng_bit_generator: expects dtype uint8, uint16, uint32 or uint64, but got float32");
  st::testing::expect_error([] { st::rng_bit_generator(key_of(kKey), {2, -1}); },
                                            "rng_bit_generator: expects a shape of sizes >= 0, but got [2,-1]");
}

// The jaxpr shows the primitive with its params; jit lowers it to strata.rng_bit_generator on the
// key's 64-bit words, as JAX lowers it.
TEST(RngBitGenerator, JaxprAndLowering) {
  auto f = [](const Array& k) {
    auto [next, bits] = st::rng_bit_generator(k, {2, 3}, st::u8, RngAlgorithm::kThreeFry);
    return std::make_tuple(next, bits);
  };
  std::string j = st::make_jaxpr(f)(key_of(kKey)).to_string();
  EXPECT_NE(j.find("rng_bit_generator[algorithm=1 dtype=uint8 shape=(2, 3)]"), std::string::npos) << j;
  std::string ir = st::jit(f).lower(key_of(kKey)).as_text("strata");
  EXPECT_NE(ir.find("strata.rng_bit_generator %"), std::string::npos) << ir;
  EXPECT_NE(ir.find("algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)"), std::string::npos) << ir;
}
