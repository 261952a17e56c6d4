// st::jit(f).lower(args...): stages, texts, dumps, pytrees and static arguments.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "jaxpr_parser.h"
#include "strata/strata.h"

namespace st = strata;

namespace {

st::Array layer(const st::Array& x, const st::Array& w, const st::Array& b) {
  return st::relu(st::matmul(x, w) + b);
}

st::Lowered lower_layer(st::JitOptions options = {}) {
  return st::jit(layer, options).lower(st::zeros({4, 8}), st::zeros({8, 16}), st::zeros({16}));
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// The stages of this issue come first; later ones (the backends') follow them.
TEST(Lowered, ListsTheStagesInOrder) {
  std::vector<std::string> stages = lower_layer().stages();
  ASSERT_GE(stages.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(stages.begin(), stages.begin() + 4),
            (std::vector<std::string>{"jaxpr", "strata", "canonicalized", "cse"}));
}

// Stages are computed when first asked for, in any order; each text is the same however it
// was reached, and stays valid (the same object) afterwards.
TEST(Lowered, StagesAskedForInAnyOrderAgree) {
  st::Lowered late_first = lower_layer(), in_order = lower_layer();
  const std::string& loops = late_first.as_text("loops");
  const std::string& fused = late_first.as_text("fused");
  std::vector<std::string> stages = in_order.stages();
  for (const std::string& stage : stages) EXPECT_FALSE(in_order.as_text(stage).empty()) << stage;
  EXPECT_EQ(fused, in_order.as_text("fused"));
  EXPECT_EQ(loops, in_order.as_text("loops"));
  EXPECT_EQ(late_first.as_text("asm"), in_order.as_text("asm"));
  EXPECT_EQ(&loops, &late_first.as_text("loops"));
  EXPECT_NE(loops.find("call @strata_rt_dot"), std::string::npos) << loops;
}

TEST(Lowered, JaxprStageIsTheTracedProgram) {
  st::Lowered l = lower_layer();
  st::Jaxpr j = st::make_jaxpr(layer)(st::zeros({4, 8}), st::zeros({8, 16}), st::zeros({16}));
  EXPECT_EQ(l.as_text("jaxpr"), j.to_string() + "\n");
  EXPECT_EQ(l.jaxpr().to_string(), j.to_string());
}

TEST(Lowered, StrataStageHasOneOpPerEquation) {
  std::string s = lower_layer().as_text("strata");
  EXPECT_NE(s.find("func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, "
                   "%arg2: tensor<16xf32>) -> tensor<4x16xf32>"),
            std::string::npos)
      << s;
  for (const char* op : {"strata.dot_general %arg0, %arg1, contracting_dims = [1] x [0]",
                         "strata.broadcast_in_dim %arg2, dims = [1]", "strata.add",
                         "strata.constant dense<0.000000e+00> : tensor<f32>", "strata.clamp"})  // relu
    EXPECT_NE(s.find(op), std::string::npos) << op << " in\n" << s;
}

TEST(Lowered, CanonicalizationFoldsTheBroadcastScalar) {
  std::string s = lower_layer().as_text("canonicalized");
  EXPECT_NE(s.find("strata.constant dense<0.000000e+00> : tensor<4x16xf32>"), std::string::npos) << s;
  EXPECT_EQ(s.find("dims = []"), std::string::npos) << s;
}

TEST(Lowered, UnknownStageIsAValueError) {
  st::Lowered l = lower_layer();
  EXPECT_THROW(l.as_text("fused-nonexistent"), st::ValueError);
  try {
    l.as_text("nope");
  } catch (const st::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("jaxpr, strata, canonicalized, cse"), std::string::npos)
        << e.what();
  }
}

TEST(Lowered, TakesPytreesAndStaticArguments) {
  auto f = [](const std::vector<st::Array>& xs, int power) {
    st::Array y = xs[0];
    for (int i = 1; i < power; ++i) y = y * xs[1];
    return y;
  };
  st::Lowered l = st::jit(f).lower(std::vector<st::Array>{st::zeros({3}), st::zeros({3})}, 3);
  std::string s = l.as_text("cse");
  EXPECT_NE(s.find("func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>)"), std::string::npos) << s;
  EXPECT_EQ(l.jaxpr().num_equations(), 2);
}

TEST(Lowered, ConstvarsBecomeLeadingArguments) {
  st::Array captured = st::array(std::vector<float>{1, 2, 3}, {3});
  auto f = [captured](st::Array x) { return x + captured; };
  std::string s = st::jit(f).lower(st::zeros({3})).as_text("strata");
  EXPECT_NE(s.find("@main(%arg0: tensor<3xf32> {strata.constvar}, %arg1: tensor<3xf32>)"),
            std::string::npos)
      << s;
}

TEST(Lowered, CapturedSplatsBecomeBroadcasts) {
  // What st::zeros / ones / full_like made while tracing: its element broadcast, not an
  // argument read from memory at every call (as JAX traces jnp.zeros); the values as before.
  st::Array ones = st::ones({4}), twos = st::full({4}, 2.0, st::f32);
  auto f = [&](st::Array x) { return x * ones + twos + st::zeros_like(x); };
  st::Jaxpr j = st::make_jaxpr(f)(st::zeros({4}));
  EXPECT_TRUE(j.impl()->constvars.empty()) << j;
  std::string text = j.to_string();
  EXPECT_NE(text.find("broadcast_in_dim[broadcast_dimensions=() shape=(4,)] 1.0:f32[]"), std::string::npos) << text;
  std::string s = st::jit(f).lower(st::zeros({4})).as_text("strata");
  EXPECT_EQ(s.find("strata.constvar"), std::string::npos) << s;
  st::Array x = st::array(std::vector<float>{1, -2, 3.5, 0}, {4});
  EXPECT_EQ(st::jit(f)(x).to_vector<float>(), (std::vector<float>{3.0f, 0.0f, 5.5f, 2.0f}));
  EXPECT_EQ(st::eval_jaxpr(j, {x})[0].to_vector<float>(), (std::vector<float>{3.0f, 0.0f, 5.5f, 2.0f}));
}

TEST(Lowered, DumpsEveryStageWithLocations) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "strata_lowered_dump_test";
  std::filesystem::remove_all(dir);
  lower_layer({.name = "layer", .dump_dir = dir.string()});
  std::string n;  // layer.N.STAGE.EXT: one file per stage
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::string f = e.path().filename();
    if (f.ends_with(".jaxpr.jaxpr")) n = f.substr(6, f.find('.', 6) - 6);
  }
  ASSERT_FALSE(n.empty());
  for (const char* stage : {"strata", "canonicalized", "cse"})
    EXPECT_TRUE(std::filesystem::exists(dir / ("layer." + n + "." + stage + ".mlir"))) << stage;
  // The dumped jaxpr parses back; the MLIR stages carry this file's locations.
  st::ParsedJaxpr p = st::parse_jaxpr(read(dir / ("layer." + n + ".jaxpr.jaxpr")));
  EXPECT_TRUE(p.jaxpr) << p.error.message;
  std::string strata = read(dir / ("layer." + n + ".strata.mlir"));
  EXPECT_NE(strata.find("test_lowered_api.cpp"), std::string::npos) << strata;
  std::filesystem::remove_all(dir);
}

