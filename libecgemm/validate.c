#include "validate.h"

#include "ecgemm.h"
#include "internal.h"

static int is_valid_op(int64_t op) {
  return op == ECGEMM_OP_N || op == ECGEMM_OP_T || op == ECGEMM_OP_C;
}

static int64_t max1(int64_t rows) { return rows > 1 ? rows : 1; }

int ecgemm_validate_sgemm(int64_t transa, int64_t transb, int64_t m, int64_t n, int64_t k,
                          int64_t lda, int64_t ldb, int64_t ldc) {
  /* op(A) is m x k, so A is stored m x k (N) or k x m (T); likewise B. */
  const int64_t rows_a = transa == ECGEMM_OP_N ? m : k;
  const int64_t rows_b = transb == ECGEMM_OP_N ? k : n;
  if (!is_valid_op(transa)) return ECGEMM_ARG_TRANSA;
  if (!is_valid_op(transb)) return ECGEMM_ARG_TRANSB;
  if (m < 0) return ECGEMM_ARG_M;
  if (n < 0) return ECGEMM_ARG_N;
  if (k < 0) return ECGEMM_ARG_K;
  if (lda < max1(rows_a)) return ECGEMM_ARG_LDA;
  if (ldb < max1(rows_b)) return ECGEMM_ARG_LDB;
  if (ldc < max1(m)) return ECGEMM_ARG_LDC;
  return 0;
}

int ecgemm_validate_batch(int64_t m, int64_t n, int64_t ldc, int64_t stride_a, int64_t stride_b,
                          int64_t stride_c, int64_t batch_count, int strided) {
  if (strided && stride_a < 0) return ECGEMM_ARG_STRIDE_A;
  if (strided && stride_b < 0) return ECGEMM_ARG_STRIDE_B;
  if (strided && stride_c < 0) return ECGEMM_ARG_STRIDE_C;
  if (batch_count < 0) return ECGEMM_ARG_BATCH_COUNT;
  /* Product z writes [z * stride_c, z * stride_c + (n - 1) * ldc + m). */
  if (strided && batch_count > 1 && m > 0 && n > 0 && stride_c < (n - 1) * ldc + m)
    return ECGEMM_ARG_STRIDE_C;
  return 0;
}

ECGEMM_API int ecgemm_internal_validate(int transa, int transb, int m, int n, int k, int lda,
                                        int ldb, int ldc) {
  return ecgemm_validate_sgemm(transa, transb, m, n, k, lda, ldb, ldc);
}

ECGEMM_API int ecgemm_internal_validate_batch(int64_t m, int64_t n, int64_t ldc, int64_t stride_a,
                                              int64_t stride_b, int64_t stride_c,
                                              int64_t batch_count, int strided) {
  return ecgemm_validate_batch(m, n, ldc, stride_a, stride_b, stride_c, batch_count, strided);
}
