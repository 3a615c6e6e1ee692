// ldmatrix fragment loads for mma.sync from K-major rows in shared memory, shared by the
// mma.sync kernels (the plane mainloop and the fused family). FP16 and TF32 rows are
// read alike: kKStepBytes of k per MMA step either way. The config C gives kRowPitch
// (bytes), kWarpTileM, kWarpTileN, kFragsM and kFragsN.
#pragma once

#include <cstdint>

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

}  // namespace ecgemm::detail
