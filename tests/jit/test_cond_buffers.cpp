// A buffer allocated in an scf.if branch and yielded lives on as the if's result: buffer
// assignment must keep it live through the result's later uses (found by fuzz_differential:
// a cond's result, returned from the function, was overwritten by a later cond's branch
// buffer placed at the same arena offset).
#include <gtest/gtest.h>

#include "strata/strata.h"

namespace st = strata;

namespace {

TEST(CondBuffers, ABranchResultOutlivesTheBranchBuffersOfLaterConds) {
  st::Array v0 = st::ones({3,4}, st::bool_);
  st::Array v1 = st::array<int64_t>({2147483647, -2147483648LL, -2147483648LL, -2147483648LL}, {1,4});
  auto cond = [](const st::Array& x, const st::Array& y) {
    return st::cond(st::greater(st::sum(st::astype(y, st::f32)), st::Array(0.0f)),
                    [](const st::Array& v) { return v + v; }, [](const st::Array& v) { return -v; }, x);
  };
  auto prog = [&](const st::Array& a0, const st::Array& a1) {
    std::vector<st::Array> v{a0, a1};
    v.push_back(st::sum(v.back()));                    // v2
    v.push_back(st::sum(v.back()));                    // v3
    v.push_back(st::sum(v.back()));                    // v4
    v.push_back(cond(v.back(), v[0]));                 // v5
    v.push_back(st::minimum(v.back(), v[1]));          // v6
    v.push_back(cond(v.back(), v[6]));                 // v7
    v.push_back(st::sign(v.back()));                   // v8
    v.push_back(cond(v.back(), v[4]));                 // v9
    v.push_back(st::sum(v.back()));                    // v10
    v.push_back(st::sum(v.back()));
    v.push_back(st::sum(v.back()));                    // v12
    return std::vector<st::Array>{v[5], v[6], v[7], v[8], v[9], v[12], st::greater_equal(v[12], v[5])};
  };
  auto e = prog(v0, v1);
  auto j = st::jit(prog)(v0, v1);
  ASSERT_EQ(e.size(), j.size());
  for (size_t i = 0; i < e.size(); ++i) EXPECT_EQ(j[i].to_string(), e[i].to_string()) << "output " << i;
}

}  // namespace
