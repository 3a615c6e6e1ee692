// Division by a divisor fixed for a launch: a multiply-high and a shift (Granlund and
// Montgomery, "Division by invariant integers using multiplication", 1994), exact for
// numerators below 2^31. A 64-bit division is a subroutine of about a hundred instructions:
// the strip tile's two a thread were most of its instructions (bench/results/README.md#batched-fp32).
#pragma once

#include <cstdint>

namespace ecgemm::detail {

struct FastDiv {
  uint32_t d = 1;      // the divisor, >= 1
  uint32_t mul = 0;    // floor(2^(31 + l) / d) + 1, l = ceil(log2 d); unused where d = 1
  uint32_t shift = 0;  // l - 1

  FastDiv() = default;
  explicit FastDiv(uint32_t divisor) : d(divisor < 1 ? 1 : divisor) {
    if (d == 1) return;
    uint32_t l = 0;
    while ((uint64_t{1} << l) < d) ++l;
    // 2^(31 + l) < mul * d <= 2^(31 + l) + 2^l: the quotient is exact below 2^31.
    mul = static_cast<uint32_t>((uint64_t{1} << (31 + l)) / d + 1);
    shift = l - 1;
  }

  // n / d for n < 2^31.
  __host__ __device__ __forceinline__ uint32_t div(uint32_t n) const {
    if (d == 1) return n;
#if defined(__CUDA_ARCH__)
    return __umulhi(n, mul) >> shift;
#else
    return static_cast<uint32_t>((uint64_t{n} * mul) >> 32) >> shift;
#endif
  }
};

}  // namespace ecgemm::detail
