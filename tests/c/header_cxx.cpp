// The public headers compile as C++ (-Wall -Wextra -pedantic -Werror) with C
// linkage: these calls link against the C symbols only if extern "C" is right.
#include <cstdio>
#include <type_traits>

#include "ecgemm.h"
#ifndef ECGEMM_TEST_NO_BLAS
#  include "ecgemm_blas.h"
#  include "ecgemm_cblas.h"
#endif

static_assert(std::is_same<decltype(&ecgemm_sgemm),
                           ecgemmStatus_t (*)(ecgemmHandle_t, ecgemmOperation_t, ecgemmOperation_t,
                                              int, int, int, const float*, const float*, int,
                                              const float*, int, const float*, float*, int)>::value,
              "ecgemm_sgemm's prototype");
#ifndef ECGEMM_TEST_NO_BLAS
static_assert(std::is_same<decltype(&sgemm_),
                           void (*)(const char*, const char*, const int*, const int*, const int*,
                                    const float*, const float*, const int*, const float*,
                                    const int*, const float*, float*, const int*, size_t,
                                    size_t)>::value,
              "sgemm_'s prototype: all by reference, hidden lengths last");
#endif
static_assert(ECGEMM_VERSION == ECGEMM_VERSION_MAJOR * 10000 + ECGEMM_VERSION_MINOR * 100 +
                                    ECGEMM_VERSION_PATCH,
              "version encoding");

int main() {
  int failures = 0;
  if (ecgemm_get_version() != ECGEMM_VERSION) ++failures;
  ecgemmHandle_t handle = nullptr;
  if (ecgemm_destroy(handle) != ECGEMM_STATUS_NOT_INITIALIZED) ++failures;
#ifndef ECGEMM_TEST_NO_BLAS
  // m = n = 0: a quick return that still has to link against the C symbol.
  cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, 0, 0, 0, 1.0f, nullptr, 1, nullptr, 1, 0.0f,
              nullptr, 1);
#endif
  std::printf("header_cxx: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
