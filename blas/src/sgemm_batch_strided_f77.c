/*
 * sgemm_batch_strided: oneMKL's Fortran batched SGEMM (the argument order of
 * oneMKL and OpenBLAS), batch_size products sharing sizes, transposes, alpha and
 * beta, stride{a,b,c} elements apart. Checks in argument order, XERBLA with the
 * first bad argument's position (1 transa ... 17 batch_size), then the shared route.
 */
#include "ecgemm_blas.h"
#include "gemm_problem.h"

static int max1(int rows) { return rows > 1 ? rows : 1; }

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
  const int rows_a = ta == 1 ? *k : *m;
  const int rows_b = tb == 1 ? *n : *k;
  /* Product z writes C's columns [z * stridec, z * stridec + (n - 1) * ldc + m): the
   * products' C blocks must not overlap. */
  const long long c_extent = (long long)(*n > 0 ? *n - 1 : 0) * *ldc + *m;

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
  else if (*stridea < 0)
    info = 9;
  else if (*ldb < max1(rows_b))
    info = 11;
  else if (*strideb < 0)
    info = 12;
  else if (*ldc < max1(*m))
    info = 15;
  else if (*stridec < 0 || (*batch_size > 1 && *m > 0 && *n > 0 && *stridec < c_extent))
    info = 16;
  else if (*batch_size < 0)
    info = 17;
  if (info != 0) {
    xerbla_(SRNAME, &info, SRNAME_LEN);
    return;
  }
  const ecgemm_blas_problem p = {ta, tb, *m, *n, *k, *alpha, *beta, A, *lda, B, *ldb, C, *ldc};
  const ecgemm_blas_batch batch = {*batch_size, *stridea, *strideb, *stridec};
  ecgemm_blas_run_batch(&p, &batch);
}
