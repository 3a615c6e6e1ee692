/*
 * Code written against the system cblas.h builds with ecgemm_cblas.h included
 * after it (same enums, compatible prototype) and links to libecgemm_blas's
 * cblas_sgemm. Built only where a system cblas.h exists.
 */
#include <cblas.h>
#include <stdio.h>

#include "ecgemm_cblas.h"

int main(void) {
  const float a[4] = {1.5f, -2.0f, 0.25f, 3.0f}; /* row-major 2 x 2 */
  const float b[4] = {-1.0f, 0.5f, 2.0f, 4.0f};
  float c[4] = {0};
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
  /* Exact in FP32: small integers and halves. */
  const float want[4] = {-5.5f, -7.25f, 5.75f, 12.125f};
  for (int i = 0; i < 4; ++i) {
    if (c[i] != want[i]) {
      fprintf(stderr, "FAIL c[%d] = %g, want %g\n", i, c[i], want[i]);
      return 1;
    }
  }
  printf("cblas_h_compat: ok\n");
  return 0;
}
