// The fused_mma family (mma.sync, sm_80 and newer; split inside the CTA). A CTA of four
// warps owns a T x T tile of C, T = 64 or 32 (the planner prices both: a small grid
// of 32-wide tiles runs more CTAs, each a shorter chain, and wastes less of a side
// narrower than 64). Per 32-wide k stage: cp.async copies T x 32 FP32 panels
// of op(A) and op(B)^T into shared memory in the caller's layout (its contiguous index
// stays contiguous, so 16-byte chunks copy straight through, zero-filled at the edges;
// one FP32 stage, refilled while the products of the previous one run); the CTA splits
// each value once (split.cuh, bit for bit the planes family's split) into hi/lo K-major
// rows; the warps read those with ldmatrix and issue each method's products
// (mma_products, sm80/fragments.cuh).
// (H200, 4096 x 64^3 tf32tf32, torch.bmm 0.093 ms: splitting in each warp as it read its
// fragments, from FP32, split every value twice, 0.169 ms; splitting once but testing
// each value for split.cuh's special cases inside the loop left ~6 branches a value,
// 0.132; one test a run, as below, 0.095; one FP32 stage instead of two, which leaves room
// for four CTAs an SM instead of three, 0.085: bench/results/README.md. Two in the 32-wide
// tile, still six CTAs an SM, did not speed up thin products with a long k: they wait on
// the split's instructions, not on DRAM: bench/results/README.md#ring.)
//
// The tile is small on purpose: this family serves what the planes and fused_wgmma
// families cannot fill the GPU with (batches of small products; small outputs with a
// long k, by split-K), where a pass writing planes costs more than the products
// (docs/architecture.md: the planner). Without the wgmma families it is the only Tensor
// Core route for batches, so it also runs the one-pass modes and Markidis. Split-K
// reduces in a thread-block cluster on sm_90 where the splits fit one (no second launch:
// it decides small products' GPU time), elsewhere through partials and the common
// reducer.
#include <cooperative_groups.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/fp32_chains.hpp"
#include "kernels/common/launch.cuh"
#include "kernels/common/method.hpp"
#include "kernels/common/splitk_plan.hpp"
#include "kernels/common/splitk_reduce.hpp"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/common/wide_runs.cuh"
#include "kernels/sm80/fragments.cuh"
#include "kernels/sm80/mma_sync.cuh"
#include "kernels/fused_mma.hpp"
#include "split.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kBK = 32;    // k per pipeline stage
static_assert(kBK == kFp32FormMaxK, "the FP32 form is offered for one stage (fused_mma.hpp)");
constexpr int kThreads = 128;  // 2 x 2 warps, each T/2 x T/2 of C

// The CTA's tile side T and what follows from it. 64: 54 KB of shared memory (TF32) and
// <= 128 registers a thread for four CTAs an SM; 32: 28 KB and a quarter of the
// accumulators, six CTAs an SM.
template <int kT>
struct TileShape {
  static_assert(kT == 64 || kT == 32, "fused_mma's tiles: 64 or 32 (fused_mma.hpp)");
  static constexpr int kCtasPerSm = kT == 64 ? 4 : 6;
  // Thread t splits kSplitRun values of row t % T of each operand panel, k from
  // kSplitRun * (t / T): 16-byte reads (K-major panel) or T consecutive rows a warp.
  static constexpr int kSplitRun = kT * kBK / kThreads;
};
// k per split, at least: one stage. Latency-bound small products want many short splits
// (H200, GPU time, 256^3 tf32tf32: 32 -> 7.4 us, 64 -> 8.6, 256 -> 14.8; cuBLAS 8.2).
constexpr int64_t kMinSplitK = 32;
// ... and at most kMaxChainK (splitk_plan.hpp), on any grid: 512 TF32 (256 FP16) k-steps
// added to the output's one FP32 accumulator.
constexpr int kMaxSplits = 4096;
constexpr int64_t kClusterCtasPerSm = 2;  // what a cluster launch kept resident (plan_fused_mma)
constexpr int64_t kClusterMaxMacs = int64_t(1) << 27;  // 512^3: latency-bound below

// AUTO on this family (`FusedMmaPlan::wide_fp32`, docs/numerics.md section 12): a block of
// 32 rows x 32 columns of C takes one stage's products in FP32 (exact products, SGEMM's
// arithmetic) where its operands are too wide for tf32tf32's two parts: some run of one of
// its rows of op(A) or columns of op(B) is wide (common/wide_runs.cuh).
// Blocks and runs are the same for both tiles, so their FP32 blocks give the same bits (their
// products do not: the 32-wide tile compensates its promotion, kCompensated).
constexpr int kGuardBlock = 32;

// AUTO's forms on this family (FusedMmaPlan): off; tf32tf32's products with the FP32
// blocks above; or halfhalf's products on values scaled by a power of two per row of
// op(A) and per column of op(B) in each stage (docs/numerics.md section 13), with FP32
// blocks where a row or column of the stage cannot be scaled: more than kScaledBinades
// between its largest and smallest nonzero magnitudes, its largest outside 2^±kScaledMaxExp,
// or an Inf or a NaN. Scaled, the largest magnitude lies in [2^kScaledTop, 2^(kScaledTop+1))
// and the smallest nonzero at or above 2^(kScaledTop - kScaledBinades) = 2^-14, where the
// FP16 hi and lo parts keep 22 bits of each value, as tf32tf32's two parts do; the unscale
// factors 2^(E_i - 14) 2^(E_j - 14) stay within FP32 for |E| <= 60, so applying them is exact
// but where the product itself is subnormal. The planner does not choose the scaled form: it
// ran 0.95x tf32tf32's speed on the held-out sample (bench/results/README.md#auto-scaled).
//
// And one form that is not AUTO's (FusedMmaPlan::fp32): every stage in FP32, SGEMM's
// arithmetic (FMA chains over each stage's k, added into the output's sum: fp32_form_stage),
// for the corrected modes at k <= the planner's kFp32RouteMaxK, where their products are less
// accurate than SGEMM's: the family's short latency with SGEMM's accuracy (the simt
// stream and strip tiles, which compute one chain an output, ran 1.7-2.5x its kernel
// time on products of a few thousand outputs: bench/results/tiny-2026-11-25).
//
// kFp64Sums is the FP32 form with every output's sum in FP64, rounded to FP32 once
// (fp64_form_sums; FusedMmaPlan::fp64_sums says where).
enum class StageForm { kProducts, kFp32Blocks, kScaled, kFp32, kFp64Sums };
constexpr int kScaledTop = 14;
constexpr int kScaledBinades = 28;
constexpr int kScaledMaxExp = 60;

// Every Tensor Core method: the corrected ones (the family's purpose), and the one-pass
// modes and Markidis, which batches take here where the wgmma families are absent.
template <TcMethod M, int kT>
struct Method {
  static constexpr int kTile = kT;
  static constexpr bool kHalf = uses_half(M);
  // The split rows: kBK values of 2 or 4 bytes, +16 bytes so that the 8 rows of an
  // ldmatrix phase (and of a quarter-warp's 16-byte stores) fall in distinct banks.
  static constexpr int kRowPitch = kBK * (kHalf ? 2 : 4) + 16;
  static constexpr int kPlaneBytes = kTile * kRowPitch;
  static constexpr int kSteps = kBK * (kHalf ? 2 : 4) / kKStepBytes;  // MMA k-steps a stage
  // What sm80/fragments.cuh reads: m16n8 fragments over the warp's T/2 x T/2.
  static constexpr int kWarpTileM = kT / 2, kWarpTileN = kT / 2;
  static constexpr int kFragsM = kWarpTileM / 16, kFragsN = kWarpTileN / 8;
};

