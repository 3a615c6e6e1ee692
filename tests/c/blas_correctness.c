/*
 * sgemm_ and cblas_sgemm (both layouts) against a double-precision reference:
 * ragged shapes, every transpose spelling, padded leading dimensions whose
 * padding is NaN-poisoned and must stay untouched, alpha/beta combinations,
 * beta = 0 over a NaN-poisoned C, alpha = 0 and k = 0 with A and B never
 * referenced, and m = 0 / n = 0 quick returns. Passes on whatever route the
 * library takes (host without a GPU, the GPU with ECGEMM_BLAS_HOST_THRESHOLD=0),
 * with the error bound of the mode in ECGEMM_BLAS_MODE.
 */
#include <float.h>

#include "blas_test_util.h"
#include "ecgemm_blas.h"
#include "ecgemm_cblas.h"

typedef enum { API_F77, API_CBLAS_COL, API_CBLAS_ROW } api_kind;
static const char* const api_names[] = {"sgemm_", "cblas_sgemm(ColMajor)", "cblas_sgemm(RowMajor)"};

typedef struct {
  api_kind api;
  int m, n, k;
  char transa, transb;
  int pad; /* leading dimension = entries per line + pad */
  float alpha, beta;
} gemm_case;

typedef struct {
  int cases, failures;
  double worst_bound_ratio; /* max |err| / bound */
  double worst_relative;    /* max |err| / (|alpha| sum|a||b| + |beta c|) */
} tally;

static int is_trans(char t) { return t != 'N' && t != 'n'; }

static CBLAS_TRANSPOSE cblas_trans(char t) {
  if (t == 'N' || t == 'n') return CblasNoTrans;
  return (t == 'C' || t == 'c') ? CblasConjTrans : CblasTrans;
}

/* A stored matrix of `rows` x `cols` in the case's layout. */
typedef struct {
  float* data;
  int rows, cols, ld, row_major;
  size_t count;
} stored;

static stored make_stored(int rows, int cols, int pad, int row_major, int fill) {
  stored s = {NULL, rows, cols, 0, row_major, 0};
  const int len = row_major ? cols : rows, lines = row_major ? rows : cols;
  s.ld = (len > 1 ? len : 1) + pad;
  s.data = random_matrix(fill ? len : 0, lines, s.ld);
  s.count = (size_t)s.ld * (size_t)(lines > 0 ? lines : 1);
  return s;
}

static void call(const gemm_case* c, const stored* a, const stored* b, stored* cm, int product) {
  /* Unreferenced operands: NULL through the Fortran entry, poison through CBLAS. */
  const float* pa = product || c->api != API_F77 ? a->data : NULL;
  const float* pb = product || c->api != API_F77 ? b->data : NULL;
  if (c->api == API_F77) {
    sgemm_(&c->transa, &c->transb, &c->m, &c->n, &c->k, &c->alpha, pa, &a->ld, pb, &b->ld,
           &c->beta, cm->data, &cm->ld, 1, 1);
  } else {
    cblas_sgemm(c->api == API_CBLAS_ROW ? CblasRowMajor : CblasColMajor, cblas_trans(c->transa),
                cblas_trans(c->transb), c->m, c->n, c->k, c->alpha, pa, a->ld, pb, b->ld, c->beta,
                cm->data, cm->ld);
  }
}

static void report(const gemm_case* c, const char* what, int i, int j, double got, double want) {
  fprintf(stderr,
          "FAIL %s m=%d n=%d k=%d trans=%c%c pad=%d alpha=%g beta=%g: %s at (%d,%d): got %.9g "
          "want %.9g\n",
          api_names[c->api], c->m, c->n, c->k, c->transa, c->transb, c->pad, c->alpha, c->beta,
          what, i, j, got, want);
}

