/* A stand-in for libcublas.so.12 or .13 (STUB_MAJOR) in the CPU tests: handles that
 * keep their stream, pointer mode and math mode, and GEMM entry points that only record
 * that they were reached, with a digest of the arguments they received. Each handle
 * knows which stub made it, so a call that brings one to the other stub is counted as
 * foreign (and a state read of one fails, as it could not be right). It never
 * validates: whatever status comes back from a call the interception library answered
 * itself is that library's. Counters are atomic: the thread tests read handle state
 * from several threads. */
#include <stdlib.h>
#include <string.h>

#include "arg_digest.h"
#include "fake_cublas.h"

#ifndef STUB_MAJOR
#error "build with -DSTUB_MAJOR=12 or 13"
#endif

struct cublasContext {
  const stub_record* owner;
  cudaStream_t stream;
  cublasPointerMode_t pointer_mode;
  cublasMath_t math_mode;
};

static stub_record g_record = {.major = STUB_MAJOR};

const stub_record* stub_last(void) { return &g_record; }

static void count(int* counter) { __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED); }

static int ours(cublasHandle_t h) {
  if (h != NULL && h->owner != &g_record) {
    count(&g_record.foreign);
    return 0;
  }
  return 1;
}

static cublasStatus_t reached(cublasHandle_t h, const char* function, uint64_t digest) {
  ours(h);
  strncpy(g_record.function, function, sizeof g_record.function - 1);
  g_record.digest = digest;
  count(&g_record.calls);
  return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t read_state(cublasHandle_t h) {
  count(&g_record.state_reads);
  return ours(h) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  *handle = calloc(1, sizeof(struct cublasContext));
  if (*handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  (*handle)->owner = &g_record;
  count(&g_record.creates);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  const int mine = handle != NULL && handle->owner == &g_record;
  const cublasStatus_t status = reached(handle, __func__, arg_digest(P(handle), DIGEST_END));
  if (mine) free(handle);
  return status;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s) { h->stream = s; return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t* s) { *s = h->stream; return read_state(h); }
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t m) { h->pointer_mode = m; return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t* m) { *m = h->pointer_mode; return read_state(h); }
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t m) { h->math_mode = m; return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t* m) { *m = h->math_mode; return read_state(h); }

cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                              int n, int k, const float* alpha, const float* A, int lda,
                              const float* B, int ldb, const float* beta, float* C, int ldc) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), P(B), W(ldb), P(beta), P(C), W(ldc), DIGEST_END));
}
cublasStatus_t cublasSgemm_v2_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int64_t m, int64_t n, int64_t k, const float* alpha,
                                 const float* A, int64_t lda, const float* B, int64_t ldb,
                                 const float* beta, float* C, int64_t ldc) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), P(B), W(ldb), P(beta), P(C), W(ldc), DIGEST_END));
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const float* alpha, const float* A, int lda, long long sa,
                                         const float* B, int ldb, long long sb, const float* beta,
                                         float* C, int ldc, long long sc, int count) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), W(sa), P(B), W(ldb), W(sb), P(beta), P(C), W(ldc),
                                         W(sc), W(count), DIGEST_END));
}
cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                            const float* alpha, const float* A, int64_t lda,
                                            long long sa, const float* B, int64_t ldb,
                                            long long sb, const float* beta, float* C, int64_t ldc,
                                            long long sc, int64_t count) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), W(sa), P(B), W(ldb), W(sb), P(beta), P(C), W(ldc),
                                         W(sc), W(count), DIGEST_END));
}
cublasStatus_t cublasSgemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                  int m, int n, int k, const float* alpha, const float* const A[],
                                  int lda, const float* const B[], int ldb, const float* beta,
                                  float* const C[], int ldc, int count) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), P(B), W(ldb), P(beta), P(C), W(ldc), W(count),
                                         DIGEST_END));
}
cublasStatus_t cublasSgemmBatched_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                     int64_t m, int64_t n, int64_t k, const float* alpha,
                                     const float* const A[], int64_t lda, const float* const B[],
                                     int64_t ldb, const float* beta, float* const C[],
                                     int64_t ldc, int64_t count) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(lda), P(B), W(ldb), P(beta), P(C), W(ldc), W(count),
                                         DIGEST_END));
}
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                            int n, int k, const void* alpha, const void* A, cudaDataType at,
                            int lda, const void* B, cudaDataType bt, int ldb, const void* beta,
                            void* C, cudaDataType ct, int ldc, cublasComputeType_t compute,
                            cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), P(B), W(bt), W(ldb), P(beta), P(C), W(ct),
                                         W(ldc), W(compute), W(algo), DIGEST_END));
}
cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                               int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                               cudaDataType at, int64_t lda, const void* B, cudaDataType bt,
                               int64_t ldb, const void* beta, void* C, cudaDataType ct,
                               int64_t ldc, cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), P(B), W(bt), W(ldb), P(beta), P(C), W(ct),
                                         W(ldc), W(compute), W(algo), DIGEST_END));
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta,
                                          cublasOperation_t tb, int m, int n, int k,
                                          const void* alpha, const void* A, cudaDataType at,
                                          int lda, long long sa, const void* B, cudaDataType bt,
                                          int ldb, long long sb, const void* beta, void* C,
                                          cudaDataType ct, int ldc, long long sc, int count,
                                          cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), W(sa), P(B), W(bt), W(ldb), W(sb), P(beta),
                                         P(C), W(ct), W(ldc), W(sc), W(count), W(compute), W(algo),
                                         DIGEST_END));
}
cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t h, cublasOperation_t ta,
                                             cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                             const void* alpha, const void* A, cudaDataType at,
                                             int64_t lda, long long sa, const void* B,
                                             cudaDataType bt, int64_t ldb, long long sb,
                                             const void* beta, void* C, cudaDataType ct,
                                             int64_t ldc, long long sc, int64_t count,
                                             cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), W(sa), P(B), W(bt), W(ldb), W(sb), P(beta),
                                         P(C), W(ct), W(ldc), W(sc), W(count), W(compute), W(algo),
                                         DIGEST_END));
}
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int m, int n, int k, const void* alpha, const void* const A[],
                                   cudaDataType at, int lda, const void* const B[],
                                   cudaDataType bt, int ldb, const void* beta, void* const C[],
                                   cudaDataType ct, int ldc, int count,
                                   cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), P(B), W(bt), W(ldb), P(beta), P(C), W(ct),
                                         W(ldc), W(count), W(compute), W(algo), DIGEST_END));
}
cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                      int64_t m, int64_t n, int64_t k, const void* alpha,
                                      const void* const A[], cudaDataType at, int64_t lda,
                                      const void* const B[], cudaDataType bt, int64_t ldb,
                                      const void* beta, void* const C[], cudaDataType ct,
                                      int64_t ldc, int64_t count, cublasComputeType_t compute,
                                      cublasGemmAlgo_t algo) {
  return reached(h, __func__, arg_digest(P(h), W(ta), W(tb), W(m), W(n), W(k), P(alpha), P(A),
                                         W(at), W(lda), P(B), W(bt), W(ldb), P(beta), P(C), W(ct),
                                         W(ldc), W(count), W(compute), W(algo), DIGEST_END));
}