// One operand's FP32 panel in a stage: T rows (of op(A), or of op(B)^T) x kBK. kKMajor:
// k is the caller's contiguous index, stored [row][k], pitch = 4 (mod 32) words so that a
// quarter-warp's 16-byte reads of 8 rows are conflict-free; else [k][row], where a warp
// reads 32 consecutive rows. Rows stay 16-byte aligned for cp.async.
template <bool kKMajorPanel, int kT>
struct Panel {
  static constexpr bool kKMajor = kKMajorPanel;
  static constexpr int kTile = kT;
  static constexpr int kPitch = kKMajor ? kBK + 4 : kTile + 4;
  static constexpr int kFloats = (kKMajor ? kTile : kBK) * kPitch;
  __device__ static constexpr int at(int r, int kk) {
    return kKMajor ? r * kPitch + kk : kk * kPitch + r;
  }
};

// The FP32 form's two panels in FP64 (StageForm::kFp64Sums), each [k][row]: pitch T + 2
// doubles keeps a column pair 16-byte aligned for the sums' paired reads and spreads a warp's
// stores of one row over 8 bank pairs.
template <int kT>
struct Fp64Panels {
  static constexpr int kPitch = kT + 2;
  static constexpr int kDoubles = kBK * kPitch;  // one panel
  static constexpr int kBytes = 2 * kDoubles * 8;
};

template <TcMethod M, int kT, bool kAKMajor, bool kBKMajor, StageForm kForm = StageForm::kProducts>
struct Layout {
  using Me = Method<M, kT>;
  using PA = Panel<kAKMajor, kT>;
  using PB = Panel<kBKMajor, kT>;
  static constexpr int kStageFloats = PA::kFloats + PB::kFloats;
  // One FP32 stage, then the split rows: A_hi, B_hi, A_lo, B_lo, then one word a warp
  // for AUTO's wide runs (the kernel's `flags`, block_is_wide), then for the scaled form
  // the stage's unscale factor of each row of op(A) and each column of op(B).
  static constexpr int kSplitOffset = kStageFloats * 4;
  static constexpr int kFlagsOffset = kSplitOffset + 4 * Me::kPlaneBytes;
  static constexpr int kScalesOffset = kFlagsOffset + 4 * kThreads / 32;
  // The FP32 form reads only the stage; with FP64 sums, only its two panels in FP64
  // (Fp64Panels).
  static constexpr int kSmemBytes = kForm == StageForm::kFp32       ? kSplitOffset
                                    : kForm == StageForm::kFp64Sums ? Fp64Panels<kT>::kBytes
                                    : kScalesOffset + (kForm == StageForm::kScaled ? 8 * kT : 0);
};

// One thread's share of copying a T x kBK panel per stage, along the caller's contiguous
// index (lines: rows of a K-major panel, k of the other), zeros past the operand's rows
// and past the split's k end. Where the operand is 16-byte aligned (`vec`), kChunks
// 16-byte chunks of four elements, kThreads chunks apart; else 4 kChunks single elements,
// kThreads elements apart, so that a warp's 4-byte copies read 128 contiguous bytes and
// write 32 consecutive words. (Four 4-byte copies a chunk, as this took before, wrote
// 16 bytes apart, a 4-way bank conflict, and touched each line four times: at
// 2000 x (301 x 177 x 154) the copies took 4x their ideal shared-memory wavefronts with
// the L1 92% busy; bench/results/README.md#fused-latency.) A zero-byte copy writes a
// zero and reads nothing; its address is op.p. The addressing is set up once, not per stage.
template <class P>
struct PanelLoader {
  static constexpr int kLineElems = P::kKMajor ? kBK : P::kTile;
  static constexpr int kChunks = P::kTile * kBK / 4 / kThreads;
  static constexpr int kLineStep = kThreads * 4 / kLineElems;  // lines between a thread's chunks
  static constexpr int kElemStep = kThreads / kLineElems;      // ... between its single elements
  static_assert(kThreads % kLineElems == 0, "whole lines a pass");
  const float* src;      // the thread's first chunk or element at the current stage
  int64_t line_stride;   // between lines, in memory
  int64_t stage_stride;  // kBK of k, in memory
  int line0, pos;        // the first one's line and place in it (elements)
  int rows_left;         // operand rows from the tile's first on (at most T)

  __device__ PanelLoader(const OperandView& op, int64_t r0, int64_t k_begin, bool vec) {
    const int t = threadIdx.x;
    line0 = vec ? t / (kLineElems / 4) : t / kLineElems;
    pos = vec ? t % (kLineElems / 4) * 4 : t % kLineElems;
    const int r = P::kKMajor ? line0 : pos, kk = P::kKMajor ? pos : line0;
    line_stride = P::kKMajor ? op.stride_r : op.stride_k;
    stage_stride = kBK * op.stride_k;
    rows_left = static_cast<int>(min(op.rows - r0, int64_t(P::kTile)));
    src = op.p + (r0 + r) * op.stride_r + (k_begin + kk) * op.stride_k;
  }

  // Elements from `pos` on that line `line` holds (k_left: k from this stage's first to the
  // split's end), at most 4.
  __device__ __forceinline__ int valid(int line, int64_t k_left) const {
    if constexpr (P::kKMajor)
      return line < rows_left ? static_cast<int>(min(int64_t(4), max(int64_t(0), k_left - pos))) : 0;
    else
      return line < k_left ? min(4, max(0, rows_left - pos)) : 0;
  }
  __device__ __forceinline__ uint32_t dst(uint32_t panel, int line) const {
    return panel + 4 * (P::kKMajor ? P::at(line, pos) : P::at(pos, line));
  }

  // One branch for the whole stage: the per-chunk choice kept ptxas from scheduling them.
  __device__ __forceinline__ void load(uint32_t panel, const float* fallback, int64_t k_left,
                                       bool vec) {
    if (vec) {
#pragma unroll
      for (int i = 0; i < kChunks; ++i) {
        const int line = line0 + i * kLineStep, n = valid(line, k_left);
        cp_async_16_zfill(dst(panel, line), n > 0 ? src + i * kLineStep * line_stride : fallback,
                          4 * n);
      }
    } else {
      // A running address: an offset a copy, hoisted out of the mainloop, took the registers
      // of the scaled form's sums (ptxas spilled).
      const float* from = src;
      const int64_t step = kElemStep * line_stride;
#pragma unroll
      for (int i = 0; i < 4 * kChunks; ++i, from += step) {
        const int line = line0 + i * kElemStep;
        const bool ok = valid(line, k_left) > 0;
        cp_async_4_zfill(dst(panel, line), ok ? from : fallback, ok ? 4 : 0);
      }
    }
    src += stage_stride;
  }
};

template <class P, int kSplitRun>
__device__ __forceinline__ void read_run(float (&v)[kSplitRun], const float* panel, int r, int k0) {
  if constexpr (P::kKMajor) {
#pragma unroll
    for (int q = 0; q < kSplitRun / 4; ++q) {
      const float4 f = *reinterpret_cast<const float4*>(panel + P::at(r, k0 + 4 * q));
      v[4 * q] = f.x, v[4 * q + 1] = f.y, v[4 * q + 2] = f.z, v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int j = 0; j < kSplitRun; ++j) v[j] = panel[P::at(r, k0 + j)];
  }
}

// The run's hi and lo parts to `hi` / `lo` (its place in the split rows), 16 bytes of
// each part a store, so that few parts are live beside the accumulators. kPlain: split.cuh's
// branch-free forms, for runs whose every value allows them.
template <TcMethod M, bool kPlain, int kSplitRun>
__device__ __forceinline__ void store_parts(const float (&v)[kSplitRun], char* hi, char* lo) {
  if constexpr (uses_half(M)) {
#pragma unroll
    for (int q = 0; q < kSplitRun / 8; ++q) {
      __half2 h[4], l[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const float x0 = v[8 * q + 2 * p], x1 = v[8 * q + 2 * p + 1];
        constexpr bool kScaled = M != TcMethod::kMarkidis;
        const HalfPair s = kPlain ? split_half_pair_plain<kScaled>(x0, x1)
                                  : split_half_pair<kScaled>(x0, x1);
        h[p] = s.hi, l[p] = s.lo;
      }
      uint4 uh, ul;
      memcpy(&uh, h, 16);
      memcpy(&ul, l, 16);
      reinterpret_cast<uint4*>(hi)[q] = uh;
      if constexpr (uses_lo(M)) reinterpret_cast<uint4*>(lo)[q] = ul;
    }
  } else {
#pragma unroll
    for (int q = 0; q < kSplitRun / 4; ++q) {
      float h[4], l[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const SplitValue s = kPlain ? split_tf32_plain(v[4 * q + j]) : split_tf32(v[4 * q + j]);
        h[j] = s.hi, l[j] = s.lo;
      }
      reinterpret_cast<float4*>(hi)[q] = make_float4(h[0], h[1], h[2], h[3]);
      if constexpr (uses_lo(M))
        reinterpret_cast<float4*>(lo)[q] = make_float4(l[0], l[1], l[2], l[3]);
    }
  }
}

