// Every primitive compiled for the cuda target. Everywhere the target is built: each case's
// program goes through every GPU stage to PTX, and the toolkit's ptxas accepts it for sm_90
// (PTX is checked on machines without a GPU). On a GPU: each case runs there, compared with
// CPU eager evaluation (GPU math follows libdevice, so float results get a few ulps more and
// subnormal results may flush to zero).
#include <cstdio>
#include <fstream>

#include "cpu_test_util.h"
#include "primitive_cases.h"

#include "ptxas_check.h"

namespace st = strata;
using strata::testing::ptxas_errors;
using st::Array;
using namespace st::testing;
using namespace primitive_cases;

namespace {

const st::Device kGpu{st::DeviceKind::cuda, 0};

bool cuda_target_built() { return !st::compiler::stage_names(st::DeviceKind::cuda).empty(); }
bool have_gpu() { return st::compiler::device_count(st::DeviceKind::cuda) > 0; }


Tolerance gpu_tolerance(Tolerance tol) {
  tol.ulps = std::max(tol.ulps * 4, 4.0);
  tol.any_zero_sign = true;
  return tol;
}

// A host array's copy whose subnormal floats are zero (what a flush-to-zero GPU produces).
Array flushed(const Array& a) {
  if (a.dtype() != st::f32 && a.dtype() != st::f64) return a;
  std::vector<double> v = a.to_vector<double>();
  double tiny = a.dtype() == st::f32 ? 1.1754944e-38 : 2.2250738585072014e-308;
  for (double& x : v)
    if (x != 0 && std::fabs(x) < tiny) x = 0;
  return st::astype(st::array(v, a.shape(), st::f64), a.dtype());
}

void expect_gpu_matches_eager(const st::Jaxpr& jaxpr, const std::vector<Array>& inputs, const Tolerance& tol,
                              const std::string& what) {
  SCOPED_TRACE(what + "\n" + jaxpr.to_string());
  st::CompileResult r = st::compiler::compile(*jaxpr.impl(), {.device = kGpu});
  ASSERT_TRUE(r.ok()) << r.error;
  std::vector<Array> want = st::eval_jaxpr(jaxpr, inputs);
  const st::Executable& exe = *r.executable;
  std::vector<Array> dev_in, dev_out;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (const Array& a : inputs) {
    dev_in.push_back(st::device_put(a, kGpu));
    in_ptrs.push_back(dev_in.back().data());
  }
  for (const st::AbstractValue& a : exe.output_types()) {
    dev_out.push_back(st::device_put(output_like(a), kGpu));
    out_ptrs.push_back(const_cast<void*>(dev_out.back().data()));
  }
  absl::Status s = exe.execute(in_ptrs.data(), out_ptrs.data());
  ASSERT_TRUE(s.ok()) << s;
  for (size_t k = 0; k < want.size(); ++k) {
    SCOPED_TRACE("output " + std::to_string(k));
    Array got = st::device_put(dev_out[k], st::cpu());
    expect_arrays_match(flushed(got), flushed(want[k]), gpu_tolerance(tol));
  }
}

std::vector<std::string> primitive_names() {
  std::vector<std::string> names;
  for (const st::Primitive* p : st::all_primitives())
    // Control flow (cond, while, scan) is left out: the cuda target cannot compile it yet and
    // refuses it with a clear error (CudaControlFlow below).
    // sort is left out too: the cuda target refuses it (CudaSort below); so are window reductions.
    // Linear algebra too (issue 14): refused as sort is (CudaLinalg below).
    // Collectives too (issue 18): NCCL, their GPU transport, is not there yet.
    // Host callbacks too: the runtime calls them on the host (CudaHostCallbacks below).
    if (!needs_subprograms(p->name) && !reads_starts_on_host(p->name) && p->name != "sort" && p->name != "fft" &&
        !lowers_to_reduce_window(p->name) && !is_linalg(p->name) && !is_collective(p->name) &&
        !is_host_callback(p->name))
      names.emplace_back(p->name);
  return names;
}

// Run-time slices too: their starts would be read on the host (CudaRunTimeSlices below).
TEST(CudaRunTimeSlices, AreRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  for (const char* name : {"dynamic_slice", "dynamic_update_slice"}) {
    Case c = case_table().at(name)()[0];
    st::Jaxpr j = one_equation(*st::find_primitive(name), c.params, c.inputs);
    st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error.find("the cuda target cannot compile run-time slices yet (strata." + std::string(name) + ")"),
              std::string::npos) << r.error;
  }
}

// The sort runs in the CPU runtime; for the GPU it is refused by name, not a crash.
TEST(CudaSort, IsRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  Case c = case_table().at("sort")()[0];
  st::Jaxpr j = one_equation(*st::find_primitive("sort"), c.params, c.inputs);
  st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("the cuda target cannot compile strata.sort yet"), std::string::npos) << r.error;
}

