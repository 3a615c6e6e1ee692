/*
 * The host FP32 SGEMM: used when no usable GPU exists, for problems below the
 * host threshold, and for alpha = 0 / k = 0 on host arrays (C = beta*C needs
 * no GPU). Same loop order and operation sequence as netlib's sgemm.f, so the
 * results match the reference BLAS (compiled with -ffp-contract=off, like
 * gfortran's default x86-64 code, which has no FMA). Index arithmetic in
 * ptrdiff_t: lda*k may exceed INT_MAX.
 */
#include <stddef.h>

#include "gemm_problem.h"

#define AT(x, ld, row, col) ((x)[(ptrdiff_t)(col) * (ld) + (row)])

static void scale_column(float* c, int m, float beta) {
  /* beta = 0 writes zeros without reading C, so NaN in C does not propagate. */
  if (beta == 0.0f) {
    for (int i = 0; i < m; ++i) c[i] = 0.0f;
  } else if (beta != 1.0f) {
    for (int i = 0; i < m; ++i) c[i] = beta * c[i];
  }
}

/* op(A) = A: C(:,j) += (alpha*op(B)(l,j)) * A(:,l), column by column (axpy form). */
static void axpy_form(const ecgemm_blas_problem* p) {
  for (int j = 0; j < p->n; ++j) {
    float* cj = &AT(p->c, p->ldc, 0, j);
    scale_column(cj, p->m, p->beta);
    for (int l = 0; l < p->k; ++l) {
      const float b_lj = p->trans_b ? AT(p->b, p->ldb, j, l) : AT(p->b, p->ldb, l, j);
      const float temp = p->alpha * b_lj;
      const float* al = &AT(p->a, p->lda, 0, l);
      for (int i = 0; i < p->m; ++i) cj[i] = cj[i] + temp * al[i];
    }
  }
}

/* op(A) = A^T: C(i,j) = alpha * dot(A(:,i), op(B)(:,j)) + beta*C(i,j) (dot form). */
static void dot_form(const ecgemm_blas_problem* p) {
  for (int j = 0; j < p->n; ++j) {
    for (int i = 0; i < p->m; ++i) {
      const float* ai = &AT(p->a, p->lda, 0, i);
      float temp = 0.0f;
      if (p->trans_b) {
        for (int l = 0; l < p->k; ++l) temp = temp + ai[l] * AT(p->b, p->ldb, j, l);
      } else {
        const float* bj = &AT(p->b, p->ldb, 0, j);
        for (int l = 0; l < p->k; ++l) temp = temp + ai[l] * bj[l];
      }
      float* cij = &AT(p->c, p->ldc, i, j);
      *cij = p->beta == 0.0f ? p->alpha * temp : p->alpha * temp + p->beta * *cij;
    }
  }
}

void ecgemm_blas_host_sgemm(const ecgemm_blas_problem* p) {
  if (ecgemm_blas_is_noop(p)) return;
  if (p->alpha == 0.0f) {
    /* A and B are not referenced. */
    for (int j = 0; j < p->n; ++j) scale_column(&AT(p->c, p->ldc, 0, j), p->m, p->beta);
    return;
  }
  if (p->trans_a)
    dot_form(p);
  else
    axpy_form(p);
}
