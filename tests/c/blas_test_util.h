/*
 * Helpers for the libecgemm_blas test programs: random non-trivial matrices,
 * NaN poisoning of the parts a routine must not touch, a double-precision
 * reference GEMM, and an error bound per ECGEMM_BLAS_MODE.
 */
#ifndef ECGEMM_BLAS_TEST_UTIL_H
#define ECGEMM_BLAS_TEST_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A quiet NaN with a payload no arithmetic produces: "this was never written". */
static inline float poison_value(void) {
  const uint32_t bits = 0x7fc0deadu;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static inline int is_poison(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits == 0x7fc0deadu;
}

static inline uint64_t test_rng_next(uint64_t* state) { /* xorshift64* */
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545f4914f6cdd1dull;
}

/* sign * m * 2^e with m uniform in [1, 2) (all 23 mantissa bits random), e in [-4, 4]. */
static inline float random_entry_from(uint64_t* state) {
  const uint64_t r = test_rng_next(state);
  const float mantissa = 1.0f + (float)(r & 0x7fffffu) / 8388608.0f;
  const int exponent = (int)((r >> 23) % 9u) - 4;
  const float sign = ((r >> 40) & 1u) ? -1.0f : 1.0f;
  return sign * ldexpf(mantissa, exponent);
}

/* The single-threaded programs' generator. */
static uint64_t test_rng_state = 0x9e3779b97f4a7c15ull;
static inline float random_entry(void) { return random_entry_from(&test_rng_state); }

/* A matrix stored with `lines` lines of `len` entries each, `ld` apart (ld >= len):
 * entries random, the ld - len padding entries of each line poisoned. */
static inline float* random_matrix(int len, int lines, int ld) {
  const size_t count = (size_t)ld * (size_t)(lines > 0 ? lines : 1);
  float* x = (float*)malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) x[i] = poison_value();
  for (int j = 0; j < lines; ++j)
    for (int i = 0; i < len; ++i) x[(size_t)j * ld + i] = random_entry();
  return x;
}

/* Element (row, col) of a matrix in either storage order. */
static inline double element(const float* x, int ld, int row, int col, int row_major) {
  return row_major ? x[(size_t)row * ld + col] : x[(size_t)col * ld + row];
}

/* Unit roundoff of the splitting and accumulation each mode's GPU route may show
 * beyond plain FP32 (derivations in tests/test_linking.py's module docstring). */
typedef struct {
  const char* name;
  double split_u; /* per-product relative error of the split operands */
  double accum;   /* multiple of (k+2)*2^-24 allowed for the accumulation */
} mode_tolerance;

static inline mode_tolerance tolerance_for_env_mode(void) {
  static const mode_tolerance table[] = {
      {"tf32tf32", 0x1p-20, 2.0}, {"halfhalf", 0x1p-20, 2.0}, {"fp32", 0.0, 2.0},
      {"markidis", 0x1p-18, 4.0}, {"tf32", 0x1p-9, 4.0},      {"fp16", 0x1p-9, 4.0},
      {"auto", 0x1p-20, 2.0},
  };
  const char* mode = getenv("ECGEMM_BLAS_MODE");
  if (mode != NULL)
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
      if (strcasecmp(mode, table[i].name) == 0) return table[i];
  return table[0]; /* the library's default, also for unknown names */
}

#endif /* ECGEMM_BLAS_TEST_UTIL_H */
