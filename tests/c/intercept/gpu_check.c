/* GPU check of libecgemm_cublas (tests/test_intercept_gpu.py): every intercepted
 * entry point, built against the real cuBLAS headers and library, run under
 * LD_PRELOAD. Each call is made three ways on the same operands: through cuBLAS with
 * interception on (tf32tf32), with it off (real cuBLAS FP32), and as a direct ecgemm
 * call. Prints `ok|FAIL <case> <detail>` per check; exits 0 when all passed, 1 when
 * one failed, 3 when the library is not preloaded, 77 without a usable GPU.
 *
 * Accuracy: relative Frobenius residual against an FP64 host product; intercepted
 * results must stay within max(4 x cuBLAS SGEMM's residual, 2^-20) and match the direct
 * ecgemm call (same kernels) to 1e-6. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecgemm.h"

#define SKIPPED 77
#define CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

static int (*set_mode)(const char*);
static int failures;
static cudaStream_t stream;

static void report(int ok, const char* name, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  printf("%s %s ", ok ? "ok" : "FAIL", name);
  vprintf(fmt, args);
  printf("\n");
  fflush(stdout);
  va_end(args);
  if (!ok) failures++;
}

/* One batch of products C_z = alpha op(A_z) op(B_z) + beta C_z, column-major. */
typedef struct {
  cublasOperation_t ta, tb;
  int m, n, k, lda, ldb, ldc, batch;
  float alpha, beta;
  size_t size_a, size_b, size_c; /* elements per product (the strides) */
  float *ha, *hb, *hc0;          /* host operands, every product */
  float *da, *db, *dc;           /* device copies; dc is reset to hc0 before each run */
  float **pa, **pb, **pc;        /* device arrays of per-product pointers */
} Problem;

static float uniform(unsigned* state, float lo, float hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * (float)(*state >> 8) / 16777216.0f;
}

