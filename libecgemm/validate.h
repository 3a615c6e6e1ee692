/* Argument checks of ecgemm_sgemm (pure host code: testable without a GPU). */
#ifndef ECGEMM_VALIDATE_H
#define ECGEMM_VALIDATE_H

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
  ECGEMM_ARG_LDC = 13
};

/* 0 when valid, else the position of the first bad argument, in netlib's order. */
int ecgemm_validate_sgemm(int transa, int transb, int m, int n, int k, int lda, int ldb, int ldc);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_VALIDATE_H */
