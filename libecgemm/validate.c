#include "validate.h"

#include "ecgemm.h"
#include "internal.h"

static int is_valid_op(int op) {
  return op == ECGEMM_OP_N || op == ECGEMM_OP_T || op == ECGEMM_OP_C;
}

static int max1(int rows) { return rows > 1 ? rows : 1; }

int ecgemm_validate_sgemm(int transa, int transb, int m, int n, int k, int lda, int ldb, int ldc) {
  /* op(A) is m x k, so A is stored m x k (N) or k x m (T); likewise B. */
  const int rows_a = transa == ECGEMM_OP_N ? m : k;
  const int rows_b = transb == ECGEMM_OP_N ? k : n;
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

ECGEMM_API int ecgemm_internal_validate(int transa, int transb, int m, int n, int k, int lda,
                                        int ldb, int ldc) {
  return ecgemm_validate_sgemm(transa, transb, m, n, k, lda, ldb, ldc);
}
