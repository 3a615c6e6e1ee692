/*
 * The host route reproduces the reference BLAS bit for bit: libecgemm_blas's
 * sgemm_ (forced onto the host route) against netlib's sgemm_ from
 * libblas.so.3, loaded privately with dlopen so the two do not collide. Exits 77
 * when no reference BLAS is installed or libblas.so.3 is an optimised BLAS.
 */
#include <dlfcn.h>

#include "blas_test_util.h"
#include "ecgemm_blas.h"

typedef void (*sgemm_fn)(const char*, const char*, const int*, const int*, const int*,
                         const float*, const float*, const int*, const float*, const int*,
                         const float*, float*, const int*, size_t, size_t);

enum { kSkip = 77 };

int main(void) {
  void* reference = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
  if (reference == NULL) {
    printf("host_matches_reference: no libblas.so.3 (%s), skipped\n", dlerror());
    return kSkip;
  }
  /* OpenBLAS, BLIS and MKL installed as libblas.so.3 block and reorder: no bitwise match. */
  if (dlsym(reference, "openblas_get_config") || dlsym(reference, "bli_info_get_version_str") ||
      dlsym(reference, "mkl_get_version")) {
    printf("host_matches_reference: libblas.so.3 is an optimised BLAS, skipped\n");
    return kSkip;
  }
  const sgemm_fn netlib = (sgemm_fn)dlsym(reference, "sgemm_");
  if (netlib == NULL || netlib == &sgemm_) {
    fprintf(stderr, "FAIL: could not get the reference sgemm_ apart from ours\n");
    return 1;
  }

  static const int shapes[][3] = {{1, 1, 1}, {13, 7, 29}, {64, 33, 100}, {5, 90, 257}};
  static const char trans[][2] = {{'N', 'N'}, {'T', 'N'}, {'N', 'T'}, {'t', 'c'}};
  static const float scalars[][2] = {{1.0f, 0.0f}, {-0.75f, 0.5f}, {0.0f, 2.0f}};
  int cases = 0, failures = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    for (size_t t = 0; t < sizeof trans / sizeof trans[0]; ++t) {
      for (size_t ab = 0; ab < sizeof scalars / sizeof scalars[0]; ++ab) {
        const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        const int ta = trans[t][0] != 'N', tb = trans[t][1] != 'N';
        const int lda = (ta ? k : m) + 2, ldb = (tb ? n : k) + 1, ldc = m + 3;
        float* a = random_matrix(ta ? k : m, ta ? m : k, lda);
        float* b = random_matrix(tb ? n : k, tb ? k : n, ldb);
        float* ours = random_matrix(m, n, ldc);
        float* theirs = (float*)malloc(sizeof(float) * ldc * n);
        memcpy(theirs, ours, sizeof(float) * ldc * n);
        const float alpha = scalars[ab][0], beta = scalars[ab][1];
        sgemm_(&trans[t][0], &trans[t][1], &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, ours, &ldc,
               1, 1);
        netlib(&trans[t][0], &trans[t][1], &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, theirs,
               &ldc, 1, 1);
        ++cases;
        if (memcmp(ours, theirs, sizeof(float) * ldc * n) != 0) {
          fprintf(stderr, "FAIL m=%d n=%d k=%d trans=%c%c alpha=%g beta=%g: results differ\n", m,
                  n, k, trans[t][0], trans[t][1], alpha, beta);
          ++failures;
        }
        free(a), free(b), free(ours), free(theirs);
      }
    }
  }
  dlclose(reference);
  printf("host_matches_reference: %d cases, %d failed\n", cases, failures);
  return failures == 0 ? 0 : 1;
}