TEST(Lowered, SubJaxprsBecomePrivateFunctions) {
  auto softplus = st::custom_vjp([](st::Array x) { return st::log1p(st::exp(x)); },
                                 [](st::Array x) { return std::make_pair(st::log1p(st::exp(x)), x); },
                                 [](st::Array x, st::Array g) { return g * st::sigmoid(x); });
  auto f = [&](st::Array x) { return softplus(x); };
  std::string s = st::jit(f).lower(st::zeros({3})).as_text("strata");
  EXPECT_NE(s.find("call @custom_vjp_fun_0(%arg0) : (tensor<3xf32>) -> tensor<3xf32>"), std::string::npos) << s;
  EXPECT_NE(s.find("func.func private @custom_vjp_fun_0(%arg0: tensor<3xf32>) -> tensor<3xf32>"),
            std::string::npos)
      << s;
}

TEST(Lowered, StopGradientIsTheIdentity) {
  auto f = [](st::Array x) { return st::stop_gradient(x) * 3.0f; };
  st::Lowered l = st::jit(f).lower(st::zeros({3}));
  EXPECT_NE(l.as_text("jaxpr").find("stop_gradient"), std::string::npos);
  EXPECT_EQ(l.as_text("strata").find("stop_gradient"), std::string::npos);
  EXPECT_NE(l.as_text("strata").find("strata.multiply %arg0"), std::string::npos) << l.as_text("strata");
}

