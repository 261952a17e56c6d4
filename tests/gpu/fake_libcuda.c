/* tests/gpu/fake_libcuda.c — a stand-in libcuda.so.1 with one "GPU" whose memory is 1 GiB of
 * host memory, so the driver loader (cuGetProcAddress resolution), the caching allocator (reuse,
 * limit, out-of-memory retry and message) and the core's copies run on machines without a GPU.
 * Copies are synchronous memcpys; a stream being captured records copies and memsets instead
 * (one capture at a time), and a graph launch replays them, as CUDA does. Modules and kernel
 * launches are CUDA_ERROR_NOT_SUPPORTED (their tests need a real GPU and are filtered out of
 * the fake run). Nothing ships with it. */
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_TOTAL (1ull << 30)

static size_t g_used;
static __thread CUcontext g_current;

struct block { void* p; size_t size; struct block* next; };
static struct block* g_blocks;

static CUresult f_init(unsigned flags) { (void)flags; return CUDA_SUCCESS; }
static CUresult f_error_name(CUresult e, const char** s) {
  switch (e) {
    case CUDA_ERROR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: *s = "CUDA_ERROR_NOT_SUPPORTED"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
static CUresult f_error_string(CUresult e, const char** s) {
  switch (e) {
    case CUDA_ERROR_OUT_OF_MEMORY: *s = "out of memory"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_SUPPORTED: *s = "operation not supported"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE: *s = "invalid argument"; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
static CUresult f_driver_version(int* v) { *v = 13000; return CUDA_SUCCESS; }
static CUresult f_device_count(int* n) { *n = 1; return CUDA_SUCCESS; }
static CUresult f_device_get(CUdevice* d, int i) { if (i != 0) return CUDA_ERROR_INVALID_VALUE; *d = 0; return CUDA_SUCCESS; }
static CUresult f_device_name(char* name, int len, CUdevice d) {
  (void)d;
  strncpy(name, "Fake GPU", (size_t)len);
  return CUDA_SUCCESS;
}
static CUresult f_device_attribute(int* v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 2; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
static CUresult f_retain(CUcontext* c, CUdevice d) { (void)d; *c = (CUcontext)(uintptr_t)0x1000; return CUDA_SUCCESS; }
static CUresult f_set_current(CUcontext c) { g_current = c; return CUDA_SUCCESS; }
static CUresult f_get_current(CUcontext* c) { *c = g_current; return CUDA_SUCCESS; }
static uintptr_t g_next_stream = 0x2000;
static CUresult f_stream_create(CUstream* s, unsigned flags) {
  if (flags != CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE;
  *s = (CUstream)g_next_stream;
  g_next_stream += 0x10;
  return CUDA_SUCCESS;
}

/* Graphs: a list of copies (src non-null) and memsets (src null). */
struct op { void* dst; const void* src; unsigned char value; size_t n; };
struct graph { struct op* ops; size_t count; };
static CUstream g_capturing;
static struct graph g_recording;

static void run_ops(const struct graph* g) {
  for (size_t i = 0; i < g->count; ++i) {
    const struct op* o = &g->ops[i];
    if (o->src) memcpy(o->dst, o->src, o->n);
    else memset(o->dst, o->value, o->n);
  }
}
/* Records the operation when `s` is being captured (returns 1), else returns 0. */
static int record(CUstream s, void* dst, const void* src, unsigned char value, size_t n) {
  if (!g_capturing || s != g_capturing) return 0;
  g_recording.ops = realloc(g_recording.ops, (g_recording.count + 1) * sizeof(struct op));
  struct op o = {dst, src, value, n};
  g_recording.ops[g_recording.count++] = o;
  return 1;
}
static CUresult f_begin_capture(CUstream s, CUstreamCaptureMode mode) {
  (void)mode;
  if (g_capturing || !s) return CUDA_ERROR_INVALID_VALUE;
  g_capturing = s;
  g_recording.ops = NULL;
  g_recording.count = 0;
  return CUDA_SUCCESS;
}
static CUresult f_end_capture(CUstream s, CUgraph* out) {
  if (s != g_capturing) return CUDA_ERROR_INVALID_VALUE;
  struct graph* g = malloc(sizeof(struct graph));
  *g = g_recording;
  g_capturing = NULL;
  *out = (CUgraph)g;
  return CUDA_SUCCESS;
}
static CUresult f_instantiate(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
  (void)flags;
  const struct graph* g = (const struct graph*)graph;
  struct graph* e = malloc(sizeof(struct graph));
  e->count = g->count;
  e->ops = malloc((g->count ? g->count : 1) * sizeof(struct op));
  if (g->count) memcpy(e->ops, g->ops, g->count * sizeof(struct op));
  *exec = (CUgraphExec)e;
  return CUDA_SUCCESS;
}
static CUresult f_graph_launch(CUgraphExec exec, CUstream s) {
  if (s == g_capturing) return CUDA_ERROR_NOT_SUPPORTED;
  run_ops((const struct graph*)exec);
  return CUDA_SUCCESS;
}
static CUresult f_graph_destroy(CUgraph graph) {
  struct graph* g = (struct graph*)graph;
  free(g->ops);
  free(g);
  return CUDA_SUCCESS;
}
static CUresult f_exec_destroy(CUgraphExec exec) { return f_graph_destroy((CUgraph)exec); }
static CUresult f_stream_sync(CUstream s) { (void)s; return g_current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }
static CUresult f_mem_info(size_t* free_bytes, size_t* total) {
  *free_bytes = FAKE_TOTAL - g_used;
  *total = FAKE_TOTAL;
  return CUDA_SUCCESS;
}
static CUresult f_mem_alloc(CUdeviceptr* p, size_t size) {
  if (!g_current) return CUDA_ERROR_INVALID_CONTEXT;
  if (size > FAKE_TOTAL - g_used) return CUDA_ERROR_OUT_OF_MEMORY;
  struct block* b = malloc(sizeof(struct block));
  b->p = aligned_alloc(256, (size + 255) / 256 * 256);
  b->size = size;
  b->next = g_blocks;
  g_blocks = b;
  g_used += size;
  *p = (CUdeviceptr)(uintptr_t)b->p;
  return CUDA_SUCCESS;
}
static CUresult f_mem_free(CUdeviceptr p) {
  for (struct block** b = &g_blocks; *b; b = &(*b)->next)
    if ((CUdeviceptr)(uintptr_t)(*b)->p == p) {
      struct block* dead = *b;
      *b = dead->next;
      g_used -= dead->size;
      free(dead->p);
      free(dead);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
static CUresult f_htod(CUdeviceptr d, const void* h, size_t n, CUstream s) {
  if (record(s, (void*)(uintptr_t)d, h, 0, n)) return CUDA_SUCCESS;
  memcpy((void*)(uintptr_t)d, h, n);
  return CUDA_SUCCESS;
}
static CUresult f_dtoh(void* h, CUdeviceptr d, size_t n, CUstream s) {
  (void)s;
  memcpy(h, (const void*)(uintptr_t)d, n);
  return CUDA_SUCCESS;
}
static CUresult f_memset8(CUdeviceptr dst, unsigned char value, size_t n, CUstream s) {
  if (record(s, (void*)(uintptr_t)dst, NULL, value, n)) return CUDA_SUCCESS;
  memset((void*)(uintptr_t)dst, value, n);
  return CUDA_SUCCESS;
}

static CUresult f_dtod(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s) {
  if (record(s, (void*)(uintptr_t)d, (const void*)(uintptr_t)src, 0, n)) return CUDA_SUCCESS;
  memcpy((void*)(uintptr_t)d, (const void*)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}
static CUresult f_unsupported(void) { return CUDA_ERROR_NOT_SUPPORTED; }

struct entry { const char* name; void* fn; };
static const struct entry g_table[] = {
    {"cuInit", (void*)f_init},
    {"cuGetErrorName", (void*)f_error_name},
    {"cuGetErrorString", (void*)f_error_string},
    {"cuDriverGetVersion", (void*)f_driver_version},
    {"cuDeviceGetCount", (void*)f_device_count},
    {"cuDeviceGet", (void*)f_device_get},
    {"cuDeviceGetName", (void*)f_device_name},
    {"cuDeviceGetAttribute", (void*)f_device_attribute},
    {"cuDevicePrimaryCtxRetain", (void*)f_retain},
    {"cuCtxSetCurrent", (void*)f_set_current},
    {"cuCtxGetCurrent", (void*)f_get_current},
    {"cuStreamCreate", (void*)f_stream_create},
    {"cuStreamSynchronize", (void*)f_stream_sync},
    {"cuMemGetInfo", (void*)f_mem_info},
    {"cuMemAlloc", (void*)f_mem_alloc},
    {"cuMemFree", (void*)f_mem_free},
    {"cuMemcpyHtoDAsync", (void*)f_htod},
    {"cuMemcpyDtoHAsync", (void*)f_dtoh},
    {"cuMemcpyDtoDAsync", (void*)f_dtod},
    {"cuMemsetD8Async", (void*)f_memset8},
    {"cuModuleLoadData", (void*)f_unsupported},
    {"cuModuleUnload", (void*)f_unsupported},
    {"cuModuleGetFunction", (void*)f_unsupported},
    {"cuLaunchKernel", (void*)f_unsupported},
    {"cuStreamBeginCapture", (void*)f_begin_capture},
    {"cuStreamEndCapture", (void*)f_end_capture},
    {"cuGraphInstantiateWithFlags", (void*)f_instantiate},
    {"cuGraphLaunch", (void*)f_graph_launch},
    {"cuGraphDestroy", (void*)f_graph_destroy},
    {"cuGraphExecDestroy", (void*)f_exec_destroy},
};

/* The exported entry points: the four the loader looks up by name, and cuGetProcAddress_v2
 * (which resolves the base names, as the real driver does for a CUDA 13 caller). */
CUresult cuInit(unsigned flags) { return f_init(flags); }
CUresult cuGetErrorName(CUresult e, const char** s) { return f_error_name(e, s); }
CUresult cuGetErrorString(CUresult e, const char** s) { return f_error_string(e, s); }
CUresult cuDriverGetVersion(int* v) { return f_driver_version(v); }
CUresult cuGetProcAddress_v2(const char* symbol, void** fn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult* status) {
  (void)flags;
  *fn = NULL;
  if (version < 12000 || version > 13000) return CUDA_ERROR_INVALID_VALUE;  /* as a 13.0 driver */
  for (size_t i = 0; i < sizeof(g_table) / sizeof(g_table[0]); ++i)
    if (strcmp(g_table[i].name, symbol) == 0) {
      *fn = g_table[i].fn;
      if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  if (status) *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}
