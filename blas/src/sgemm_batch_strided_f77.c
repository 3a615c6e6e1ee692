/*
 * sgemm_batch_strided: oneMKL's Fortran batched SGEMM (the argument order of
 * oneMKL and OpenBLAS), batch_size products sharing sizes, transposes, alpha and
 * beta, stride{a,b,c} elements apart. Checks in argument order, XERBLA with the
 * first bad argument's position (1 transa ... 17 batch_size), then the shared route.
 */
#include "ecgemm_blas.h"
#include "gemm_problem.h"

static int max1(int rows) { return rows > 1 ? rows : 1; }

/* Checks in argument order (oneMKL's positions): 0, or the first bad argument's. */
static int first_bad_argument(int ta, int tb, int m, int n, int k, int lda, int sa, int ldb,
                              int sb, int ldc, int sc, int count) {
  /* Product z writes [z * sc, z * sc + (n - 1) * ldc + m): the C blocks must not overlap. */
  const long long c_extent = (long long)(n > 0 ? n - 1 : 0) * ldc + m;
  const int sizes = ecgemm_blas_first_bad_size(ta, tb, m, n, k);
  if (sizes != 0) return sizes;
  if (lda < max1(ta == 1 ? k : m)) return 8;
  if (sa < 0) return 9;
  if (ldb < max1(tb == 1 ? n : k)) return 11;
  if (sb < 0) return 12;
  if (ldc < max1(m)) return 15;
  if (sc < 0 || (count > 1 && m > 0 && n > 0 && sc < c_extent)) return 16;
  if (count < 0) return 17;
  return 0;
}

#define SRNAME "SGEMM_BATCH_STRIDED "
#define SRNAME_LEN 20

void sgemm_batch_strided_(const char* transa, const char* transb, const int* m, const int* n,
                          const int* k, const float* alpha, const float* A, const int* lda,
                          const int* stridea, const float* B, const int* ldb, const int* strideb,
                          const float* beta, float* C, const int* ldc, const int* stridec,
                          const int* batch_size, size_t transa_len, size_t transb_len) {
  (void)transa_len; /* LSAME looks at the first character only */
  (void)transb_len;
  const int ta = ecgemm_blas_parse_trans(*transa);
  const int tb = ecgemm_blas_parse_trans(*transb);
  int info = first_bad_argument(ta, tb, *m, *n, *k, *lda, *stridea, *ldb, *strideb, *ldc,
                                *stridec, *batch_size);
  if (info != 0) {
    xerbla_(SRNAME, &info, SRNAME_LEN);
    return;
  }
  const ecgemm_blas_problem p = {ta, tb, *m, *n, *k, *alpha, *beta, A, *lda, B, *ldb, C, *ldc};
  const ecgemm_blas_batch batch = {*batch_size, *stridea, *strideb, *stridec};
  ecgemm_blas_run_batch(&p, &batch);
}
