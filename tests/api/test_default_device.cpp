// The default device (st::default_device, st::set_default_device, STRATA_DEFAULT_DEVICE) as a
// process without a GPU sees it: the CPU, a GPU it does not have refused by name, a bad
// environment value refused with the names it takes. tests/gpu/test_gpu_api.cpp runs eager
// ops and jit with a GPU as the default device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_contains;

namespace {

bool has_gpu() {
  for (const st::Device& d : st::devices())
    if (d.kind == st::DeviceKind::cuda) return true;
  return false;
}

TEST(DefaultDevice, IsTheCpuUnlessSet) {
  const char* env = std::getenv("STRATA_DEFAULT_DEVICE");
  if (env && *env && std::string(env) != "cpu") GTEST_SKIP() << "STRATA_DEFAULT_DEVICE is set (" << env << ")";
  EXPECT_EQ(st::default_device(), st::cpu());
  st::set_default_device(st::cpu());
  Array x = st::arange(int64_t{6}, st::f32);
  Array y = st::exp(x);
  EXPECT_EQ(y.device(), st::cpu());
  EXPECT_EQ(st::jit([](const Array& a) { return a * 2.0f; })(x).device(), st::cpu());
}

TEST(DefaultDevice, AGpuThisProcessLacksIsRefusedByName) {
  if (const char* env = std::getenv("STRATA_DEFAULT_DEVICE"); env && *env) GTEST_SKIP() << "STRATA_DEFAULT_DEVICE is set";
  if (has_gpu()) GTEST_SKIP() << "this process has a GPU";
  std::string msg = st::testing::error_message<st::ValueError>(
      [] { st::set_default_device(st::Device{st::DeviceKind::cuda, 0}); });
  expect_contains(msg, "set_default_device");
  expect_contains(msg, "cuda:0");
  EXPECT_EQ(st::default_device(), st::cpu());  // unchanged
}

// Run by ctest with STRATA_DEFAULT_DEVICE=tpu:0 (tests/CMakeLists.txt): the first array made
// reports the bad value and what the variable takes; without that environment it skips.
TEST(DefaultDevice, ABadEnvironmentValueIsAClearError) {
  const char* env = std::getenv("STRATA_DEFAULT_DEVICE");
  if (!env || std::string(env) != "tpu:0") GTEST_SKIP() << "run with STRATA_DEFAULT_DEVICE=tpu:0";
  std::string msg = st::testing::error_message<st::ValueError>([] { (void)st::zeros({3}); });
  expect_contains(msg, "STRATA_DEFAULT_DEVICE is 'tpu:0'");
  expect_contains(msg, "cuda:N");
  // Asked again, the same error (nothing half-applied).
  expect_contains(st::testing::error_message<st::ValueError>([] { (void)st::default_device(); }), "tpu:0");
}

}  // namespace