// Complex dot_general is a runtime GEMM call (Eigen's complex GEMM, the eager kernel's) rather
// than a loop nest, whichever operand is transposed, batched or not; results equal eager.
TEST(Lowered, ComplexMatmulCallsTheRuntimeGemm) {
  for (st::DType t : {st::c64, st::c128}) {
    auto rnd = [t](const st::Shape& s, uint64_t seed) {
      return st::astype(st::complex(st::random::normal(st::random::key(seed), s, st::f64),
                                    st::random::normal(st::random::key(seed + 99), s, st::f64)),
                        t);
    };
    st::Array x = rnd({2, 5, 7}, 1), w = rnd({2, 7, 3}, 2), v = rnd({2, 3, 7}, 3), xt = rnd({2, 7, 5}, 4);
    auto f = [](const st::Array& a, const st::Array& b, const st::Array& c, const st::Array& at) {
      return std::vector<st::Array>{st::matmul(a, b),                                // lhs M×K, rhs K×N
                                    st::matmul(a, st::transpose(c, {0, 2, 1})),       // rhs N×K
                                    st::matmul(st::transpose(at, {0, 2, 1}), b),      // lhs K×M
                                    st::matmul(a[0], b[1])};                          // unbatched
    };
    // Large enough for Eigen's blocked, vectorised complex kernels (checked under ASan+UBSan).
    st::Array big_a = rnd({96, 80}, 5), big_b = rnd({80, 72}, 6);
    auto mm = [](const st::Array& a, const st::Array& b) { return st::matmul(a, b); };
    st::Array big_e = mm(big_a, big_b), big_j = st::jit(mm)(big_a, big_b);
    EXPECT_LT(st::max(st::abs(big_e - big_j)).item<double>(), (t == st::c64 ? 1e-4 : 1e-11) * st::max(st::abs(big_e)).item<double>());
    std::string loops = st::jit(f).lower(x, w, v, xt).as_text("loops");
    std::string call = std::string("call @strata_rt_dot_") + std::string(st::short_name(t));
    EXPECT_NE(loops.find(call), std::string::npos) << loops;
    std::vector<st::Array> e = f(x, w, v, xt), j = st::jit(f)(x, w, v, xt);
    const double tol = t == st::c64 ? 1e-5 : 1e-13;
    for (size_t k = 0; k < e.size(); ++k) {
      std::vector<double> a = st::real(e[k]).to_vector<double>(), b = st::real(j[k]).to_vector<double>();
      std::vector<double> ai = st::imag(e[k]).to_vector<double>(), bi = st::imag(j[k]).to_vector<double>();
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(a[i], b[i], tol * (1 + std::abs(a[i]))) << st::short_name(t) << " output " << k << " element " << i;
        EXPECT_NEAR(ai[i], bi[i], tol * (1 + std::abs(ai[i]))) << st::short_name(t) << " output " << k << " element " << i;
      }
    }
  }
}
