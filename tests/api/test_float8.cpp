// The 8-bit floats f8_e4m3fn and f8_e5m2 (jnp.float8_e4m3fn, jnp.float8_e5m2): every byte's
// value and the rounding of f32 values against ml_dtypes (tests/api/float8_values.py), eager
// and compiled bit for bit; JAX's promotion rules and finfo; arithmetic, reductions and a
// matmul against JAX's results; compiled against eager for the usual ops; gradients.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "float8_values.h"
#include "jaxpr_parser.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
namespace fv = float8_values;

namespace {

struct Format {
  st::DType t;
  std::span<const uint32_t> decoded, round_in;
  std::span<const uint8_t> round_out;
};
const Format kFormats[] = {
    {st::f8_e4m3fn, fv::kE4M3FNDecoded, fv::kE4M3FNRoundIn, fv::kE4M3FNRoundOut},
    {st::f8_e5m2, fv::kE5M2Decoded, fv::kE5M2RoundIn, fv::kE5M2RoundOut},
};

std::vector<uint8_t> every_byte() {
  std::vector<uint8_t> b(256);
  for (int i = 0; i < 256; ++i) b[i] = static_cast<uint8_t>(i);
  return b;
}

Array from_bits(const std::vector<uint32_t>& bits) {
  return st::bitcast_convert_type(st::array(bits, {static_cast<int64_t>(bits.size())}), st::f32);
}

// Both nan (of either sign: ml_dtypes and strata agree on the sign, checked separately) or the
// same bits.
void expect_same_f32(const std::vector<uint32_t>& got, std::span<const uint32_t> want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    float g = std::bit_cast<float>(got[i]), w = std::bit_cast<float>(want[i]);
    if (std::isnan(w)) EXPECT_TRUE(std::isnan(g) && std::signbit(g) == std::signbit(w)) << what << " byte " << i;
    else EXPECT_EQ(got[i], want[i]) << what << " byte " << i << ": got " << g << ", want " << w;
  }
}

}  // namespace

TEST(Float8, DecodesEveryByteAsMlDtypes) {
  for (const Format& f : kFormats) {
    Array bytes = st::array(every_byte(), {256});
    auto decode = [&](const Array& b) {
      return st::bitcast_convert_type(st::astype(st::bitcast_convert_type(b, f.t), st::f32), st::u32);
    };
    expect_same_f32(decode(bytes).to_vector<uint32_t>(), f.decoded, std::string(st::short_name(f.t)) + " eager");
    expect_same_f32(st::jit(decode)(bytes).to_vector<uint32_t>(), f.decoded, std::string(st::short_name(f.t)) + " jit");
    // f8 -> f64 and f8 -> f16 are exact as well.
    std::vector<double> wide = st::astype(st::bitcast_convert_type(bytes, f.t), st::f64).to_vector<double>();
    for (int i = 0; i < 256; ++i) {
      float w = std::bit_cast<float>(f.decoded[i]);
      if (!std::isnan(w)) EXPECT_EQ(wide[i], static_cast<double>(w)) << i;
    }
  }
}

TEST(Float8, RoundsF32AsMlDtypes) {
  for (const Format& f : kFormats) {
    Array x = from_bits(std::vector<uint32_t>(f.round_in.begin(), f.round_in.end()));
    auto encode = [&](const Array& v) { return st::bitcast_convert_type(st::astype(v, f.t), st::u8); };
    for (bool compiled : {false, true}) {
      std::vector<uint8_t> got = (compiled ? st::jit(encode)(x) : encode(x)).to_vector<uint8_t>();
      ASSERT_EQ(got.size(), f.round_out.size());
      std::vector<float> in = x.to_vector<float>();
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(int(got[i]), int(f.round_out[i]))
            << st::short_name(f.t) << (compiled ? " jit" : " eager") << ": " << in[i] << " (0x" << std::hex
            << f.round_in[i] << ")";
    }
  }
}

