/* CPU test driver for libecgemm_cublas (tests/test_intercept.py): linked against the
 * stub cuBLAS, run under LD_PRELOAD. Reads one call per line on stdin,
 *   <function> [key=value ...]
 * makes it through the (interposed) cuBLAS entry point and prints
 *   status=<cublasStatus_t> reached=<0|1> same_args=<0|1>
 * where reached says whether the stub received it and same_args whether it received
 * exactly the arguments passed. Keys (defaults in `Call`): ta tb m n k lda ldb ldc batch
 * sa sb sc at bt ct compute algo alpha beta (0: NULL) math pointer handle (0: NULL).
 * Other lines: `destroy` (cublasDestroy_v2, then a new handle), `set_mode <name>` and
 * `get_mode` (the library's control functions, looked up as Python does). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arg_digest.h"
#include "fake_cublas.h"

typedef struct {
  int ta, tb;
  long long m, n, k, lda, ldb, ldc, batch, sa, sb, sc;
  int at, bt, ct, compute, algo;
  int alpha, beta, math, pointer, handle;
} Call;

static const Call kDefaults = {CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, 4, 4, 4, 2, 16, 16, 16,
                               CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT, 1, 1, CUBLAS_DEFAULT_MATH,
                               CUBLAS_POINTER_MODE_HOST, 1};

/* Host memory, never touched: without a GPU no call reaches ecgemm's kernels. */
static float g_a[64], g_b[64], g_c[64], g_alpha = 1.0f, g_beta = 0.0f;
static const float* g_a_array[2] = {g_a, g_a};
static const float* g_b_array[2] = {g_b, g_b};
static float* g_c_array[2] = {g_c, g_c};

static int parse(char* line, char** function, Call* c) {
  *c = kDefaults;
  *function = strtok(line, " \t\n");
  if (*function == NULL) return 0;
  for (char* tok = strtok(NULL, " \t\n"); tok != NULL; tok = strtok(NULL, " \t\n")) {
    char key[16];
    long long value;
    if (sscanf(tok, "%15[^=]=%lld", key, &value) != 2) return 0;
#define KEY(name, field) else if (strcmp(key, name) == 0) c->field = value
    if (0) {}
    KEY("ta", ta); KEY("tb", tb); KEY("m", m); KEY("n", n); KEY("k", k);
    KEY("lda", lda); KEY("ldb", ldb); KEY("ldc", ldc); KEY("batch", batch);
    KEY("sa", sa); KEY("sb", sb); KEY("sc", sc); KEY("at", at); KEY("bt", bt); KEY("ct", ct);
    KEY("compute", compute); KEY("algo", algo); KEY("alpha", alpha); KEY("beta", beta);
    KEY("math", math); KEY("pointer", pointer); KEY("handle", handle);
    else return 0;
#undef KEY
  }
  return 1;
}

