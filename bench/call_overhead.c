/*
 * Host time of one call from C, queue not drained: ecgemm_sgemm and cuBLAS's
 * cublasSgemm_v2 on the same 64 x 64 x 64 operands in one process. cuBLAS is opened
 * with dlopen (its path is argv[1]) so that this program links only libecgemm.
 *   cc -O2 bench/call_overhead.c $(python -m ecgemm --cflags --libs) -ldl -o call_overhead
 *   ./call_overhead /path/to/libcublas.so.13
 * bench/overhead.py builds and runs it. The host figure is the median over rounds of
 * kCalls calls with the device idle at each round's start: far fewer calls than fill
 * the launch queue, so that the host, not the GPU's pace, is what is timed (a long
 * unbroken run fills the queue and then times the GPU: the "sustained" column).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ecgemm.h"

typedef int (*cublas_create_fn)(void**);
typedef int (*cublas_sgemm_fn)(void*, int, int, int, int, int, const float*, const float*, int,
                               const float*, int, const float*, float*, int);

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

enum { kN = 64, kLongK = 8192, kCalls = 100, kRounds = 30, kSustained = 20000, kWarm = 200 };

static const float one = 1.0f, zero = 0.0f;
static ecgemmHandle_t handle;
static void* cublas;
static cublas_sgemm_fn cublas_sgemm;
static float *a, *c;

static int call_ecgemm(void) {
  return ecgemm_sgemm(handle, ECGEMM_OP_N, ECGEMM_OP_N, kN, kN, kN, &one, a, kN, a, kN, &zero, c, kN);
}
/* 64 x 8192 x 64 in FP32 splits k: its partials are scratch taken from and given back
 * to the stream-ordered pool in every call (docs/memory.md), which this row prices. */
static int call_with_scratch(void) {
  return ecgemm_sgemm(handle, ECGEMM_OP_N, ECGEMM_OP_N, kN, kN, kLongK, &one, a, kN, a, kLongK,
                      &zero, c, kN);
}
/* The breakdown: the front end alone (alpha = 0, beta = 1 returns before any launch),
 * and the front end with one trivial launch (alpha = 0, beta = 0.5: C = 0.5 C). */
static int call_front_end(void) {
  return ecgemm_sgemm(handle, ECGEMM_OP_N, ECGEMM_OP_N, kN, kN, kN, &zero, a, kN, a, kN, &one, c, kN);
}
static int call_one_launch(void) {
  static const float half = 0.5f;
  return ecgemm_sgemm(handle, ECGEMM_OP_N, ECGEMM_OP_N, kN, kN, kN, &zero, a, kN, a, kN, &half, c, kN);
}
static int call_cublas(void) {
  return cublas_sgemm(cublas, 0, 0, kN, kN, kN, &one, a, kN, a, kN, &zero, c, kN);
}

static int by_value(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

/* Host microseconds per call: the median round of kCalls calls (queue not drained, not
 * filled), and a sustained run of kSustained calls (paced by the GPU once the queue fills). */
static void time_calls(const char* label, int (*call)(void)) {
  for (int i = 0; i < kWarm; ++i) call();
  int bad = 0;
  double rounds[kRounds];
  for (int r = 0; r < kRounds; ++r) {
    ecgemm_device_synchronize();
    const double t0 = now_us();
    for (int i = 0; i < kCalls; ++i) bad |= call();
    rounds[r] = (now_us() - t0) / kCalls;
  }
  qsort(rounds, kRounds, sizeof rounds[0], by_value);
  ecgemm_device_synchronize();
  const double t0 = now_us();
  for (int i = 0; i < kSustained; ++i) bad |= call();
  ecgemm_device_synchronize();
  const double t1 = now_us();
  printf("%-28s host %6.2f us/call   sustained %6.2f us/call%s\n", label, rounds[kRounds / 2],
         (t1 - t0) / kSustained, bad ? "   (a call failed)" : "");
}

int main(int argc, char** argv) {
  if (ecgemm_create(&handle) != ECGEMM_STATUS_SUCCESS) {
    fprintf(stderr, "no usable GPU\n");
    return 77;
  }
  /* a serves as A (kN x kLongK, or kN x kN) and B (kLongK x kN, or kN x kN). */
  static float host[kN * kLongK];
  for (int i = 0; i < kN * kLongK; ++i) host[i] = (float)rand() / RAND_MAX - 0.5f;
  if (ecgemm_device_malloc((void**)&a, sizeof host) ||
      ecgemm_device_malloc((void**)&c, kN * kN * sizeof(float)) ||
      ecgemm_memcpy_to_device(a, host, sizeof host))
    return 1;
  ecgemm_set_mode(handle, ECGEMM_MODE_TF32TF32);
  time_calls("ecgemm_sgemm tf32tf32", call_ecgemm);
  ecgemm_set_mode(handle, ECGEMM_MODE_FP32);
  time_calls("ecgemm_sgemm fp32", call_ecgemm);
  time_calls("ecgemm_sgemm fp32 k=8192 (scratch)", call_with_scratch);
  time_calls("  front end only (no launch)", call_front_end);
  time_calls("  front end + C = 0.5 C", call_one_launch);
  void* lib = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
  cublas_create_fn create = lib ? (cublas_create_fn)dlsym(lib, "cublasCreate_v2") : NULL;
  cublas_sgemm = lib ? (cublas_sgemm_fn)dlsym(lib, "cublasSgemm_v2") : NULL;
  if (create && cublas_sgemm && create(&cublas) == 0)
    time_calls("cublasSgemm_v2", call_cublas);
  else
    printf("cuBLAS not measured (pass the path of libcublas.so as argv[1])\n");
  ecgemm_device_free(a);
  ecgemm_device_free(c);
  ecgemm_destroy(handle);
  return 0;
}
