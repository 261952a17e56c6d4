// cuBLASLt GEMMs (see CublasLt.h), the library loaded with dlopen.
//
// Row-major through column-major cuBLASLt. A row-major [R,C] buffer is, read column-major, the
// [C,R] matrix with ld = C: its transpose. So row-major D = op(A)·op(B) is computed as the
// column-major Dc = Dᵀ = op(B)ᵀ·op(A)ᵀ, swapping the operands:
//   cuBLASLt "A" = the user's B buffer:  trans_b ? (rows K, cols N, ld K, op T) : (rows N, cols K, ld N, op N)
//   cuBLASLt "B" = the user's A buffer:  trans_a ? (rows M, cols K, ld M, op T) : (rows K, cols M, ld K, op N)
//   D (and C, beta = 0):                 rows N, cols M, ld N
// (a layout is the stored matrix, before its op). cuBLASLt's bias has one element per row of
// Dc, i.e. per column of the row-major D: bias[N], as wanted.
#include "backends/cuda/CublasLt.h"

#include <cublasLt.h>
#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cuda/Driver.h"

namespace strata::backends::cuda {

namespace {

struct Lib {
  void* handle = nullptr;
  std::string why;
#define STRATA_LT_FNS(X)                                                                                     \
  X(cublasLtCreate) X(cublasLtGetStatusName) X(cublasLtGetStatusString) X(cublasLtMatmulDescCreate)         \
  X(cublasLtMatmulDescSetAttribute) X(cublasLtMatrixLayoutCreate) X(cublasLtMatrixLayoutSetAttribute)       \
  X(cublasLtMatmulPreferenceCreate) X(cublasLtMatmulPreferenceSetAttribute) X(cublasLtMatmulPreferenceDestroy) \
  X(cublasLtMatmulAlgoGetHeuristic) X(cublasLtMatmul) X(cublasLtMatmulDescDestroy) X(cublasLtMatrixLayoutDestroy)
#define STRATA_LT_MEMBER(name) decltype(&::name) name = nullptr;
  STRATA_LT_FNS(STRATA_LT_MEMBER)
#undef STRATA_LT_MEMBER

