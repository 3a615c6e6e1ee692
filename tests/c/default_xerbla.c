/*
 * Without a program-supplied XERBLA, libecgemm_blas's default prints netlib's
 * message and returns (ctest matches the message) and C stays untouched.
 */
#include "blas_test_util.h"
#include "ecgemm_blas.h"

int main(void) {
  float a[16], b[16], c[16];
  for (int i = 0; i < 16; ++i) a[i] = random_entry(), b[i] = random_entry(), c[i] = poison_value();
  const int m = 4, n = 2, k = 3, lda = 3 /* < m: argument 8 */, ldb = 3, ldc = 4;
  const float alpha = 1.0f, beta = 0.0f;
  sgemm_("N", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  for (int i = 0; i < 16; ++i) {
    if (!is_poison(c[i])) {
      fprintf(stderr, "FAIL: C[%d] written after an argument error\n", i);
      return 1;
    }
  }
  printf("default_xerbla: returned, C untouched\n");
  return 0;
}