TEST(Float8, RoundsWiderValuesOnce) {
  // 1 + 2^-4 + 2^-30 is above the e4m3fn midpoint 1.0625 between 1 and 1.125; an f32 detour
  // would drop the 2^-30 and round the tie to 1.
  Array x = st::array(std::vector<double>{1.0 + 0x1p-4 + 0x1p-30, -(1.0 + 0x1p-4 + 0x1p-30), 1.0 + 0x1p-4}, {3}, st::f64);
  auto f = [](const Array& v) { return st::astype(v, st::f8_e4m3fn); };
  for (const Array& r : {f(x), st::jit(f)(x)}) EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{1.125, -1.125, 1.0}));
  // Integers: 17 and 19 are ties in e4m3fn (steps of 2 from 16), to even mantissas 16 and 20.
  Array n = st::array(std::vector<int64_t>{17, 19, -17, 1000, 100000}, {5});
  EXPECT_EQ(st::astype(n, st::f8_e4m3fn).to_vector<double>()[0], 16.0);
  EXPECT_EQ(st::astype(n, st::f8_e4m3fn).to_vector<double>()[1], 20.0);
  std::vector<double> e5 = st::astype(n, st::f8_e5m2).to_vector<double>();
  EXPECT_EQ(e5, (std::vector<double>{16.0, 20.0, -16.0, 1024.0, INFINITY}));
  EXPECT_TRUE(std::isnan(st::astype(n, st::f8_e4m3fn).to_vector<double>()[4]));  // no inf: nan
  // f8 -> integers truncate toward zero and saturate, as from any float.
  Array y = st::astype(st::array(std::vector<double>{-2.75, 448, 3.5}, {3}), st::f8_e4m3fn);
  EXPECT_EQ(st::astype(y, st::i8).to_vector<int64_t>(), (std::vector<int64_t>{-2, 127, 3}));
  EXPECT_EQ(st::astype(y, st::u8).to_vector<int64_t>(), (std::vector<int64_t>{0, 255, 3}));
}

TEST(Float8, PromotesAsJax) {
  for (st::DType t : {st::f8_e4m3fn, st::f8_e5m2}) {
    for (st::DType other : {st::bf16, st::f16, st::f32, st::f64, st::c64, st::c128})
      EXPECT_THROW(st::promote_types(t, other), st::DTypeError) << st::short_name(t) << " " << st::short_name(other);
    for (st::DType other : {st::bool_, st::i8, st::i32, st::u64})
      EXPECT_EQ(st::promote_types(t, other), t) << st::short_name(other);
    Array x = st::astype(st::array(std::vector<double>{1.5, -2}, {2}), t);
    EXPECT_EQ((x * 2.0).dtype(), t);  // weak scalars take the array's type
    EXPECT_EQ((x + 1).dtype(), t);
    EXPECT_EQ((x + st::array(std::vector<int32_t>{1, 2}, {2})).dtype(), t);
  }
  EXPECT_THROW(st::promote_types(st::f8_e4m3fn, st::f8_e5m2), st::DTypeError);
  Array a = st::astype(st::array(std::vector<double>{1, 2}, {2}), st::f8_e4m3fn);
  st::testing::expect_contains(st::testing::error_message<st::DTypeError>([&] { (void)(a + st::ones({2}, st::f32)); }),
                               "float8_e4m3fn and float32 have no implicit promotion");
  EXPECT_EQ((st::astype(a, st::f32) + st::ones({2}, st::f32)).to_vector<double>(), (std::vector<double>{2, 3}));
}