  Lib() {
    std::string errors;
    for (const char* path : {"libcublasLt.so.13", "/usr/local/cuda/lib64/libcublasLt.so.13"}) {
      handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (handle) break;
      const char* err = dlerror();
      absl::StrAppend(&errors, errors.empty() ? "" : "; ", err ? err : path);
    }
    if (!handle) {
      why = absl::StrCat("libcublasLt.so.13 not found: ", errors);
      return;
    }
    std::string missing;
#define STRATA_LT_RESOLVE(name)                                             \
  name = reinterpret_cast<decltype(name)>(dlsym(handle, #name));            \
  if (!name) absl::StrAppend(&missing, missing.empty() ? "" : ", ", #name);
    STRATA_LT_FNS(STRATA_LT_RESOLVE)
#undef STRATA_LT_RESOLVE
    if (!missing.empty()) why = absl::StrCat("libcublasLt.so.13 lacks ", missing);
  }
};

Lib& lib() {
  static Lib* l = new Lib();  // never destroyed: plans outlive static destructors
  return *l;
}

absl::Status check(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return absl::OkStatus();
  Lib& l = lib();
  return absl::InternalError(absl::StrCat(what, ": ", l.cublasLtGetStatusName(s), ": ", l.cublasLtGetStatusString(s)));
}

cudaDataType_t data_type(GemmType t) {
  switch (t) {
    case GemmType::f32: return CUDA_R_32F;
    case GemmType::bf16: return CUDA_R_16BF;
    case GemmType::f16: return CUDA_R_16F;
  }
  return CUDA_R_32F;
}

std::size_t element_bytes(GemmType t) { return t == GemmType::f32 ? 4 : 2; }

cublasLtEpilogue_t lt_epilogue(GemmEpilogue e) {
  switch (e) {
    case GemmEpilogue::none: return CUBLASLT_EPILOGUE_DEFAULT;
    case GemmEpilogue::relu: return CUBLASLT_EPILOGUE_RELU;
    case GemmEpilogue::gelu: return CUBLASLT_EPILOGUE_GELU;
    case GemmEpilogue::bias: return CUBLASLT_EPILOGUE_BIAS;
    case GemmEpilogue::relu_bias: return CUBLASLT_EPILOGUE_RELU_BIAS;
    case GemmEpilogue::gelu_bias: return CUBLASLT_EPILOGUE_GELU_BIAS;
  }
  return CUBLASLT_EPILOGUE_DEFAULT;
}

bool has_bias(GemmEpilogue e) {
  return e == GemmEpilogue::bias || e == GemmEpilogue::relu_bias || e == GemmEpilogue::gelu_bias;
}

// The alignment the heuristic may assume for an operand: of its pointer and, batched, of each
// matrix's start; at most 256 (cuBLASLt's default, which would exclude every algorithm for a
// less aligned operand).
uint32_t alignment(const void* p, int64_t batch, int64_t stride_bytes) {
  uint64_t bits = reinterpret_cast<uint64_t>(p) | 256;
  if (batch > 1 && stride_bytes) bits |= static_cast<uint64_t>(stride_bytes);
  return static_cast<uint32_t>(bits & (~bits + 1));  // the lowest set bit
}

// Everything the descriptors and the chosen algorithm depend on.
using PlanKey = std::tuple<int, GemmType, int64_t, int64_t, int64_t, bool, bool, int64_t, int64_t, int64_t, int64_t,
                           GemmEpilogue, bool, uint32_t, uint32_t, uint32_t, std::size_t>;

struct Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t x = nullptr, y = nullptr, d = nullptr;  // cuBLASLt's A, B, C = D
  cublasLtMatmulAlgo_t algo{};
  std::mutex bias_mu;  // the bias pointer is set on the shared descriptor right before each call

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {  // only a plan whose making failed is destroyed
    Lib& l = lib();
    for (cublasLtMatrixLayout_t layout : {x, y, d})
      if (layout) l.cublasLtMatrixLayoutDestroy(layout);
    if (desc) l.cublasLtMatmulDescDestroy(desc);
  }
};

struct State {
  std::mutex mu;
  std::map<int, cublasLtHandle_t> handles;  // per device, made with its primary context current
  std::map<PlanKey, std::unique_ptr<Plan>> plans;
};

State& state() {
  static State* s = new State();
  return *s;
}

template <typename T>
absl::Status set_layout(Lib& l, cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr, T value) {
  return check(l.cublasLtMatrixLayoutSetAttribute(layout, attr, &value, sizeof(value)),
               "cublasLtMatrixLayoutSetAttribute");
}

absl::StatusOr<cublasLtMatrixLayout_t> make_layout(Lib& l, cudaDataType_t type, int64_t rows, int64_t cols,
                                                   int64_t batch, int64_t stride) {
  cublasLtMatrixLayout_t layout = nullptr;
  if (absl::Status s = check(l.cublasLtMatrixLayoutCreate(&layout, type, rows, cols, rows), "cublasLtMatrixLayoutCreate");
      !s.ok())
    return s;
  if (batch > 1) {
    if (absl::Status s = set_layout(l, layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, static_cast<int32_t>(batch)); !s.ok())
      return s;
    if (absl::Status s = set_layout(l, layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride); !s.ok()) return s;
  }
  return layout;
}

// Builds the descriptors and asks the heuristic for the best algorithm. Plans are kept for the
// process's life (a few hundred bytes each).
absl::StatusOr<std::unique_ptr<Plan>> make_plan(Lib& l, cublasLtHandle_t handle, const GemmArgs& a,
                                                uint32_t align_x, uint32_t align_y, uint32_t align_d) {
  auto plan = std::make_unique<Plan>();
  const cudaDataType_t type = data_type(a.type);
  cublasComputeType_t compute =
      a.type == GemmType::f32 && a.allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  if (absl::Status s = check(l.cublasLtMatmulDescCreate(&plan->desc, compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
      !s.ok())
    return s;
  auto set_desc = [&](cublasLtMatmulDescAttributes_t attr, const void* value, std::size_t size) {
    return check(l.cublasLtMatmulDescSetAttribute(plan->desc, attr, value, size), "cublasLtMatmulDescSetAttribute");
  };
  const int32_t op_x = a.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int32_t op_y = a.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const uint32_t epilogue = lt_epilogue(a.epilogue);
  if (absl::Status s = set_desc(CUBLASLT_MATMUL_DESC_TRANSA, &op_x, sizeof(op_x)); !s.ok()) return s;
  if (absl::Status s = set_desc(CUBLASLT_MATMUL_DESC_TRANSB, &op_y, sizeof(op_y)); !s.ok()) return s;
  if (absl::Status s = set_desc(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)); !s.ok()) return s;
  if (has_bias(a.epilogue)) {
    // The heuristic needs to know a bias is there; the real pointer is set at each call.
    const void* bias = a.bias;
    if (absl::Status s = set_desc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)); !s.ok()) return s;
  }

  absl::StatusOr<cublasLtMatrixLayout_t> x = a.trans_b ? make_layout(l, type, a.k, a.n, a.batch, a.stride_b)
                                                       : make_layout(l, type, a.n, a.k, a.batch, a.stride_b);
  if (!x.ok()) return x.status();
  plan->x = *x;
  absl::StatusOr<cublasLtMatrixLayout_t> y = a.trans_a ? make_layout(l, type, a.m, a.k, a.batch, a.stride_a)
                                                       : make_layout(l, type, a.k, a.m, a.batch, a.stride_a);
  if (!y.ok()) return y.status();
  plan->y = *y;
  absl::StatusOr<cublasLtMatrixLayout_t> d = make_layout(l, type, a.n, a.m, a.batch, a.stride_d);
  if (!d.ok()) return d.status();
  plan->d = *d;

  cublasLtMatmulPreference_t pref = nullptr;
  if (absl::Status s = check(l.cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate"); !s.ok())
    return s;
  std::unique_ptr<void, void (*)(void*)> pref_guard(pref, [](void* p) {
    lib().cublasLtMatmulPreferenceDestroy(static_cast<cublasLtMatmulPreference_t>(p));
  });
  auto set_pref = [&](cublasLtMatmulPreferenceAttributes_t attr, const void* value, std::size_t size) {
    return check(l.cublasLtMatmulPreferenceSetAttribute(pref, attr, value, size),
                 "cublasLtMatmulPreferenceSetAttribute");
  };
  const uint64_t workspace = a.workspace_bytes;
  if (absl::Status s = set_pref(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace)); !s.ok())
    return s;
  const std::pair<cublasLtMatmulPreferenceAttributes_t, uint32_t> aligns[] = {
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, align_x},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, align_y},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, align_d},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, align_d}};
  for (const auto& [attr, value] : aligns)
    if (absl::Status s = set_pref(attr, &value, sizeof(value)); !s.ok()) return s;

  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  if (absl::Status s = check(l.cublasLtMatmulAlgoGetHeuristic(handle, plan->desc, plan->x, plan->y, plan->d, plan->d,
                                                               pref, 1, &result, &found),
                             "cublasLtMatmulAlgoGetHeuristic");
      !s.ok())
    return s;
  if (found == 0 || result.state != CUBLAS_STATUS_SUCCESS)
    return absl::UnimplementedError(absl::StrCat("cublasLtMatmulAlgoGetHeuristic: no algorithm for a ", a.m, "x", a.n,
                                                 "x", a.k, " GEMM (batch ", a.batch, ", type ", static_cast<int>(a.type),
                                                 ", epilogue ", static_cast<int>(a.epilogue), ", workspace ",
                                                 a.workspace_bytes, " bytes)"));
  plan->algo = result.algo;
  return plan;
}