// A run's largest magnitude (its bits), and with kGuard whether it has a sub-run of
// kGuardRun too wide for tf32tf32's two parts (common/wide_runs.cuh).
struct RunBits {
  uint32_t widest = 0;
  bool wide = false;
};
template <bool kGuard, int kRun>
__device__ __forceinline__ RunBits run_bits(const float (&v)[kRun]) {
  static_assert(kRun % kGuardRun == 0, "whole sub-runs");
  RunBits r;
#pragma unroll
  for (int s = 0; s < kRun; s += kGuardRun) {
    RunSpread spread;
#pragma unroll
    for (int j = s; j < s + kGuardRun; ++j) {
      if constexpr (kGuard) spread.add(v[j]);
      else spread.top = max(spread.top, float_bits(v[j]) & 0x7fffffffu);
    }
    r.widest = max(r.widest, spread.top);
    if constexpr (kGuard) r.wide |= spread.wide();
  }
  return r;
}

// One test for the whole run (finite, no rounding past FP16's or FP32's range: the common
// case, from its largest magnitude), then one branch: testing per value left ~6 branches a
// value in the loop.
template <TcMethod M, int kSplitRun>
__device__ __forceinline__ void split_run(const float (&v)[kSplitRun], uint32_t widest, char* hi,
                                          char* lo) {
  const bool plain = uses_half(M) ? half_plain(bits_float(widest)) : tf32_plain(bits_float(widest));
  if (plain) store_parts<M, true>(v, hi, lo);
  else store_parts<M, false>(v, hi, lo);
}

// Both panels of one stage into the split rows (planes A_hi, B_hi, A_lo, B_lo). kGuard:
// also whether this thread's run of op(A) (bit 0) and of op(B)^T (bit 1) is wide.
template <TcMethod M, int kT, class PA, class PB, bool kGuard>
__device__ __forceinline__ unsigned split_stage(const float* stage, char* split) {
  using Me = Method<M, kT>;
  constexpr int kRun = TileShape<kT>::kSplitRun;
  const int r = threadIdx.x % kT, k0 = threadIdx.x / kT * kRun;
  const int at = r * Me::kRowPitch + k0 * (Me::kHalf ? 2 : 4);
  float v[kRun];
  read_run<PA>(v, stage, r, k0);
  const RunBits ra = run_bits<kGuard>(v);
  split_run<M>(v, ra.widest, split + at, split + 2 * Me::kPlaneBytes + at);
  read_run<PB>(v, stage + PA::kFloats, r, k0);
  const RunBits rb = run_bits<kGuard>(v);
  split_run<M>(v, rb.widest, split + Me::kPlaneBytes + at, split + 3 * Me::kPlaneBytes + at);
  return (ra.wide ? 1u : 0u) | (rb.wide ? 2u : 0u);
}

// The scaled form's split (StageForm::kScaled): the kThreads / T lanes that split one row
// of a panel are adjacent (thread t: row t / kParts, run t % kParts), so that two or four
// shuffles give each the row's extremes over the stage. Returns whether the row cannot be
// scaled, and leaves 2^(E - kScaledTop) in unscale[row] (E: the largest magnitude's exponent).
template <int kT>
struct ScaledSplit {
  static constexpr int kParts = kThreads / kT;
  static constexpr int kRun = kBK / kParts;
  static_assert(kRun == TileShape<kT>::kSplitRun, "the same runs as the other forms");
};

template <class P, int kT>
__device__ __forceinline__ bool scale_and_split(const float* panel, char* hi, char* lo,
                                                float* unscale) {
  using S = ScaledSplit<kT>;
  const int r = threadIdx.x / S::kParts, part = threadIdx.x % S::kParts;
  float v[S::kRun];
  read_run<P>(v, panel, r, part * S::kRun);
  uint32_t top = 0, bottom = 0xffffffffu;  // largest magnitude; smallest nonzero less 1
#pragma unroll
  for (int j = 0; j < S::kRun; ++j) {
    const uint32_t a = float_bits(v[j]) & 0x7fffffffu;
    top = max(top, a);
    bottom = min(bottom, a - 1u);
  }
#pragma unroll
  for (int x = 1; x < S::kParts; x *= 2) {
    top = max(top, __shfl_xor_sync(~0u, top, x));
    bottom = min(bottom, __shfl_xor_sync(~0u, bottom, x));
  }
  constexpr int kBias = 127;
  const int e_top = static_cast<int>(top >> 23), e_bottom = static_cast<int>((bottom + 1u) >> 23);
  const bool unscalable = top >= 0x7f800000u ||
                          (top != 0 && (e_top - e_bottom > kScaledBinades ||
                                        e_top < kBias - kScaledMaxExp || e_top > kBias + kScaledMaxExp));
  // An unscalable row is split all the same (its blocks take FP32 and never read it);
  // the clamp keeps its factors finite.
  const int e = top == 0 ? kBias : min(max(e_top, kBias - kScaledMaxExp), kBias + kScaledMaxExp);
  const float scale = bits_float(static_cast<uint32_t>(2 * kBias + kScaledTop - e) << 23);
  if (part == 0) unscale[r] = bits_float(static_cast<uint32_t>(e - kScaledTop) << 23);
#pragma unroll
  for (int j = 0; j < S::kRun; ++j) v[j] *= scale;  // exact: a power of two, within range
  const int at = r * Method<TcMethod::kHalfHalf, kT>::kRowPitch + part * S::kRun * 2;
  store_parts<TcMethod::kHalfHalf, true>(v, hi + at, lo + at);
  return unscalable;
}

// Both panels of one stage, scaled: wide bits as split_stage's.
template <int kT, class PA, class PB>
__device__ __forceinline__ unsigned split_stage_scaled(const float* stage, char* split,
                                                       float* unscale) {
  using Me = Method<TcMethod::kHalfHalf, kT>;
  const bool a = scale_and_split<PA, kT>(stage, split, split + 2 * Me::kPlaneBytes, unscale);
  const bool b = scale_and_split<PB, kT>(stage + PA::kFloats, split + Me::kPlaneBytes,
                                         split + 3 * Me::kPlaneBytes, unscale + kT);
  return (a ? 1u : 0u) | (b ? 2u : 0u);
}

// The block of rows (of each panel) that warp w split: rows (32 w mod T) .. +31 in
// split_stage, rows w 32 / kParts .. in split_stage_scaled.
template <int kT, StageForm kForm>
__device__ __forceinline__ int split_block_of_warp(int w) {
  if constexpr (kForm == StageForm::kScaled) return 32 * w / ScaledSplit<kT>::kParts / kGuardBlock;
  else return 32 * w % kT / kGuardBlock;
}

// Whether the warp's block of C (32 x 32, kGuardBlock) takes this stage in FP32: warp w
// left the wide bits of the rows it split in flags[w].
template <class Me, StageForm kForm>
__device__ __forceinline__ bool block_is_wide(const unsigned* flags, int warp_m, int warp_n) {
  const int rows = warp_m * Me::kWarpTileM / kGuardBlock;
  const int cols = warp_n * Me::kWarpTileN / kGuardBlock;
  bool wide = false;
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) {
    const int half = split_block_of_warp<Me::kTile, kForm>(w);
    wide |= (half == rows && (flags[w] & 1u)) || (half == cols && (flags[w] & 2u));
  }
  return wide;
}

