// .npy files (strata/npy.h) and StableHLO modules called from C++ (strata/stablehlo.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <cmath>
#include <fstream>
#include <unistd.h>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("strata_npy_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// A .npy file written byte by byte: the header as given, then `data`.
void write_raw(const fs::path& path, const std::string& header, const std::string& data) {
  std::string h = header;
  size_t total = 10 + h.size() + 1;
  h.append((64 - total % 64) % 64, ' ');
  h += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(h.size() & 0xff), static_cast<char>(h.size() >> 8)};
  out.write(len, 2);
  out << h << data;
}

// |a - b| <= atol + rtol * |b| elementwise, same shape.
bool near_all(const st::Array& a, const st::Array& b, double rtol, double atol) {
  if (a.shape() != b.shape()) return false;
  std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  for (size_t i = 0; i < x.size(); ++i)
    if (!(std::fabs(x[i] - y[i]) <= atol + rtol * std::fabs(y[i]))) return false;
  return true;
}

std::string bytes_of(const st::Array& a) {
  return std::string(static_cast<const char*>(a.data()), a.nbytes());
}

}  // namespace

TEST(Npy, RoundTripsEveryDtypeAndShape) {
  for (st::DType t : st::kAllDTypes) {
    if (st::is_float8(t) || st::is_subbyte_integer(t)) continue;  // .npy has neither: Float8.NpyRefusesWithAClearMessage, SubbyteInt.*
    for (const st::Shape& shape : {st::Shape{2, 3}, st::Shape{}, st::Shape{0, 4}, st::Shape{5}}) {
      st::Array x = st::astype(st::arange(0, static_cast<double>(st::num_elements(shape)), 1, st::f64) * 0.75 - 1.0, t);
      x = st::reshape(x, shape);
      fs::path p = temp_file("rt.npy");
      st::save_npy(p.string(), x);
      st::Array y = st::load_npy(p.string());
      EXPECT_EQ(y.dtype(), t) << st::long_name(t);
      EXPECT_EQ(y.shape(), shape);
      EXPECT_EQ(bytes_of(y), bytes_of(x)) << st::long_name(t);
      // The data starts 64-byte aligned, as NumPy writes it.
      EXPECT_EQ(fs::file_size(p) - x.nbytes(), 128u);
    }
  }
}

TEST(Npy, ReadsFortranOrderAndBigEndian) {
  fs::path p = temp_file("fortran.npy");
  // [[0, 1, 2], [3, 4, 5]] stored column by column.
  std::vector<float> cols = {0, 3, 1, 4, 2, 5};
  write_raw(p, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
            std::string(reinterpret_cast<const char*>(cols.data()), cols.size() * 4));
  st::Array x = st::load_npy(p.string());
  EXPECT_EQ(x.shape(), (st::Shape{2, 3}));
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));

  fs::path q = temp_file("big.npy");
  write_raw(q, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", std::string("\x00\x00\x01\x02\xff\xff\xff\xfe", 8));
  EXPECT_EQ(st::load_npy(q.string()).to_vector<int32_t>(), (std::vector<int32_t>{258, -2}));
}

TEST(Npy, ReadsBigEndianComplexPartByPart) {
  fs::path p = temp_file("c8be.npy");
  // 1 + 2i: each f32 part big-endian.
  write_raw(p, "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", std::string("\x3f\x80\0\0\x40\0\0\0", 8));
  st::Array z = st::load_npy(p.string());
  EXPECT_EQ(z.dtype(), st::c64);
  EXPECT_EQ(z.to_vector<std::complex<float>>(), (std::vector<std::complex<float>>{{1, 2}}));
}

TEST(Npy, RefusesWhatItCannotRead) {
  auto message = [](const std::string& path) {
    try {
      st::load_npy(path);
    } catch (const st::ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("/no/such/file.npy").find("cannot open"), std::string::npos);
  fs::path f16 = temp_file("f16.npy");
  write_raw(f16, "{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }", "abcdefghijklmnop");
  EXPECT_NE(message(f16.string()).find("float128"), std::string::npos) << message(f16.string());
  fs::path short_data = temp_file("short.npy");
  write_raw(short_data, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", "12345678");
  EXPECT_NE(message(short_data.string()).find("needs 32"), std::string::npos) << message(short_data.string());
  fs::path text = temp_file("text.npy");
  std::ofstream(text) << "not numpy";
  EXPECT_NE(message(text.string()).find("not a .npy file"), std::string::npos);
}

constexpr const char* kModule = R"(
module @jit_f {
  func.func public @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %1 = stablehlo.maximum %0, %z : tensor<2x4xf32>
    %2 = call @rowsum(%1) : (tensor<2x4xf32>) -> tensor<2xf32>
    return %1, %2 : tensor<2x4xf32>, tensor<2xf32>
  }
  func.func private @rowsum(%a: tensor<2x4xf32>) -> tensor<2xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    return %s : tensor<2xf32>
  }
}
)";

