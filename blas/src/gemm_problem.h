/*
 * One SGEMM call after argument checking, in column-major form (CBLAS
 * row-major calls arrive here already transposed). Shared by the C and C++
 * sources of libecgemm_blas; nothing here is exported.
 */
#ifndef ECGEMM_BLAS_GEMM_PROBLEM_H
#define ECGEMM_BLAS_GEMM_PROBLEM_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int trans_a; /* 0: op(A) = A; 1: op(A) = A^T ('T' and 'C' alike for real data) */
  int trans_b;
  int m, n, k;
  float alpha, beta;
  const float* a;
  int lda;
  const float* b;
  int ldb;
  float* c;
  int ldc;
} ecgemm_blas_problem;

/* A strided batch (sgemm_batch_strided): product z reads a + z * stride_a, b + z * stride_b
 * and writes c + z * stride_c (strides in elements; 0 repeats one operand). */
typedef struct {
  int count;
  long long stride_a, stride_b, stride_c;
} ecgemm_blas_batch;

/* netlib's quick-return test: nothing to do at all. */
static inline int ecgemm_blas_is_noop(const ecgemm_blas_problem* p) {
  return p->m == 0 || p->n == 0 || ((p->alpha == 0.0f || p->k == 0) && p->beta == 1.0f);
}

/* C = alpha*op(A)*op(B) + beta*C on the host in FP32, netlib's loops and semantics. */
void ecgemm_blas_host_sgemm(const ecgemm_blas_problem* p);

/* Runs a checked problem: quick returns, then the GPU or the host (route.cpp). */
void ecgemm_blas_run(const ecgemm_blas_problem* p);

/* The same for a checked strided batch of problems shaped like *p. */
void ecgemm_blas_run_batch(const ecgemm_blas_problem* p, const ecgemm_blas_batch* batch);

/* netlib's LSAME for the transpose argument: 0 for N/n, 1 for T/t/C/c, -1 otherwise. */
static inline int ecgemm_blas_parse_trans(char t) {
  switch (t) {
    case 'N': case 'n': return 0;
    case 'T': case 't': case 'C': case 'c': return 1;
    default: return -1;
  }
}

/* The checks every SGEMM entry starts with, in netlib's order: 1 transa, 2 transb
 * (parsed: -1 when bad), 3 m, 4 n, 5 k; 0 when all are valid. */
static inline int ecgemm_blas_first_bad_size(int ta, int tb, int m, int n, int k) {
  if (ta < 0) return 1;
  if (tb < 0) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  return 0;
}

/* The routine name and length netlib passes to XERBLA. */
#define ECGEMM_BLAS_SRNAME "SGEMM "
#define ECGEMM_BLAS_SRNAME_LEN 6

#ifdef __cplusplus
}
#endif

#endif /* ECGEMM_BLAS_GEMM_PROBLEM_H */
