/* Linked against the stub cuBLAS, opened RTLD_LOCAL by local_scope.c: one valid FP32
 * cublasSgemm_v2 call, and whether it reached the stub. */
#include "fake_cublas.h"

__attribute__((visibility("default"))) int plugin_sgemm(int* reached) {
  static float a[16], b[16], c[16];
  const float alpha = 1.0f, beta = 0.0f;
  cublasHandle_t handle;
  if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return -1;
  const int before = stub_last()->calls;
  const int status = cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha, a, 4, b, 4,
                                    &beta, c, 4);
  *reached = stub_last()->calls > before;
  return status;
}
