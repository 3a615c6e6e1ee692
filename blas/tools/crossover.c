/*
 * Times square SGEMMs on host arrays through sgemm_, to place the host/GPU
 * crossover (ECGEMM_BLAS_HOST_THRESHOLD). Run it twice, once per route:
 *   ECGEMM_BLAS_HOST_THRESHOLD=0                    ecgemm_blas_crossover   # GPU
 *   ECGEMM_BLAS_HOST_THRESHOLD=9223372036854775807  ecgemm_blas_crossover   # host
 * and compare the columns. Prints: n  transa  median microseconds per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ecgemm_blas.h"

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int by_value(const void* x, const void* y) {
  const double a = *(const double*)x, b = *(const double*)y;
  return (a > b) - (a < b);
}

int main(void) {
  static const int sizes[] = {8, 16, 24, 32, 48, 64, 96, 128, 192, 256};
  enum { kReps = 21 };
  const int largest = 256;
  float* a = malloc(sizeof(float) * largest * largest);
  float* b = malloc(sizeof(float) * largest * largest);
  float* c = malloc(sizeof(float) * largest * largest);
  for (int i = 0; i < largest * largest; ++i) {
    a[i] = (float)((i * 37 % 101) - 50) / 64.0f;
    b[i] = (float)((i * 53 % 97) - 48) / 32.0f;
  }
  const float alpha = 1.0f, beta = 0.0f;
  printf("%6s %6s %12s\n", "n", "transa", "median_us");
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int t = 0; t < 2; ++t) {
      const int n = sizes[s];
      const char transa = t ? 'T' : 'N';
      double times[kReps];
      sgemm_(&transa, "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1); /* warm-up */
      for (int r = 0; r < kReps; ++r) {
        const double start = now_us();
        sgemm_(&transa, "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
        times[r] = now_us() - start;
      }
      qsort(times, kReps, sizeof(double), by_value);
      printf("%6d %6c %12.2f\n", n, transa, times[kReps / 2]);
    }
  }
  free(a), free(b), free(c);
  return 0;
}
