/*
 * The Fortran BLAS entry point SGEMM: netlib's argument checks in netlib's
 * order, XERBLA with the first bad argument's position, then the shared
 * column-major route.
 */
#include "ecgemm_blas.h"
#include "gemm_problem.h"

static int max1(int rows) { return rows > 1 ? rows : 1; }

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* A, const int* lda, const float* B, const int* ldb,
            const float* beta, float* C, const int* ldc, size_t transa_len, size_t transb_len) {
  (void)transa_len; /* LSAME looks at the first character only */
  (void)transb_len;
  const int ta = ecgemm_blas_parse_trans(*transa);
  const int tb = ecgemm_blas_parse_trans(*transb);
  const int rows_a = ta == 1 ? *k : *m; /* netlib: NROWA = M unless TRANSA is T/C */
  const int rows_b = tb == 1 ? *n : *k;

  int info = 0;
  if (ta < 0)
    info = 1;
  else if (tb < 0)
    info = 2;
  else if (*m < 0)
    info = 3;
  else if (*n < 0)
    info = 4;
  else if (*k < 0)
    info = 5;
  else if (*lda < max1(rows_a))
    info = 8;
  else if (*ldb < max1(rows_b))
    info = 10;
  else if (*ldc < max1(*m))
    info = 13;
  if (info != 0) {
    xerbla_(ECGEMM_BLAS_SRNAME, &info, ECGEMM_BLAS_SRNAME_LEN);
    return;
  }

  /* alpha and beta are dereferenced after the checks only, as netlib does. */
  const ecgemm_blas_problem p = {ta, tb, *m, *n, *k, *alpha, *beta, A, *lda, B, *ldb, C, *ldc};
  ecgemm_blas_run(&p);
}
