/*
 * The Fortran-BLAS symbols of libecgemm_blas, declared for C and C++ callers.
 *
 * sgemm_ follows the gfortran calling convention: every argument by reference
 * (LP64: INTEGER is a 32-bit int), then the hidden lengths of the two CHARACTER
 * arguments (size_t since GCC 8). The lengths are never read, so C callers
 * that omit them are fine.
 *
 * xerbla_ is defined weak in libecgemm_blas: it prints netlib's message and
 * returns. A program that defines its own XERBLA (Fortran or C) replaces it.
 *
 * Environment (read once per process):
 *   ECGEMM_BLAS_MODE            tf32tf32 (default), halfhalf, fp32, tf32, fp16, markidis, auto
 *   ECGEMM_BLAS_HOST_THRESHOLD  m*n*k at or below which host arrays are multiplied
 *                               on the host in FP32 (0: always the GPU); see blas/README.md
 *   ECGEMM_BLAS_VERBOSE         1: one line per call on stderr (route, mode, time)
 */
#ifndef ECGEMM_BLAS_H
#define ECGEMM_BLAS_H

#include <stddef.h>

#if defined(__GNUC__)
#  define ECGEMM_BLAS_API __attribute__((visibility("default")))
#else
#  define ECGEMM_BLAS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

ECGEMM_BLAS_API void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                            const int* k, const float* alpha, const float* A, const int* lda,
                            const float* B, const int* ldb, const float* beta, float* C,
                            const int* ldc, size_t transa_len, size_t transb_len);

/*
 * Batched SGEMM with oneMKL's Fortran argument order (also OpenBLAS's):
 * for z in [0, batch_size): C_z = alpha * op(A_z) * op(B_z) + beta * C_z, where
 * A_z = A + z * stridea (elements), likewise B and C. stridea or strideb may be 0 (one
 * operand for every product); the C blocks must not overlap (XERBLA position 16).
 */
ECGEMM_BLAS_API void sgemm_batch_strided_(const char* transa, const char* transb, const int* m,
                                          const int* n, const int* k, const float* alpha,
                                          const float* A, const int* lda, const int* stridea,
                                          const float* B, const int* ldb, const int* strideb,
                                          const float* beta, float* C, const int* ldc,
                                          const int* stridec, const int* batch_size,
                                          size_t transa_len, size_t transb_len);

ECGEMM_BLAS_API void xerbla_(const char* srname, const int* info, size_t srname_len);

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_BLAS_H */
