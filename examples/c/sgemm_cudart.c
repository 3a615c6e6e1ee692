/*
 * ecgemm_sgemm inside a CUDA program: device memory from cudaMalloc, a
 * non-blocking stream given to the handle, a pitched C (ldc > m) whose padding
 * rows must come back untouched. C = alpha * A^T * B + beta * C, checked against
 * a double-precision host loop. Exits 77 without a GPU.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecgemm.h"

#define CUDA_CHECK(call)                                                                 \
  do {                                                                                   \
    const cudaError_t err_ = (call);                                                     \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));               \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)
#define ECGEMM_CHECK(call)                                                               \
  do {                                                                                   \
    const ecgemmStatus_t status_ = (call);                                               \
    if (status_ != ECGEMM_STATUS_SUCCESS) {                                              \
      fprintf(stderr, "%s failed: %s\n", #call, ecgemm_get_status_name(status_));        \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

static float* random_matrix(size_t count) {
  float* x = (float*)malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) x[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
  return x;
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("sgemm_cudart: no CUDA device, nothing to run\n");
    return 77;
  }
  const int m = 257, n = 129, k = 515;
  const int lda = k, ldb = k, ldc = m + 7; /* A stored k x m, used transposed */
  const float alpha = -1.0f, beta = 2.0f, padding = 1234.5f;
  float* a = random_matrix((size_t)lda * m);
  float* b = random_matrix((size_t)ldb * n);
  float* c = random_matrix((size_t)ldc * n);
  for (int j = 0; j < n; ++j)
    for (int i = m; i < ldc; ++i) c[(size_t)j * ldc + i] = padding;

  float *d_a, *d_b, *d_c;
  CUDA_CHECK(cudaMalloc((void**)&d_a, sizeof(float) * lda * m));
  CUDA_CHECK(cudaMalloc((void**)&d_b, sizeof(float) * ldb * n));
  CUDA_CHECK(cudaMalloc((void**)&d_c, sizeof(float) * ldc * n));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUDA_CHECK(cudaMemcpyAsync(d_a, a, sizeof(float) * lda * m, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_b, b, sizeof(float) * ldb * n, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_c, c, sizeof(float) * ldc * n, cudaMemcpyHostToDevice, stream));

  ecgemmHandle_t handle;
  ECGEMM_CHECK(ecgemm_create(&handle));
  ECGEMM_CHECK(ecgemm_set_stream(handle, (ecgemmStream_t)stream)); /* same type as cudaStream_t */
  ECGEMM_CHECK(ecgemm_sgemm(handle, ECGEMM_OP_T, ECGEMM_OP_N, m, n, k, &alpha, d_a, lda, d_b, ldb,
                            &beta, d_c, ldc));
  float* result = (float*)malloc(sizeof(float) * ldc * n);
  CUDA_CHECK(cudaMemcpyAsync(result, d_c, sizeof(float) * ldc * n, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  double worst = 0.0;
  int padding_touched = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < ldc; ++i) {
      const size_t at = (size_t)j * ldc + i;
      if (i >= m) {
        padding_touched |= memcmp(&result[at], &padding, sizeof padding) != 0;
        continue;
      }
      double sum = 0.0, scale = fabs(beta * c[at]);
      for (int l = 0; l < k; ++l) {
        const double p = (double)a[(size_t)i * lda + l] * b[(size_t)j * ldb + l];
        sum += p;
        scale += fabs(alpha * p);
      }
      const double err = fabs(result[at] - (alpha * sum + (double)beta * c[at])) / scale;
      if (err > worst) worst = err;
    }
  }
  const double tolerance = 0x1p-20 + 2.0 * (k + 2) * 0x1p-24;
  const int ok = worst <= tolerance && !padding_touched;
  printf("sgemm_cudart: %dx%dx%d on a stream, worst relative error %.3g (tolerance %.3g), "
         "padding %s: %s\n",
         m, n, k, worst, tolerance, padding_touched ? "TOUCHED" : "untouched", ok ? "ok" : "FAIL");

  ECGEMM_CHECK(ecgemm_destroy(handle));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  free(a), free(b), free(c), free(result);
  return ok ? 0 : 1;
}
