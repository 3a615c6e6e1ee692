#include "settings.hpp"

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

#include "ecgemm.h"

namespace ecgemm_cublas {
namespace {

// Below about 512^3 ecgemm's corrected modes do not beat cuBLAS SGEMM (README's H200
// table: 0.85x at 256^3, 0.99x at 512^3, 1.2-1.5x at 1024^3), and such short sums are
// accurate in plain FP32 anyway.
constexpr double kDefaultMinFlops = 2.0 * 512 * 512 * 512;

// Only modes that keep FP32 accuracy: an unmodified application asked for FP32. Their
// names are libecgemm's (ecgemm_get_mode_name), "off" is this library's own.
constexpr int kModes[] = {ECGEMM_MODE_TF32TF32, ECGEMM_MODE_HALFHALF, kModeAuto};
constexpr const char* kOffName = "off";

bool parse_mode(const char* text, int* mode) {
  if (text == nullptr) return false;
  if (strcasecmp(text, kOffName) == 0) {
    *mode = kModeOff;
    return true;
  }
  ecgemmMode_t parsed;
  if (ecgemm_get_mode_by_name(text, &parsed) != ECGEMM_STATUS_SUCCESS) return false;
  for (int m : kModes) {
    if (m == parsed) {
      *mode = m;
      return true;
    }
  }
  return false;
}

int initial_mode() {
  const char* value = std::getenv("ECGEMM_CUBLAS_MODE");
  int mode = ECGEMM_MODE_TF32TF32;
  if (value == nullptr || *value == '\0' || parse_mode(value, &mode)) return mode;
  // A typo must not change an application's numerics silently either way: say so, stay out.
  std::fprintf(stderr,
               "ecgemm_cublas: unknown ECGEMM_CUBLAS_MODE='%s' (expected tf32tf32, halfhalf, auto "
               "or off); interception is off, every call goes to cuBLAS\n",
               value);
  return kModeOff;
}

double parse_min_flops() {
  const char* value = std::getenv("ECGEMM_CUBLAS_MIN_FLOPS");
  if (value == nullptr || *value == '\0') return kDefaultMinFlops;
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(value, &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed) || parsed < 0) {
    std::fprintf(stderr,
                 "ecgemm_cublas: ignoring ECGEMM_CUBLAS_MIN_FLOPS='%s' (expected a number >= 0, "
                 "e.g. 1e9); using %.0f\n",
                 value, kDefaultMinFlops);
    return kDefaultMinFlops;
  }
  return parsed;
}

Settings read_environment() {
  Settings s{};
  s.min_flops = parse_min_flops();
  const char* verbose = std::getenv("ECGEMM_CUBLAS_VERBOSE");
  s.verbose = verbose != nullptr && *verbose != '\0' && std::strcmp(verbose, "0") != 0;
  return s;
}

std::atomic<int>& mode_slot() {
  static std::atomic<int> slot{initial_mode()};
  return slot;
}

}  // namespace

const Settings& settings() {
  static const Settings s = read_environment();
  return s;
}

int current_mode() { return mode_slot().load(std::memory_order_relaxed); }

const char* mode_name(int mode) {
  if (mode == kModeOff) return kOffName;
  const char* name = ecgemm_get_mode_name(static_cast<ecgemmMode_t>(mode));
  return name != nullptr ? name : "unknown";
}

}  // namespace ecgemm_cublas

extern "C" int ecgemm_cublas_set_mode(const char* name) {
  int mode = 0;
  if (!ecgemm_cublas::parse_mode(name, &mode)) return -1;
  ecgemm_cublas::mode_slot().store(mode, std::memory_order_relaxed);
  return 0;
}

extern "C" const char* ecgemm_cublas_get_mode(void) {
  return ecgemm_cublas::mode_name(ecgemm_cublas::current_mode());
}
