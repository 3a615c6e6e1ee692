/*
 * sgemm_batch_strided_ against a double-precision reference, product by product:
 * every transpose, ragged sizes, padded leading dimensions and gaps between the
 * products (NaN-poisoned, and they must stay untouched), a repeated operand
 * (stride 0), alpha/beta with beta = 0 over a poisoned C, batch_size 0 and 1; then
 * the argument checks: XERBLA gets the first bad position (1..17) and C is untouched.
 * Passes on whatever route the library takes, with the bound of ECGEMM_BLAS_MODE.
 */
#include <float.h>

#include "blas_test_util.h"
#include "ecgemm_blas.h"

static int xerbla_calls, last_info;

/* The program's own XERBLA replaces the library's weak one. */
void xerbla_(const char* srname, const int* info, size_t srname_len) {
  (void)srname, (void)srname_len;
  ++xerbla_calls;
  last_info = *info;
}

typedef struct {
  int m, n, k, count;
  char ta, tb;
  int pad, gap;          /* ld = rows + pad; products are ld * cols + gap apart */
  int repeat;            /* 0: none, 1: A repeated (stride 0), 2: B repeated */
  float alpha, beta;
} batch_case;

static int failures, cases;

static void check(const batch_case* c) {
  const int ta = c->ta != 'N', tb = c->tb != 'N';
  const int ra = ta ? c->k : c->m, ca = ta ? c->m : c->k;
  const int rb = tb ? c->n : c->k, cb = tb ? c->k : c->n;
  const int lda = (ra > 1 ? ra : 1) + c->pad, ldb = (rb > 1 ? rb : 1) + c->pad;
  const int ldc = (c->m > 1 ? c->m : 1) + c->pad;
  const int sa = c->repeat == 1 ? 0 : lda * (ca > 0 ? ca : 1) + c->gap;
  const int sb = c->repeat == 2 ? 0 : ldb * (cb > 0 ? cb : 1) + c->gap;
  const int sc = ldc * (c->n > 0 ? c->n : 1) + c->gap;
  const int count = c->count > 0 ? c->count : 1;
  /* Whole spans random (A and B are only read); a repeated operand is one matrix. */
  const int span_a = sa ? sa * count : lda * (ca > 0 ? ca : 1);
  const int span_b = sb ? sb * count : ldb * (cb > 0 ? cb : 1);
  float* a = random_matrix(span_a, 1, span_a);
  float* b = random_matrix(span_b, 1, span_b);
  float* cm = random_matrix(sc, count, sc);
  for (int z = 0; z < count; ++z) /* poison C's padding and gaps, and C itself when beta = 0 */
    for (int i = 0; i < sc; ++i) {
      const int row = i % ldc, col = i / ldc;
      if (row >= c->m || col >= c->n || c->beta == 0.0f) cm[(size_t)z * sc + i] = poison_value();
    }
  float* c0 = malloc((size_t)sc * count * sizeof(float));
  memcpy(c0, cm, (size_t)sc * count * sizeof(float));
  sgemm_batch_strided_(&c->ta, &c->tb, &c->m, &c->n, &c->k, &c->alpha, a, &lda, &sa, b, &ldb, &sb,
                       &c->beta, cm, &ldc, &sc, &c->count, 1, 1);
  const mode_tolerance tol = tolerance_for_env_mode();
  const double u = 0x1p-24;
  int failed = 0;
  for (int z = 0; z < c->count && !failed; ++z) {
    const float *az = a + (size_t)z * sa, *bz = b + (size_t)z * sb;
    for (int j = 0; j < c->n && !failed; ++j)
      for (int i = 0; i < c->m && !failed; ++i) {
        double sum = 0, sum_abs = 0;
        for (int l = 0; l < c->k; ++l) {
          const double x = ta ? az[(size_t)i * lda + l] : az[(size_t)l * lda + i];
          const double y = tb ? bz[(size_t)l * ldb + j] : bz[(size_t)j * ldb + l];
          sum += x * y;
          sum_abs += fabs(x * y);
        }
        const size_t at = (size_t)z * sc + (size_t)j * ldc + i;
        const double beta_term = c->beta == 0.0f ? 0.0 : (double)c->beta * c0[at];
        const double want = c->alpha * sum + beta_term;
        const double bound = (tol.split_u + tol.accum * (c->k + 2) * u) * fabs(c->alpha) * sum_abs +
                             2.0 * u * fabs(beta_term) + FLT_MIN;
        if (!(fabs(cm[at] - want) <= bound)) {
          printf("FAIL m=%d n=%d k=%d %c%c count=%d z=%d (%d,%d): %g, want %g\n", c->m, c->n, c->k,
                 c->ta, c->tb, c->count, z, i, j, cm[at], want);
          failed = 1;
        }
      }
  }
  /* Everything outside the products' m x n blocks is bit-identical to before. */
  for (size_t at = 0; at < (size_t)sc * count && !failed; ++at) {
    const int z = (int)(at / sc), i = (int)(at % sc), row = i % ldc, col = i / ldc;
    const int inside = z < c->count && row < c->m && col < c->n;
    if (!inside && memcmp(&cm[at], &c0[at], sizeof(float)) != 0) {
      printf("FAIL m=%d n=%d k=%d count=%d: element %zu outside C was written\n", c->m, c->n, c->k,
             c->count, at);
      failed = 1;
    }
  }
  ++cases;
  failures += failed;
  free(a), free(b), free(cm), free(c0);
}

