/*
 * The public headers compile as strict C99 (-std=c99 -Wall -Wextra -pedantic
 * -Werror, set in CMakeLists.txt), and what they promise holds at run time:
 * the version macros match the library, the enum values are the ABI's.
 */
#include <stdio.h>
#include <string.h>

#include "ecgemm.h"
#ifndef ECGEMM_TEST_NO_BLAS
#  include "ecgemm_blas.h"
#  include "ecgemm_cblas.h"
#endif

#define CHECK(cond)                                        \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                          \
    }                                                      \
  } while (0)

int main(void) {
  int failures = 0;
  CHECK(ecgemm_get_version() == ECGEMM_VERSION);
  CHECK(ECGEMM_VERSION ==
        ECGEMM_VERSION_MAJOR * 10000 + ECGEMM_VERSION_MINOR * 100 + ECGEMM_VERSION_PATCH);
  CHECK(ECGEMM_STATUS_SUCCESS == 0);
  CHECK(ECGEMM_MODE_TF32TF32 == 0 && ECGEMM_MODE_HALFHALF == 1 && ECGEMM_MODE_FP32 == 2 &&
        ECGEMM_MODE_TF32 == 3 && ECGEMM_MODE_FP16 == 4 && ECGEMM_MODE_MARKIDIS == 5 && ECGEMM_MODE_AUTO == 6);
  CHECK(ECGEMM_OP_N == 0 && ECGEMM_OP_T == 1 && ECGEMM_OP_C == 2);
  CHECK(sizeof(ecgemmMode_t) == sizeof(int) && sizeof(ecgemmStatus_t) == sizeof(int));
#ifndef ECGEMM_TEST_NO_BLAS
  CHECK(CblasRowMajor == 101 && CblasColMajor == 102);
  CHECK(CblasNoTrans == 111 && CblasTrans == 112 && CblasConjTrans == 113);
#endif
  CHECK(strcmp(ecgemm_get_status_name(ECGEMM_STATUS_INVALID_VALUE),
               "ECGEMM_STATUS_INVALID_VALUE") == 0);
  CHECK(ecgemm_get_status_string(ECGEMM_STATUS_NO_DEVICE) != NULL);
  /* A NULL handle is reported, not dereferenced. */
  CHECK(ecgemm_set_mode(NULL, ECGEMM_MODE_FP32) == ECGEMM_STATUS_NOT_INITIALIZED);
  printf("header_c99: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
