// The consumer warpgroups of the Hopper Tensor Core kernels: wgmma over K-major,
// 128-byte-swizzled hi/lo stages in shared memory, with the paper's error correction,
// and the stage ring they read. Shared by the planes family's wgmma mainloop
// (sm90/planes_mainloop.cu) and the fused_wgmma family (sm90/fused_wgmma_kernel.cuh).
//
// Error correction (Ootomo & Yokota 2022): per wgmma k-step (k16 FP16, k8 TF32) hi·hi is
// issued with scale-d = 0 into `product` and added to `promoted` with FP32
// round-to-nearest adds on the SIMT cores, because the Tensor Core's own accumulation
// truncates. lo·hi + hi·lo accumulate inside the Tensor Core in `correction`. hi·hi and
// the corrections are committed as separate wgmma groups, so the adds for one k-step
// overlap the correction products of the same k-step. Three accumulators of N / 2 floats
// per thread: at N = 128 they are what fits in the register file and set the tile (64
// rows per consumer); fused_wgmma's narrow tiles (N = 16 .. 64) need far fewer.
#pragma once

#include <type_traits>

#include "kernels/common/method.hpp"
#include "kernels/sm90/ptx.cuh"

#if defined(ECGEMM_SM90A_DEVICE)
namespace ecgemm::detail::sm90 {

constexpr int kSwizzleRowBytes = 128;                 // one K slice: a 128-byte swizzle row
constexpr int kKStepBytes = 32;                       // wgmma k16 FP16 / k8 TF32
constexpr int kKSteps = kSwizzleRowBytes / kKStepBytes;  // 4 per stage
constexpr int kConsumerRows = 64;                     // one m64 wgmma per consumer
// k-steps of hi·hi per RN promotion; 1 is the paper's scheme. On an H100, 2 ran 18%
// faster for tf32tf32 at n = 8192 but lost accuracy on positive data, where the Tensor
// Core's truncation does not cancel (64 x 4096 x 64 urand(0, 1), halfhalf: residual
// 1.00e-7 against 7.4e-8), so it stays 1.
constexpr int kPromoteSteps = 1;

// A consumer's 64 x kN slab of C.
template <int kN = 128>
struct Accumulators {
  static constexpr int kValues = kN / 2;  // a thread's share
  float promoted[kValues];    // hi·hi (RN-promoted for the corrected modes), or the only one
  float correction[kValues];  // lo·hi + hi·lo (+ lo·lo for Markidis), inside the Tensor Core
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int x = 0; x < kValues; ++x) promoted[x] = correction[x] = 0.0f;
  }
};

// Where one stage's planes start (shared-memory addresses); B is N rows, A is the
// consumers' rows, each consumer taking its own 64-row slab of A.
struct StageLayout {
  uint32_t a_hi, b_hi, a_lo, b_lo;
};

struct StageDescs {
  uint64_t a_hi, b_hi, a_lo, b_lo;
  __device__ __forceinline__ StageDescs(const StageLayout& s, int consumer) {
    const uint32_t slab = consumer * kConsumerRows * kSwizzleRowBytes;
    a_hi = kmajor_sw128_desc(s.a_hi + slab);
    b_hi = kmajor_sw128_desc(s.b_hi);
    a_lo = kmajor_sw128_desc(s.a_lo + slab);
    b_lo = kmajor_sw128_desc(s.b_lo);
  }
};

// The stage ring's barriers (8 bytes apart): slot s's `full` completes with
// `producer_arrivals` arrivals (and the copy bytes announced with them), its `empty` with
// one arrival per consumer warp (consume() frees a slot so). Thread 0, before the CTA's
// first barrier.
__device__ __forceinline__ void init_stage_ring(uint32_t full, uint32_t empty, int stages,
                                                uint32_t producer_arrivals,
                                                uint32_t consumer_warps) {
  for (int s = 0; s < stages; ++s) {
    mbarrier_init(full + 8 * s, producer_arrivals);
    mbarrier_init(empty + 8 * s, consumer_warps);
  }
}