template <class Me>
struct Accumulators {
  // hi·hi (each product added by an FP32 add), or the only one
  float promoted[Me::kFragsM][Me::kFragsN][4];
  // lo·hi + hi·lo (+ lo·lo for Markidis and the compensated tile, with the promotion's
  // rounding errors there), inside the Tensor Core
  float correction[Me::kFragsM][Me::kFragsN][4];
};

// The 32-wide tile compensates its promotion (mma_products; docs/numerics.md section 3): it
// serves the short k where the corrected products' own error is near SGEMM's. The 64-wide
// tile does not: with 32 outputs a thread the Fast2Sum's FP32 work outweighs the products
// (0.755x its speed in tf32tf32, 0.831x in halfhalf: bench/results/README.md#chain).
template <class Me>
constexpr bool kCompensated = Me::kTile == 32;

// One k-step of the warp's T/2 x T/2: B's hi/lo fragments, then A's a row at a time.
template <TcMethod M, class Me>
__device__ __forceinline__ void mma_step(Accumulators<Me>& acc, uint32_t split, int warp_m,
                                         int warp_n, int lane, int step) {
  Frags<Me> hi, lo;
  load_frags_b<Me>(hi, split + Me::kPlaneBytes, warp_n, lane, step);
  if constexpr (uses_lo(M)) load_frags_b<Me>(lo, split + 3 * Me::kPlaneBytes, warp_n, lane, step);
#pragma unroll
  for (int mi = 0; mi < Me::kFragsM; ++mi) {
    load_frag_a<Me>(hi.a[mi], split, warp_m, lane, step, mi);
    if constexpr (uses_lo(M))
      load_frag_a<Me>(lo.a[mi], split + 2 * Me::kPlaneBytes, warp_m, lane, step, mi);
#pragma unroll
    for (int ni = 0; ni < Me::kFragsN; ++ni)
      mma_products<M, kCompensated<Me>>(acc.promoted[mi][ni], acc.correction[mi][ni], hi.a[mi],
                                        lo.a[mi], hi.b[ni], lo.b[ni]);
  }
}

// A stage's products: its k-steps in turn. The 32-wide tile's tf32tf32 steps are unrolled: in a
// rolled loop the Fast2Sum's sums changed registers every step and ptxas copied them back, 8
// moves and the loop's own ~6 instructions beside 8 HMMAs in a step of 58. Unrolled, the same
// bits in 0.84-0.98x the time on 96 of the random sample's products, AUTO's guarded form (two
// steps a turn: fully unrolled, ptxas spilled 16 bytes) 0.88-0.99x. halfhalf's two steps a stage
// stay rolled: 0.86-0.98x on 95 of them, 1.22x on one (bench/results/README.md#tiles).
template <TcMethod M, class Me, bool kGuard>
constexpr int kStepsPerTurn =
    Me::kTile == 32 && M == TcMethod::kTf32Tf32 ? (kGuard ? 2 : Me::kSteps) : 1;

template <TcMethod M, class Me, bool kGuard>
__device__ __forceinline__ void stage_products(Accumulators<Me>& acc, uint32_t split, int warp_m,
                                               int warp_n, int lane) {
  constexpr int kTurn = kStepsPerTurn<M, Me, kGuard>;
#pragma unroll kTurn
  for (int step = 0; step < Me::kSteps; ++step) mma_step<M>(acc, split, warp_m, warp_n, lane, step);
}

// The scaled form's factor 2^(E_i - 14) 2^(E_j - 14) for each of this thread's outputs in
// one stage (fragment element x: row g + 8 (x / 2), column 2t + x % 2): a power of two in
// [2^-148, 2^92], so the FMAs that apply it round once and only there.
template <class Me>
struct StageScales {
  float f[Me::kFragsM][Me::kFragsN][4];
  __device__ __forceinline__ StageScales(const float* unscale, int warp_m, int warp_n, int lane) {
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int mi = 0; mi < Me::kFragsM; ++mi)
#pragma unroll
      for (int ni = 0; ni < Me::kFragsN; ++ni)
#pragma unroll
        for (int x = 0; x < 4; ++x)
          f[mi][ni][x] = unscale[warp_m * Me::kWarpTileM + mi * 16 + 8 * (x / 2) + g] *
                         unscale[Me::kTile + warp_n * Me::kWarpTileN + ni * 8 + 2 * t + x % 2];
  }
};

// One stage of the scaled form (halfhalf's products): hi·hi each k-step from a zero
// accumulator, added at the output's scale by an FMA (round-to-nearest, as halfhalf's add);
// the corrections summed over the stage in the Tensor Core, then added the same way, since
// the next stage's scales differ.
template <class Me>
__device__ __forceinline__ void products_scaled(Accumulators<Me>& acc, const StageScales<Me>& sc,
                                                uint32_t split, int warp_m, int warp_n, int lane) {
  float stage_corr[Me::kFragsM][Me::kFragsN][4] = {};
  const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
  for (int step = 0; step < Me::kSteps; ++step) {
    Frags<Me> hi, lo;
    load_frags_b<Me>(hi, split + Me::kPlaneBytes, warp_n, lane, step);
    load_frags_b<Me>(lo, split + 3 * Me::kPlaneBytes, warp_n, lane, step);
#pragma unroll
    for (int mi = 0; mi < Me::kFragsM; ++mi) {
      load_frag_a<Me>(hi.a[mi], split, warp_m, lane, step, mi);
      load_frag_a<Me>(lo.a[mi], split + 2 * Me::kPlaneBytes, warp_m, lane, step, mi);
#pragma unroll
      for (int ni = 0; ni < Me::kFragsN; ++ni) {
        float d[4];
        MmaF16::run(stage_corr[mi][ni], lo.a[mi], hi.b[ni], stage_corr[mi][ni]);
        MmaF16::run(stage_corr[mi][ni], hi.a[mi], lo.b[ni], stage_corr[mi][ni]);
        MmaF16::run(d, hi.a[mi], hi.b[ni], zero);
#pragma unroll
        for (int x = 0; x < 4; ++x)
          acc.promoted[mi][ni][x] = fmaf(d[x], sc.f[mi][ni][x], acc.promoted[mi][ni][x]);
      }
    }
  }
#pragma unroll
  for (int mi = 0; mi < Me::kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < Me::kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x)
        acc.correction[mi][ni][x] =
            fmaf(stage_corr[mi][ni][x], sc.f[mi][ni][x], acc.correction[mi][ni][x]);
}

// One stage of the warp's outputs in FP32 from the FP32 panels: each product exact, the
// stage's k (32, or what is left of the product's) summed from zero in k order (one rounding
// a step), that sum added to the output's promoted sum (the corrections take none). Two levels, as tf32tf32's promotion:
// one chain over all of k ran 1.13x tf32tf32's residual at 64 x 8192 x 4096
// (bench/results/README.md#auto-fused).
// A fragment at a time, so that the rare path takes no registers from the products'.
template <class Me, class PA, class PB>
__device__ __forceinline__ void fp32_stage(Accumulators<Me>& acc, const float* stage, int warp_m,
                                           int warp_n, int lane, int64_t k_left) {
  const int g = lane / 4, t = lane % 4;
  // The stage's k within the product: past it the panels hold zeros, which add nothing.
  const int steps = static_cast<int>(min(k_left, int64_t{kBK}));
  const float* b_panel = stage + PA::kFloats;
#pragma unroll 1
  for (int f = 0; f < Me::kFragsM * Me::kFragsN; ++f) {
    const int mi = f / Me::kFragsN, ni = f % Me::kFragsN;
    const int row = warp_m * Me::kWarpTileM + mi * 16 + g;
    const int col = warp_n * Me::kWarpTileN + ni * 8 + 2 * t;
    float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // x: row + 8 (x / 2), column + x % 2
    // One FMA chain over the stage's k.
#pragma unroll 4
    for (int kk = 0; kk < steps; ++kk) {
      const float a0 = stage[PA::at(row, kk)], a1 = stage[PA::at(row + 8, kk)];
      const float b0 = b_panel[PB::at(col, kk)], b1 = b_panel[PB::at(col + 1, kk)];
      part[0] = fmaf(a0, b0, part[0]);
      part[1] = fmaf(a0, b1, part[1]);
      part[2] = fmaf(a1, b0, part[2]);
      part[3] = fmaf(a1, b1, part[3]);
    }
    // The fragment's elements by run-time index: a register array indexed so would be
    // local memory, so each element is picked by a switch the compiler unrolls.
#pragma unroll
    for (int mj = 0; mj < Me::kFragsM; ++mj)
#pragma unroll
      for (int nj = 0; nj < Me::kFragsN; ++nj)
        if (mj == mi && nj == ni)
#pragma unroll
          for (int x = 0; x < 4; ++x) acc.promoted[mj][nj][x] += part[x];
  }
}

