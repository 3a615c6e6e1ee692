/* A library linked against one stub cuBLAS, built twice (libuser12.so against
 * libcublas.so.12, libuser13.so against .13): it stands for a framework's module (CuPy's
 * against cuBLAS 12, PyTorch's against 13) whose cuBLAS calls the loader resolves as it
 * resolves theirs. two_majors.c drives both. */
#include "fake_cublas.h"

#define EXPORT __attribute__((visibility("default")))

static float g_a[16], g_b[16], g_c[16];
static const float g_alpha = 1.0f, g_beta = 0.0f;
static int g_made;

/* Not a tail call (the count comes after): libecgemm_cublas tells which library made a
 * handle from cublasCreate_v2's return address, which must lie in this object. */
EXPORT int user_create(cublasHandle_t* handle) {
  const cublasStatus_t status = cublasCreate_v2(handle);
  g_made += status == CUBLAS_STATUS_SUCCESS;
  return status;
}

EXPORT int user_destroy(cublasHandle_t handle) { return cublasDestroy_v2(handle); }

EXPORT int user_set_math(cublasHandle_t handle, int math) {
  return cublasSetMathMode(handle, (cublasMath_t)math);
}

/* A valid 4x4x4 FP32 product. */
EXPORT int user_sgemm(cublasHandle_t handle) {
  return cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &g_alpha, g_a, 4, g_b, 4,
                        &g_beta, g_c, 4);
}

/* The same product through cublasGemmEx with the given compute type. */
EXPORT int user_gemm_ex(cublasHandle_t handle, int compute) {
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &g_alpha, g_a, CUDA_R_32F, 4, g_b,
                      CUDA_R_32F, 4, &g_beta, g_c, CUDA_R_32F, 4, (cublasComputeType_t)compute,
                      CUBLAS_GEMM_DEFAULT);
}

/* The record of the stub this library links against. */
EXPORT const stub_record* user_record(void) { return stub_last(); }