absl::Status validate(const GemmArgs& a) {
  if (a.m < 0 || a.n < 0 || a.k <= 0 || a.batch < 1)
    return absl::InvalidArgumentError(absl::StrCat("gemm: need m, n >= 0, k > 0 and batch >= 1; got m=", a.m,
                                                   " n=", a.n, " k=", a.k, " batch=", a.batch));
  if (!a.a || !a.b || !a.d) return absl::InvalidArgumentError("gemm: a, b and d must be device pointers");
  if (has_bias(a.epilogue) && !a.bias) return absl::InvalidArgumentError("gemm: a bias epilogue needs a bias");
  if (a.workspace_bytes && !a.workspace)
    return absl::InvalidArgumentError("gemm: workspace_bytes without a workspace");
  if (a.batch > 1 && (a.stride_a < 0 || a.stride_b < 0 || a.stride_d < a.m * a.n))
    return absl::InvalidArgumentError(absl::StrCat("gemm: batch strides must be >= 0, and stride_d >= m*n (", a.m * a.n,
                                                   "); got ", a.stride_a, ", ", a.stride_b, ", ", a.stride_d));
  const int64_t limit = int64_t{1} << 31;  // cuBLASLt takes the batch count as int32
  if (a.batch >= limit) return absl::InvalidArgumentError("gemm: batch count above 2^31");
  return absl::OkStatus();
}

}  // namespace

