// Process-wide settings of libecgemm_cublas: read from the environment once;
// the mode can be changed later through ecgemm_cublas_set_mode (Python's
// ecgemm.intercept_cublas).
#pragma once

#include "ecgemm.h"

extern "C" {
// Sets the interception mode by name ("tf32tf32", "halfhalf", "auto", "off");
// returns 0, or -1 for an unknown name (the mode is then unchanged). Thread-safe.
__attribute__((visibility("default"))) int ecgemm_cublas_set_mode(const char* name);
// The mode in force, by the same names.
__attribute__((visibility("default"))) const char* ecgemm_cublas_get_mode(void);
}

namespace ecgemm_cublas {

// Interception mode: kModeOff, or the ecgemmMode_t value FP32 GEMMs run with.
constexpr int kModeOff = -1;
// ECGEMM_MODE_AUTO. An older libecgemm found at run time may lack it: ecgemm_set_mode
// refuses modes it does not have, and the call then goes to cuBLAS (route.cpp).
constexpr int kModeAuto = ECGEMM_MODE_AUTO;

struct Settings {
  double min_flops;  // ECGEMM_CUBLAS_MIN_FLOPS: calls with 2*m*n*k*batch below it pass through
  bool verbose;      // ECGEMM_CUBLAS_VERBOSE: one line on stderr per call
};
const Settings& settings();

int current_mode();
const char* mode_name(int mode);

}  // namespace ecgemm_cublas
