/*
 * Default XERBLA: netlib's message, then return (netlib's own XERBLA stops the
 * program; returning is what OpenBLAS does and what callers that probe argument
 * checks expect). Weak, so a program's own XERBLA takes precedence: in a static
 * link the strong definition wins, and in a dynamic link the executable's
 * definition comes first in symbol lookup.
 */
#include <stdio.h>

#include "ecgemm_blas.h"

__attribute__((weak)) void xerbla_(const char* srname, const int* info, size_t srname_len) {
  /* Fortran strings are blank-padded, not NUL-terminated. */
  int len = (int)srname_len;
  while (len > 0 && srname[len - 1] == ' ') --len;
  fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n", len, srname,
          *info);
}
