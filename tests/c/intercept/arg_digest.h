/* A digest of a call's arguments, each widened to 64 bits and mixed in order (FNV-1a
 * over the bytes): the stub computes it over what it received and the driver over what
 * it passed, so equal digests mean the call went through unchanged. */
#ifndef ECGEMM_TEST_ARG_DIGEST_H
#define ECGEMM_TEST_ARG_DIGEST_H

#include <stdarg.h>
#include <stdint.h>

#define DIGEST_END ((uint64_t)0x5eed5eed5eed5eedULL)

/* Arguments as uint64_t, ended by DIGEST_END. */
static uint64_t arg_digest(uint64_t first, ...) {
  uint64_t hash = 1469598103934665603ULL;
  va_list args;
  va_start(args, first);
  for (uint64_t word = first; word != DIGEST_END; word = va_arg(args, uint64_t)) {
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= (word >> (8 * byte)) & 0xff;
      hash *= 1099511628211ULL;
    }
  }
  va_end(args);
  return hash;
}

#define W(x) ((uint64_t)(x))
#define P(x) ((uint64_t)(uintptr_t)(x))

#endif
