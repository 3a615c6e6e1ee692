/* cuBLAS loaded after the first call (tests/test_intercept.py): the program links no
 * cuBLAS and reaches libecgemm_cublas's entry points by dlsym(RTLD_DEFAULT), calls them
 * while no libcublas is loaded (they must fail with CUBLAS_STATUS_NOT_INITIALIZED),
 * then dlopens the stub (RTLD_LOCAL, as CuPy's modules load theirs) and calls them
 * again: now they must reach it. Each step prints
 *   step=<name>_<before|after> status=<s> calls=<n> creates=<n>
 * (n: what the step added to the stub's record; 0 before it is loaded). Exits 3 when
 * the entry points are missing (the library is not preloaded). Argument: the stub's path. */
#include <dlfcn.h>
#include <stdio.h>

#include "fake_cublas.h"

typedef cublasStatus_t (*CreateFn)(cublasHandle_t*);
typedef cublasStatus_t (*DestroyFn)(cublasHandle_t);
typedef cublasStatus_t (*SgemmFn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const float*, const float*, int, const float*, int,
                                  const float*, float*, int);
typedef cublasStatus_t (*GemmExFn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const void*, const void*, cudaDataType, int, const void*,
                                   cudaDataType, int, const void*, void*, cudaDataType, int,
                                   cublasComputeType_t, cublasGemmAlgo_t);

static float g_a[16], g_b[16], g_c[16];
static const float g_alpha = 1.0f, g_beta = 0.0f;
static const stub_record* g_record;
static stub_record g_before;

static void report(const char* step, int status) {
  const int calls = g_record ? g_record->calls - g_before.calls : 0;
  const int creates = g_record ? g_record->creates - g_before.creates : 0;
  printf("step=%s_%s status=%d calls=%d creates=%d\n", step, g_record ? "after" : "before",
         status, calls, creates);
  fflush(stdout);
  if (g_record) g_before = *g_record;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  CreateFn create = (CreateFn)dlsym(RTLD_DEFAULT, "cublasCreate_v2");
  DestroyFn destroy = (DestroyFn)dlsym(RTLD_DEFAULT, "cublasDestroy_v2");
  SgemmFn sgemm = (SgemmFn)dlsym(RTLD_DEFAULT, "cublasSgemm_v2");
  GemmExFn gemm_ex = (GemmExFn)dlsym(RTLD_DEFAULT, "cublasGemmEx");
  if (create == NULL || destroy == NULL || sgemm == NULL || gemm_ex == NULL) {
    printf("not preloaded\n");
    return 3;
  }
  static int not_a_handle;
  cublasHandle_t handle = (cublasHandle_t)&not_a_handle;
  for (int loaded = 0; loaded < 2; ++loaded) {
    if (loaded) {
      void* stub = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
      const stub_record* (*last)(void) =
          stub ? (const stub_record* (*)(void))dlsym(stub, "stub_last") : NULL;
      if (last == NULL) {
        fprintf(stderr, "late_load: %s\n", dlerror());
        return 2;
      }
      g_record = last();
      g_before = *g_record;
    }
    report("create", create(&handle));
    report("sgemm", sgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &g_alpha, g_a, 4, g_b, 4,
                          &g_beta, g_c, 4));
    report("tf32_ex", gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &g_alpha, g_a, CUDA_R_32F,
                              4, g_b, CUDA_R_32F, 4, &g_beta, g_c, CUDA_R_32F, 4,
                              CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
    report("destroy", destroy(handle));
  }
  return 0;
}
