/* A cuBLAS handle of device 1 used while device 0 is current (tests/test_intercept_gpu.py),
 * under LD_PRELOAD=libecgemm_cublas.so. The handle is created with device 1 current, its
 * stream and operands live there; then, with device 0 current, cublasSgemm_v2 on it from
 * the main thread and from a new thread (whose first call makes its own ecgemm handle).
 * Interception off first: where cuBLAS itself refuses the call, there is nothing to match
 * (exit 77). Intercepted, each call must succeed, leave device 0 current and give the
 * bits of the same product made directly by ecgemm on device 1. Prints `ok|FAIL <case>
 * <detail>`; exits 0 when all passed, 1 when one failed, 3 when the library is not
 * preloaded, 77 with fewer than two GPUs. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecgemm.h"

#define SKIPPED 77
#define CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(2); } } while (0)

enum { M = 1536, N = 1024, K = 2048 };
static const float kAlpha = 1.0f, kBeta = 0.0f;

static int failures;
static cublasHandle_t handle;
static cudaStream_t stream; /* device 1's */
static float *da, *db, *dc; /* device 1's */

static void report(int ok, const char* name, const char* detail) {
  printf("%s %s %s\n", ok ? "ok" : "FAIL", name, detail);
  fflush(stdout);
  if (!ok) failures++;
}

/* C, fetched on device 1 (the caller's device is put back), then set to NaN. */
static float* result(void) {
  float* out = malloc((size_t)M * N * sizeof(float));
  int current;
  CUDA(cudaGetDevice(&current));
  CUDA(cudaSetDevice(1));
  CUDA(cudaStreamSynchronize(stream));
  CUDA(cudaMemcpy(out, dc, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA(cudaMemset(dc, 0xff, (size_t)M * N * sizeof(float)));
  CUDA(cudaDeviceSynchronize());
  CUDA(cudaSetDevice(current));
  return out;
}

static cublasStatus_t sgemm(void) {
  return cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &kAlpha, da, M, db, K, &kBeta,
                        dc, M);
}

typedef struct {
  cublasStatus_t status;
  int device_after;
} Call;

static void* on_new_thread(void* arg) {
  Call* call = arg;
  call->status = sgemm();
  CUDA(cudaGetDevice(&call->device_after));
  return NULL;
}

static void check(const char* name, const Call* call, const float* direct) {
  float* c = result();
  char detail[128];
  const int same = !memcmp(c, direct, (size_t)M * N * sizeof(float));
  snprintf(detail, sizeof detail, "status=%d device_after=%d bits_of_ecgemm_on_device_1=%d",
           call->status, call->device_after, same);
  report(call->status == CUBLAS_STATUS_SUCCESS && call->device_after == 0 && same, name, detail);
  free(c);
}

int main(void) {
  int (*set_mode)(const char*) =
      (int (*)(const char*))dlsym(RTLD_DEFAULT, "ecgemm_cublas_set_mode");
  if (set_mode == NULL) {
    printf("libecgemm_cublas.so is not preloaded\n");
    return 3;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) {
    printf("needs two GPUs; this machine has %d\n", devices);
    return SKIPPED;
  }
  float* host = malloc((size_t)K * (M > N ? M : N) * sizeof(float));
  unsigned state = 1;
  CUDA(cudaSetDevice(1));
  if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  CUDA(cudaStreamCreate(&stream));
  cublasSetStream_v2(handle, stream);
  float** operands[2] = {&da, &db};
  const size_t sizes[2] = {(size_t)M * K, (size_t)K * N};
  for (int i = 0; i < 2; ++i) {
    for (size_t j = 0; j < sizes[i]; ++j) {
      state = state * 1664525u + 1013904223u;
      host[j] = (float)(state >> 8) / 8388608.0f - 1.0f;
    }
    CUDA(cudaMalloc((void**)operands[i], sizes[i] * sizeof(float)));
    CUDA(cudaMemcpy(*operands[i], host, sizes[i] * sizeof(float), cudaMemcpyHostToDevice));
  }
  CUDA(cudaMalloc((void**)&dc, (size_t)M * N * sizeof(float)));

  /* The reference: the same product on ecgemm directly, device 1 current. */
  ecgemmHandle_t e;
  if (ecgemm_create(&e) != ECGEMM_STATUS_SUCCESS) return 2;
  ecgemm_set_stream(e, (ecgemmStream_t)stream);
  ecgemm_set_mode(e, ECGEMM_MODE_TF32TF32);
  if (ecgemm_sgemm(e, ECGEMM_OP_N, ECGEMM_OP_N, M, N, K, &kAlpha, da, M, db, K, &kBeta, dc, M) !=
      ECGEMM_STATUS_SUCCESS)
    return 2;
  float* direct = result();

  CUDA(cudaSetDevice(0));
  set_mode("off");
  Call off = {sgemm(), -1};
  CUDA(cudaGetDevice(&off.device_after));
  free(result());
  if (off.status != CUBLAS_STATUS_SUCCESS) {
    printf("cuBLAS itself returns %d for a device-1 handle with device 0 current\n", off.status);
    return SKIPPED;
  }

  set_mode("tf32tf32");
  Call main_thread = {sgemm(), -1};
  CUDA(cudaGetDevice(&main_thread.device_after));
  check("device1_handle_main_thread", &main_thread, direct);
  Call other = {CUBLAS_STATUS_NOT_INITIALIZED, -1};
  pthread_t thread;
  if (pthread_create(&thread, NULL, on_new_thread, &other) != 0) return 2;
  pthread_join(thread, NULL);
  check("device1_handle_new_thread", &other, direct);

  cublasDestroy_v2(handle);
  ecgemm_destroy(e);
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
