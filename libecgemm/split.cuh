// The one definition of ecgemm's split numerics (docs/numerics.md), compiled for the
// kernels and for the host (tests and the Python numerics lab use the host build).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#  include <cuda_fp16.h>
#endif

#if defined(__CUDACC__)
#  define ECGEMM_HD __host__ __device__ __forceinline__
#else
#  define ECGEMM_HD inline
#endif

namespace ecgemm {

// halfhalf stores lo scaled by 2^11 so that it stays out of FP16's subnormal range.
constexpr float kHalfLoScale = 2048.0f;
constexpr float kHalfLoUnscale = 1.0f / 2048.0f;

struct SplitValue {
  float hi;  // the stored high part, widened to float (exact)
  float lo;  // the stored low part, widened to float (exact; still scaled for halfhalf)
};

ECGEMM_HD uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

ECGEMM_HD float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

ECGEMM_HD bool is_finite_bits(uint32_t u) { return (u & 0x7f800000u) != 0x7f800000u; }

// TF32 keeps 10 of FP32's 23 mantissa bits. Round to nearest, ties away from zero,
// exactly as cvt.rna.tf32.f32; written in integer operations so host and device
// share it bit for bit. A finite x that would round up past FLT_MAX is truncated
// instead: hi stays finite and lo = x - hi stays exact.
constexpr uint32_t kTf32DroppedBits = 0x1fffu;

// Magnitude bits at and above which x is not finite or its TF32 rounding overflows:
// below it, rounding is two integer operations and needs none of tf32_rna's rules.
constexpr uint32_t kTf32PlainMagnitude = 0x7f7ff000u;

ECGEMM_HD uint32_t tf32_round_bits(uint32_t u) {
  constexpr uint32_t kHalfUlp = 0x1000u;
  return (u + kHalfUlp) & ~kTf32DroppedBits;
}

ECGEMM_HD float tf32_rna(float x) {
  constexpr uint32_t kQuietNanBit = 0x00400000u;
  const uint32_t u = float_bits(x);
  // A TF32 Tensor Core reads only the top 19 bits: a NaN whose payload lies wholly in
  // the dropped bits would read as Inf. Quieting it sets a kept bit.
  if (!is_finite_bits(u)) return (u & 0x007fffffu) ? bits_float(u | kQuietNanBit) : x;
  const uint32_t rounded = tf32_round_bits(u);
  if (!is_finite_bits(rounded)) return bits_float(u & ~kTf32DroppedBits);
  return bits_float(rounded);
}

// IEEE binary16 round-to-nearest-even with subnormals and overflow to Inf, returned
// as the float it represents. The device uses the hardware conversion; the host
// path implements the same IEEE rounding, and tests hold the two equal bit for bit.
ECGEMM_HD float fp16_rn(float x) {
  const uint32_t u = float_bits(x);
  if (!is_finite_bits(u)) return x;  // Inf and NaN (payload kept) pass through
#if defined(__CUDA_ARCH__)
  return __half2float(__float2half_rn(x));
#else
  const uint32_t sign = u & 0x80000000u;
  const uint32_t mag = u & 0x7fffffffu;
  // Smallest magnitude that rounds to Inf: 65504 + half an FP16 ulp (32) = 65520.
  if (mag >= 0x477ff000u) return bits_float(sign | 0x7f800000u);
  const int exponent = static_cast<int>(mag >> 23) - 127;
  // FP16 keeps 10 fraction bits for normals (exponent >= -14); below that the
  // spacing is fixed at 2^-24, so fewer bits survive.
  const int kept = exponent >= -14 ? 10 : 10 - (-14 - exponent);
  if (kept < -1) return bits_float(sign);  // below half of 2^-24: rounds to zero
  // Round |x| to a multiple of that spacing, 2^(exponent - kept), with RNE in
  // integer arithmetic on the significand (implicit bit included: x is normal here).
  const uint32_t significand = (mag & 0x7fffffu) | 0x800000u;
  const int shift = 23 - kept;  // 13 for FP16 normals, up to 24
  const uint32_t half = 1u << (shift - 1);
  const uint32_t rest = significand & ((1u << shift) - 1u);
  uint32_t q = significand >> shift;
  if (rest > half || (rest == half && (q & 1u))) ++q;
  // q < 2^12 and the power of two lies in [2^-24, 2^5]: the product is exact.
  const float pow2 = bits_float(static_cast<uint32_t>(exponent - kept + 127) << 23);
  const float value = static_cast<float>(q) * pow2;
  return bits_float(float_bits(value) | sign);
#endif
}

// hi and lo of one FP32 value (docs/numerics.md). Non-finite x, or a hi that
// overflowed, gets lo = 0: Inf - Inf would otherwise turn an Inf input into NaN.
// Whether split_tf32_plain gives split_tf32's result: x finite, its rounding too.
ECGEMM_HD bool tf32_plain(float x) { return (float_bits(x) & 0x7fffffffu) < kTf32PlainMagnitude; }

// split_tf32 without its special rules, branch-free: for x where tf32_plain holds.
// Kernels test whole groups of values and take this path for the group (the common
// case), so that the compiler can interleave the groups' arithmetic.
ECGEMM_HD SplitValue split_tf32_plain(float x) {
  const float hi = bits_float(tf32_round_bits(float_bits(x)));
  return {hi, bits_float(tf32_round_bits(float_bits(x - hi)))};
}

ECGEMM_HD SplitValue split_tf32(float x) {
  if (tf32_plain(x)) return split_tf32_plain(x);
  const float hi = tf32_rna(x);
  if (!is_finite_bits(float_bits(hi))) return {hi, 0.0f};
  return {hi, tf32_rna(x - hi)};
}

ECGEMM_HD SplitValue split_half(float x) {
  const float hi = fp16_rn(x);
  if (!is_finite_bits(float_bits(hi))) return {hi, 0.0f};
  return {hi, fp16_rn((x - hi) * kHalfLoScale)};
}

ECGEMM_HD SplitValue split_markidis(float x) {
  const float hi = fp16_rn(x);
  if (!is_finite_bits(float_bits(hi))) return {hi, 0.0f};
  return {hi, fp16_rn(x - hi)};
}

// Whether x splits into FP16 parts without fp16_rn's special rules: x finite and
// below 65520 (65504 + half an FP16 ulp), the smallest magnitude that rounds to Inf.
ECGEMM_HD bool half_plain(float x) { return (float_bits(x) & 0x7fffffffu) < 0x477ff000u; }

#if defined(__CUDACC__)
// Two FP16 splits with packed conversions (cvt.rn.f16x2.f32, one instruction a pair),
// for kernels that store FP16 pairs: kScaled is halfhalf (lo * 2^11), else Markidis.
// Bit for bit split_half / split_markidis on each element (the tests hold it so): the
// packed conversion rounds as fp16_rn does.
struct HalfPair {
  __half2 hi, lo;  // .x: the first element
};

// Branch-free, for pairs where half_plain holds (kernels test whole groups).
template <bool kScaled>
__device__ __forceinline__ HalfPair split_half_pair_plain(float x0, float x1) {
  const __half2 hi = __floats2half2_rn(x0, x1);
  const float2 h = __half22float2(hi);
  const float scale = kScaled ? kHalfLoScale : 1.0f;
  return {hi, __floats2half2_rn((x0 - h.x) * scale, (x1 - h.y) * scale)};
}

template <bool kScaled>
__device__ __forceinline__ HalfPair split_half_pair(float x0, float x1) {
  if (half_plain(x0) && half_plain(x1)) return split_half_pair_plain<kScaled>(x0, x1);
  const SplitValue s0 = kScaled ? split_half(x0) : split_markidis(x0);
  const SplitValue s1 = kScaled ? split_half(x1) : split_markidis(x1);
  return {__floats2half2_rn(s0.hi, s1.hi), __floats2half2_rn(s0.lo, s1.lo)};
}
#endif

}  // namespace ecgemm
