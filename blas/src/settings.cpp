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

struct ModeName {
  const char* name;
  ecgemmMode_t mode;
};
constexpr ModeName kModes[] = {
    {"tf32tf32", ECGEMM_MODE_TF32TF32}, {"halfhalf", ECGEMM_MODE_HALFHALF},
    {"fp32", ECGEMM_MODE_FP32},         {"tf32", ECGEMM_MODE_TF32},
    {"fp16", ECGEMM_MODE_FP16},         {"markidis", ECGEMM_MODE_MARKIDIS},
    {"auto", ECGEMM_MODE_AUTO},
};

void parse_mode(Settings& s) {
  s.mode = kModes[0].mode;
  s.mode_name = kModes[0].name;
  const char* value = std::getenv("ECGEMM_BLAS_MODE");
  if (value == nullptr || *value == '\0') return;
  for (const ModeName& m : kModes) {
    if (strcasecmp(value, m.name) == 0) {
      s.mode = m.mode;
      s.mode_name = m.name;
      return;
    }
  }
  std::fprintf(stderr,
               "ecgemm_blas: unknown ECGEMM_BLAS_MODE='%s' (expected tf32tf32, halfhalf, fp32, "
               "tf32, fp16, markidis or auto); using tf32tf32\n",
               value);
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
