/*
 * cblas_sgemm: checks in CBLAS argument order (positions counted in the CBLAS
 * argument list, as netlib CBLAS and OpenBLAS report them), then row-major
 * calls become the column-major problem C^T = op(B)^T op(A)^T + beta C^T,
 * which reads the same memory without copies.
 */
#include "ecgemm_blas.h"
#include "ecgemm_cblas.h"
#include "gemm_problem.h"

static int max1(int rows) { return rows > 1 ? rows : 1; }

static int parse_trans(CBLAS_TRANSPOSE t) {
  switch (t) {
    case CblasNoTrans: return 0;
    case CblasTrans:
    case CblasConjTrans: return 1;
  }
  return -1;
}

/* The CBLAS position of the first bad argument, or 0. */
static int first_bad_argument(CBLAS_LAYOUT layout, int ta, int tb, int M, int N, int K, int lda,
                              int ldb, int ldc) {
  const int row_major = layout == CblasRowMajor;
  if (!row_major && layout != CblasColMajor) return 1;
  if (ta < 0) return 2;
  if (tb < 0) return 3;
  if (M < 0) return 4;
  if (N < 0) return 5;
  if (K < 0) return 6;
  /* ld is the stride between columns (column-major) or rows (row-major). */
  const int lead_a = row_major ? (ta ? M : K) : (ta ? K : M);
  const int lead_b = row_major ? (tb ? K : N) : (tb ? N : K);
  const int lead_c = row_major ? N : M;
  if (lda < max1(lead_a)) return 9;
  if (ldb < max1(lead_b)) return 11;
  if (ldc < max1(lead_c)) return 14;
  return 0;
}

void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA, CBLAS_TRANSPOSE TransB, const int M,
                 const int N, const int K, const float alpha, const float* A, const int lda,
                 const float* B, const int ldb, const float beta, float* C, const int ldc) {
  const int ta = parse_trans(TransA);
  const int tb = parse_trans(TransB);
  const int info = first_bad_argument(layout, ta, tb, M, N, K, lda, ldb, ldc);
  if (info != 0) {
    xerbla_(ECGEMM_BLAS_SRNAME, &info, ECGEMM_BLAS_SRNAME_LEN);
    return;
  }
  if (layout == CblasColMajor) {
    const ecgemm_blas_problem p = {ta, tb, M, N, K, alpha, beta, A, lda, B, ldb, C, ldc};
    ecgemm_blas_run(&p);
  } else {
    const ecgemm_blas_problem p = {tb, ta, N, M, K, alpha, beta, B, ldb, A, lda, C, ldc};
    ecgemm_blas_run(&p);
  }
}