// The FP32 form's stage (StageForm::kFp32): the thread's outputs in FP32 from the FP32 panels,
// each product exact, summed as common/fp32_chains.hpp says. k outer and every fragment's
// outputs in registers, so
// that each of the thread's rows of op(A) and columns of op(B) is read once for all of them, 4
// k-steps a 16-byte load where its panel is k-major (fp32_stage reads them a fragment at a time:
// bench/results/README.md#fp32-form).
static_assert(kBK % kFp32Group == 0, "whole groups in a stage");

// v[j] = panel(r, k0 + j), j < kFp32Group: one 16-byte load along a k-major row.
template <class P>
__device__ __forceinline__ void read_group(float (&v)[kFp32Group], const float* panel, int r, int k0) {
  if constexpr (P::kKMajor) {
    const float4 q = *reinterpret_cast<const float4*>(panel + P::at(r, k0));
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else {
#pragma unroll
    for (int j = 0; j < kFp32Group; ++j) v[j] = panel[P::at(r, k0 + j)];
  }
}

template <class Me, class PA, class PB>
__device__ __forceinline__ void fp32_form_stage(Accumulators<Me>& acc, const float* stage, int warp_m,
                                                int warp_n, int lane, int64_t k_left) {
  constexpr int kRows = 2 * Me::kFragsM, kCols = 2 * Me::kFragsN;  // the thread's, as in its fragments
  const int g = lane / 4, t = lane % 4;
  const int steps = static_cast<int>(min(k_left, int64_t{kBK}));  // past it the panels hold zeros
  const bool grouped = steps >= kFp32GroupMinK;
  const float* b_panel = stage + PA::kFloats;
  float part[kRows][kCols] = {}, c[kRows][kCols] = {};
#pragma unroll 1
  for (int k0 = 0; k0 < steps; k0 += kFp32Group) {
    float a[kRows][kFp32Group], b[kCols][kFp32Group];
#pragma unroll
    for (int i = 0; i < kRows; ++i)  // fragment row mi = i / 2, its rows g and g + 8
      read_group<PA>(a[i], stage, warp_m * Me::kWarpTileM + (i / 2) * 16 + (i % 2) * 8 + g, k0);
#pragma unroll
    for (int j = 0; j < kCols; ++j)  // fragment column ni = j / 2, its columns 2t and 2t + 1
      read_group<PB>(b[j], b_panel, warp_n * Me::kWarpTileN + (j / 2) * 8 + 2 * t + j % 2, k0);
    if (grouped) {
#pragma unroll
      for (int i = 0; i < kRows; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j) c[i][j] = 0.0f;
    }
    const int n = min(kFp32Group, steps - k0);
#pragma unroll
    for (int q = 0; q < kFp32Group; ++q) {
      if (q >= n) break;
#pragma unroll
      for (int i = 0; i < kRows; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j) c[i][j] = fmaf(a[i][q], b[j][q], c[i][j]);
    }
    if (grouped) {
#pragma unroll
      for (int i = 0; i < kRows; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j) part[i][j] += c[i][j];
    }
  }
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int j = 0; j < kCols; ++j)  // element x of fragment (mi, ni): row + 8 (x / 2), column + x % 2
      acc.promoted[i / 2][j / 2][2 * (i % 2) + j % 2] += grouped ? part[i][j] : c[i][j];
}

// One operand's panel of the FP64-sums form: the stage's `steps` k (the form runs one stage)
// read from global memory and converted to FP64 on the way to shared memory, as [k][row];
// zeros past the operand's rows. Each value is converted once a CTA, not once for every
// thread that reads it (a conversion to FP64 issues at a quarter of an FP64 FMA's rate), and
// with no FP32 stage and no second pass (call H's form copied the FP32 stage and converted it
// after a barrier: 0.75-0.85x; bench/results/README.md#gemv-fp64). A warp reads along the
// caller's contiguous index: k in runs of the power of two at or above `steps` (K-major),
// else 32 rows. All of a thread's loads are issued before its first store.
template <class P>
__device__ __forceinline__ void load_fp64_panel(double* dst, const OperandView& op, int64_t r0,
                                                int64_t k0, int steps) {
  constexpr int kT = P::kTile, kPitch = Fp64Panels<kT>::kPitch;
  constexpr int kLoads = kT * kBK / kThreads;
  static_assert(kT == 32, "a row of 32 a warp (the form runs the 32-wide tile)");
  const int rows = static_cast<int>(min(op.rows - r0, int64_t{kT}));
  const int run_log = steps <= 4 ? 2 : steps <= 8 ? 3 : steps <= 16 ? 4 : 5;  // K-major only
  float v[kLoads];
  int at[kLoads];
#pragma unroll
  for (int q = 0; q < kLoads; ++q) {
    const int e = q * kThreads + threadIdx.x;
    const int kk = P::kKMajor ? e & ((1 << run_log) - 1) : e / kT;
    const int r = P::kKMajor ? e >> run_log : e % kT;
    const bool in_stage = kk < steps && r < kT;
    at[q] = in_stage ? kk * kPitch + r : -1;
    v[q] = in_stage && r < rows ? op.p[(r0 + r) * op.stride_r + (k0 + kk) * op.stride_k] : 0.0f;
  }
#pragma unroll
  for (int q = 0; q < kLoads; ++q)
    if (at[q] >= 0) dst[at[q]] = v[q];
}

// The FP32 form with FP64 sums (StageForm::kFp64Sums): each of the thread's outputs summed in
// k order in FP64, where a product of two FP32 values is exact, and rounded to FP32 once: the
// FP32 value nearest the exact sum. A thread's rows g, g + 8 and columns 2t, 2t + 1 (+ 8) are
// those of its fragments, so the epilogue is the other forms'.
template <class Me, int kT>
__device__ __forceinline__ void fp64_form_sums(Accumulators<Me>& acc, const double* panels, int warp_m,
                                               int warp_n, int lane, int steps) {
  constexpr int kRows = 2 * Me::kFragsM, kCols = 2 * Me::kFragsN, kPitch = Fp64Panels<kT>::kPitch;
  const double* a64 = panels + warp_m * Me::kWarpTileM + lane / 4;
  const double* b64 = panels + Fp64Panels<kT>::kDoubles + warp_n * Me::kWarpTileN + 2 * (lane % 4);
  double sum[kRows][kCols] = {};
#pragma unroll 4
  for (int kk = 0; kk < steps; ++kk) {
    double a[kRows], b[kCols];
#pragma unroll
    for (int i = 0; i < kRows; ++i)  // fragment row mi = i / 2, its rows g and g + 8
      a[i] = a64[kk * kPitch + (i / 2) * 16 + (i % 2) * 8];
#pragma unroll
    for (int j = 0; j < kCols; j += 2) {  // fragment column ni = j / 2, its columns 2t and 2t + 1
      const double2 w = *reinterpret_cast<const double2*>(b64 + kk * kPitch + (j / 2) * 8);
      b[j] = w.x, b[j + 1] = w.y;
    }
#pragma unroll
    for (int i = 0; i < kRows; ++i)
#pragma unroll
      for (int j = 0; j < kCols; ++j) sum[i][j] = fma(a[i], b[j], sum[i][j]);
  }
#pragma unroll
  for (int i = 0; i < kRows; ++i)
#pragma unroll
    for (int j = 0; j < kCols; ++j)  // element x of fragment (mi, ni): row + 8 (x / 2), column + x % 2
      acc.promoted[i / 2][j / 2][2 * (i % 2) + j % 2] = static_cast<float>(sum[i][j]);
}