// Host callbacks run in the CPU runtime; for the GPU they are refused by name.
TEST(CudaHostCallbacks, AreRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  for (const char* name : {"pure_callback", "io_callback", "debug_callback"}) {
    Case c = case_table().at(name)()[0];
    st::Jaxpr j = one_equation(*st::find_primitive(name), c.params, c.inputs);
    st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error.find("the cuda target cannot compile host callbacks yet (\"" + std::string(name) + "\")"),
              std::string::npos)
        << r.error;
  }
}

// The FFT runs in the CPU runtime; for the GPU it is refused by name.
TEST(CudaFft, IsRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  Case c = case_table().at("fft")()[0];
  st::Jaxpr j = one_equation(*st::find_primitive("fft"), c.params, c.inputs);
  st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("the cuda target cannot compile strata.fft yet"), std::string::npos) << r.error;
}

// Linear algebra runs in the CPU runtime (issue 14); for the GPU it is refused by name.
TEST(CudaLinalg, IsRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  for (const char* name : {"cholesky", "triangular_solve", "lu", "qr", "eigh", "svd", "eig", "schur", "hessenberg"}) {
    Case c = case_table().at(name)()[0];
    st::Jaxpr j = one_equation(*st::find_primitive(name), c.params, c.inputs);
    st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error.find("the cuda target cannot compile strata.linalg (\"" + std::string(name) + "\")"),
              std::string::npos) << r.error;
  }
}

// Window reductions too: their loop nest is not one the GPU loop mapping handles yet.
TEST(CudaWindowReductions, AreRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  for (const char* name : {"reduce_window_sum", "reduce_window_max", "reduce_window_min", "select_and_gather_add"}) {
    Case c = case_table().at(name)()[0];
    st::Jaxpr j = one_equation(*st::find_primitive(name), c.params, c.inputs);
    st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error.find("the cuda target cannot compile window reductions yet (strata.reduce_window)"),
              std::string::npos) << r.error;
  }
}

// Until the host program can loop and branch, control flow for the GPU fails at compile time
// with an error that says so (not a crash, not a wrong answer).
TEST(CudaControlFlow, IsRefusedWithAClearError) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  auto f = [](const Array& x) {
    return st::while_loop([](const Array& v) { return st::sum(v) < 10.0f; }, [](const Array& v) { return v * 2.0f; }, x);
  };
  st::Jaxpr j = st::make_jaxpr(f)(st::ones({4}));
  st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("the cuda target cannot compile control flow yet (strata.while)"), std::string::npos) << r.error;
}

class CudaPrimitive : public ::testing::TestWithParam<std::string> {};

// Every case of the primitive through every GPU stage; ptxas accepts the PTX.
TEST_P(CudaPrimitive, MakesPtxThatPtxasAccepts) {
  if (!cuda_target_built()) GTEST_SKIP() << "this build has no cuda target (no CUDA toolkit)";
  const st::Primitive* p = st::find_primitive(GetParam());
  ASSERT_NE(p, nullptr);
  for (const Case& c : case_table().at(GetParam())()) {
    st::Jaxpr j = one_equation(*p, c.params, c.inputs);
    st::compiler::LowerResult r = st::compiler::lower(*j.impl(), {.device = kGpu}, "ptx");
    ASSERT_TRUE(r.ok()) << c.what << "\n" << r.error << "\n" << j;
    std::string ptx, gpu;
    for (const auto& s : r.stages) {
      if (s.stage == "ptx") ptx = s.text;
      if (s.stage == "gpu") gpu = s.text;
    }
    // Every loop became a kernel: the host keeps launches, copies and library calls only.
    EXPECT_EQ(gpu.substr(0, gpu.find("gpu.module")).find("scf."), std::string::npos) << c.what << "\n" << gpu;
    std::string names;
    for (const auto& s : r.stages) names += s.stage + " ";
    if (ptx.empty()) continue;  // no kernel (an empty result, a forwarded input)
    EXPECT_NE(ptx.find(".target sm_"), std::string::npos) << c.what << " (stages: " << names << ")";
    std::string errors = ptxas_errors(ptx);
    EXPECT_TRUE(errors.empty()) << c.what << ": ptxas refuses the PTX:\n" << errors << "\n" << ptx;
    if (::testing::Test::HasFailure()) return;
  }
}

TEST_P(CudaPrimitive, MatchesEagerOnTheGpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device in this process";
  const st::Primitive* p = st::find_primitive(GetParam());
  ASSERT_NE(p, nullptr);
  for (const Case& c : case_table().at(GetParam())()) {
    st::Jaxpr j = one_equation(*p, c.params, c.inputs);
    expect_gpu_matches_eager(j, c.inputs, c.tol, GetParam() + ": " + c.what);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(All, CudaPrimitive, ::testing::ValuesIn(primitive_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
