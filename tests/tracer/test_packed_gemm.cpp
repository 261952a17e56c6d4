// strata's packed GEMM (tracer/kernels/packed_gemm.h) against a double-precision reference:
// every operand layout, sizes that leave partial register tiles and cache blocks on every side,
// f32 and f64; the result independent of the thread split; the epilogue shown every block of C
// exactly once, after it is final. Skips where the build has no micro-kernel (no AVX-512).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernels/packed_gemm.h"

namespace k = strata::kernels;

namespace {

struct Case {
  int64_t m, n, k;
  bool a_trans, b_trans;
};

template <class T>
std::vector<T> random_values(int64_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(static_cast<size_t>(count));
  for (T& x : v) x = static_cast<T>(u(gen));
  return v;
}

template <class T>
struct Problem {
  Case c;
  std::vector<T> a, b;
  k::GemmOperands<T> operands(std::vector<T>& out) const {
    return k::GemmOperands<T>::contiguous(a.data(), c.a_trans, b.data(), c.b_trans, out.data(), c.m, c.n, c.k);
  }
  double a_at(int64_t i, int64_t p) const { return c.a_trans ? a[size_t(p * c.m + i)] : a[size_t(i * c.k + p)]; }
  double b_at(int64_t p, int64_t j) const { return c.b_trans ? b[size_t(j * c.k + p)] : b[size_t(p * c.n + j)]; }
};

template <class T>
Problem<T> make(const Case& c) {
  return {c, random_values<T>(c.m * c.k, 7), random_values<T>(c.k * c.n, 11)};
}

template <class T>
void expect_matches_reference(const Case& c) {
  Problem<T> p = make<T>(c);
  std::vector<T> out(static_cast<size_t>(c.m * c.n), T(-7));  // stale values must be overwritten
  k::packed_gemm(p.operands(out), c.m, c.n, c.k, true);
  double eps = std::is_same_v<T, float> ? 1e-6 : 1e-14;
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double ref = 0, mag = 0;
      for (int64_t q = 0; q < c.k; ++q) {
        ref += p.a_at(i, q) * p.b_at(q, j);
        mag += std::abs(p.a_at(i, q) * p.b_at(q, j));
      }
      ASSERT_NEAR(out[size_t(i * c.n + j)], ref, 4 * eps * (mag + 1))
          << "C[" << i << "," << j << "] of " << c.m << "x" << c.k << " @ " << c.k << "x" << c.n
          << (c.a_trans ? " (A transposed)" : "") << (c.b_trans ? " (B transposed)" : "");
    }
}

// Tiles are 12×32 (24×16 for a narrow C), k slices 384 (f32) or 192 (f64), row blocks 144,
// column panels 2048: these sizes end mid-tile, mid-slice and mid-block.
const Case kCases[] = {
    {1, 1, 1, false, false},     {16, 17, 3, false, false},   {37, 45, 0, false, false},
    {200, 70, 401, false, false}, {145, 2050, 9, true, false}, {13, 33, 385, false, true},
    {300, 10, 250, true, true},   {100, 16, 1000, true, false}, {29, 40, 200, true, true},
};

}  // namespace

TEST(PackedGemm, MatchesTheReferenceOnEveryLayoutAndEdge) {
  if (!k::packed_gemm_available()) GTEST_SKIP() << "built without the AVX-512 micro-kernel";
  for (const Case& c : kCases) {
    expect_matches_reference<float>(c);
    expect_matches_reference<double>(c);
  }
}

TEST(PackedGemm, ResultDoesNotDependOnTheThreadSplit) {
  if (!k::packed_gemm_available()) GTEST_SKIP() << "built without the AVX-512 micro-kernel";
  for (Case c : {Case{300, 700, 500, false, false}, Case{700, 300, 500, true, true}}) {
    Problem<float> p = make<float>(c);
    std::vector<float> serial(size_t(c.m * c.n)), split(size_t(c.m * c.n));
    k::packed_gemm(p.operands(serial), c.m, c.n, c.k, false);
    k::packed_gemm(p.operands(split), c.m, c.n, c.k, true);
    EXPECT_EQ(serial, split);
  }
}

TEST(PackedGemm, EpilogueSeesEveryBlockOnceWhenFinal) {
  if (!k::packed_gemm_available()) GTEST_SKIP() << "built without the AVX-512 micro-kernel";
  for (Case c : {Case{300, 2100, 800, false, false}, Case{500, 40, 30, true, false}, Case{20, 30, 0, false, true}}) {
    Problem<float> p = make<float>(c);
    std::vector<float> out(size_t(c.m * c.n)), expected(size_t(c.m * c.n));
    k::packed_gemm(p.operands(expected), c.m, c.n, c.k, false);
    std::vector<int> seen(size_t(c.m * c.n), 0);
    std::vector<float> at_epilogue(size_t(c.m * c.n));
    k::GemmBlockFn block = [&](int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
      ASSERT_TRUE(0 <= m0 && m0 < m1 && m1 <= c.m && 0 <= n0 && n0 < n1 && n1 <= c.n);
      for (int64_t i = m0; i < m1; ++i)
        for (int64_t j = n0; j < n1; ++j) {
          ++seen[size_t(i * c.n + j)];  // blocks are disjoint, so threads never share an element
          at_epilogue[size_t(i * c.n + j)] = out[size_t(i * c.n + j)];
        }
    };
    k::packed_gemm(p.operands(out), c.m, c.n, c.k, true, &block);
    for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "element " << i;
    EXPECT_EQ(at_epilogue, expected);
  }
}

// `subtract`: C -= op(A) op(B), C's own values kept (the factorizations' trailing updates).
TEST(PackedGemm, SubtractTakesTheProductFromC) {
  if (!k::packed_gemm_available()) GTEST_SKIP() << "built without the AVX-512 micro-kernel";
  for (Case c : {Case{200, 70, 401, false, false}, Case{145, 90, 9, true, true}, Case{20, 30, 0, false, true}}) {
    Problem<double> p = make<double>(c);
    std::vector<double> product(size_t(c.m * c.n)), out = random_values<double>(c.m * c.n, 13), before = out;
    k::packed_gemm(p.operands(product), c.m, c.n, c.k, false);
    k::GemmOperands<double> g = p.operands(out);
    g.subtract = true;
    k::packed_gemm(g, c.m, c.n, c.k, true);
    for (size_t i = 0; i < out.size(); ++i) ASSERT_NEAR(out[i], before[i] - product[i], 1e-12) << "element " << i;
  }
}