// The value a fragment element stores (common/epilogue.cuh).
template <TcMethod M, class Me>
__device__ __forceinline__ float finished(const Accumulators<Me>& acc, int mi, int ni, int x) {
  return finish_sum<M>(acc.promoted[mi][ni][x], acc.correction[mi][ni][x]);
}

// Split-K through a thread-block cluster (sm_90): the splits of a tile are one cluster
// along z. Each CTA leaves its finished T x T sums in its own shared memory; after a
// cluster barrier CTA r adds the r-th share of the tile over every CTA's sums, in split
// order (deterministic), and stores it. No partials in global memory, no second launch:
// at 256^3 the reduction kernel cost as much GPU time as the products.
constexpr int64_t kClusterSplits = 8;  // the portable cluster size

template <int kT>
constexpr int sums_pitch() { return kT + 4; }  // column pitch: lanes (g, t) hit banks 8t + g

template <TcMethod M, class Me>
__device__ __forceinline__ void reduce_in_cluster(const Accumulators<Me>& acc, const GemmArgs& args,
                                                  const Tile& tile, int64_t z, float* sums,
                                                  int warp_m, int warp_n, int lane) {
#if __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  constexpr int kT = Me::kTile, kPitch = sums_pitch<kT>();
  const cg::cluster_group cluster = cg::this_cluster();
  const int g = lane / 4, t = lane % 4;
  __syncthreads();  // the sums overwrite split rows the last products read
#pragma unroll
  for (int mi = 0; mi < Me::kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < Me::kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        const int r = warp_m * Me::kWarpTileM + mi * 16 + (x / 2) * 8 + g;
        const int c = warp_n * Me::kWarpTileN + ni * 8 + 2 * t + x % 2;
        sums[c * kPitch + r] = finished<M>(acc, mi, ni, x);
      }
  cluster.sync();  // every split's sums are in place (release / acquire)
  const int splits = static_cast<int>(cluster.num_blocks());
  const int rank = static_cast<int>(cluster.block_rank());
  const int rows_left = static_cast<int>(min(args.m - tile.m0, int64_t(kT)));
  const int cols_left = static_cast<int>(min(args.n - tile.n0, int64_t(kT)));
  const Epilogue epi = Epilogue::of(args.scalars, true);
  float* const c = batch_c(args, z) + tile.n0 * args.ldc + tile.m0;
  // The shares split the columns C has, not the tile's: on a ragged tile (n = 10 of a
  // 64-wide one) shares of the whole tile left some CTAs every output and others none
  // (bench/results/README.md#cluster).
  const int first = kT * cols_left * rank / splits, last = kT * cols_left * (rank + 1) / splits;
  epi.visit([&](const auto& e) {
    for (int idx = first + static_cast<int>(threadIdx.x); idx < last; idx += kThreads) {
      const int col = idx / kT, row = idx % kT;
      if (row >= rows_left || col >= cols_left) continue;
      // Every split's value is requested before the first is added: the remote reads
      // overlap instead of each waiting for the last add. The adds keep split order.
      float part[kClusterSplits];
#pragma unroll
      for (int s = 0; s < kClusterSplits; ++s)
        part[s] = s < splits ? cluster.map_shared_rank(sums, s)[col * kPitch + row] : 0.0f;
      // FP32 adds here (at most kClusterSplits): FP64 ones, as the common reducer's, cost
      // 2% on the held-out shapes that cluster (bench/results/README.md#fp64-reduce).
      float v = 0.0f;
#pragma unroll
      for (int s = 0; s < kClusterSplits; ++s)
        if (s < splits) v += part[s];
      e.store(c + col * args.ldc + row, v);
    }
  });
  cluster.sync();  // no CTA leaves while another still reads its sums
#else
  __trap();  // never launched: cluster_usable requires an sm_90 image
#endif
}