TEST(Float8, NamesAndFinfo) {
  st::DType t;
  ASSERT_TRUE(st::parse_dtype("float8_e4m3fn", &t));
  EXPECT_EQ(t, st::f8_e4m3fn);
  ASSERT_TRUE(st::parse_dtype("f8_e5m2", &t));
  EXPECT_EQ(t, st::f8_e5m2);
  EXPECT_EQ(st::itemsize(st::f8_e4m3fn), 1u);
  EXPECT_TRUE(st::is_floating(st::f8_e5m2));
  EXPECT_FALSE(st::supports_inf(st::f8_e4m3fn));
  EXPECT_TRUE(st::supports_inf(st::f8_e5m2));
  // ml_dtypes.finfo(float8_e4m3fn / float8_e5m2).
  st::FInfo a = st::finfo(st::f8_e4m3fn);
  EXPECT_EQ(a.bits, 8);
  EXPECT_EQ(a.eps, 0.125);
  EXPECT_EQ(a.epsneg, 0.0625);
  EXPECT_EQ(a.max, 448.0);
  EXPECT_EQ(a.min, -448.0);
  EXPECT_EQ(a.maxexp, 9);
  EXPECT_EQ(a.minexp, -6);
  EXPECT_EQ(a.nexp, 4);
  EXPECT_EQ(a.nmant, 3);
  EXPECT_EQ(a.precision, 1);
  EXPECT_EQ(a.smallest_normal, 0.015625);
  EXPECT_EQ(a.smallest_subnormal, 0x1p-9);
  st::FInfo b = st::finfo(st::f8_e5m2);
  EXPECT_EQ(b.eps, 0.25);
  EXPECT_EQ(b.max, 57344.0);
  EXPECT_EQ(b.maxexp, 16);
  EXPECT_EQ(b.minexp, -14);
  EXPECT_EQ(b.smallest_normal, 0x1p-14);
  EXPECT_EQ(b.smallest_subnormal, 0x1p-16);
  Array x = st::astype(st::array(std::vector<double>{0.3, 3.0}, {2}), st::f8_e4m3fn);
  std::ostringstream os;
  os << x;
  st::testing::expect_contains(os.str(), "dtype=float8_e4m3fn");
}

TEST(Float8, ArithmeticMatchesJax) {
  std::vector<double> xs = {0.3, -1.7, 2.5, 20.0, -0.02, 7.0}, ys = {1.1, 0.4, -3.0, 5.0, 12.0, -0.3};
  struct Want {
    st::DType t;
    const std::vector<float>& prod;
    float sum;
    const std::vector<float>& matmul;
  };
  for (const Want& w : {Want{st::f8_e4m3fn, fv::kE4M3FNProd, fv::kE4M3FNSum, fv::kE4M3FNMatmul},
                        Want{st::f8_e5m2, fv::kE5M2Prod, fv::kE5M2Sum, fv::kE5M2Matmul}}) {
    Array a = st::astype(st::array(xs, {6}, st::f32), w.t), b = st::astype(st::array(ys, {6}, st::f32), w.t);
    auto prod = [](const Array& p, const Array& q) { return p * q + 1; };
    auto total = [](const Array& p, const Array& q) { return st::sum(p * q); };
    auto mm = [](const Array& p, const Array& q) { return st::matmul(st::reshape(p, {2, 3}), st::reshape(q, {3, 2})); };
    for (bool compiled : {false, true}) {
      std::string what = std::string(st::short_name(w.t)) + (compiled ? " jit" : " eager");
      Array p = compiled ? st::jit(prod)(a, b) : prod(a, b);
      Array s = compiled ? st::jit(total)(a, b) : total(a, b);
      Array m = compiled ? st::jit(mm)(a, b) : mm(a, b);
      EXPECT_EQ(p.dtype(), w.t);
      EXPECT_EQ(s.dtype(), w.t);
      EXPECT_EQ(m.dtype(), w.t);
      EXPECT_EQ(p.to_vector<float>(), w.prod) << what;
      EXPECT_EQ(s.item<float>(), w.sum) << what;
      EXPECT_EQ(m.to_vector<float>(), w.matmul) << what;
    }
  }
}