bool cublaslt_available() { return lib().why.empty(); }
const std::string& cublaslt_why_unavailable() { return lib().why; }

absl::Status gemm(const GemmArgs& a) {
  Lib& l = lib();
  if (!l.why.empty()) return absl::UnavailableError(l.why);
  if (absl::Status s = validate(a); !s.ok()) return s;
  Driver& drv = driver();
  if (absl::Status s = drv.use_device(a.device); !s.ok()) return s;
  if (a.m == 0 || a.n == 0) return absl::OkStatus();

  const std::size_t e = element_bytes(a.type);
  const uint32_t align_x = alignment(a.b, a.batch, a.stride_b * static_cast<int64_t>(e));
  const uint32_t align_y = alignment(a.a, a.batch, a.stride_a * static_cast<int64_t>(e));
  const uint32_t align_d = alignment(a.d, a.batch, a.stride_d * static_cast<int64_t>(e));
  const int64_t batch = a.batch;
  const PlanKey key{a.device,  a.type,  a.m,       a.n,      a.k,        a.trans_a, a.trans_b, batch,
                    batch > 1 ? a.stride_a : 0, batch > 1 ? a.stride_b : 0, batch > 1 ? a.stride_d : 0,
                    a.epilogue, a.type == GemmType::f32 && a.allow_tf32, align_x, align_y, align_d,
                    a.workspace_bytes};

  State& st = state();
  cublasLtHandle_t handle = nullptr;
  Plan* plan = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto h = st.handles.find(a.device);
    if (h == st.handles.end()) {
      if (absl::Status s = check(l.cublasLtCreate(&handle), "cublasLtCreate"); !s.ok()) return s;
      h = st.handles.emplace(a.device, handle).first;
    }
    handle = h->second;
    auto it = st.plans.find(key);
    if (it == st.plans.end()) {
      absl::StatusOr<std::unique_ptr<Plan>> made = make_plan(l, handle, a, align_x, align_y, align_d);
      if (!made.ok()) return made.status();
      it = st.plans.emplace(key, std::move(*made)).first;
    }
    plan = it->second.get();
  }

  const float alpha = 1.0f, beta = 0.0f;
  CUstream stream = a.stream ? a.stream : drv.stream(a.device);
  auto run = [&] {
    return check(l.cublasLtMatmul(handle, plan->desc, &alpha, a.b, plan->x, a.a, plan->y, &beta, a.d, plan->d, a.d,
                                  plan->d, &plan->algo, a.workspace, a.workspace_bytes, stream),
                 "cublasLtMatmul");
  };
  if (!has_bias(a.epilogue)) return run();
  std::lock_guard<std::mutex> lock(plan->bias_mu);
  const void* bias = a.bias;
  if (absl::Status s = check(l.cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                                              sizeof(bias)),
                             "cublasLtMatmulDescSetAttribute");
      !s.ok())
    return s;
  return run();
}

}  // namespace strata::backends::cuda
