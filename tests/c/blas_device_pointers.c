/*
 * sgemm_ with device arrays (allocated through libecgemm's device helpers, as a
 * CUDA Fortran or OpenACC code would hand them in): every mix of device and
 * host operands, a padded device C whose padding must stay untouched, and
 * alpha = 0 on a device C. Exits 77 (skipped) without a GPU.
 */
#include "blas_test_util.h"
#include "ecgemm.h"
#include "ecgemm_blas.h"

enum { kSkip = 77 };

static void* to_device(const float* host, size_t count) {
  void* dev = NULL;
  if (ecgemm_device_malloc(&dev, count * sizeof(float)) != ECGEMM_STATUS_SUCCESS ||
      ecgemm_memcpy_to_device(dev, host, count * sizeof(float)) != ECGEMM_STATUS_SUCCESS) {
    fprintf(stderr, "FAIL: device allocation or copy\n");
    exit(1);
  }
  return dev;
}

/* placement bit 0: A on the device, bit 1: B, bit 2: C. */
static int run(int placement, float alpha, float beta) {
  const int m = 70, n = 45, k = 129, lda = m + 1, ldb = k, ldc = m + 5;
  float* a = random_matrix(m, k, lda);
  float* b = random_matrix(k, n, ldb);
  float* c = random_matrix(m, n, ldc);
  float* c0 = (float*)malloc(sizeof(float) * ldc * n);
  memcpy(c0, c, sizeof(float) * ldc * n);
  void* da = (placement & 1) ? to_device(a, (size_t)lda * k) : NULL;
  void* db = (placement & 2) ? to_device(b, (size_t)ldb * n) : NULL;
  void* dc = (placement & 4) ? to_device(c, (size_t)ldc * n) : NULL;

  sgemm_("N", "N", &m, &n, &k, &alpha, da ? (float*)da : a, &lda, db ? (float*)db : b, &ldb, &beta,
         dc ? (float*)dc : c, &ldc, 1, 1);
  if (dc != NULL) ecgemm_memcpy_to_host(c, dc, sizeof(float) * ldc * n);

  const mode_tolerance tol = tolerance_for_env_mode();
  int failures = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < ldc; ++i) {
      const size_t at = (size_t)j * ldc + i;
      if (i >= m) { /* padding rows below M */
        failures += memcmp(&c[at], &c0[at], sizeof(float)) != 0;
        continue;
      }
      double sum = 0.0, sum_abs = 0.0;
      for (int l = 0; l < k; ++l) {
        const double p = (double)a[(size_t)l * lda + i] * b[(size_t)j * ldb + l];
        sum += p;
        sum_abs += fabs(p);
      }
      const double want = alpha * sum + (double)beta * c0[at];
      const double bound = (tol.split_u + tol.accum * (k + 2) * 0x1p-24) * fabs(alpha) * sum_abs +
                           2 * 0x1p-24 * fabs(beta * c0[at]);
      failures += !(fabs(c[at] - want) <= bound);
    }
  }
  printf("placement A=%s B=%s C=%s alpha=%g beta=%g: %s\n", da ? "device" : "host",
         db ? "device" : "host", dc ? "device" : "host", alpha, beta,
         failures ? "FAIL" : "ok");
  ecgemm_device_free(da), ecgemm_device_free(db), ecgemm_device_free(dc);
  free(a), free(b), free(c), free(c0);
  return failures != 0;
}

int main(void) {
  if (ecgemm_get_device_count() == 0) {
    printf("blas_device_pointers: no CUDA device, skipped\n");
    return kSkip;
  }
  int failures = 0;
  for (int placement = 1; placement < 8; ++placement) failures += run(placement, 1.25f, -0.5f);
  failures += run(4, 0.0f, 2.0f); /* alpha = 0: C = beta*C on the device */
  failures += run(7, -1.0f, 0.0f);
  printf("blas_device_pointers: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
