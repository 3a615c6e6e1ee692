/*
 * The CBLAS drop-in on host arrays, row-major as most C code stores matrices:
 * with a GPU the arrays travel to it and back; without one the product runs on
 * the host (one notice on stderr). Checked against a double-precision loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ecgemm_cblas.h"

int main(void) {
  enum { M = 200, N = 150, K = 333 };
  static float a[M][K], b[K][N], c[M][N];
  for (int i = 0; i < M; ++i)
    for (int l = 0; l < K; ++l) a[i][l] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
  for (int l = 0; l < K; ++l)
    for (int j = 0; j < N; ++j) b[l][j] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;

  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, &a[0][0], K, &b[0][0], N,
              0.0f, &c[0][0], N);

  double worst = 0.0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double sum = 0.0, scale = 0.0;
      for (int l = 0; l < K; ++l) {
        sum += (double)a[i][l] * b[l][j];
        scale += fabs((double)a[i][l] * b[l][j]);
      }
      const double err = fabs(c[i][j] - sum) / scale;
      if (err > worst) worst = err;
    }
  }
  const double tolerance = 0x1p-20 + 2.0 * (K + 2) * 0x1p-24; /* default mode tf32tf32 */
  printf("cblas_host: %dx%dx%d row-major, worst relative error %.3g (tolerance %.3g): %s\n", M, N,
         K, worst, tolerance, worst <= tolerance ? "ok" : "FAIL");
  return worst <= tolerance ? 0 : 1;
}