// Thread t of a consumer holds element v of its 64 x N slab at row
// 16*(t/32) + (t%32)/4 + 8*((v/2)%2), column 8*(v/4) + 2*(t%4) + v%2.
__device__ __forceinline__ int slab_row(int v) { return 16 * ((threadIdx.x % 128) / 32) + (threadIdx.x % 32) / 4 + 8 * ((v / 2) % 2); }
__device__ __forceinline__ int slab_col(int v) { return 8 * (v / 4) + 2 * (threadIdx.x % 4) + v % 2; }

// AUTO's FP32 stage (fused_wgmma with kGuard, docs/numerics.md section 12): the slot's hi
// planes hold the FP32 values themselves, K-major and 128-byte swizzled as wgmma reads them
// (row r's 16-byte chunk c at r * 128 + ((c ^ r % 8) << 4)). Each of the thread's outputs sums
// its 32 exact products from zero in k order, one rounding a step, and that sum is added to
// `promoted`; the corrections take none. A column block (8) at a time, so that the rare path
// takes few registers beside the three accumulators.
template <int kN>
__device__ __forceinline__ void fp32_stage(Accumulators<kN>& acc, const StageLayout& s,
                                           int consumer) {
  constexpr int kChunks = kSwizzleRowBytes / 16;
  auto at = [](uint32_t plane, int row, int chunk) {
    return plane + row * kSwizzleRowBytes + ((chunk ^ (row % 8)) << 4);
  };
  const int r0 = consumer * kConsumerRows + slab_row(0), r1 = r0 + 8;
#pragma unroll
  for (int nb = 0; nb < kN / 8; ++nb) {
    const int c0 = slab_col(4 * nb), c1 = c0 + 1;
    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // element 4 nb + x: row r0 + 8 (x / 2), column c0 + x % 2
#pragma unroll 1
    for (int c = 0; c < kChunks; ++c) {
      const float4 a0 = lds_f32x4(at(s.a_hi, r0, c)), a1 = lds_f32x4(at(s.a_hi, r1, c));
      const float4 b0 = lds_f32x4(at(s.b_hi, c0, c)), b1 = lds_f32x4(at(s.b_hi, c1, c));
      const float a[2][4] = {{a0.x, a0.y, a0.z, a0.w}, {a1.x, a1.y, a1.z, a1.w}};
      const float b[2][4] = {{b0.x, b0.y, b0.z, b0.w}, {b1.x, b1.y, b1.z, b1.w}};
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int x = 0; x < 4; ++x) part[x] = fmaf(a[x / 2][q], b[x % 2][q], part[x]);
    }
#pragma unroll
    for (int x = 0; x < 4; ++x) acc.promoted[4 * nb + x] += part[x];
  }
}

