// jaxprs as JAX (0.10.2) prints them, read by strata's parser and run: tests/jaxpr_import/ holds
// NAME.jaxpr with the arguments JAX ran it on and the results JAX computed (.npy; written by
// tests/jaxpr_import/generate.py). Each text parses (JAX's forms: nested tuples, records,
// `jit` and `custom_jvp_call` inlined, `let`-bound sub-programs, select_n, split, size-1
// stretching, ...), runs eagerly and under jit, and matches JAX's numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jaxpr_parser.h"
#include "strata/strata.h"

namespace st = strata;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(STRATA_SOURCE_DIR) / "tests" / "jaxpr_import";

std::vector<st::Array> load_all(const std::string& name, const char* kind) {
  std::vector<st::Array> out;
  for (int i = 0;; ++i) {
    fs::path p = kDir / (name + "." + kind + std::to_string(i) + ".npy");
    if (!fs::exists(p)) return out;
    out.push_back(st::load_npy(p.string()));
  }
}

void expect_close(const st::Array& got, const st::Array& want, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(got.shape(), want.shape());
  ASSERT_EQ(got.dtype(), want.dtype());
  std::vector<double> a = got.to_vector<double>(), b = want.to_vector<double>();
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(b[i])) {
      EXPECT_TRUE(std::isnan(a[i])) << "element " << i;
      continue;
    }
    ASSERT_NEAR(a[i], b[i], 1e-5 + 1e-5 * std::abs(b[i])) << "element " << i;
  }
}

}  // namespace

TEST(JaxPrintedJaxprs, ParseRunAndMatchJax) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kDir))
    if (entry.path().extension() == ".jaxpr") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 30u) << kDir;
  for (const fs::path& file : files) {
    const std::string name = file.stem().string();
    SCOPED_TRACE(name);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    st::ParsedJaxpr parsed = st::parse_jaxpr(text.str(), file.filename().string());
    ASSERT_TRUE(parsed.jaxpr) << name << ".jaxpr:" << parsed.error.line << ":" << parsed.error.column << ": "
                              << parsed.error.message;
    st::Jaxpr j(parsed.jaxpr);
    std::vector<st::Array> args = load_all(name, "in"), want = load_all(name, "out");
    std::vector<st::Array> eager = st::eval_jaxpr(j, args);
    std::vector<st::Array> jitted = st::jit([&](const std::vector<st::Array>& a) { return st::eval_jaxpr(j, a); })(args);
    ASSERT_EQ(eager.size(), want.size());
    ASSERT_EQ(jitted.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      expect_close(eager[i], want[i], "eager result " + std::to_string(i));
      expect_close(jitted[i], want[i], "jit result " + std::to_string(i));
    }
  }
}

// Derivatives through a parsed JAX program: the inlined `custom_jvp_call` of relu and the
// `jit` around it differentiate like strata's own ops (the MLP's gradient, against the
// gradient JAX printed and computed, grad_mlp).
TEST(JaxPrintedJaxprs, GradientOfAParsedProgramMatchesJaxs) {
  std::ifstream in(kDir / "mlp.jaxpr");
  std::stringstream text;
  text << in.rdbuf();
  st::ParsedJaxpr parsed = st::parse_jaxpr(text.str(), "mlp.jaxpr");
  ASSERT_TRUE(parsed.jaxpr) << parsed.error.message;
  st::Jaxpr j(parsed.jaxpr);
  std::vector<st::Array> args = load_all("mlp", "in");  // x, w, b
  auto loss = [&](const st::Array& w) {
    st::Array y = st::eval_jaxpr(j, {args[0], w, args[2]})[0];
    return st::sum(y * y);
  };
  std::vector<st::Array> want = load_all("grad_mlp", "out");
  expect_close(st::grad(loss)(args[1]), want.at(0), "grad");
  expect_close(st::jit(st::grad(loss))(args[1]), want.at(0), "jit(grad)");
}

// jnp.fft.rfft2 as JAX prints it (fft_type as the number, JAX 0.5 on; as FftType.RFFT
// before), inside its `jit` wrapper: both read as the fft primitive and run like st::fft's.
TEST(JaxPrintedJaxprs, FftTypeAsNumberOrEnum) {
  for (std::string type : {"2", "FftType.RFFT", "jaxlib.xla_client.FftType.RFFT"}) {
    SCOPED_TRACE(type);
    std::string text = "{ lambda ; a:f32[3,4,6]. let\n"
                       "    b:c64[3,4,4] = jit[\n"
                       "      name=fft\n"
                       "      jaxpr={ lambda ; a:f32[3,4,6]. let\n"
                       "          b:c64[3,4,4] = fft[fft_lengths=(4, 6) fft_type=" + type + "] a\n"
                       "        in (b,) }\n"
                       "    ] a\n"
                       "  in (b,) }";
    st::ParsedJaxpr parsed = st::parse_jaxpr(text);
    ASSERT_TRUE(parsed.jaxpr) << parsed.error.line << ":" << parsed.error.column << ": " << parsed.error.message;
    st::Array x = st::random::normal(st::random::key(1), {3, 4, 6});
    std::vector<st::Array> r = st::eval_jaxpr(st::Jaxpr(parsed.jaxpr), {x});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].to_vector<std::complex<float>>(), st::fft::rfft2(x).to_vector<std::complex<float>>());
  }
  st::ParsedJaxpr bad = st::parse_jaxpr("{ lambda ; a:c64[4]. let b:c64[4] = fft[fft_lengths=(4,) fft_type=FftType.DCT] a in (b,) }");
  ASSERT_FALSE(bad.jaxpr);
  EXPECT_NE(bad.error.message.find("FftType"), std::string::npos) << bad.error.message;
}

// lax.rng_bit_generator as JAX prints it (the algorithm as the enum's member, out_sharding):
// read as the primitive and run, the bits JAX gave.
TEST(JaxPrintedJaxprs, RngBitGeneratorAlgorithm) {
  for (std::string algorithm : {"RNG_DEFAULT", "RandomAlgorithm.RNG_PHILOX"}) {
    SCOPED_TRACE(algorithm);
    std::string text = "{ lambda ; a:u32[4]. let\n"
                       "    b:u32[4] c:u8[2,3] = rng_bit_generator[\n"
                       "      algorithm=" + algorithm + "\n"
                       "      dtype=uint8\n"
                       "      out_sharding=None\n"
                       "      shape=(2, 3)\n"
                       "    ] a\n"
                       "  in (b, c) }";
    st::ParsedJaxpr parsed = st::parse_jaxpr(text);
    ASSERT_TRUE(parsed.jaxpr) << parsed.error.line << ":" << parsed.error.column << ": " << parsed.error.message;
    st::Array key = st::array(std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcba9, 0x87654321}, {4});
    std::vector<st::Array> r = st::eval_jaxpr(st::Jaxpr(parsed.jaxpr), {key});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].to_vector<uint32_t>(), (std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0x0fedcbab, 0x87654321}));
    EXPECT_EQ(r[1].to_vector<uint8_t>(), (std::vector<uint8_t>{0x19, 0x49, 0xe5, 0x90, 0xb9, 0x9c}));
  }
  st::ParsedJaxpr bad = st::parse_jaxpr(
      "{ lambda ; a:u32[4]. let b:u32[4] c:u8[2] = rng_bit_generator[algorithm=RNG_MT19937 dtype=uint8 shape=(2,)] a in (b, c) }");
  ASSERT_FALSE(bad.jaxpr);
  EXPECT_NE(bad.error.message.find("RandomAlgorithm"), std::string::npos) << bad.error.message;
}
