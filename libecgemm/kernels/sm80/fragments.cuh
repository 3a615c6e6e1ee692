// The warp-level pieces both mma.sync mainloops share (the plane family's and the fused
// family's): ldmatrix fragment loads from K-major rows in shared memory, and the
// products each method issues per fragment pair. FP16 and TF32 rows are read alike:
// kKStepBytes of k per MMA step either way. The config C gives kRowPitch (bytes),
// kWarpTileM, kWarpTileN, kFragsM and kFragsN.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/common/method.hpp"
#include "kernels/sm80/mma_sync.cuh"

namespace ecgemm::detail {

constexpr int kKStepBytes = 32;  // one MMA k-step: 16 FP16 or 8 TF32 values

template <class C>
struct Frags {
  uint32_t a[C::kFragsM][4];
  uint32_t b[C::kFragsN][2];
};

// One warp's A fragment `mi` of k-step `step`.
template <class C>
__device__ __forceinline__ void load_frag_a(uint32_t (&a)[4], uint32_t a_plane, int warp_m,
                                            int lane, int step, int mi) {
  const int row = warp_m * C::kWarpTileM + mi * 16 + (lane % 16);
  ldmatrix_x4(a, a_plane + row * C::kRowPitch + step * kKStepBytes + (lane / 16) * 16);
}

// One warp's B fragments of k-step `step`.
template <class C>
__device__ __forceinline__ void load_frags_b(Frags<C>& f, uint32_t b_plane, int warp_n, int lane,
                                             int step) {
#pragma unroll
  for (int nj = 0; nj < C::kFragsN / 2; ++nj) {
    const int row = warp_n * C::kWarpTileN + nj * 16 + (lane % 8) + (lane / 16) * 8;
    uint32_t r[4];
    ldmatrix_x4(r, b_plane + row * C::kRowPitch + step * kKStepBytes + ((lane / 8) % 2) * 16);
    f.b[2 * nj][0] = r[0];
    f.b[2 * nj][1] = r[1];
    f.b[2 * nj + 1][0] = r[2];
    f.b[2 * nj + 1][1] = r[3];
  }
}

// One warp's fragments of k-step `step` from one A plane and one B plane.
template <class C>
__device__ __forceinline__ void load_frags(Frags<C>& f, uint32_t a_plane, uint32_t b_plane,
                                           int warp_m, int warp_n, int lane, int step) {
#pragma unroll
  for (int mi = 0; mi < C::kFragsM; ++mi) load_frag_a<C>(f.a[mi], a_plane, warp_m, lane, step, mi);
  load_frags_b<C>(f, b_plane, warp_n, lane, step);
}

// Two FP16 values in one register, each times s.
__device__ __forceinline__ uint32_t half2_times(uint32_t v, float s) {
  __half2 h;
  memcpy(&h, &v, 4);
  h = __hmul2(h, __float2half2_rn(s));
  memcpy(&v, &h, 4);
  return v;
}

// The products of one A fragment and one B fragment, as method M issues them (Ootomo &
// Yokota 2022; docs/numerics.md). Corrected: hi·hi with a zero accumulator, added to
// `sum` by FP32 adds (round-to-nearest; the Tensor Core's own accumulation truncates),
// lo·hi + hi·lo accumulated in the Tensor Core in `corr`, whose small magnitude makes
// truncation harmless there. Markidis: all four products inside the Tensor Core
// (smallest first), so its error grows with k. One pass: hi·hi only.
// kCompensated (docs/numerics.md section 3, "Short k"): each add into `sum` by Fast2Sum, its
// rounding error into `corr` (in corr's units: halfhalf's carry 2^11), so the promotion chain
// adds no error of its own; and lo·lo joins `corr`: tf32tf32's unscaled parts share its units,
// halfhalf's B lo is scaled back by 2^-11 first (exact but where it falls below FP16's normal
// range, and then only lo·lo's own few bits round). Exact where |sum| >= |d|; where not (the
// first k-steps of a sum that cancels), the error term is approximate, never lost.
template <TcMethod M, bool kCompensated = false>
__device__ __forceinline__ void mma_products(float (&sum)[4], float (&corr)[4],
                                             const uint32_t (&hi_a)[4], const uint32_t (&lo_a)[4],
                                             const uint32_t (&hi_b)[2],
                                             const uint32_t (&lo_b)[2]) {
  using Mma = std::conditional_t<uses_half(M), MmaF16, MmaTf32>;
  if constexpr (scheme_of(M) == Scheme::kCorrected) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if constexpr (kCompensated && M == TcMethod::kTf32Tf32) Mma::run(corr, lo_a, lo_b, corr);
    if constexpr (kCompensated && M == TcMethod::kHalfHalf) {
      const uint32_t lo_b_unscaled[2] = {half2_times(lo_b[0], 1.0f / kHalfLoScale),
                                         half2_times(lo_b[1], 1.0f / kHalfLoScale)};
      Mma::run(corr, lo_a, lo_b_unscaled, corr);
    }
    Mma::run(corr, lo_a, hi_b, corr);
    Mma::run(corr, hi_a, lo_b, corr);
    float d[4];
    Mma::run(d, hi_a, hi_b, zero);
    constexpr float kCorrScale = M == TcMethod::kHalfHalf ? kHalfLoScale : 1.0f;
#pragma unroll
    for (int x = 0; x < 4; ++x) {
      if constexpr (kCompensated) {
        const float t = sum[x] + d[x];
        const float e = d[x] - (t - sum[x]);
        sum[x] = t;
        corr[x] = fmaf(e, kCorrScale, corr[x]);
      } else {
        sum[x] += d[x];  // the round-to-nearest promotion
      }
    }
  } else if constexpr (scheme_of(M) == Scheme::kFourProducts) {
    Mma::run(corr, lo_a, lo_b, corr);
    Mma::run(corr, lo_a, hi_b, corr);
    Mma::run(corr, hi_a, lo_b, corr);
    Mma::run(sum, hi_a, hi_b, sum);
  } else {
    Mma::run(sum, hi_a, hi_b, sum);
  }
}

}  // namespace ecgemm::detail