static Problem make(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int pad,
                    int batch, float lo, float hi, unsigned seed) {
  Problem p = {ta, tb, m, n, k, 0, 0, 0, batch, 1.25f, 0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const int rows_a = ta == CUBLAS_OP_N ? m : k, cols_a = ta == CUBLAS_OP_N ? k : m;
  const int rows_b = tb == CUBLAS_OP_N ? k : n, cols_b = tb == CUBLAS_OP_N ? n : k;
  p.lda = rows_a + pad;
  p.ldb = rows_b + 2 * pad;
  p.ldc = m + 3 * pad;
  p.size_a = (size_t)p.lda * cols_a;
  p.size_b = (size_t)p.ldb * cols_b;
  p.size_c = (size_t)p.ldc * n;
  p.ha = malloc(p.size_a * batch * sizeof(float));
  p.hb = malloc(p.size_b * batch * sizeof(float));
  p.hc0 = malloc(p.size_c * batch * sizeof(float));
  for (size_t i = 0; i < p.size_a * batch; ++i) p.ha[i] = uniform(&seed, lo, hi);
  for (size_t i = 0; i < p.size_b * batch; ++i) p.hb[i] = uniform(&seed, lo, hi);
  for (size_t i = 0; i < p.size_c * batch; ++i) p.hc0[i] = uniform(&seed, lo, hi);
  CUDA(cudaMalloc((void**)&p.da, p.size_a * batch * sizeof(float)));
  CUDA(cudaMalloc((void**)&p.db, p.size_b * batch * sizeof(float)));
  CUDA(cudaMalloc((void**)&p.dc, p.size_c * batch * sizeof(float)));
  CUDA(cudaMemcpy(p.da, p.ha, p.size_a * batch * sizeof(float), cudaMemcpyHostToDevice));
  CUDA(cudaMemcpy(p.db, p.hb, p.size_b * batch * sizeof(float), cudaMemcpyHostToDevice));
  float** ptrs = malloc(3 * batch * sizeof(float*));
  for (int z = 0; z < batch; ++z) {
    ptrs[z] = p.da + z * p.size_a;
    ptrs[batch + z] = p.db + z * p.size_b;
    ptrs[2 * batch + z] = p.dc + z * p.size_c;
  }
  CUDA(cudaMalloc((void**)&p.pa, 3 * batch * sizeof(float*)));
  CUDA(cudaMemcpy(p.pa, ptrs, 3 * batch * sizeof(float*), cudaMemcpyHostToDevice));
  p.pb = p.pa + batch;
  p.pc = p.pa + 2 * batch;
  free(ptrs);
  return p;
}

static void reset_c(const Problem* p, const float* hc) {
  CUDA(cudaMemcpy(p->dc, hc ? hc : p->hc0, p->size_c * p->batch * sizeof(float),
                  cudaMemcpyHostToDevice));
}

static float* fetch_c(const Problem* p) {
  float* out = malloc(p->size_c * p->batch * sizeof(float));
  CUDA(cudaStreamSynchronize(stream));
  CUDA(cudaMemcpy(out, p->dc, p->size_c * p->batch * sizeof(float), cudaMemcpyDeviceToHost));
  return out;
}

static double op_at(const float* x, int ld, cublasOperation_t op, int row, int col) {
  return op == CUBLAS_OP_N ? x[row + (size_t)col * ld] : x[col + (size_t)row * ld];
}

/* FP64 reference of every product, from C0 = `c0`. */
static double* reference(const Problem* p, const float* c0) {
  double* ref = malloc(p->size_c * p->batch * sizeof(double));
  for (int z = 0; z < p->batch; ++z) {
    const float* a = p->ha + z * p->size_a;
    const float* b = p->hb + z * p->size_b;
    for (int j = 0; j < p->n; ++j)
      for (int i = 0; i < p->m; ++i) {
        double sum = 0;
        for (int l = 0; l < p->k; ++l) sum += op_at(a, p->lda, p->ta, i, l) * op_at(b, p->ldb, p->tb, l, j);
        const size_t at = z * p->size_c + i + (size_t)j * p->ldc;
        ref[at] = p->alpha * sum + (p->beta != 0 ? p->beta * (double)c0[at] : 0.0);
      }
  }
  return ref;
}

/* Relative Frobenius distance of `c` from `ref` over the m x n part of each product. */
static double distance(const Problem* p, const float* c, const double* ref) {
  double num = 0, den = 0;
  for (int z = 0; z < p->batch; ++z)
    for (int j = 0; j < p->n; ++j)
      for (int i = 0; i < p->m; ++i) {
        const size_t at = z * p->size_c + i + (size_t)j * p->ldc;
        num += (c[at] - ref[at]) * (c[at] - ref[at]);
        den += ref[at] * ref[at];
      }
  return sqrt(num / den);
}

static double distance_f(const Problem* p, const float* c, const float* other) {
  double* ref = malloc(p->size_c * p->batch * sizeof(double));
  for (size_t i = 0; i < p->size_c * p->batch; ++i) ref[i] = other[i];
  const double d = distance(p, c, ref);
  free(ref);
  return d;
}

/* Rows m..ldc-1 of every column must be exactly as they were. */
static int padding_untouched(const Problem* p, const float* c, const float* c0) {
  for (int z = 0; z < p->batch; ++z)
    for (int j = 0; j < p->n; ++j)
      for (int i = p->m; i < p->ldc; ++i) {
        const size_t at = z * p->size_c + i + (size_t)j * p->ldc;
        if (memcmp(&c[at], &c0[at], sizeof(float)) != 0) return 0;
      }
  return 1;
}

/* The entry points, by name; `alpha`/`beta` are host or device pointers as the handle says. */
static cublasStatus_t call(const char* api, cublasHandle_t h, const Problem* p, const float* alpha,
                           const float* beta, cublasComputeType_t compute) {
  const int m = p->m, n = p->n, k = p->k, lda = p->lda, ldb = p->ldb, ldc = p->ldc, b = p->batch;
  const long long sa = p->size_a, sb = p->size_b, sc = p->size_c;
  const cudaDataType f = CUDA_R_32F;
  const cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT;
  if (!strcmp(api, "cublasSgemm_v2"))
    return cublasSgemm_v2(h, p->ta, p->tb, m, n, k, alpha, p->da, lda, p->db, ldb, beta, p->dc, ldc);
  if (!strcmp(api, "cublasSgemm_v2_64"))
    return cublasSgemm_v2_64(h, p->ta, p->tb, m, n, k, alpha, p->da, lda, p->db, ldb, beta, p->dc, ldc);
  if (!strcmp(api, "cublasSgemmStridedBatched"))
    return cublasSgemmStridedBatched(h, p->ta, p->tb, m, n, k, alpha, p->da, lda, sa, p->db, ldb, sb, beta, p->dc, ldc, sc, b);
  if (!strcmp(api, "cublasSgemmStridedBatched_64"))
    return cublasSgemmStridedBatched_64(h, p->ta, p->tb, m, n, k, alpha, p->da, lda, sa, p->db, ldb, sb, beta, p->dc, ldc, sc, b);
  if (!strcmp(api, "cublasSgemmBatched"))
    return cublasSgemmBatched(h, p->ta, p->tb, m, n, k, alpha, (const float* const*)p->pa, lda, (const float* const*)p->pb, ldb, beta, p->pc, ldc, b);
  if (!strcmp(api, "cublasSgemmBatched_64"))
    return cublasSgemmBatched_64(h, p->ta, p->tb, m, n, k, alpha, (const float* const*)p->pa, lda, (const float* const*)p->pb, ldb, beta, p->pc, ldc, b);
  if (!strcmp(api, "cublasGemmEx"))
    return cublasGemmEx(h, p->ta, p->tb, m, n, k, alpha, p->da, f, lda, p->db, f, ldb, beta, p->dc, f, ldc, compute, algo);
  if (!strcmp(api, "cublasGemmEx_64"))
    return cublasGemmEx_64(h, p->ta, p->tb, m, n, k, alpha, p->da, f, lda, p->db, f, ldb, beta, p->dc, f, ldc, compute, algo);
  if (!strcmp(api, "cublasGemmStridedBatchedEx"))
    return cublasGemmStridedBatchedEx(h, p->ta, p->tb, m, n, k, alpha, p->da, f, lda, sa, p->db, f, ldb, sb, beta, p->dc, f, ldc, sc, b, compute, algo);
  if (!strcmp(api, "cublasGemmStridedBatchedEx_64"))
    return cublasGemmStridedBatchedEx_64(h, p->ta, p->tb, m, n, k, alpha, p->da, f, lda, sa, p->db, f, ldb, sb, beta, p->dc, f, ldc, sc, b, compute, algo);
  if (!strcmp(api, "cublasGemmBatchedEx"))
    return cublasGemmBatchedEx(h, p->ta, p->tb, m, n, k, alpha, (const void* const*)p->pa, f, lda, (const void* const*)p->pb, f, ldb, beta, (void* const*)p->pc, f, ldc, b, compute, algo);
  if (!strcmp(api, "cublasGemmBatchedEx_64"))
    return cublasGemmBatchedEx_64(h, p->ta, p->tb, m, n, k, alpha, (const void* const*)p->pa, f, lda, (const void* const*)p->pb, f, ldb, beta, (void* const*)p->pc, f, ldc, b, compute, algo);
  fprintf(stderr, "unknown api %s\n", api);
  exit(2);
}

/* The same products as one direct ecgemm call (host alpha, beta). */
static ecgemmStatus_t direct(ecgemmHandle_t e, const Problem* p) {
  const ecgemmOperation_t ta = (ecgemmOperation_t)p->ta, tb = (ecgemmOperation_t)p->tb;
  if (p->batch == 1)
    return ecgemm_sgemm(e, ta, tb, p->m, p->n, p->k, &p->alpha, p->da, p->lda, p->db, p->ldb, &p->beta, p->dc, p->ldc);
  return ecgemm_sgemm_strided_batched(e, ta, tb, p->m, p->n, p->k, &p->alpha, p->da, p->lda, p->size_a, p->db, p->ldb,
                                      p->size_b, &p->beta, p->dc, p->ldc, p->size_c, p->batch);
}

/* Interception on, off, and ecgemm direct, from the same C0; the accuracy checks. */
static void three_ways(const char* name, const char* api, cublasHandle_t h, ecgemmHandle_t e,
                       const Problem* p, cublasComputeType_t compute) {
  set_mode("tf32tf32");
  reset_c(p, NULL);
  const cublasStatus_t s_ec = call(api, h, p, &p->alpha, &p->beta, compute);
  float* c_ec = fetch_c(p);
  set_mode("off");
  reset_c(p, NULL);
  const cublasStatus_t s_cu = call(api, h, p, &p->alpha, &p->beta, compute);
  float* c_cu = fetch_c(p);
  set_mode("tf32tf32");
  reset_c(p, NULL);
  const ecgemmStatus_t s_di = direct(e, p);
  float* c_di = fetch_c(p);
  double* ref = reference(p, p->hc0);
  const double r_ec = distance(p, c_ec, ref), r_cu = distance(p, c_cu, ref);
  const double vs_direct = distance_f(p, c_ec, c_di);
  const double bound = fmax(4 * r_cu, ldexp(1.0, -20));
  report(s_ec == CUBLAS_STATUS_SUCCESS && s_cu == CUBLAS_STATUS_SUCCESS && s_di == ECGEMM_STATUS_SUCCESS &&
             r_ec <= bound && vs_direct <= 1e-6 && padding_untouched(p, c_ec, p->hc0),
         name, "residual=%.3e cublas_residual=%.3e vs_direct=%.3e m=%d n=%d k=%d batch=%d status=%d/%d/%d",
         r_ec, r_cu, vs_direct, p->m, p->n, p->k, p->batch, s_ec, s_cu, s_di);
  free(c_ec), free(c_cu), free(c_di), free(ref);
}

/* A call the library must hand to cuBLAS: on and off give the same bits. */
static void passes_through(const char* name, const char* api, cublasHandle_t h, const Problem* p,
                           cublasComputeType_t compute) {
  set_mode("tf32tf32");
  reset_c(p, NULL);
  const cublasStatus_t s1 = call(api, h, p, &p->alpha, &p->beta, compute);
  float* c1 = fetch_c(p);
  set_mode("off");
  reset_c(p, NULL);
  const cublasStatus_t s2 = call(api, h, p, &p->alpha, &p->beta, compute);
  float* c2 = fetch_c(p);
  set_mode("tf32tf32");
  report(s1 == CUBLAS_STATUS_SUCCESS && s2 == s1 && !memcmp(c1, c2, p->size_c * p->batch * sizeof(float)),
         name, "bit-identical to interception off");
  free(c1), free(c2);
}

typedef struct {
  Problem p;
  float* result;
} ThreadWork;

static void* thread_main(void* arg) {
  ThreadWork* w = arg;
  cublasHandle_t h;
  cudaStream_t s;
  CUDA(cudaStreamCreate(&s));
  if (cublasCreate_v2(&h) != CUBLAS_STATUS_SUCCESS) return NULL;
  cublasSetStream_v2(h, s);
  for (int rep = 0; rep < 3; ++rep) {
    reset_c(&w->p, NULL);
    cublasSgemm_v2(h, w->p.ta, w->p.tb, w->p.m, w->p.n, w->p.k, &w->p.alpha, w->p.da, w->p.lda, w->p.db,
                   w->p.ldb, &w->p.beta, w->p.dc, w->p.ldc);
  }
  CUDA(cudaStreamSynchronize(s));
  w->result = malloc(w->p.size_c * sizeof(float));
  CUDA(cudaMemcpy(w->result, w->p.dc, w->p.size_c * sizeof(float), cudaMemcpyDeviceToHost));
  cublasDestroy_v2(h);
  cudaStreamDestroy(s);
  return NULL;
}

int main(void) {
  set_mode = (int (*)(const char*))dlsym(RTLD_DEFAULT, "ecgemm_cublas_set_mode");
  if (set_mode == NULL) {
    printf("libecgemm_cublas.so is not preloaded\n");
    return 3;
  }
  if (ecgemm_get_device_count() == 0) {
    printf("no CUDA device\n");
    return SKIPPED;
  }
  CUDA(cudaStreamCreate(&stream));
  cublasHandle_t h;
  if (cublasCreate_v2(&h) != CUBLAS_STATUS_SUCCESS) return 2;
  cublasSetStream_v2(h, stream);
  void* cublas_workspace;
  CUDA(cudaMalloc(&cublas_workspace, 32 << 20));
  cublasSetWorkspace_v2(h, cublas_workspace, 32 << 20);  /* for the graph capture below */
  ecgemmHandle_t e;
  if (ecgemm_create(&e) != ECGEMM_STATUS_SUCCESS) return 2;
  ecgemm_set_stream(e, (ecgemmStream_t)stream);

  /* Every entry point; sizes off every tile, leading dimensions padded. */
  Problem single = make(CUBLAS_OP_N, CUBLAS_OP_T, 193, 131, 257, 3, 1, -1.0f, 1.0f, 1);
  Problem batched = make(CUBLAS_OP_T, CUBLAS_OP_N, 96, 160, 200, 5, 3, -1.0f, 1.0f, 2);
  const char* singles[] = {"cublasSgemm_v2", "cublasSgemm_v2_64", "cublasGemmEx", "cublasGemmEx_64"};
  const char* batches[] = {"cublasSgemmStridedBatched", "cublasSgemmStridedBatched_64", "cublasSgemmBatched",
                           "cublasSgemmBatched_64", "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64",
                           "cublasGemmBatchedEx", "cublasGemmBatchedEx_64"};
  for (int i = 0; i < 4; ++i) three_ways(singles[i], singles[i], h, e, &single, CUBLAS_COMPUTE_32F);
  for (int i = 0; i < 8; ++i) three_ways(batches[i], batches[i], h, e, &batched, CUBLAS_COMPUTE_32F);

  /* Positive-only data (no cancellation to hide behind). */
  Problem positive = make(CUBLAS_OP_T, CUBLAS_OP_T, 300, 200, 1000, 0, 1, 0.5f, 1.5f, 3);
  three_ways("positive_data", "cublasSgemm_v2", h, e, &positive, CUBLAS_COMPUTE_32F);

  /* beta = 0: C is written without being read, NaN in it does not propagate. */
  {
    Problem p = make(CUBLAS_OP_N, CUBLAS_OP_N, 150, 70, 90, 2, 1, -1.0f, 1.0f, 4);
    p.beta = 0.0f;
    for (size_t i = 0; i < p.size_c; ++i) p.hc0[i] = NAN;
    set_mode("tf32tf32");
    reset_c(&p, NULL);
    const cublasStatus_t s = cublasSgemm_v2(h, p.ta, p.tb, p.m, p.n, p.k, &p.alpha, p.da, p.lda, p.db, p.ldb,
                                            &p.beta, p.dc, p.ldc);
    float* c = fetch_c(&p);
    double* ref = reference(&p, p.hc0);
    const double r = distance(&p, c, ref);
    report(s == CUBLAS_STATUS_SUCCESS && isfinite(r) && r < ldexp(1.0, -20) && padding_untouched(&p, c, p.hc0),
           "beta0_nan_c", "residual=%.3e", r);
    free(c), free(ref);
  }

  /* alpha and beta in device memory (CUBLAS_POINTER_MODE_DEVICE). */
  {
    float* scalars;
    CUDA(cudaMalloc((void**)&scalars, 2 * sizeof(float)));
    const float host[2] = {single.alpha, single.beta};
    CUDA(cudaMemcpy(scalars, host, sizeof host, cudaMemcpyHostToDevice));
    cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE);
    set_mode("tf32tf32");
    reset_c(&single, NULL);
    const cublasStatus_t s1 = call("cublasSgemm_v2", h, &single, scalars, scalars + 1, CUBLAS_COMPUTE_32F);
    float* c_dev = fetch_c(&single);
    reset_c(&batched, NULL);
    const cublasStatus_t s2 = call("cublasGemmBatchedEx", h, &batched, scalars, scalars + 1, CUBLAS_COMPUTE_32F);
    float* cb_dev = fetch_c(&batched);
    cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST);
    reset_c(&single, NULL);
    direct(e, &single);
    float* c_di = fetch_c(&single);
    reset_c(&batched, NULL);
    direct(e, &batched);
    float* cb_di = fetch_c(&batched);
    report(s1 == CUBLAS_STATUS_SUCCESS && s2 == CUBLAS_STATUS_SUCCESS && distance_f(&single, c_dev, c_di) <= 1e-6 &&
               distance_f(&batched, cb_dev, cb_di) <= 1e-6,
           "device_pointer_mode", "vs_direct=%.3e/%.3e", distance_f(&single, c_dev, c_di),
           distance_f(&batched, cb_dev, cb_di));
    free(c_dev), free(c_di), free(cb_dev), free(cb_di);
    cudaFree(scalars);
  }

  /* Pedantic compute types and math modes prescribe cuBLAS's own FP32: handed to it. */
  passes_through("gemm_ex_pedantic", "cublasGemmEx", h, &single, CUBLAS_COMPUTE_32F_PEDANTIC);
  cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  passes_through("pedantic_math_mode", "cublasSgemmStridedBatched", h, &batched, CUBLAS_COMPUTE_32F);
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);

  /* Calls that ask for TF32 are the caller's choice: handed to cuBLAS. */
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  passes_through("tf32_math_mode", "cublasSgemm_v2", h, &single, CUBLAS_COMPUTE_32F);
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  passes_through("compute_32f_fast_tf32", "cublasGemmStridedBatchedEx", h, &batched, CUBLAS_COMPUTE_32F_FAST_TF32);

  /* Bad arguments: CUBLAS_STATUS_INVALID_VALUE, C untouched. */
  {
    set_mode("tf32tf32");
    reset_c(&single, NULL);
    const cublasStatus_t s = cublasSgemm_v2(h, single.ta, single.tb, single.m, single.n, single.k, &single.alpha,
                                            single.da, single.m - 1, single.db, single.ldb, &single.beta, single.dc,
                                            single.ldc);
    float* c = fetch_c(&single);
    report(s == CUBLAS_STATUS_INVALID_VALUE && !memcmp(c, single.hc0, single.size_c * sizeof(float)),
           "invalid_lda", "status=%d", s);
    free(c);
  }

  /* Graph capture: a call whose workspace exists is captured on ecgemm; one that would
     grow it inside the capture goes to cuBLAS. Both graphs must replay correctly. */
  {
    Problem big = make(CUBLAS_OP_N, CUBLAS_OP_N, 1024, 1024, 1024, 0, 1, -1.0f, 1.0f, 5);
    Problem* problems[2] = {&single, &big};
    const char* names[2] = {"graph_capture_warm", "graph_capture_growing_workspace"};
    for (int i = 0; i < 2; ++i) {
      Problem* p = problems[i];
      set_mode("tf32tf32");
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
      const cublasStatus_t s = call("cublasSgemm_v2", h, p, &p->alpha, &p->beta, CUBLAS_COMPUTE_32F);
      CUDA(cudaStreamEndCapture(stream, &graph));
      CUDA(cudaGraphInstantiate(&exec, graph, 0));
      reset_c(p, NULL);
      CUDA(cudaGraphLaunch(exec, stream));
      float* c = fetch_c(p);
      double* ref = reference(p, p->hc0);
      const double r = distance(p, c, ref);
      report(s == CUBLAS_STATUS_SUCCESS && r <= ldexp(1.0, -18), names[i], "residual=%.3e", r);
      free(c), free(ref);
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(graph);
    }
  }

  /* Two threads, each with its own handle and stream, at once. */
  {
    ThreadWork work[2] = {{make(CUBLAS_OP_N, CUBLAS_OP_N, 257, 129, 300, 1, 1, -1.0f, 1.0f, 6), NULL},
                          {make(CUBLAS_OP_T, CUBLAS_OP_N, 180, 220, 260, 2, 1, -1.0f, 1.0f, 7), NULL}};
    pthread_t threads[2];
    for (int t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, thread_main, &work[t]);
    for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
    for (int t = 0; t < 2; ++t) {
      double* ref = reference(&work[t].p, work[t].p.hc0);
      const double r = work[t].result ? distance(&work[t].p, work[t].result, ref) : 1.0;
      report(r <= ldexp(1.0, -20), t == 0 ? "thread_0" : "thread_1", "residual=%.3e", r);
      free(ref);
    }
  }

  /* cublasDestroy_v2 releases the ecgemm handles; a new cuBLAS handle works. */
  {
    const cublasStatus_t s1 = cublasDestroy_v2(h);
    const cublasStatus_t s2 = cublasCreate_v2(&h);
    cublasSetStream_v2(h, stream);
    three_ways("after_destroy", "cublasSgemm_v2", h, e, &single, CUBLAS_COMPUTE_32F);
    report(s1 == CUBLAS_STATUS_SUCCESS && s2 == CUBLAS_STATUS_SUCCESS, "destroy_create", "status=%d/%d", s1, s2);
    cublasDestroy_v2(h);
  }
  ecgemm_destroy(e);
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