TEST(LoadStablehlo, RunsAModuleLikeEagerOps) {
  st::Array x = st::array({1.f, -2.f, 3.f, 0.5f, 4.f, -1.f}, {2, 3});
  st::Array w = st::reshape(st::arange(0, 12, 1, st::f32) * 0.25f - 1.f, {3, 4});
  std::vector<st::Array> out = st::load_stablehlo(kModule)("main")(x, w);
  ASSERT_EQ(out.size(), 2u);
  st::Array h = st::maximum(st::matmul(x, w), 0.f);
  EXPECT_EQ(out[0].shape(), (st::Shape{2, 4}));
  EXPECT_TRUE(near_all(out[0], h, 1e-6, 1e-6));
  EXPECT_TRUE(near_all(out[1], st::sum(h, {1}), 1e-6, 1e-6));
}

TEST(LoadStablehlo, RefusesWrongArgumentsAndReportsLocations) {
  st::Module m = st::load_stablehlo(kModule);
  try {
    m("main")(st::zeros({3, 2}), st::zeros({3, 4}));
    FAIL() << "no error";
  } catch (const st::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 0 must be f32[2,3], but got f32[3,2]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m("main")(st::zeros({2, 3})), st::ValueError);
  try {
    st::load_stablehlo("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.nope %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n")("main")(st::zeros({2}));
    FAIL() << "no error";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("<stablehlo>:2:8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("stablehlo.nope"), std::string::npos) << e.what();
  }
  try {
    st::load_stablehlo("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.custom_call @foo(%x) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n")("main")(st::zeros({2}));
    FAIL() << "no error";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("stablehlo.custom_call @foo has no strata op"), std::string::npos) << e.what();
  }
  // An element type strata lacks: named, at its op.
  try {
    st::load_stablehlo("func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.convert %x : (tensor<2xf32>) -> tensor<2xtf32>\n  return %x : tensor<2xf32>\n}\n")("main")(st::zeros({2}));
    FAIL() << "no error";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("<stablehlo>:2:8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("element type tf32 (in 'tensor<2xtf32>') is not supported"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(m("absent")(st::zeros({2, 3}), st::zeros({3, 4})), st::Error);
}

// A real program exported from JAX (../shared/conformance/jax), when the corpus is here.
TEST(LoadStablehlo, RunsJaxMlpTrainStep) {
  fs::path dir = fs::path(STRATA_SOURCE_DIR) / ".." / "shared" / "conformance" / "jax";
  if (!fs::exists(dir / "mlp_train_step.mlir")) GTEST_SKIP() << "no conformance corpus at " << dir;
  std::vector<st::Array> args;
  for (int i = 0; i < 6; ++i) args.push_back(st::load_npy((dir / ("mlp_train_step.in" + std::to_string(i) + ".npy")).string()));
  std::vector<st::Array> out = st::load_stablehlo((dir / "mlp_train_step.mlir").string())("main")(args);
  ASSERT_EQ(out.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    st::Array want = st::load_npy((dir / ("mlp_train_step.out" + std::to_string(i) + ".npy")).string());
    EXPECT_EQ(out[static_cast<size_t>(i)].shape(), want.shape());
    EXPECT_TRUE(near_all(out[static_cast<size_t>(i)], want, 1e-4, 1e-5)) << "output " << i;
  }
}

// jit(f).lower(...).as_text("stablehlo") read back by load_stablehlo computes what f does.
TEST(ExportStablehlo, RoundTripsThroughLoadStablehlo) {
  auto f = [](const st::Array& x, const st::Array& w) {
    st::Array h = st::tanh(st::matmul(x, w));
    h = st::where(h > 0.f, st::integer_pow(h, 3), st::erf(h));
    // A loop: halve the carry until its sum is below 1.
    st::Array s = st::while_loop([](const st::Array& c) { return st::sum(c) > 1.f; },
                                 [](const st::Array& c) { return c * 0.5f; }, st::abs(h) * 10.f);
    return std::vector<st::Array>{st::sum(h, {1}), s, st::round(x * 2.5f)};
  };
  st::Array x = st::reshape(st::arange(0, 12, 1, st::f32) * 0.3f - 1.5f, {3, 4});
  st::Array w = st::reshape(st::arange(0, 8, 1, st::f32) * -0.2f + 0.7f, {4, 2});
  auto jf = st::jit(f);
  std::string text = jf.lower(x, w).as_text("stablehlo");
  EXPECT_NE(text.find("\"stablehlo.while\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"chlo.erf\""), std::string::npos) << text;
  EXPECT_NE(text.find("#stablehlo<comparison_direction GT>"), std::string::npos) << text;
  EXPECT_EQ(text.find("strata."), std::string::npos) << text;
  std::vector<st::Array> want = jf(x, w);
  std::vector<st::Array> got = st::load_stablehlo(text)("main")(x, w);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(near_all(got[i], want[i], 1e-6, 1e-6)) << "output " << i;
}

// cholesky and triangular_solve: exported as StableHLO's ops and read back (every flag of
// triangular_solve), equal to what strata computes.
TEST(ExportStablehlo, CholeskyAndTriangularSolveRoundTrip) {
  st::Array m = st::reshape(st::sin(st::arange(0, 32, 1, st::f64) * 0.7), {2, 4, 4});
  st::Array a = st::matmul(m, st::transpose(m, {0, 2, 1})) + 4.0 * st::eye(4, -1, 0, st::f64);  // positive definite
  st::Array b = st::reshape(st::cos(st::arange(0, 24, 1, st::f64) * 0.3), {2, 4, 3});
  st::Array bt = st::transpose(b, {0, 2, 1});
  for (int flags = 0; flags < 16; ++flags) {
    SCOPED_TRACE(flags);
    const bool left = flags & 1, lower = flags & 2, transpose = flags & 4, unit = flags & 8;
    auto f = [&](const st::Array& a, const st::Array& b) {
      st::Array l = st::linalg::cholesky(a);
      return std::vector<st::Array>{l, st::linalg::triangular_solve(lower ? l : st::transpose(l, {0, 2, 1}), b, left, lower,
                                                                     transpose, unit)};
    };
    const st::Array& rhs = left ? b : bt;
    auto jf = st::jit(f);
    std::string text = jf.lower(a, rhs).as_text("stablehlo");
    EXPECT_NE(text.find("\"stablehlo.cholesky\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"stablehlo.triangular_solve\""), std::string::npos) << text;
    std::vector<st::Array> want = jf(a, rhs), got = st::load_stablehlo(text)("main")(a, rhs);
    ASSERT_EQ(got.size(), 2u);
    for (size_t i = 0; i < 2; ++i) EXPECT_TRUE(near_all(got[i], want[i], 1e-12, 1e-12)) << "output " << i;
  }
}

// StableHLO's cholesky with lower = false reads a's upper triangle and returns U (a = Uᵀ U).
TEST(ImportStablehlo, UpperCholesky) {
  const char* text = R"(
func.func @main(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  return %u : tensor<3x3xf64>
}
)";
  // Only the upper triangle is meaningful: the lower holds junk that must not be read.
  st::Array a = st::array(std::vector<double>{4, 2, -2, 99, 10, 1, 99, 99, 9}, {3, 3});
  st::Array u = st::load_stablehlo(text)("main")(a)[0];
  st::Array sym = st::array(std::vector<double>{4, 2, -2, 2, 10, 1, -2, 1, 9}, {3, 3});
  EXPECT_TRUE(near_all(st::matmul(st::transpose(u), u), sym, 1e-12, 1e-12));
  EXPECT_TRUE(near_all(u, st::transpose(st::linalg::cholesky(sym)), 1e-12, 1e-12));
}

// LU: JAX calls LAPACK through custom calls of its own runtime; the export names the op.
TEST(ExportStablehlo, RefusesOpsStablehloHasNot) {
  auto f = [](const st::Array& x) { return st::linalg::lu(x).lu; };
  try {
    st::jit(f).lower(st::zeros({3, 3})).as_text("stablehlo");
    FAIL() << "no error";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("StableHLO has no op for strata.linalg \"lu\""), std::string::npos) << e.what();
  }
}

// exp2, which StableHLO has not, as JAX writes it: exp(x ln 2).
TEST(ExportStablehlo, Exp2AsExponential) {
  auto f = [](const st::Array& x) { return st::exp2(x); };
  st::Array x = st::arange(-3, 3, 0.5, st::f32);
  auto jf = st::jit(f);
  std::string text = jf.lower(x).as_text("stablehlo");
  EXPECT_NE(text.find("\"stablehlo.exponential\""), std::string::npos) << text;
  EXPECT_TRUE(near_all(st::load_stablehlo(text)("main")(x)[0], jf(x), 1e-6, 1e-6));
}