// grid: x output tiles, y products of the batch (from args.batch.first), z k splits
// (a cluster that reduces in shared memory, or each writes its m x n partial sums and
// a reduction kernel adds them in order). kForm: the products, AUTO's forms (FP32 blocks,
// or scales and FP32 blocks), or every stage in FP32.
template <TcMethod M, int kT, bool kAKMajor, bool kBKMajor, StageForm kForm>
__global__ void __launch_bounds__(kThreads, TileShape<kT>::kCtasPerSm)
fused_mma_kernel(GemmArgs args, int64_t tiles_m, int64_t tiles_n, int64_t k_chunk,
                 float* partials, bool cluster_reduce) {
  // Launched dependent on the stream's previous kernel (common/launch.cuh): its launch and
  // CTAs' setup hide behind that kernel's tail; nothing global is touched before the wait.
  wait_for_prior_grids();
  allow_dependents();  // a split-K reduction, or the next call, may queue up
  constexpr bool kGuard = kForm == StageForm::kFp32Blocks || kForm == StageForm::kScaled;
  constexpr bool kScaled = kForm == StageForm::kScaled;
  static_assert(!kScaled || M == TcMethod::kHalfHalf, "the scaled form runs halfhalf's products");
  using L = Layout<M, kT, kAKMajor, kBKMajor, kForm>;
  using Me = typename L::Me;
  using PA = typename L::PA;
  using PB = typename L::PB;
  extern __shared__ __align__(16) char smem[];
  const int64_t z = batch_product(args.batch.first);
  // view_a / view_b of product z, with the layout the kernel was compiled for.
  const OperandView a{batch_a(args, z), kAKMajor ? args.lda : 1, kAKMajor ? 1 : args.lda, args.m};
  const OperandView b{batch_b(args, z), kBKMajor ? args.ldb : 1, kBKMajor ? 1 : args.ldb, args.n};
  // Per product: a pointer-array batch's alignment is known only here.
  const bool vec_a = (reinterpret_cast<uintptr_t>(a.p) & 15) == 0 && args.lda % 4 == 0;
  const bool vec_b = (reinterpret_cast<uintptr_t>(b.p) & 15) == 0 && args.ldb % 4 == 0;
  const Tile tile = raster_tile(tiles_m, tiles_n, kT, kT);
  const int64_t k_begin = blockIdx.z * k_chunk;  // < k: the plan has no empty split
  const int64_t k_end = min(args.k, k_begin + k_chunk);
  const int count = static_cast<int>((k_end - k_begin + kBK - 1) / kBK);
  const uint32_t smem0 = smem_address(smem), split = smem0 + L::kSplitOffset;
  PanelLoader<PA> load_a(a, tile.m0, k_begin, vec_a);
  PanelLoader<PB> load_b(b, tile.n0, k_begin, vec_b);
  auto load_stage = [&](int i) {  // stages are loaded in order, into the one FP32 stage
    const int64_t k_left = k_end - k_begin - static_cast<int64_t>(i) * kBK;
    load_a.load(smem0, a.p, k_left, vec_a);
    load_b.load(smem0 + 4 * PA::kFloats, b.p, k_left, vec_b);
  };

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warp_m = warp / 2, warp_n = warp % 2;
  Accumulators<Me> acc;
#pragma unroll
  for (int mi = 0; mi < Me::kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < Me::kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) acc.promoted[mi][ni][x] = acc.correction[mi][ni][x] = 0.0f;

  float* const unscale = reinterpret_cast<float*>(smem + L::kScalesOffset);
  // This stage's products from the split rows (and, scaled, their factors).
  auto products = [&]() {
    if constexpr (kScaled) {
      products_scaled<Me>(acc, StageScales<Me>(unscale, warp_m, warp_n, lane), split, warp_m,
                          warp_n, lane);
    } else {
      stage_products<M, Me, kGuard>(acc, split, warp_m, warp_n, lane);
    }
  };

  if constexpr (kForm == StageForm::kFp64Sums) {  // one stage, loaded through registers
    double* panels = reinterpret_cast<double*>(smem);
    const int steps = static_cast<int>(k_end - k_begin);
    load_fp64_panel<PA>(panels, a, tile.m0, k_begin, steps);
    load_fp64_panel<PB>(panels + Fp64Panels<kT>::kDoubles, b, tile.n0, k_begin, steps);
    __syncthreads();
    fp64_form_sums<Me, kT>(acc, panels, warp_m, warp_n, lane, steps);
  } else {
    load_stage(0);
    cp_async_commit();
  }
  for (int i = 0; i < (kForm == StageForm::kFp64Sums ? 0 : count); ++i) {
    cp_async_wait<0>();
    __syncthreads();  // stage i landed; every warp is done with the split rows of i - 1
    const float* stage = reinterpret_cast<const float*>(smem);
    if constexpr (kForm == StageForm::kFp32) {
      fp32_form_stage<Me, PA, PB>(acc, stage, warp_m, warp_n, lane, k_end - k_begin - i * kBK);
      __syncthreads();  // every warp is done with the stage before it is refilled
      if (i + 1 < count) load_stage(i + 1);
      cp_async_commit();
      continue;
    }
    [[maybe_unused]] unsigned wide;
    if constexpr (kScaled)
      wide = split_stage_scaled<kT, PA, PB>(stage, smem + L::kSplitOffset, unscale);
    else
      wide = split_stage<M, kT, PA, PB, kGuard>(stage, smem + L::kSplitOffset);
    if constexpr (kGuard) {
      unsigned* flags = reinterpret_cast<unsigned*>(smem + L::kFlagsOffset);
      const bool a_wide = __any_sync(~0u, wide & 1u), b_wide = __any_sync(~0u, wide & 2u);
      if (lane == 0) flags[warp] = (a_wide ? 1u : 0u) | (b_wide ? 2u : 0u);
      // The barrier below, with a vote: a stage some block takes in FP32 keeps the FP32
      // panels until every warp is done with them, and is refilled after.
      if (__syncthreads_or(a_wide || b_wide)) {
        if (block_is_wide<Me, kForm>(flags, warp_m, warp_n))
          fp32_stage<Me, PA, PB>(acc, stage, warp_m, warp_n, lane, k_end - k_begin - i * kBK);
        else
          products();
        __syncthreads();
        if (i + 1 < count) load_stage(i + 1);
        cp_async_commit();
        continue;
      }
    } else {
      __syncthreads();
    }
    // The split rows are complete and the FP32 stage is free:
    if (i + 1 < count) load_stage(i + 1);  // its refill runs beside this stage's products
    cp_async_commit();
    products();
  }

  if (cluster_reduce)
    return reduce_in_cluster<M>(acc, args, tile, z, reinterpret_cast<float*>(smem), warp_m,
                                warp_n, lane);
  // Fragment (mi, ni) holds rows g, g + 8 and columns 2t, 2t + 1 of its 16 x 8 tile:
  // 2 kFragsM row offsets and 2 kFragsN column offsets from this thread's first element
  // serve all of its values.
  const Epilogue epi = Epilogue::of(args.scalars, gridDim.z == 1);
  const int g = lane / 4, t = lane % 4;
  const int64_t row0 = tile.m0 + warp_m * Me::kWarpTileM + g;
  const int64_t col0 = tile.n0 + warp_n * Me::kWarpTileN + 2 * t;
  const int64_t ld = epi.direct ? args.ldc : args.m;
  float* out = epi.direct ? batch_c(args, z) : partials + blockIdx.z * args.m * args.n;
  out += col0 * ld + row0;
  const int rows_left = static_cast<int>(min(args.m - row0, int64_t(kT)));
  const int cols_left = static_cast<int>(min(args.n - col0, int64_t(kT)));
  epi.visit([&](const auto& e) {
#pragma unroll
    for (int ni = 0; ni < Me::kFragsN; ++ni)
#pragma unroll
      for (int xc = 0; xc < 2; ++xc) {
        const int dc = ni * 8 + xc;
        if (dc >= cols_left) continue;
        float* column = out + dc * ld;
#pragma unroll
        for (int mi = 0; mi < Me::kFragsM; ++mi)
#pragma unroll
          for (int xr = 0; xr < 2; ++xr) {
            const int dr = mi * 16 + xr * 8;
            if (dr >= rows_left) continue;
            e.store(column + dr, finished<M>(acc, mi, ni, 2 * xr + xc));
          }
      }
  });
}

template <TcMethod M, int kT, bool kAKMajor, bool kBKMajor, StageForm kForm>
cudaError_t launch_layout(const GemmArgs& g, const FusedMmaPlan& plan, float* partials,
                          const DeviceInfo& dev, cudaStream_t stream) {
  using L = Layout<M, kT, kAKMajor, kBKMajor, kForm>;
  static_assert(L::kSmemBytes >= kT * sums_pitch<kT>() * 4, "the cluster's sums fit the stages");
  constexpr auto kernel = fused_mma_kernel<M, kT, kAKMajor, kBKMajor, kForm>;
  cudaError_t err = opt_in_shared_memory<kernel>(dev.ordinal, L::kSmemBytes);
  if (err != cudaSuccess) return err;
  const int64_t tiles_m = (g.m + kT - 1) / kT, tiles_n = (g.n + kT - 1) / kT;
  if (tiles_m * tiles_n > INT32_MAX) return cudaErrorInvalidConfiguration;
  const unsigned cluster = plan.cluster_reduce ? static_cast<unsigned>(plan.splits) : 0;
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const dim3 grid(static_cast<unsigned>(tiles_m * tiles_n), products,
                    static_cast<unsigned>(plan.splits));
    return launch(first_kernel({grid, kThreads, L::kSmemBytes, stream, false, cluster}), kernel,
                  part, tiles_m, tiles_n, plan.k_chunk, partials, plan.cluster_reduce);
  });
}

// Which index of each operand is contiguous in the caller's memory picks the kernel:
// op(A) is K-major when A is transposed, op(B)^T when B is not.
template <TcMethod M, int kT, StageForm kForm>
cudaError_t launch_tile(const GemmArgs& g, const FusedMmaPlan& plan, float* partials,
                        const DeviceInfo& dev, cudaStream_t stream) {
  if (g.trans_a) {
    return g.trans_b ? launch_layout<M, kT, true, false, kForm>(g, plan, partials, dev, stream)
                     : launch_layout<M, kT, true, true, kForm>(g, plan, partials, dev, stream);
  }
  return g.trans_b ? launch_layout<M, kT, false, false, kForm>(g, plan, partials, dev, stream)
                   : launch_layout<M, kT, false, true, kForm>(g, plan, partials, dev, stream);
}

template <TcMethod M, int kT>
cudaError_t launch_guarded(const GemmArgs& g, const FusedMmaPlan& plan, float* partials,
                           const DeviceInfo& dev, cudaStream_t stream) {
  // AUTO's forms: tf32tf32's products with FP32 blocks, or halfhalf's scaled.
  if constexpr (M == TcMethod::kTf32Tf32) {
    if (plan.wide_fp32 && !plan.scaled)
      return launch_tile<M, kT, StageForm::kFp32Blocks>(g, plan, partials, dev, stream);
  }
  // The scaled form holds a factor and a stage's corrections per output: 32-wide tiles only
  // (the 64-wide one spilled 200+ bytes a thread; bench/results/README.md#auto-scaled).
  if constexpr (M == TcMethod::kHalfHalf && kT == 32) {
    if (plan.wide_fp32 && plan.scaled)
      return launch_tile<M, kT, StageForm::kScaled>(g, plan, partials, dev, stream);
  }
  // Every stage in FP32: no products, so one instantiation serves every corrected mode.
  if constexpr (M == TcMethod::kTf32Tf32 && kT == 32) {
    if (plan.fp32 && !plan.wide_fp32 && !plan.scaled)
      return plan.fp64_sums ? launch_tile<M, kT, StageForm::kFp64Sums>(g, plan, partials, dev, stream)
                            : launch_tile<M, kT, StageForm::kFp32>(g, plan, partials, dev, stream);
  }
  if (plan.wide_fp32 || plan.scaled || plan.fp32 || plan.fp64_sums) return cudaErrorInvalidValue;
  return launch_tile<M, kT, StageForm::kProducts>(g, plan, partials, dev, stream);
}

