/* Argument checks of ecgemm_sgemm (pure host code: testable without a GPU). */
#ifndef ECGEMM_VALIDATE_H
#define ECGEMM_VALIDATE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* netlib positions of sgemm's arguments, used to report the first bad one. */
enum {
  ECGEMM_ARG_TRANSA = 1,
  ECGEMM_ARG_TRANSB = 2,
  ECGEMM_ARG_M = 3,
  ECGEMM_ARG_N = 4,
  ECGEMM_ARG_K = 5,
  ECGEMM_ARG_ALPHA = 6,
  ECGEMM_ARG_A = 7,
  ECGEMM_ARG_LDA = 8,
  ECGEMM_ARG_B = 9,
  ECGEMM_ARG_LDB = 10,
  ECGEMM_ARG_BETA = 11,
  ECGEMM_ARG_C = 12,
  ECGEMM_ARG_LDC = 13,
  /* The batched calls' own arguments, after sgemm's (ecgemm.h documents the numbering). */
  ECGEMM_ARG_STRIDE_A = 14,
  ECGEMM_ARG_STRIDE_B = 15,
  ECGEMM_ARG_STRIDE_C = 16,
  ECGEMM_ARG_BATCH_COUNT = 17
};

/* 0 when valid, else the position of the first bad argument, in netlib's order. */
int ecgemm_validate_sgemm(int64_t transa, int64_t transb, int64_t m, int64_t n, int64_t k,
                          int64_t lda, int64_t ldb, int64_t ldc);

/*
 * The batch arguments, checked after ecgemm_validate_sgemm: strides and count are not
 * negative, and in the strided form (strided != 0) the products' C blocks do not
 * overlap (cuBLAS leaves that undefined; ecgemm refuses it). A and B may repeat
 * (stride 0: one operand shared by every product).
 */
int ecgemm_validate_batch(int64_t m, int64_t n, int64_t ldc, int64_t stride_a, int64_t stride_b,
                          int64_t stride_c, int64_t batch_count, int strided);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_VALIDATE_H */