static int run_case(const gemm_case* c, tally* t) {
  const int row_major = c->api == API_CBLAS_ROW;
  const int ta = is_trans(c->transa), tb = is_trans(c->transb);
  /* alpha = 0 or k = 0: A and B are never referenced; hand in poison only. */
  const int product = c->alpha != 0.0f && c->k > 0;
  stored a = make_stored(ta ? c->k : c->m, ta ? c->m : c->k, c->pad, row_major, product);
  stored b = make_stored(tb ? c->n : c->k, tb ? c->k : c->n, c->pad, row_major, product);
  stored cm = make_stored(c->m, c->n, c->pad, row_major, 1);
  float* c0 = (float*)malloc(cm.count * sizeof(float));
  memcpy(c0, cm.data, cm.count * sizeof(float));
  if (c->beta == 0.0f) /* must be written without being read */
    for (int j = 0; j < c->n; ++j)
      for (int i = 0; i < c->m; ++i)
        cm.data[row_major ? (size_t)i * cm.ld + j : (size_t)j * cm.ld + i] = poison_value();
  float* a_before = (float*)malloc(a.count * sizeof(float));
  float* b_before = (float*)malloc(b.count * sizeof(float));
  memcpy(a_before, a.data, a.count * sizeof(float));
  memcpy(b_before, b.data, b.count * sizeof(float));

  call(c, &a, &b, &cm, product);

  const mode_tolerance tol = tolerance_for_env_mode();
  const double u = 0x1p-24;
  int failed = 0;
  if (memcmp(a_before, a.data, a.count * sizeof(float)) != 0 ||
      memcmp(b_before, b.data, b.count * sizeof(float)) != 0) {
    report(c, "A or B modified", -1, -1, 0, 0);
    failed = 1;
  }
  for (int j = 0; j < c->n && !failed; ++j) {
    for (int i = 0; i < c->m && !failed; ++i) {
      const size_t at = row_major ? (size_t)i * cm.ld + j : (size_t)j * cm.ld + i;
      const double got = cm.data[at];
      const float beta_c = c->beta == 0.0f ? 0.0f : c->beta * c0[at];
      if (!product) { /* netlib: C = beta*C, one FP32 multiply, exactly */
        if (!(got == beta_c)) report(c, "C != beta*C", i, j, got, beta_c), failed = 1;
        continue;
      }
      double sum = 0.0, sum_abs = 0.0;
      for (int l = 0; l < c->k; ++l) {
        const double x = ta ? element(a.data, a.ld, l, i, row_major)
                            : element(a.data, a.ld, i, l, row_major);
        const double y = tb ? element(b.data, b.ld, j, l, row_major)
                            : element(b.data, b.ld, l, j, row_major);
        sum += x * y;
        sum_abs += fabs(x * y);
      }
      const double beta_term = c->beta == 0.0f ? 0.0 : (double)c->beta * c0[at];
      const double want = c->alpha * sum + beta_term;
      const double scale = fabs(c->alpha) * sum_abs + fabs(beta_term);
      const double bound =
          (tol.split_u + tol.accum * (c->k + 2) * u) * fabs(c->alpha) * sum_abs +
          2.0 * u * fabs(beta_term) + FLT_MIN;
      const double err = fabs(got - want);
      if (!(err <= bound)) report(c, "error above bound", i, j, got, want), failed = 1;
      if (err / bound > t->worst_bound_ratio) t->worst_bound_ratio = err / bound;
      if (scale > 0 && err / scale > t->worst_relative) t->worst_relative = err / scale;
    }
  }
  /* Everything outside the m x n block (ld padding, rows below M) must be bit-identical. */
  for (size_t at = 0; at < cm.count && !failed; ++at) {
    const int line = (int)(at / cm.ld), pos = (int)(at % cm.ld);
    const int inside = line < (row_major ? c->m : c->n) && pos < (row_major ? c->n : c->m);
    if (!inside && memcmp(&cm.data[at], &c0[at], sizeof(float)) != 0)
      report(c, "entry outside C's m x n block touched", pos, line, cm.data[at], c0[at]),
          failed = 1;
  }
  free(a.data), free(b.data), free(cm.data), free(c0), free(a_before), free(b_before);
  t->cases += 1;
  t->failures += failed;
  return failed;
}

/* m = 0 or n = 0 returns at once: A, B may be NULL and C is not touched at all. */
static int quick_returns(tally* t) {
  const int dims[][3] = {{0, 5, 4}, {6, 0, 4}, {0, 0, 0}};
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d) {
    float c[8];
    for (int i = 0; i < 8; ++i) c[i] = poison_value();
    const int m = dims[d][0], n = dims[d][1], k = dims[d][2], ld = 8;
    const float alpha = 1.0f, beta = 0.0f;
    sgemm_("N", "N", &m, &n, &k, &alpha, NULL, &ld, NULL, &ld, &beta, c, &ld, 1, 1);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, NULL, ld, NULL, ld,
                beta, c, ld);
    int touched = 0;
    for (int i = 0; i < 8; ++i) touched |= !is_poison(c[i]);
    t->cases += 1;
    if (touched) {
      fprintf(stderr, "FAIL quick return m=%d n=%d k=%d wrote C\n", m, n, k);
      t->failures += 1;
    }
  }
  return 0;
}

int main(void) {
  static const int shapes[][3] = {{1, 1, 1},   {7, 5, 3},    {33, 17, 65},
                                  {64, 64, 64}, {127, 33, 100}, {5, 130, 257}};
  static const char trans_pairs[][2] = {{'N', 'N'}, {'t', 'N'}, {'n', 'C'}, {'T', 'c'}};
  static const float scalars[][2] = {{1.0f, 0.0f}, {-0.75f, 0.5f}, {1.5f, 1.0f}, {0.5f, -2.0f}};
  tally t = {0, 0, 0.0, 0.0};
  for (int api = API_F77; api <= API_CBLAS_ROW; ++api)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (size_t tr = 0; tr < sizeof trans_pairs / sizeof trans_pairs[0]; ++tr)
        for (int pad = 0; pad <= 3; pad += 3)
          for (size_t ab = 0; ab < sizeof scalars / sizeof scalars[0]; ++ab) {
            const gemm_case c = {(api_kind)api,       shapes[s][0],      shapes[s][1],
                                 shapes[s][2],        trans_pairs[tr][0], trans_pairs[tr][1],
                                 pad,                 scalars[ab][0],     scalars[ab][1]};
            run_case(&c, &t);
          }
  /* C = beta*C without touching A or B: alpha = 0 (any k) and k = 0 (any alpha). */
  static const float beta_only[][2] = {{0.0f, 0.0f}, {0.0f, 2.5f}, {1.25f, 0.0f}, {-1.0f, -0.5f}};
  for (int api = API_F77; api <= API_CBLAS_ROW; ++api)
    for (size_t ab = 0; ab < sizeof beta_only / sizeof beta_only[0]; ++ab) {
      const int k = beta_only[ab][0] == 0.0f ? 9 : 0;
      const gemm_case c = {(api_kind)api, 19, 6, k, 'T', 'N', 2, beta_only[ab][0], beta_only[ab][1]};
      run_case(&c, &t);
    }
  quick_returns(&t);
  printf("blas_correctness: %d cases, %d failed; mode %s; worst error/bound %.3g; worst relative "
         "error %.3g\n",
         t.cases, t.failures, tolerance_for_env_mode().name, t.worst_bound_ratio,
         t.worst_relative);
  return t.failures == 0 ? 0 : 1;
}
