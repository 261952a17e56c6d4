// Donation (JitOptions::donate): an output written into a donated argument's buffer, and the
// donated array refused afterwards; results always equal eager evaluation.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "strata/strata.h"
#include "pass_variants.h"
#include "test_util.h"

namespace st = strata;
using st::Array;

namespace {

Array rnd(const st::Shape& shape, uint64_t seed) { return st::random::normal(st::random::key(seed), shape); }

void expect_equal(const Array& got, const Array& want) {
  ASSERT_EQ(got.shape(), want.shape());
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], w[i], 1e-5 * (1 + std::fabs(w[i]))) << "element " << i;
}

Array sgd(const Array& x, const Array& g) { return x - 0.1f * g; }

class Donation : public ::testing::TestWithParam<st::testing::PassVariant> {
 protected:
  st::JitOptions donating(std::vector<int> donate) const {
    st::JitOptions o = GetParam().apply<st::JitOptions>();
    o.name = "step";
    o.donate = std::move(donate);
    return o;
  }
};

TEST_P(Donation, TheOutputTakesOverTheDonatedBuffer) {
  Array x = rnd({1 << 16}, 1), g = rnd({1 << 16}, 2);
  Array want = sgd(x, g);
  const void* before = x.data();
  auto step = st::jit(sgd, donating({0}));
  Array y = step(x, g);
  EXPECT_EQ(y.data(), before);
  expect_equal(y, want);
  // The donated array, and every handle on it, is gone; the other argument is untouched.
  EXPECT_EQ(x.data(), nullptr);
  expect_equal(g, rnd({1 << 16}, 2));
}

TEST_P(Donation, UsingADonatedArrayIsAClearError) {
  Array x = rnd({8}, 1), g = rnd({8}, 2);
  Array alias = x;  // another handle on the same array
  auto step = st::jit(sgd, donating({0}));
  Array y = step(x, g);
  for (const Array* a : {&x, &alias}) {
    try {
      (void)(*a + 1.0f);
      ADD_FAILURE() << "no error";
    } catch (const st::ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("argument 0 (f32[8]) was donated to jit(step)"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)x.to_vector<float>(), st::ValueError);
  EXPECT_THROW((void)step(x, g), st::ValueError);
  EXPECT_EQ(x.to_string().rfind("Donated<", 0), 0u);
  // The result is an ordinary array, and can itself be donated to the next step.
  Array z = step(y, g);
  expect_equal(z, sgd(sgd(rnd({8}, 1), g), g));
}

TEST_P(Donation, AnOutputComputedBeforeTheInputsLastReadGoesThroughATemporary) {
  // The GEMM writes its output while still reading x: the output is computed aside and copied
  // into x's buffer at the end.
  Array x = rnd({64, 64}, 3), w = rnd({64, 64}, 4);
  auto f = [](const Array& a, const Array& b) { return st::matmul(a, b) + st::transpose(a); };
  Array want = f(x, w);
  const void* before = x.data();
  Array y = st::jit(f, donating({0}))(x, w);
  EXPECT_EQ(y.data(), before);
  expect_equal(y, want);
}

TEST_P(Donation, ABufferSharedWithAnotherArgumentIsCopiedNotOverwritten) {
  // x is both arguments: writing the output over it would change the second argument while
  // the program reads it.
  Array x = rnd({256}, 5);
  Array want = sgd(x, x);
  const void* before = x.data();
  Array y = st::jit(sgd, donating({0}))(x, x);
  EXPECT_NE(y.data(), before);
  expect_equal(y, want);
  EXPECT_THROW((void)(x + 1.0f), st::ValueError);
}

TEST_P(Donation, EveryLeafOfADonatedPytree) {
  std::vector<Array> params{rnd({32, 8}, 6), rnd({8}, 7)}, grads{rnd({32, 8}, 8), rnd({8}, 9)};
  auto update = [](const std::vector<Array>& p, const std::vector<Array>& g) {
    return std::vector<Array>{sgd(p[0], g[0]), sgd(p[1], g[1])};
  };
  std::vector<Array> want = update(params, grads);
  const void* p0 = params[0].data();
  const void* p1 = params[1].data();
  std::vector<Array> got = st::jit(update, donating({0}))(params, grads);
  EXPECT_EQ(got[0].data(), p0);
  EXPECT_EQ(got[1].data(), p1);
  expect_equal(got[0], want[0]);
  expect_equal(got[1], want[1]);
  EXPECT_THROW((void)(params[1] * 2.0f), st::ValueError);
}

TEST_P(Donation, WithoutAnOutputOfItsTypeTheArgumentIsKept) {
  Array x = rnd({4, 8}, 10);
  auto f = [](const Array& a) { return st::sum(a, st::Axes{1}); };
  Array y = st::jit(f, donating({0}))(x);
  expect_equal(y, f(x));
  expect_equal(x, rnd({4, 8}, 10));
}

TEST_P(Donation, ThroughLowerAndCompile) {
  Array x = rnd({16}, 11), g = rnd({16}, 12);
  auto compiled = st::jit(sgd, donating({0})).lower(x, g).compile();
  Array want = sgd(x, g);
  const void* before = x.data();
  Array y = compiled(x, g);
  EXPECT_EQ(y.data(), before);
  expect_equal(y, want);
}

// Another thread reads copies of an array's handle while it is donated: each read sees the
// data or a ValueError naming the donation, and the handle's buffer pointer never changes under
// it (donation used to reset a shared buffer pointer through a const Array&, a data race).
TEST(Donation, AThreadReadingACopyWhileTheArrayIsDonatedSeesDataOrARefusal) {
  for (int round = 0; round < 20; ++round) {
    Array x = rnd({256}, 40 + static_cast<uint64_t>(round)), g = rnd({256}, 2);
    std::vector<float> original = x.to_vector<float>();
    Array copy = x;  // another handle on the same array
    const void* data = x.data();
    std::atomic<bool> go{false}, done{false};
    std::atomic<int> refused{0}, wrong{0};
    std::thread reader([&] {
      while (!go.load()) {}
      while (!done.load()) {
        try {
          Array mine = copy;
          const void* d = mine.data();
          if (d != data && d != nullptr) ++wrong;  // the data, or none once donated
          (void)mine.to_vector<float>();
        } catch (const st::ValueError& e) {
          if (std::string(e.what()).find("donated") == std::string::npos) ++wrong;
          ++refused;
        }
      }
    });
    auto step = st::jit(sgd, {.name = "step", .donate = {0}});
    go = true;
    Array y = step(x, g);
    done = true;
    reader.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_THROW((void)copy.to_vector<float>(), st::ValueError);
    Array want = sgd(st::array(original, {256}), g);
    expect_equal(y, want);
  }
}

// Two calls donating one array: the second is refused with the donation's reason.
TEST(Donation, DonatingAnArrayTwiceIsRefused) {
  Array x = rnd({8}, 1), g = rnd({8}, 2);
  auto step = st::jit(sgd, {.name = "step", .donate = {0}});
  Array y = step(x, g);
  std::string m = st::testing::error_message<st::ValueError>([&] { step(x, g); });
  EXPECT_NE(m.find("was donated to jit(step)"), std::string::npos) << m;
  (void)y;
}

TEST(Donation, AnArgumentOutOfRangeIsAnError) {
  Array x = rnd({4}, 1);
  EXPECT_THROW((void)st::jit(sgd, {.donate = {2}})(x, x), st::ValueError);
}

INSTANTIATE_TEST_SUITE_P(Passes, Donation, ::testing::ValuesIn(st::testing::kPassVariants),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
