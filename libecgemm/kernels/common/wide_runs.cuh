// AUTO's test, in the fused families' splits, of whether values are too wide for tf32tf32's two
// parts (docs/numerics.md section 12): a run of kGuardRun values along k (aligned to kGuardRun)
// whose nonzero magnitudes span more than kWideBinades binades, or that holds an Inf or a NaN.
// Types 1 and 3 of the paper (at most 29 binades a row) kept tf32tf32 at or below SGEMM's
// residual; types 2 and 4 and a 2^40 outlier a row (40-65) did not
// (bench/results/README.md#auto-fused). Integer work on the values' bits.
#pragma once

#include <cstdint>

#include "split.cuh"

namespace ecgemm::detail {

constexpr int kGuardRun = 8;
constexpr int kWideBinades = 32;

// A run's extremes: the largest magnitude's bits, and the smallest nonzero magnitude's less 1
// (a zero wraps to the top, so zeros do not count). One operation a value beside the split's
// own test of the largest (the add and the min are one instruction).
struct RunSpread {
  uint32_t top = 0;
  uint32_t bottom = 0xffffffffu;
  __device__ __forceinline__ void add(float v) {
    const uint32_t a = float_bits(v) & 0x7fffffffu;
    top = max(top, a);
    bottom = min(bottom, a - 1u);
  }
  // Exponent fields more than kWideBinades apart: the smallest nonzero magnitude (bottom + 1)
  // below the largest's exponent field E less kWideBinades, compared as bits, without shifting
  // either exponent out (that took ~11 instructions a run; 16-bit DPX lanes did not help:
  // bench/results/README.md#ring). Signed: all zeros leave bottom = -1, above a bound below 0.
  __device__ __forceinline__ bool wide() const {
    constexpr int kBound = (kWideBinades << 23) + 2;  // bottom + 1 < E - 2^23 kWideBinades
    const int bound = static_cast<int>(top & 0x7f800000u) - kBound;
    return top >= 0x7f800000u || static_cast<int>(bottom) <= bound;
  }
};

}  // namespace ecgemm::detail
