// Process-wide settings of libecgemm_blas, read from the environment once, and
// the one-time notices the library prints on stderr.
#pragma once

#include <cstdint>

#include "ecgemm.h"

namespace ecgemm_blas {

struct Settings {
  ecgemmMode_t mode;         // ECGEMM_BLAS_MODE
  const char* mode_name;     // its canonical spelling, for messages
  int64_t host_threshold;    // ECGEMM_BLAS_HOST_THRESHOLD: host if m*n*k <= this
  bool verbose;              // ECGEMM_BLAS_VERBOSE
};

// Parsed on first use (thread-safe); bad values warn once and fall back to defaults.
const Settings& settings();

// Prints `message` on stderr the first time it is called with this `key`, never again.
enum class Notice { kNoGpu, kGpuFailedHostFallback, kCount };
void notice_once(Notice key, const char* message);

}  // namespace ecgemm_blas