TEST(Float8, CompiledMatchesEager) {
  // The f32 results of the eager kernels and of the compiled bodies may differ by an f32 ulp
  // or so (libm against strata's own polynomials), which can move an f8 rounding by one step.
  std::vector<double> xs = st::testing::test_values(512, -6, 6, 3);
  using Fn = Array (*)(const Array&);
  const std::pair<const char*, Fn> ops[] = {
      {"exp", [](const Array& x) { return st::exp(x); }},
      {"tanh", [](const Array& x) { return st::tanh(x); }},
      {"log1p_abs", [](const Array& x) { return st::log1p(st::abs(x)); }},
      {"sqrt_abs", [](const Array& x) { return st::sqrt(st::abs(x)); }},
      {"chain", [](const Array& x) { return st::maximum(x * x - 3 * x, st::negative(x)) / 4; }},
      {"floor", [](const Array& x) { return st::floor(x) + st::sign(x); }},
      {"where", [](const Array& x) { return st::where(x > 0.5, x, x * 0.25); }},
      {"max_rows", [](const Array& x) { return st::max(st::reshape(x, {16, 32}), {1}); }},
      {"min_cols", [](const Array& x) { return st::min(st::reshape(x, {16, 32}), {0}); }},
      {"sum_rows", [](const Array& x) { return st::sum(st::reshape(x, {16, 32}), {1}); }},
      {"cumsum", [](const Array& x) { return st::cumsum(st::reshape(x, {16, 32}), 1); }},
      {"sort", [](const Array& x) { return st::sort(x); }},
      {"softmax", [](const Array& x) { return st::softmax(st::reshape(x, {16, 32}), -1); }},
      {"transpose_dot", [](const Array& x) {
         Array m = st::reshape(x, {16, 32});
         return st::matmul(m, st::transpose(m));
       }},
      {"to_f32", [](const Array& x) { return st::astype(x * x, st::f32); }},
      {"compare", [](const Array& x) { return st::astype(x < 0.3, st::f8_e5m2); }},
  };
  for (st::DType t : {st::f8_e4m3fn, st::f8_e5m2}) {
    Array x = st::astype(st::array(xs, {512}, st::f32), t);
    for (const auto& [name, fn] : ops) {
      Array eager = fn(x), compiled = st::jit(fn)(x);
      ASSERT_EQ(eager.dtype(), compiled.dtype()) << name;
      ASSERT_EQ(eager.shape(), compiled.shape()) << name;
      std::vector<double> e = eager.to_vector<double>(), c = compiled.to_vector<double>();
      int off = 0;
      for (size_t i = 0; i < e.size(); ++i)
        if (!st::testing::close(c[i], e[i], eager.dtype(), 1)) ++off;
      EXPECT_EQ(off, 0) << name << " " << st::short_name(t) << ": " << off << " of " << e.size()
                        << " elements differ by more than one step of " << st::short_name(eager.dtype());
    }
  }
}

TEST(Float8, Gradients) {
  // grad in the type (JAX differentiates the 8-bit floats like any float): the derivative of
  // sum(x sin x) is sin x + x cos x, each op rounded to f8 on the way.
  for (st::DType t : {st::f8_e4m3fn, st::f8_e5m2}) {
    Array x = st::astype(st::array(std::vector<double>{0.25, -1.5, 2.0, 3.5}, {4}), t);
    auto loss = [](const Array& v) { return st::sum(v * st::sin(v)); };
    Array g = st::grad(loss)(x), gj = st::jit(st::grad(loss))(x);
    EXPECT_EQ(g.dtype(), t);
    std::vector<double> xv = x.to_vector<double>(), gv = g.to_vector<double>();
    for (size_t i = 0; i < xv.size(); ++i) {
      double a = std::sin(xv[i]), b = xv[i] * std::cos(xv[i]), want = a + b;
      // Each term rounded to f8 before the sum: within two steps of the larger term.
      double atol = 2 * st::testing::ulp(std::max(std::fabs(a), std::fabs(b)), t);
      EXPECT_TRUE(st::testing::close(gv[i], want, t, 2, atol)) << st::short_name(t) << " " << gv[i] << " vs " << want;
    }
    std::vector<double> gjv = gj.to_vector<double>();
    for (size_t i = 0; i < gv.size(); ++i) EXPECT_TRUE(st::testing::close(gjv[i], gv[i], t, 1)) << i;
  }
}

