/*
 * Concurrent SGEMM calls from several threads: each thread gets its own ecgemm
 * handle and staging buffers (created lazily, freed at thread exit), and every
 * result is checked against a double-precision reference.
 */
#include <pthread.h>

#include "blas_test_util.h"
#include "ecgemm_blas.h"

enum { kThreads = 4, kCallsPerThread = 12 };

typedef struct {
  int id;
  int failures;
  uint64_t rng;
  float *a, *b, *c;
} worker;

static void* run(void* arg) {
  worker* w = (worker*)arg;
  const mode_tolerance tol = tolerance_for_env_mode();
  for (int call = 0; call < kCallsPerThread; ++call) {
    /* Different shapes per thread and call, so buffers grow at different times. */
    const int m = 40 + 7 * w->id + call, n = 33 + call, k = 50 + 3 * call;
    const float alpha = 1.0f, beta = 0.0f;
    for (int i = 0; i < m * k; ++i) w->a[i] = random_entry_from(&w->rng);
    for (int i = 0; i < k * n; ++i) w->b[i] = random_entry_from(&w->rng);
    for (int i = 0; i < m * n; ++i) w->c[i] = poison_value();
    sgemm_("N", "N", &m, &n, &k, &alpha, w->a, &m, w->b, &k, &beta, w->c, &m, 1, 1);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        double sum = 0.0, sum_abs = 0.0;
        for (int l = 0; l < k; ++l) {
          const double p = (double)w->a[l * m + i] * w->b[j * k + l];
          sum += p;
          sum_abs += fabs(p);
        }
        const double bound = (tol.split_u + tol.accum * (k + 2) * 0x1p-24) * sum_abs;
        if (!(fabs(w->c[j * m + i] - sum) <= bound)) {
          fprintf(stderr, "FAIL thread %d call %d at (%d,%d): %.9g vs %.9g\n", w->id, call, i, j,
                  w->c[j * m + i], sum);
          ++w->failures;
          return NULL;
        }
      }
    }
  }
  return NULL;
}

int main(void) {
  worker workers[kThreads];
  pthread_t threads[kThreads];
  const size_t capacity = 128 * 128;
  for (int t = 0; t < kThreads; ++t) {
    worker* w = &workers[t];
    w->id = t;
    w->failures = 0;
    w->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(t + 1);
    w->a = (float*)malloc(capacity * sizeof(float));
    w->b = (float*)malloc(capacity * sizeof(float));
    w->c = (float*)malloc(capacity * sizeof(float));
  }
  for (int t = 0; t < kThreads; ++t) pthread_create(&threads[t], NULL, run, &workers[t]);
  int failures = 0;
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    failures += workers[t].failures;
    free(workers[t].a), free(workers[t].b), free(workers[t].c);
  }
  printf("blas_threads: %d threads x %d calls, %d failure(s)\n", kThreads, kCallsPerThread,
         failures);
  return failures == 0 ? 0 : 1;
}
