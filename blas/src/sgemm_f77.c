/*
 * The Fortran BLAS entry point SGEMM: netlib's argument checks in netlib's
 * order, XERBLA with the first bad argument's position, then the shared
 * column-major route.
 */
#include "ecgemm_blas.h"
#include "gemm_problem.h"

static int max1(int rows) { return rows > 1 ? rows : 1; }

/* netlib's checks in netlib's order: 0, or the first bad argument's position. */
static int first_bad_argument(int ta, int tb, int m, int n, int k, int lda, int ldb, int ldc) {
  const int sizes = ecgemm_blas_first_bad_size(ta, tb, m, n, k);
  if (sizes != 0) return sizes;
  if (lda < max1(ta == 1 ? k : m)) return 8; /* netlib: NROWA = M unless TRANSA is T/C */
  if (ldb < max1(tb == 1 ? n : k)) return 10;
  if (ldc < max1(m)) return 13;
  return 0;
}

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* A, const int* lda, const float* B, const int* ldb,
            const float* beta, float* C, const int* ldc, size_t transa_len, size_t transb_len) {
  (void)transa_len; /* LSAME looks at the first character only */
  (void)transb_len;
  const int ta = ecgemm_blas_parse_trans(*transa);
  const int tb = ecgemm_blas_parse_trans(*transb);
  int info = first_bad_argument(ta, tb, *m, *n, *k, *lda, *ldb, *ldc);
  if (info != 0) {
    xerbla_(ECGEMM_BLAS_SRNAME, &info, ECGEMM_BLAS_SRNAME_LEN);
    return;
  }

  /* alpha and beta are dereferenced after the checks only, as netlib does. */
  const ecgemm_blas_problem p = {ta, tb, *m, *n, *k, *alpha, *beta, A, *lda, B, *ldb, C, *ldc};
  ecgemm_blas_run(&p);
}