// The 32-wide tile serves the corrected methods, the family's purpose; the one-pass
// modes and Markidis (batches without wgmma) keep the 64-wide one (plan_fused_mma).
template <TcMethod M>
cudaError_t launch_method(const GemmArgs& g, const FusedMmaPlan& plan, float* partials,
                          const DeviceInfo& dev, cudaStream_t stream) {
  if constexpr (scheme_of(M) == Scheme::kCorrected) {
    if (plan.tile == 32) return launch_guarded<M, 32>(g, plan, partials, dev, stream);
  }
  if (plan.tile != 64) return cudaErrorInvalidValue;
  return launch_guarded<M, 64>(g, plan, partials, dev, stream);
}

// Clusters exist from sm_90; the build's sm_90a image is the one that runs on cc 9.0.
bool cluster_usable(const DeviceInfo& dev) {
#if defined(ECGEMM_HAS_SM90A)
  return dev.cc_major == 9 && dev.cc_minor == 0;
#else
  (void)dev;
  return false;
#endif
}

}  // namespace

bool fused_mma_usable(const DeviceInfo& dev) { return dev.cc_major >= 8; }

namespace {

int64_t tiles_of(const GemmArgs& g, int tile) {
  return ((g.m + tile - 1) / tile) * ((g.n + tile - 1) / tile);
}

int ctas_per_sm(int tile) {
  return tile == 64 ? TileShape<64>::kCtasPerSm : TileShape<32>::kCtasPerSm;
}

}  // namespace

std::optional<FusedMmaPlan> fused_mma_alternative(TcMethod method, const FusedMmaPlan& plan,
                                                  const GemmArgs& g, const DeviceInfo& dev,
                                                  size_t max_bytes) {
  if (scheme_of(method) != Scheme::kCorrected || plan.tile != 64) return std::nullopt;
  const FusedMmaPlan small = plan_fused_mma(g, dev, max_bytes, 32);
  if (!small.fits) return std::nullopt;
  const GridShape wide = fused_mma_grid(g, plan, dev);
  const bool narrow = std::min(g.m, g.n) <= 32;
  const bool latency_bound = wide.ctas <= wide.resident;
  if (!narrow && !latency_bound) return std::nullopt;
  return small;
}

std::optional<FusedMmaPlan> fused_mma_unsplit(const FusedMmaPlan& plan, const GemmArgs& g) {
  if (plan.splits == 1) return std::nullopt;
  FusedMmaPlan p = plan;
  p.splits = 1;
  p.k_chunk = round_up(g.k, kBK);
  p.cluster_reduce = false;
  p.bytes = 0;
  p.fits = p.k_chunk <= kMaxChainK;
  if (!p.fits) return std::nullopt;
  return p;
}

FusedMmaPlan plan_fused_mma(const GemmArgs& g, const DeviceInfo& dev, size_t max_bytes,
                            int tile) {
  FusedMmaPlan p;
  p.tile = tile != 0 ? tile : 64;
  p.k_chunk = round_up(g.k, kBK);
  p.fits = p.k_chunk <= kMaxChainK;
  if (g.batch.batched()) return p;  // the products fill the GPU; no partials per product
  const int64_t tiles = tiles_of(g, p.tile);
  const int64_t resident = static_cast<int64_t>(dev.sm_count) * ctas_per_sm(p.tile);
  const size_t plane_bytes = static_cast<size_t>(g.m * g.n) * 4;
  // Enough splits to fill the GPU (none shorter than kMinSplitK) or to keep each within
  // kMaxChainK, whichever is more.
  const int64_t needed = (g.k + kMaxChainK - 1) / kMaxChainK;
  int64_t want = std::max(std::min(resident / tiles, g.k / kMinSplitK), needed);
  if (want > 1 && cluster_usable(dev)) {
    // A cluster launch kept about two CTAs an SM resident (H200: 512 CTAs in clusters of
    // 4 ran 205 us where the same splits through partials took 148 + 20), so clusters
    // take all the splits where that room holds them, and down to half of them only on
    // products small enough to be latency-bound, where a reduction kernel's launch
    // costs more than the CTAs left out (512^3 halfhalf: 4 splits in clusters 13.0 us,
    // 8 through partials 10.4 + 9.4 before the reduction was rewritten).
    const int64_t room = std::max<int64_t>(1, kClusterCtasPerSm * dev.sm_count / tiles);
    const int64_t splits = std::min({want, kClusterSplits, room});
    const bool small = g.m * g.n * g.k <= kClusterMaxMacs && 2 * splits >= want;
    if (splits >= 2 && splits >= needed && (splits == want || small)) {
      want = splits;
      p.cluster_reduce = true;
    }
  }
  // Partials: as many as the room allows (a capped user workspace).
  if (!p.cluster_reduce)
    want = std::min<int64_t>(want, std::min<size_t>(max_bytes / plane_bytes, kMaxSplits));
  if (want > 1) {
    const KSplit s = split_k(g.k, want, kBK);
    p.k_chunk = s.chunk;
    p.splits = s.splits;
    p.cluster_reduce = p.cluster_reduce && p.splits > 1;
    p.bytes = p.cluster_reduce ? 0 : static_cast<size_t>(p.splits) * plane_bytes;
  }
  p.fits = p.k_chunk <= kMaxChainK;
  return p;
}

bool fp64_sums_hide(const GemmArgs& args, const FusedMmaPlan& plan, const DeviceInfo& dev) {
  // Up to two CTAs an SM the FP64 sums ran at the FP32 chains' speed or faster (seed 26's sample:
  // 1.01-1.06x); at three 0.97x, at four to six (one wave) 0.91x, 0.67x at worst; past a wave
  // 0.74-0.85x. Every FP32-form product there above SGEMM's residual had at most 229 CTAs
  // (docs/numerics.md section 3).
  constexpr int64_t kFp64SumsCtasPerSm = 2;
  if (!plan.fp32 || plan.splits != 1) return false;
  return fused_mma_grid(args, plan, dev).ctas <= int64_t{dev.sm_count} * kFp64SumsCtasPerSm;
}

GridShape fused_mma_grid(const GemmArgs& args, const FusedMmaPlan& plan, const DeviceInfo& dev) {
  GridShape g;
  g.ctas = tiles_of(args, plan.tile) * plan.splits * args.batch.count;
  const int64_t per_sm = plan.cluster_reduce ? kClusterCtasPerSm : ctas_per_sm(plan.tile);
  g.resident = int64_t{dev.sm_count} * per_sm;
  g.tile_outputs = int64_t{plan.tile} * plan.tile;
  // The FP32 form's CTA runs k steps of its one stage, not the stage's kBK: priced by the stage
  // alone, its grids of a wave at k of 17-29 ran 1.4-2x their estimate (bench/results/README.md#sweep).
  g.k_per_cta = plan.fp32 ? args.k : plan.k_chunk;
  const bool reduce = plan.splits > 1 && !plan.cluster_reduce;
  g.kernels = reduce ? 2 : 1;
  g.cluster = plan.cluster_reduce;
  g.extra_bytes = reduce ? partials_traffic(plan.splits, args.m, args.n) : 0.0;
  return g;
}

cudaError_t launch_fused_mma(TcMethod method, const GemmArgs& args, const FusedMmaPlan& plan,
                              void* workspace, const DeviceInfo& dev, cudaStream_t stream) {
  float* partials = static_cast<float*>(workspace);
  const cudaError_t err = visit_method(method, [&](auto m) {
    return launch_method<decltype(m)::value>(args, plan, partials, dev, stream);
  });
  if (err != cudaSuccess || plan.splits == 1 || plan.cluster_reduce) return err;
  return launch_splitk_reduce(args, {partials, plan.splits, args.m, args.n, SplitOrder::kRuns},
                              stream, dev.cc_major >= 9);
}

}  // namespace ecgemm::detail
