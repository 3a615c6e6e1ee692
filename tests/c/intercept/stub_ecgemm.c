/* A stand-in for libecgemm in the CPU tests (tests/test_intercept.py), preloaded ahead of
 * libecgemm_cublas so that the library's calls into ecgemm land here: handles that are
 * only tracked, GEMMs that do nothing and succeed. It aborts when a handle is used after
 * its destruction, destroyed twice, or used by a thread other than the one that made it
 * (libecgemm_cublas keeps one ecgemm handle per cuBLAS handle and thread); destruction
 * may come from any thread. stub_ecgemm_counts() reports how many were made and
 * destroyed. Handles are never freed, so a stale one is still readable and caught. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ecgemm.h"

#define EXPORT __attribute__((visibility("default")))
#define MAGIC 0xec6e33ecu

struct ecgemmContext {
  unsigned magic;
  int alive;
  pthread_t owner;
};

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static int g_created, g_destroyed;

static void fail(const char* what, ecgemmHandle_t handle) {
  fprintf(stderr, "stub_ecgemm: %s (handle %p)\n", what, (void*)handle);
  abort();
}

static ecgemmStatus_t use(ecgemmHandle_t handle) {
  if (handle == NULL || handle->magic != MAGIC) fail("not an ecgemm handle", handle);
  pthread_mutex_lock(&g_mutex);
  const int alive = handle->alive;
  pthread_mutex_unlock(&g_mutex);
  if (!alive) fail("used after ecgemm_destroy", handle);
  if (!pthread_equal(handle->owner, pthread_self())) fail("used by another thread", handle);
  return ECGEMM_STATUS_SUCCESS;
}

EXPORT void stub_ecgemm_counts(int* created, int* destroyed) {
  pthread_mutex_lock(&g_mutex);
  *created = g_created;
  *destroyed = g_destroyed;
  pthread_mutex_unlock(&g_mutex);
}

EXPORT ecgemmStatus_t ecgemm_create(ecgemmHandle_t* handle) {
  struct ecgemmContext* made = calloc(1, sizeof *made);
  if (made == NULL) return ECGEMM_STATUS_ALLOC_FAILED;
  made->magic = MAGIC;
  made->alive = 1;
  made->owner = pthread_self();
  pthread_mutex_lock(&g_mutex);
  g_created++;
  pthread_mutex_unlock(&g_mutex);
  *handle = made;
  return ECGEMM_STATUS_SUCCESS;
}

EXPORT ecgemmStatus_t ecgemm_destroy(ecgemmHandle_t handle) {
  if (handle == NULL || handle->magic != MAGIC) fail("not an ecgemm handle", handle);
  pthread_mutex_lock(&g_mutex);
  const int alive = handle->alive;
  handle->alive = 0;
  g_destroyed += alive;
  pthread_mutex_unlock(&g_mutex);
  if (!alive) fail("destroyed twice", handle);
  return ECGEMM_STATUS_SUCCESS;
}

EXPORT ecgemmStatus_t ecgemm_set_stream(ecgemmHandle_t handle, ecgemmStream_t stream) {
  (void)stream;
  return use(handle);
}
EXPORT ecgemmStatus_t ecgemm_set_mode(ecgemmHandle_t handle, ecgemmMode_t mode) {
  (void)mode;
  return use(handle);
}
EXPORT ecgemmStatus_t ecgemm_set_pointer_mode(ecgemmHandle_t handle, ecgemmPointerMode_t mode) {
  (void)mode;
  return use(handle);
}
EXPORT ecgemmStatus_t ecgemm_get_device(ecgemmHandle_t handle, int* device) {
  *device = 0;
  return use(handle);
}

EXPORT ecgemmStatus_t ecgemm_sgemm_64(ecgemmHandle_t handle, ecgemmOperation_t ta,
                                      ecgemmOperation_t tb, int64_t m, int64_t n, int64_t k,
                                      const float* alpha, const float* A, int64_t lda,
                                      const float* B, int64_t ldb, const float* beta, float* C,
                                      int64_t ldc) {
  (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)B;
  (void)ldb, (void)beta, (void)C, (void)ldc;
  return use(handle);
}
EXPORT ecgemmStatus_t ecgemm_sgemm_strided_batched_64(
    ecgemmHandle_t handle, ecgemmOperation_t ta, ecgemmOperation_t tb, int64_t m, int64_t n,
    int64_t k, const float* alpha, const float* A, int64_t lda, int64_t sa, const float* B,
    int64_t ldb, int64_t sb, const float* beta, float* C, int64_t ldc, int64_t sc, int64_t count) {
  (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)sa;
  (void)B, (void)ldb, (void)sb, (void)beta, (void)C, (void)ldc, (void)sc, (void)count;
  return use(handle);
}
EXPORT ecgemmStatus_t ecgemm_sgemm_batched_64(ecgemmHandle_t handle, ecgemmOperation_t ta,
                                              ecgemmOperation_t tb, int64_t m, int64_t n,
                                              int64_t k, const float* alpha,
                                              const float* const A[], int64_t lda,
                                              const float* const B[], int64_t ldb,
                                              const float* beta, float* const C[], int64_t ldc,
                                              int64_t count) {
  (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)B;
  (void)ldb, (void)beta, (void)C, (void)ldc, (void)count;
  return use(handle);
}