static void expect_info(const char* label, int m, int n, int k, int lda, int sa, int ldb, int sb,
                        int ldc, int sc, int count, char ta, int want) {
  float a[64], b[64], c[64], one = 1.0f;
  for (int i = 0; i < 64; ++i) a[i] = b[i] = 1.0f, c[i] = poison_value();
  xerbla_calls = 0;
  sgemm_batch_strided_(&ta, "N", &m, &n, &k, &one, a, &lda, &sa, b, &ldb, &sb, &one, c, &ldc, &sc,
                       &count, 1, 1);
  int untouched = 1;
  for (int i = 0; i < 64; ++i) untouched &= is_poison(c[i]);
  ++cases;
  if (xerbla_calls != 1 || last_info != want || !untouched) {
    printf("FAIL %s: xerbla calls %d, info %d (want %d), C untouched %d\n", label, xerbla_calls,
           last_info, want, untouched);
    ++failures;
  }
}

int main(void) {
  const char* trans = "NTC";
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) {
      const batch_case c = {7, 33, 21, 3, trans[x], trans[y], 2, 5, 0, 1.0f, 0.0f};
      check(&c);
    }
  const batch_case more[] = {
      {65, 40, 300, 4, 'N', 'T', 3, 1, 0, 0.5f, -2.0f}, {1, 1, 1, 5, 'T', 'N', 0, 0, 0, 1.0f, 0.0f},
      {30, 20, 50, 6, 'N', 'N', 1, 0, 1, 1.0f, 1.0f},   {30, 20, 50, 6, 'T', 'T', 0, 3, 2, 2.0f, 0.0f},
      {64, 64, 64, 64, 'N', 'N', 0, 0, 0, 1.0f, 0.0f},  {40, 30, 0, 3, 'N', 'N', 1, 2, 0, 1.0f, 3.0f},
      {40, 30, 20, 3, 'N', 'N', 1, 2, 0, 0.0f, 0.5f},   {9, 9, 9, 1, 'N', 'N', 2, 0, 0, 1.0f, 0.0f},
      {9, 9, 9, 0, 'N', 'N', 2, 0, 0, 1.0f, 0.0f},
  };
  for (size_t i = 0; i < sizeof more / sizeof more[0]; ++i) check(&more[i]);

  /* label, m, n, k, lda, stridea, ldb, strideb, ldc, stridec, batch_size, transa, position */
  expect_info("transa", 2, 2, 2, 2, 4, 2, 4, 2, 4, 2, 'X', 1);
  expect_info("m", -1, 2, 2, 2, 4, 2, 4, 2, 4, 2, 'N', 3);
  expect_info("n", 2, -1, 2, 2, 4, 2, 4, 2, 4, 2, 'N', 4);
  expect_info("k", 2, 2, -1, 2, 4, 2, 4, 2, 4, 2, 'N', 5);
  expect_info("lda", 3, 2, 2, 2, 6, 2, 4, 3, 6, 2, 'N', 8);
  expect_info("stridea", 2, 2, 2, 2, -1, 2, 4, 2, 4, 2, 'N', 9);
  expect_info("ldb", 2, 2, 3, 2, 6, 2, 6, 2, 4, 2, 'N', 11);
  expect_info("strideb", 2, 2, 2, 2, 4, 2, -4, 2, 4, 2, 'N', 12);
  expect_info("ldc", 2, 2, 2, 2, 4, 2, 4, 1, 4, 2, 'N', 15);
  expect_info("stridec overlapping", 2, 2, 2, 2, 4, 2, 4, 2, 3, 2, 'N', 16);
  expect_info("batch_size", 2, 2, 2, 2, 4, 2, 4, 2, 4, -1, 'N', 17);
  printf("sgemm_batch_strided: %d cases, %d failed; mode %s\n", cases, failures,
         tolerance_for_env_mode().name);
  return failures != 0;
}
