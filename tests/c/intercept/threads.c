/* Thread exit and cublasDestroy_v2 against each other (tests/test_intercept.py), run with
 * stub_ecgemm.c preloaded ahead of libecgemm_cublas, so FP32 calls make real (stub)
 * ecgemm handles: one per cuBLAS handle and thread. Linked against the stub cuBLAS.
 * Prints `step=<name> status=<s> created=<n> destroyed=<n>` (the stub's totals) after:
 *   exit:     a thread's call, then its exit (its ecgemm handle must go with it);
 *   main:     the main thread's call on the same cuBLAS handle (a new ecgemm handle);
 *   destroy:  cublasDestroy_v2 (the main thread's ecgemm handle goes);
 *   held:     a thread's call on a new cuBLAS handle, the thread still alive;
 *   held_destroy: cublasDestroy_v2 of that handle while the thread lives (its ecgemm
 *             handle goes now, by the main thread), then the thread's exit (nothing
 *             left for it to destroy);
 *   race:     <rounds> rounds of 4 threads that each make a call and exit while the main
 *             thread destroys the cuBLAS handle, exits and destroys interleaving freely.
 * stub_ecgemm aborts on a double destroy or a use after destroy. Exits 3 when the stub
 * ecgemm is not preloaded. Argument: the number of race rounds. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "fake_cublas.h"

#define THREADS 4

static void (*counts)(int*, int*);
static float g_a[16], g_b[16], g_c[16];
static const float g_alpha = 1.0f, g_beta = 0.0f;

static int sgemm(cublasHandle_t handle) {
  return cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &g_alpha, g_a, 4, g_b, 4,
                        &g_beta, g_c, 4);
}

static void report(const char* step, int status) {
  int created, destroyed;
  counts(&created, &destroyed);
  printf("step=%s status=%d created=%d destroyed=%d\n", step, status, created, destroyed);
  fflush(stdout);
}

typedef struct {
  cublasHandle_t handle;
  int status;
  pthread_barrier_t* called;  /* passed once the call is made (NULL: none) */
  pthread_barrier_t* release; /* waited on before exiting (NULL: none) */
} Work;

static void* work(void* arg) {
  Work* w = arg;
  w->status = sgemm(w->handle);
  if (w->called) pthread_barrier_wait(w->called);
  if (w->release) pthread_barrier_wait(w->release);
  return NULL;
}

static void run(Work* w, pthread_t* thread) {
  if (pthread_create(thread, NULL, work, w) != 0) {
    fprintf(stderr, "threads: pthread_create failed\n");
    exit(2);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const int rounds = atoi(argv[1]);
  *(void**)&counts = dlsym(RTLD_DEFAULT, "stub_ecgemm_counts");
  if (counts == NULL) {
    printf("stub ecgemm not preloaded\n");
    return 3;
  }
  cublasHandle_t handle;
  if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  pthread_t thread;
  Work one = {handle, -1, NULL, NULL};
  run(&one, &thread);
  pthread_join(thread, NULL);
  report("exit", one.status);
  report("main", sgemm(handle));
  report("destroy", cublasDestroy_v2(handle));

  pthread_barrier_t called, release;
  pthread_barrier_init(&called, NULL, 2);
  pthread_barrier_init(&release, NULL, 2);
  if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  Work held = {handle, -1, &called, &release};
  run(&held, &thread);
  pthread_barrier_wait(&called);
  report("held", held.status);
  const int status = cublasDestroy_v2(handle);
  pthread_barrier_wait(&release);
  pthread_join(thread, NULL);
  report("held_destroy", status);
  pthread_barrier_destroy(&called);
  pthread_barrier_destroy(&release);

  pthread_barrier_init(&called, NULL, THREADS + 1);
  int failed = 0;
  for (int round = 0; round < rounds; ++round) {
    if (cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
    Work race[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
      race[t] = (Work){handle, -1, &called, NULL};
      run(&race[t], &threads[t]);
    }
    pthread_barrier_wait(&called);  /* every thread has its ecgemm handle; now they exit */
    failed += cublasDestroy_v2(handle) != CUBLAS_STATUS_SUCCESS;
    for (int t = 0; t < THREADS; ++t) {
      pthread_join(threads[t], NULL);
      failed += race[t].status != CUBLAS_STATUS_SUCCESS;
    }
  }
  pthread_barrier_destroy(&called);
  report("race", failed);
  return 0;
}