/* Makes the call named `f`; *digest gets the digest of the arguments passed. */
static int call(const char* f, const Call* c, cublasHandle_t handle, uint64_t* digest) {
  cublasHandle_t h = c->handle ? handle : NULL;
  const float* al = c->alpha ? &g_alpha : NULL;
  const float* be = c->beta ? &g_beta : NULL;
  const cublasOperation_t ta = c->ta, tb = c->tb;
  const cudaDataType at = c->at, bt = c->bt, ct = c->ct;
  const cublasComputeType_t cp = c->compute;
  const cublasGemmAlgo_t al_ = c->algo;
  const int m = c->m, n = c->n, k = c->k, lda = c->lda, ldb = c->ldb, ldc = c->ldc, b = c->batch;
  const int64_t M = c->m, N = c->n, K = c->k, LDA = c->lda, LDB = c->ldb, LDC = c->ldc, B = c->batch;
  const long long sa = c->sa, sb = c->sb, sc = c->sc;
  const void* const* av = (const void* const*)g_a_array;
  const void* const* bv = (const void* const*)g_b_array;
  void* const* cv = (void* const*)g_c_array;
  if (strcmp(f, "cublasSgemm_v2") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(g_a), W(lda), P(g_b), W(ldb), P(be), P(g_c), W(ldc), DIGEST_END);
    return cublasSgemm_v2(h, ta, tb, m, n, k, al, g_a, lda, g_b, ldb, be, g_c, ldc);
  }
  if (strcmp(f, "cublasSgemm_v2_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(g_a), W(LDA), P(g_b), W(LDB), P(be), P(g_c), W(LDC), DIGEST_END);
    return cublasSgemm_v2_64(h, ta, tb, M, N, K, al, g_a, LDA, g_b, LDB, be, g_c, LDC);
  }
  if (strcmp(f, "cublasSgemmStridedBatched") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(g_a), W(lda), W(sa), P(g_b), W(ldb), W(sb), P(be), P(g_c), W(ldc), W(sc), W(b), DIGEST_END);
    return cublasSgemmStridedBatched(h, ta, tb, m, n, k, al, g_a, lda, sa, g_b, ldb, sb, be, g_c, ldc, sc, b);
  }
  if (strcmp(f, "cublasSgemmStridedBatched_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(g_a), W(LDA), W(sa), P(g_b), W(LDB), W(sb), P(be), P(g_c), W(LDC), W(sc), W(B), DIGEST_END);
    return cublasSgemmStridedBatched_64(h, ta, tb, M, N, K, al, g_a, LDA, sa, g_b, LDB, sb, be, g_c, LDC, sc, B);
  }
  if (strcmp(f, "cublasSgemmBatched") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(g_a_array), W(lda), P(g_b_array), W(ldb), P(be), P(g_c_array), W(ldc), W(b), DIGEST_END);
    return cublasSgemmBatched(h, ta, tb, m, n, k, al, g_a_array, lda, g_b_array, ldb, be, g_c_array, ldc, b);
  }
  if (strcmp(f, "cublasSgemmBatched_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(g_a_array), W(LDA), P(g_b_array), W(LDB), P(be), P(g_c_array), W(LDC), W(B), DIGEST_END);
    return cublasSgemmBatched_64(h, ta, tb, M, N, K, al, g_a_array, LDA, g_b_array, LDB, be, g_c_array, LDC, B);
  }
  if (strcmp(f, "cublasGemmEx") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(g_a), W(at), W(lda), P(g_b), W(bt), W(ldb), P(be), P(g_c), W(ct), W(ldc), W(cp), W(al_), DIGEST_END);
    return cublasGemmEx(h, ta, tb, m, n, k, al, g_a, at, lda, g_b, bt, ldb, be, g_c, ct, ldc, cp, al_);
  }
  if (strcmp(f, "cublasGemmEx_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(g_a), W(at), W(LDA), P(g_b), W(bt), W(LDB), P(be), P(g_c), W(ct), W(LDC), W(cp), W(al_), DIGEST_END);
    return cublasGemmEx_64(h, ta, tb, M, N, K, al, g_a, at, LDA, g_b, bt, LDB, be, g_c, ct, LDC, cp, al_);
  }
  if (strcmp(f, "cublasGemmStridedBatchedEx") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(g_a), W(at), W(lda), W(sa), P(g_b), W(bt), W(ldb), W(sb), P(be), P(g_c), W(ct), W(ldc), W(sc), W(b), W(cp), W(al_), DIGEST_END);
    return cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, al, g_a, at, lda, sa, g_b, bt, ldb, sb, be, g_c, ct, ldc, sc, b, cp, al_);
  }
  if (strcmp(f, "cublasGemmStridedBatchedEx_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(g_a), W(at), W(LDA), W(sa), P(g_b), W(bt), W(LDB), W(sb), P(be), P(g_c), W(ct), W(LDC), W(sc), W(B), W(cp), W(al_), DIGEST_END);
    return cublasGemmStridedBatchedEx_64(h, ta, tb, M, N, K, al, g_a, at, LDA, sa, g_b, bt, LDB, sb, be, g_c, ct, LDC, sc, B, cp, al_);
  }
  if (strcmp(f, "cublasGemmBatchedEx") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(al), P(av), W(at), W(lda), P(bv), W(bt), W(ldb), P(be), P(cv), W(ct), W(ldc), W(b), W(cp), W(al_), DIGEST_END);
    return cublasGemmBatchedEx(h, ta, tb, m, n, k, al, av, at, lda, bv, bt, ldb, be, cv, ct, ldc, b, cp, al_);
  }
  if (strcmp(f, "cublasGemmBatchedEx_64") == 0) {
    *digest = arg_digest(P(h), W(ta), W(tb), W(M), W(N), W(K), P(al), P(av), W(at), W(LDA), P(bv), W(bt), W(LDB), P(be), P(cv), W(ct), W(LDC), W(B), W(cp), W(al_), DIGEST_END);
    return cublasGemmBatchedEx_64(h, ta, tb, M, N, K, al, av, at, LDA, bv, bt, LDB, be, cv, ct, LDC, B, cp, al_);
  }
  fprintf(stderr, "driver: unknown function %s\n", f);
  exit(2);
}

static void control(const char* line) {
  int (*set_mode)(const char*) = (int (*)(const char*))dlsym(RTLD_DEFAULT, "ecgemm_cublas_set_mode");
  const char* (*get_mode)(void) = (const char* (*)(void))dlsym(RTLD_DEFAULT, "ecgemm_cublas_get_mode");
  if (set_mode == NULL || get_mode == NULL) {
    printf("no_control\n");
    return;
  }
  char name[32] = "";
  if (sscanf(line, "set_mode %31s", name) == 1) printf("rc=%d\n", set_mode(name));
  else printf("mode=%s\n", get_mode());
}

int main(void) {
  cublasHandle_t handle;
  if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  char line[512];
  while (fgets(line, sizeof line, stdin) != NULL) {
    if (strncmp(line, "set_mode", 8) == 0 || strncmp(line, "get_mode", 8) == 0) {
      control(line);
    } else if (strncmp(line, "destroy", 7) == 0) {
      const int before = stub_last()->calls;
      const cublasStatus_t status = cublasDestroy_v2(handle);
      printf("status=%d reached=%d\n", (int)status, stub_last()->calls > before);
      if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    } else {
      char* function;
      Call c;
      if (!parse(line, &function, &c)) {
        fprintf(stderr, "driver: cannot parse: %s", line);
        return 2;
      }
      cublasSetMathMode(handle, (cublasMath_t)c.math);
      cublasSetPointerMode_v2(handle, (cublasPointerMode_t)c.pointer);
      const int before = stub_last()->calls;
      uint64_t digest = 0;
      const int status = call(function, &c, handle, &digest);
      const int reached = stub_last()->calls > before;
      printf("status=%d reached=%d same_args=%d\n", status, reached,
             reached && stub_last()->digest == digest && strcmp(stub_last()->function, function) == 0);
    }
    fflush(stdout);
  }
  return 0;
}
