// FastDiv (libecgemm/kernels/common/fast_div.cuh) against the hardware division, on the host
// path: every divisor below 5000 at the numerators around its multiples and at the ends of the
// range, and two million random divisor / numerator pairs (powers of two among them). Prints
// the mismatches and exits non-zero on any. Built by tests/test_fast_div.py with nvcc.
#include <cstdint>
#include <cstdio>
#include <random>

#include "kernels/common/fast_div.cuh"

using ecgemm::detail::FastDiv;

int main() {
  long bad = 0;
  auto check = [&](uint32_t d, uint32_t n) {
    if (FastDiv(d).div(n) != n / d && bad++ < 10) std::printf("%u / %u: %u\n", n, d, FastDiv(d).div(n));
  };
  const uint32_t top = 0x7fffffffu;  // the numerators FastDiv serves: below 2^31
  for (uint32_t d = 1; d < 5000; ++d) {
    for (uint32_t n : {0u, 1u, d - 1, d, d + 1, top - 1, top}) check(d, n);
    for (uint64_t q = 1; q < 4000 && q * d <= top; ++q) {
      check(d, static_cast<uint32_t>(q * d - 1));
      check(d, static_cast<uint32_t>(q * d));
    }
  }
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 2000000; ++i) {
    const uint32_t d = i % 4 ? static_cast<uint32_t>(rng() % top) + 1 : 1u << (rng() % 31);
    check(d, static_cast<uint32_t>(rng()) & top);
  }
  std::printf("%ld mismatches\n", bad);
  return bad != 0;
}