TEST(Float8, NpyRefusesWithAClearMessage) {
  Array x = st::astype(st::ones({2}), st::f8_e5m2);
  std::string path = ::testing::TempDir() + "/float8.npy";
  st::testing::expect_contains(st::testing::error_message<st::Error>([&] { st::save_npy(path, x); }), "float8_e5m2");
}

TEST(Float8, RandomMatchesJax) {
  Array k = st::random::key(0);
  for (bool compiled : {false, true}) {
    auto u = [](const Array& key) { return st::random::uniform(key, {6}, st::f8_e4m3fn); };
    auto g = [](const Array& key) { return st::random::normal(key, {6}, st::f8_e5m2); };
    EXPECT_EQ((compiled ? st::jit(u)(k) : u(k)).to_vector<float>(), fv::kE4M3FNUniform) << compiled;
    EXPECT_EQ((compiled ? st::jit(g)(k) : g(k)).to_vector<float>(), fv::kE5M2Normal) << compiled;
  }
}

TEST(Float8, JaxprsPrintAndParseTheTypes) {
  Array x = st::astype(st::array(std::vector<double>{0.3, -1.5, 2.0}, {3}), st::f8_e4m3fn);
  std::string text = st::make_jaxpr([](const Array& v) { return st::exp(v) * 2.0 + v; })(x).to_string();
  st::testing::expect_contains(text, "a:f8_e4m3fn[3]");
  st::testing::expect_contains(text, "mul b 2.0:f8_e4m3fn[]");  // JAX prints the same
  st::Jaxpr j = st::testing::reparsed_jaxpr(text);
  ASSERT_TRUE(j.impl());
  EXPECT_EQ(st::eval_jaxpr(j, {x})[0].to_vector<float>(), (st::exp(x) * 2.0 + x).to_vector<float>());
}

TEST(Float8, ReducePrecisionRefusesThem) {
  Array x = st::astype(st::ones({2}), st::f8_e5m2);
  st::testing::expect_contains(
      st::testing::error_message<st::DTypeError>([&] { (void)st::reduce_precision(x, 5, 2); }),
      "reduce_precision: expects bf16, f16, f32 or f64, but got float8_e5m2");
}

TEST(Float8, CompiledMatmulIsTheRuntimeGemm) {
  // As bf16: the operands widened to f32 in the runtime GEMM (Eigen's, the eager kernel's),
  // the f32 sum rounded once; compiled and eager give the same bits.
  for (st::DType t : {st::f8_e4m3fn, st::f8_e5m2}) {
    Array a = st::astype(st::random::normal(st::random::key(1), {2, 48, 96}), t);
    Array b = st::astype(st::random::normal(st::random::key(2), {2, 96, 40}), t);
    auto f = [](const Array& p, const Array& q) { return st::matmul(p, q); };
    auto jf = st::jit(f);
    std::string llvm = jf.lower(a, b).as_text("loops");
    st::testing::expect_contains(llvm, std::string("strata_rt_dot_") + (t == st::f8_e4m3fn ? "f8e4m3fn" : "f8e5m2"));
    Array e = f(a, b), c = jf(a, b);
    EXPECT_EQ(st::bitcast_convert_type(c, st::u8).to_vector<uint8_t>(), st::bitcast_convert_type(e, st::u8).to_vector<uint8_t>())
        << st::short_name(t);
  }
}
