/*
 * CBLAS declaration of the SGEMM that libecgemm_blas exports.
 *
 * Source-compatible with the netlib/OpenBLAS cblas.h for this one routine:
 * the same enum names and values and the same cblas_sgemm prototype, so code
 * written against cblas.h builds against this header unchanged. Include
 * either this header or a system cblas.h; if both, the system one first (its
 * CBLAS_H guard then keeps these enums out).
 *
 * Argument errors are reported as netlib CBLAS positions (1 layout, 2 TransA,
 * 3 TransB, 4 M, 5 N, 6 K, 9 lda, 11 ldb, 14 ldc) through
 * xerbla_("SGEMM ", &info, 6), as OpenBLAS does, so one XERBLA sees them all.
 */
#ifndef ECGEMM_CBLAS_H
#define ECGEMM_CBLAS_H

#if defined(__GNUC__)
#  define ECGEMM_BLAS_API __attribute__((visibility("default")))
#else
#  define ECGEMM_BLAS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CBLAS_H
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE {
  CblasNoTrans = 111,
  CblasTrans = 112,
  CblasConjTrans = 113
} CBLAS_TRANSPOSE;
#  define CBLAS_ORDER CBLAS_LAYOUT /* the pre-3.6 name */
#endif

ECGEMM_BLAS_API void cblas_sgemm(CBLAS_LAYOUT layout, CBLAS_TRANSPOSE TransA,
                                 CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                                 const float alpha, const float* A, const int lda, const float* B,
                                 const int ldb, const float beta, float* C, const int ldc);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_CBLAS_H */
