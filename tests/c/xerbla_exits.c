/*
 * Error exits: this program supplies its own XERBLA (as a Fortran program
 * would), which must replace libecgemm_blas's weak default. Each bad argument,
 * alone and behind an earlier bad one, must reach it with netlib's INFO (sgemm_)
 * or the CBLAS position (cblas_sgemm), the name "SGEMM ", and C untouched.
 */
#include "blas_test_util.h"
#include "ecgemm_blas.h"
#include "ecgemm_cblas.h"

static int xerbla_calls;
static int last_info;
static char last_name[16];
static size_t last_len;

void xerbla_(const char* srname, const int* info, size_t srname_len) {
  ++xerbla_calls;
  last_info = *info;
  last_len = srname_len;
  memset(last_name, 0, sizeof last_name);
  memcpy(last_name, srname, srname_len < sizeof last_name ? srname_len : sizeof last_name - 1);
}

enum { kCapacity = 64 };
static float a[kCapacity], b[kCapacity], c[kCapacity];
static int failures;

static void poison_c(void) {
  for (int i = 0; i < kCapacity; ++i) c[i] = poison_value();
}

static void expect(const char* label, int want_info) {
  int c_touched = 0;
  for (int i = 0; i < kCapacity; ++i) c_touched |= !is_poison(c[i]);
  const int want_calls = want_info != 0;
  const int ok = xerbla_calls == want_calls && (want_info == 0 || c_touched == 0) &&
                 (want_info == 0 || (last_info == want_info && last_len == 6 &&
                                     strcmp(last_name, "SGEMM ") == 0));
  if (!ok) {
    fprintf(stderr,
            "FAIL %s: want INFO=%d; got %d XERBLA call(s), INFO=%d, name='%s' (len %zu), C %s\n",
            label, want_info, xerbla_calls, last_info, last_name, last_len,
            c_touched ? "touched" : "untouched");
    ++failures;
  }
  xerbla_calls = 0;
  last_info = 0;
  last_len = 0;
  last_name[0] = '\0';
}

static void f77(const char* label, char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc,
                int want_info) {
  const float alpha = 1.5f, beta = 0.5f;
  poison_c();
  sgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  expect(label, want_info);
}

static void cblas(const char* label, int layout, int ta, int tb, int m, int n, int k, int lda,
                  int ldb, int ldc, int want_info) {
  poison_c();
  cblas_sgemm((CBLAS_LAYOUT)layout, (CBLAS_TRANSPOSE)ta, (CBLAS_TRANSPOSE)tb, m, n, k, 1.5f, a, lda,
              b, ldb, 0.5f, c, ldc);
  expect(label, want_info);
}

int main(void) {
  for (int i = 0; i < kCapacity; ++i) a[i] = random_entry(), b[i] = random_entry();

  /* sgemm_: netlib's order is transa 1, transb 2, m 3, n 4, k 5, lda 8, ldb 10, ldc 13. */
  f77("transa='X'", 'X', 'N', 4, 3, 2, 4, 2, 4, 1);
  f77("transa='X' before m<0", 'X', 'N', -1, 3, 2, 4, 2, 4, 1);
  f77("transb='?'", 'N', '?', 4, 3, 2, 4, 2, 4, 2);
  f77("transb='x' before m<0", 'n', 'x', -1, 3, 2, 4, 2, 4, 2);
  f77("m<0", 'N', 'N', -1, 3, 2, 4, 2, 4, 3);
  f77("m<0 before n<0, ldc", 'N', 'N', -1, -1, 2, 4, 2, 0, 3);
  f77("n<0", 'N', 'N', 4, -1, 2, 4, 2, 4, 4);
  f77("k<0", 'N', 'N', 4, 3, -1, 4, 2, 4, 5);
  f77("k<0 before lda", 'N', 'N', 4, 3, -1, 1, 2, 4, 5);
  f77("lda<m (N)", 'N', 'N', 4, 3, 2, 3, 2, 4, 8);
  f77("lda<k (T)", 't', 'N', 4, 3, 6, 5, 6, 4, 8);
  f77("lda<1 with m=0", 'N', 'N', 0, 3, 2, 0, 2, 1, 8);
  f77("ldb<k (N)", 'N', 'N', 4, 3, 5, 4, 4, 4, 10);
  f77("ldb<n (C)", 'N', 'c', 4, 3, 2, 4, 2, 4, 10);
  f77("ldb before ldc", 'N', 'N', 4, 3, 5, 4, 4, 3, 10);
  f77("ldc<m", 'N', 'N', 4, 3, 2, 4, 2, 3, 13);
  f77("ldc<1, checked before the quick return", 'N', 'N', 0, 0, 0, 1, 1, 0, 13);
  f77("valid call", 'T', 'n', 4, 3, 2, 2, 2, 4, 0);

  /* cblas_sgemm: layout 1, TransA 2, TransB 3, M 4, N 5, K 6, lda 9, ldb 11, ldc 14. */
  const int col = CblasColMajor, row = CblasRowMajor, n = CblasNoTrans, t = CblasTrans;
  cblas("bad layout", 0, n, n, 4, 3, 2, 4, 2, 4, 1);
  cblas("bad TransA", col, 0, n, 4, 3, 2, 4, 2, 4, 2);
  cblas("bad TransB before M<0", col, n, 99, -1, 3, 2, 4, 2, 4, 3);
  cblas("M<0", row, n, n, -1, 3, 2, 4, 3, 3, 4);
  cblas("N<0", col, n, n, 4, -1, 2, 4, 2, 4, 5);
  cblas("K<0", col, n, n, 4, 3, -1, 4, 2, 4, 6);
  cblas("lda<M (ColMajor, N)", col, n, n, 4, 3, 2, 3, 2, 4, 9);
  cblas("lda<K (RowMajor, N)", row, n, n, 4, 3, 5, 4, 3, 3, 9);
  cblas("lda<M (RowMajor, T)", row, t, n, 4, 3, 2, 3, 3, 3, 9);
  cblas("ldb<K (ColMajor, N)", col, n, n, 4, 3, 5, 4, 4, 4, 11);
  cblas("ldb<N (RowMajor, N)", row, n, n, 4, 3, 2, 2, 2, 3, 11);
  cblas("ldc<M (ColMajor)", col, n, n, 4, 3, 2, 4, 2, 3, 14);
  cblas("ldc<N (RowMajor)", row, n, n, 4, 3, 2, 2, 3, 2, 14);
  cblas("valid RowMajor call", row, t, n, 4, 3, 2, 4, 3, 3, 0);

  printf("xerbla_exits: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
