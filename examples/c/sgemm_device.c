/*
 * ecgemm_sgemm on device memory, allocated and filled with libecgemm's device
 * helpers, so this needs no CUDA headers: C = alpha * A * B^T + beta * C,
 * checked against a double-precision host loop. Exits 77 without a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ecgemm.h"

#define CHECK(call)                                                                       \
  do {                                                                                    \
    const ecgemmStatus_t status_ = (call);                                                \
    if (status_ != ECGEMM_STATUS_SUCCESS) {                                               \
      fprintf(stderr, "%s failed: %s (%s)\n", #call, ecgemm_get_status_name(status_),     \
              ecgemm_get_status_string(status_));                                         \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

static float* device_copy(const float* host, size_t count) {
  void* dev = NULL;
  CHECK(ecgemm_device_malloc(&dev, count * sizeof(float)));
  CHECK(ecgemm_memcpy_to_device(dev, host, count * sizeof(float)));
  return (float*)dev;
}

static float* random_matrix(size_t count) {
  float* x = (float*)malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) x[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
  return x;
}

int main(void) {
  if (ecgemm_get_device_count() == 0) {
    printf("sgemm_device: no CUDA device, nothing to run\n");
    return 77;
  }
  const int m = 500, n = 300, k = 1000;
  const int lda = m, ldb = n, ldc = m; /* B is stored n x k and used transposed */
  const float alpha = 1.0f, beta = 0.5f;
  float* a = random_matrix((size_t)lda * k);
  float* b = random_matrix((size_t)ldb * k);
  float* c = random_matrix((size_t)ldc * n);
  float* d_a = device_copy(a, (size_t)lda * k);
  float* d_b = device_copy(b, (size_t)ldb * k);
  float* d_c = device_copy(c, (size_t)ldc * n);

  ecgemmHandle_t handle;
  CHECK(ecgemm_create(&handle));
  CHECK(ecgemm_set_mode(handle, ECGEMM_MODE_TF32TF32));
  CHECK(ecgemm_sgemm(handle, ECGEMM_OP_N, ECGEMM_OP_T, m, n, k, &alpha, d_a, lda, d_b, ldb, &beta,
                     d_c, ldc));
  float* result = (float*)malloc(sizeof(float) * ldc * n);
  CHECK(ecgemm_memcpy_to_host(result, d_c, sizeof(float) * ldc * n)); /* synchronous */

  /* Relative to |alpha| sum|a||b| + |beta c|: error-corrected TF32 is FP32-accurate. */
  double worst = 0.0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0, scale = fabs(beta * c[(size_t)j * ldc + i]);
      for (int l = 0; l < k; ++l) {
        const double p = (double)a[(size_t)l * lda + i] * b[(size_t)l * ldb + j];
        sum += p;
        scale += fabs(alpha * p);
      }
      const double want = alpha * sum + (double)beta * c[(size_t)j * ldc + i];
      const double err = fabs(result[(size_t)j * ldc + i] - want) / scale;
      if (err > worst) worst = err;
    }
  }
  const double tolerance = 0x1p-20 + 2.0 * (k + 2) * 0x1p-24;
  printf("sgemm_device: %dx%dx%d tf32tf32, worst relative error %.3g (tolerance %.3g): %s\n", m, n,
         k, worst, tolerance, worst <= tolerance ? "ok" : "FAIL");

  CHECK(ecgemm_destroy(handle));
  CHECK(ecgemm_device_free(d_a));
  CHECK(ecgemm_device_free(d_b));
  CHECK(ecgemm_device_free(d_c));
  free(a), free(b), free(c), free(result);
  return worst <= tolerance ? 0 : 1;
}
