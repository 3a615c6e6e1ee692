#include "settings.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace ecgemm_blas {
namespace {

// Largest m*n*k that host arrays are multiplied on the host: up to about 40^3 the FP32
// host loops beat the GPU route's ~50 us floor (copies, launch, synchronisation).
// Measured on an H100 machine with tools/crossover.c (blas/README.md).
constexpr int64_t kDefaultHostThreshold = 40 * 40 * 40;

// Mode names are libecgemm's (ecgemm_get_mode_name): one table for every binding.
void parse_mode(Settings& s) {
  s.mode = ECGEMM_MODE_TF32TF32;
  const char* value = std::getenv("ECGEMM_BLAS_MODE");
  if (value != nullptr && *value != '\0' &&
      ecgemm_get_mode_by_name(value, &s.mode) != ECGEMM_STATUS_SUCCESS) {
    std::fprintf(stderr, "ecgemm_blas: unknown ECGEMM_BLAS_MODE='%s' (expected one of", value);
    for (int m = 0; ecgemm_get_mode_name(static_cast<ecgemmMode_t>(m)) != nullptr; ++m)
      std::fprintf(stderr, " %s", ecgemm_get_mode_name(static_cast<ecgemmMode_t>(m)));
    std::fprintf(stderr, "); using %s\n", ecgemm_get_mode_name(ECGEMM_MODE_TF32TF32));
    s.mode = ECGEMM_MODE_TF32TF32;
  }
  s.mode_name = ecgemm_get_mode_name(s.mode);
}

void parse_threshold(Settings& s) {
  s.host_threshold = kDefaultHostThreshold;
  const char* value = std::getenv("ECGEMM_BLAS_HOST_THRESHOLD");
  if (value == nullptr || *value == '\0') return;
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < 0) {
    std::fprintf(stderr,
                 "ecgemm_blas: ignoring ECGEMM_BLAS_HOST_THRESHOLD='%s' (expected an integer >= 0)\n",
                 value);
    return;
  }
  s.host_threshold = parsed;
}

Settings read_environment() {
  Settings s{};
  parse_mode(s);
  parse_threshold(s);
  const char* verbose = std::getenv("ECGEMM_BLAS_VERBOSE");
  s.verbose = verbose != nullptr && *verbose != '\0' && std::strcmp(verbose, "0") != 0;
  return s;
}

std::atomic<bool> g_noticed[static_cast<int>(Notice::kCount)];

}  // namespace

const Settings& settings() {
  static const Settings s = read_environment();
  return s;
}

void notice_once(Notice key, const char* message) {
  if (!g_noticed[static_cast<int>(key)].exchange(true)) std::fprintf(stderr, "%s\n", message);
}

}  // namespace ecgemm_blas
