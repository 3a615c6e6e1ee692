/* Two cuBLAS majors in one process (tests/test_intercept.py), as PyTorch's cuBLAS 13 and
 * CuPy's cuBLAS 12 are: libuser13.so is opened RTLD_GLOBAL (its libcublas.so.13 joins
 * the global scope), libuser12.so RTLD_LOCAL (its libcublas.so.12 stays out of it).
 * The stubs' symbols are versioned like the real libraries' (libcublas.so.12, .13), so
 * without the preload each module's calls reach its own stub. Each step prints
 *   step=<name> status=<s> calls12=<n> calls13=<n> state12=<n> state13=<n>
 *   creates12=<n> creates13=<n> foreign=<n>
 * where the counts are what the step added to each stub's record (stub_cublas.c).
 * Arguments: the paths of libuser12.so and libuser13.so. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "fake_cublas.h"

typedef struct {
  void* dl;
  int (*create)(cublasHandle_t*);
  int (*destroy)(cublasHandle_t);
  int (*set_math)(cublasHandle_t, int);
  int (*sgemm)(cublasHandle_t);
  int (*gemm_ex)(cublasHandle_t, int);
  const stub_record* (*record)(void);
} User;

static void* need(void* dl, const char* name) {
  void* symbol = dlsym(dl, name);
  if (symbol == NULL) {
    fprintf(stderr, "two_majors: %s: %s\n", name, dlerror());
    exit(2);
  }
  return symbol;
}

static User open_user(const char* path, int scope) {
  User u;
  u.dl = dlopen(path, RTLD_NOW | scope);
  if (u.dl == NULL) {
    fprintf(stderr, "two_majors: %s\n", dlerror());
    exit(2);
  }
  *(void**)&u.create = need(u.dl, "user_create");
  *(void**)&u.destroy = need(u.dl, "user_destroy");
  *(void**)&u.set_math = need(u.dl, "user_set_math");
  *(void**)&u.sgemm = need(u.dl, "user_sgemm");
  *(void**)&u.gemm_ex = need(u.dl, "user_gemm_ex");
  *(void**)&u.record = need(u.dl, "user_record");
  return u;
}

static User u12, u13;
static stub_record before12, before13;

static void start(void) {
  before12 = *u12.record();
  before13 = *u13.record();
}

static void report(const char* step, int status) {
  const stub_record *r12 = u12.record(), *r13 = u13.record();
  printf("step=%s status=%d calls12=%d calls13=%d state12=%d state13=%d creates12=%d "
         "creates13=%d foreign=%d\n",
         step, status, r12->calls - before12.calls, r13->calls - before13.calls,
         r12->state_reads - before12.state_reads, r13->state_reads - before13.state_reads,
         r12->creates - before12.creates, r13->creates - before13.creates,
         r12->foreign - before12.foreign + r13->foreign - before13.foreign);
  fflush(stdout);
}

#define STEP(name, expression) do { start(); report(name, (expression)); } while (0)

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  u13 = open_user(argv[2], RTLD_GLOBAL);
  u12 = open_user(argv[1], RTLD_LOCAL);
  if (u12.record()->major != 12 || u13.record()->major != 13) {
    fprintf(stderr, "two_majors: the modules reach stubs %d and %d\n", u12.record()->major,
            u13.record()->major);
    return 2;
  }
  cublasHandle_t h12 = NULL, h13 = NULL, unseen = NULL;
  STEP("create12", u12.create(&h12));
  STEP("create13", u13.create(&h13));
  STEP("sgemm12", u12.sgemm(h12));
  STEP("sgemm13", u13.sgemm(h13));
  STEP("fp32_ex12", u12.gemm_ex(h12, CUBLAS_COMPUTE_32F));
  STEP("fp32_ex13", u13.gemm_ex(h13, CUBLAS_COMPUTE_32F));
  STEP("tf32_ex12", u12.gemm_ex(h12, CUBLAS_COMPUTE_32F_FAST_TF32));
  STEP("pedantic_ex12", u12.gemm_ex(h12, CUBLAS_COMPUTE_32F_PEDANTIC));
  STEP("pedantic_ex13", u13.gemm_ex(h13, CUBLAS_COMPUTE_32F_PEDANTIC));
  u12.set_math(h12, CUBLAS_PEDANTIC_MATH);
  STEP("pedantic_math12", u12.sgemm(h12));
  STEP("destroy12", u12.destroy(h12));
  STEP("destroy13", u13.destroy(h13));
  /* A handle made through a pointer dlsym found in the stub itself, as a program that
   * loads cuBLAS by hand does: libecgemm_cublas never sees it made. */
  void* cublas13 = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
  if (cublas13 == NULL) return 2;
  cublasStatus_t (*raw_create)(cublasHandle_t*) =
      (cublasStatus_t (*)(cublasHandle_t*))need(cublas13, "cublasCreate_v2");
  STEP("unseen_create13", raw_create(&unseen));
  STEP("unseen_sgemm13", u13.sgemm(unseen));
  STEP("unseen_destroy13", u13.destroy(unseen));
  return 0;
}