// Runs `count` stages, the ring's slices seq0 .. seq0 + count - 1 (a persistent CTA's
// tiles continue one sequence). stage(s) gives the layout of ring slot s; full/empty are
// the slots' mbarriers (8 bytes apart). One arrival per consumer warp frees a slot; the
// last slice's slot is freed only with release_last (a CTA that takes another tile).
// kFp32Stages: slot s is fp32_stage's where wide_stages[s] (AUTO on fused_wgmma).
template <TcMethod M, int kStages, int kN, typename StageOf, bool kFp32Stages = false>
__device__ __forceinline__ void consume(Accumulators<kN>& acc, int64_t count, StageOf stage,
                                        uint32_t full, uint32_t empty, int consumer,
                                        uint64_t seq0 = 0, bool release_last = false,
                                        const uint32_t* wide_stages = nullptr) {
  constexpr Scheme kScheme = scheme_of(M);
  constexpr int kPromote = kPromoteSteps;
  using Mma = std::conditional_t<uses_half(M), WgmmaF16<kN>, WgmmaTf32<kN>>;
  constexpr int kValues = Accumulators<kN>::kValues;
  static_assert(kKSteps % kPromote == 0, "promotion groups tile the stage");
  const bool signals = threadIdx.x % 32 == 0;
  float product[kValues];
#pragma unroll
  for (int x = 0; x < kValues; ++x) product[x] = 0.0f;
  pin_registers(acc.promoted);
  if constexpr (kScheme != Scheme::kOnePass) pin_registers(acc.correction);
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t seq = seq0 + i;
    const uint32_t s = static_cast<uint32_t>(seq % kStages);
    mbarrier_wait(full + 8 * s, static_cast<uint32_t>(seq / kStages) & 1);
    const StageDescs d(stage(s), consumer);
    // After this wait every group of slice i-1 is done: its stage can be refilled. AUTO's
    // stages are also read by every lane (the flag, fp32_stage's loads): __syncwarp orders
    // the warp's loads before lane 0's arrival (bar.warp.sync orders memory among its threads).
    // racecheck does not follow that order and reports these loads against the transform's
    // next stores: bench/results/guard-inline-2026-11-27 (mbarrier_race.cu, variant 0).
    auto release_previous = [&] {
      if constexpr (kFp32Stages) __syncwarp();
      if (i > 0 && signals) mbarrier_arrive(empty + 8 * ((seq - 1) % kStages));
    };
    if constexpr (kFp32Stages) {
      static_assert(kScheme == Scheme::kCorrected, "AUTO's products are tf32tf32's");
      if (wide_stages[s]) {  // written before the transform's arrival on `full`
        wgmma_wait<0>();     // slice i-1's last corrections have read their stage
        release_previous();
        fp32_stage<kN>(acc, stage(s), consumer);
        continue;
      }
    }
    if constexpr (kScheme == Scheme::kCorrected) {
#pragma unroll
      for (int j = 0; j < kKSteps; j += kPromote) {
        pin_registers(acc.promoted);  // the adds reading `product` are done
        wgmma_fence();
#pragma unroll
        for (int q = 0; q < kPromote; ++q) {
          const uint32_t off = (j + q) * kKStepBytes;
          if (q == 0) Mma::template run<false>(product, desc_advance(d.a_hi, off), desc_advance(d.b_hi, off));
          else Mma::template run<true>(product, desc_advance(d.a_hi, off), desc_advance(d.b_hi, off));
        }
        wgmma_commit();
#pragma unroll
        for (int q = 0; q < kPromote; ++q) {
          const uint32_t off = (j + q) * kKStepBytes;
          Mma::template run<true>(acc.correction, desc_advance(d.a_lo, off), desc_advance(d.b_hi, off));
          Mma::template run<true>(acc.correction, desc_advance(d.a_hi, off), desc_advance(d.b_lo, off));
        }
        wgmma_commit();
        wgmma_wait<1>();  // hi·hi landed; the corrections may still run
        pin_registers(product);
        if (j == 0) release_previous();
#pragma unroll
        for (int x = 0; x < kValues; ++x) acc.promoted[x] += product[x];  // the RN promotion
      }
    } else {
      wgmma_fence();
#pragma unroll
      for (int j = 0; j < kKSteps; ++j) {
        const uint32_t off = j * kKStepBytes;
        if constexpr (kScheme == Scheme::kFourProducts) {  // smallest terms first
          Mma::template run<true>(acc.correction, desc_advance(d.a_lo, off), desc_advance(d.b_lo, off));
          Mma::template run<true>(acc.correction, desc_advance(d.a_lo, off), desc_advance(d.b_hi, off));
          Mma::template run<true>(acc.correction, desc_advance(d.a_hi, off), desc_advance(d.b_lo, off));
        }
        Mma::template run<true>(acc.promoted, desc_advance(d.a_hi, off), desc_advance(d.b_hi, off));
      }
      wgmma_commit();
      wgmma_wait<1>();
      release_previous();
    }
  }
  wgmma_wait<0>();
  if constexpr (kFp32Stages) __syncwarp();  // as in release_previous
  if (release_last && count > 0 && signals) mbarrier_arrive(empty + 8 * ((seq0 + count - 1) % kStages));
  pin_registers(acc.promoted);
  if constexpr (kScheme != Scheme::kOnePass) pin_registers(acc.correction);
}

}  // namespace ecgemm::detail::sm90
#endif  // ECGEMM_SM90A_DEVICE
