// simt's piped tiles (piped.hpp): FP32 SIMT GEMM in 32- to 128-wide CTA tiles of 64 or 128
// threads, each thread 4 x 4 to 8 x 8 outputs in registers, the operand panels brought into
// shared memory by a ring of kPipedStages cp.async stages of kPipedStageK.
//
// Why: on products of 4-30 us that the Tensor Core tiles serve at issue-bound rates, cuBLAS
// runs SIMT kernels of this kind (sm80_xmma_gemm_f32f32 32x32x8 to 64x128x8, three stages);
// simt's 256-thread register tiles ran 0.31-0.72x its time there: a 128-wide tile leaves SMs
// idle on such grids and its one prefetched step exposes the load latency. Small CTAs fill every
// SM several deep, and three stages in flight hide the latency. Measured: 4 x 4 outputs a thread
// issued 1.57x cuBLAS's instructions for the same FFMAs; 8 x 8 a thread ran up to 1.7x faster on
// large grids and slower on small ones, and no tile reaches cuBLAS on most of those products
// (bench/results/README.md#piped).
//
// Any layout: each operand is copied in the layout its source has, 4 bytes a copy placed
// k-major ([k][row]) in shared memory, or 16 bytes where its rows are contiguous and aligned;
// cp.async's zero fill stands in past the edges. A thread's fragments are float4 shared
// loads. Each output sums 32-long chunks of k apart and adds them into the result (two-level,
// as simt's narrow tiles: error near cuBLAS's or below at any k), so it serves the corrected
// modes. Split-K as simt's tiles: a split writes its raw sums to a partials plane.
#include <algorithm>
#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/sm80/mma_sync.cuh"
#include "kernels/simt/piped.hpp"
#include "kernels/simt/register_tile.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kBK = kPipedStageK;
constexpr int kPad = 4;         // a panel line's pitch = 4 (mod 32) words: transposed copies spread over banks
constexpr int kPromoteK = 32;   // two-level: k a chunk
static_assert(kPromoteK % kBK == 0, "chunks are whole stages");

template <SimtTile kTile>
struct Piped {
  static constexpr PipedDims kDims = piped_dims(kTile);
  static constexpr int BM = kDims.bm, BN = kDims.bn, TM = kDims.tm, TN = kDims.tn;
  static constexpr int kGM = BM / TM, kGN = BN / TN;  // the threads as a kGM x kGN grid
  static constexpr int kThreads = kGM * kGN;
  static constexpr int kWM = kGM < 8 ? kGM : 8, kWN = 32 / kWM;  // a warp's threads
  static constexpr int kWarpsM = kGM / kWM;
  static constexpr int kPitchA = BM + kPad, kPitchB = BN + kPad;
  static constexpr int kStageFloats = kBK * (kPitchA + kPitchB);
  static_assert(kThreads % 32 == 0 && kGM % kWM == 0 && kGN % kWN == 0, "whole warps");
};

// One operand's BR x kBK panel of a stage, copied by T threads. kRowsContig: the row index is
// the contiguous one (stride_r = 1), so a warp copies consecutive rows of one k (4 at a time
// where `vec`); else consecutive k of a row. A thread's copies lie a fixed distance apart
// (T is a multiple of BR and of kBK), their places in the panel are fixed, and their sources
// move by kBK along k a stage: a pointer, two strides and two bounds a thread.
template <int BR, int T, bool kRowsContig>
struct PanelCopy {
  static constexpr int kPitch = BR + kPad;
  static constexpr int kElems = BR * kBK, kVecs = kElems / 4;
  static constexpr int kScalars = (kElems + T - 1) / T, kVectors = (kVecs + T - 1) / T;
  static_assert(T % BR == 0 && T % kBK == 0 && BR % 4 == 0, "whole runs a copy");
  // Between a thread's copies: rows (kRowsContig: none) and k.
  static constexpr int kRowStep = kRowsContig ? 0 : T / kBK, kKStep = kRowsContig ? T / BR : 0;
  static constexpr int kVecKStep = T / (BR / 4);  // k between a thread's 16-byte copies
  const float* ptr;     // this thread's first copy at the current stage (its row clamped into the operand)
  const float* safe;    // an address inside the operand, for the zero-byte copies
  int64_t load_stride;  // between a thread's copies
  int64_t stride_k;
  int64_t k_left;       // copy i is in range while its k < k_left (counts down by kBK)
  int rows_left;        // ... and its row < rows_left
  int row0, k0;         // this thread's first copy's row and k in the panel
  bool vec;

  __device__ PanelCopy(const OperandView& op, int64_t r0, int64_t k_begin, int64_t k_end) {
    const int tid = threadIdx.x;
    const float* const corner = op.p + r0 * op.stride_r + k_begin * op.stride_k;
    // 16-byte copies: rows contiguous, every line of k 16-byte aligned (r0 is a multiple of 4).
    vec = kRowsContig && op.stride_k % 4 == 0 && (reinterpret_cast<uintptr_t>(corner) & 15) == 0;
    row0 = vec ? tid % (BR / 4) * 4 : kRowsContig ? tid % BR : tid / kBK;
    k0 = vec ? tid / (BR / 4) : kRowsContig ? tid / BR : tid % kBK;
    load_stride = vec ? kVecKStep * op.stride_k : kKStep * op.stride_k + kRowStep * op.stride_r;
    stride_k = op.stride_k;
    k_left = k_end - k_begin;
    rows_left = static_cast<int>(std::min<int64_t>(op.rows - r0, BR));
    safe = op.p;
    ptr = op.p + std::min<int64_t>(r0 + row0, op.rows - 1) * op.stride_r + (k_begin + k0) * op.stride_k;
  }

  __device__ __forceinline__ void copy(uint32_t panel) const {
    if (vec) {
#pragma unroll
      for (int i = 0; i < kVectors; ++i) {
        if (kVecs % T != 0 && threadIdx.x + i * T >= kVecs) break;
        const int kk = k0 + i * kVecKStep;
        const int rows = kk < k_left ? std::clamp(rows_left - row0, 0, 4) : 0;
        cp_async_16_zfill(panel + 4 * (kk * kPitch + row0), rows > 0 ? ptr + i * load_stride : safe, 4 * rows);
      }
      return;
    }
#pragma unroll
    for (int i = 0; i < kScalars; ++i) {
      if (kElems % T != 0 && threadIdx.x + i * T >= kElems) break;
      const int row = row0 + i * kRowStep, kk = k0 + i * kKStep;
      const bool in = row < rows_left && kk < k_left;
      cp_async_4_zfill(panel + 4 * (kk * kPitch + row), in ? ptr + i * load_stride : safe, in ? 4 : 0);
    }
  }

  __device__ __forceinline__ void advance() {
    ptr += kBK * stride_k;
    k_left -= kBK;
  }
};

template <SimtTile kTile, bool kRowsContigA, bool kRowsContigB>
__global__ void __launch_bounds__(Piped<kTile>::kThreads, Piped<kTile>::kDims.blocks)
piped_kernel(OperandView a, OperandView b, GemmArgs args, int64_t k_chunk, float* partials) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  using S = Piped<kTile>;
  constexpr int T = S::kThreads, kGM = S::kGM, kGN = S::kGN, BM = S::BM, BN = S::BN, TM = S::TM, TN = S::TN;
  __shared__ __align__(16) float smem[kPipedStages * S::kStageFloats];

  // grid.y walks the products of a batch (split-K is for single products only).
  const int64_t z = batch_product(args.batch.first);
  a.p = batch_a(args, z);
  b.p = batch_b(args, z);
  args.c = batch_c(args, z);

  const Tile tile = raster_tile((args.m + BM - 1) / BM, (args.n + BN - 1) / BN, BM, BN);
  const int64_t k_begin = blockIdx.z * k_chunk;
  const int64_t k_end = std::min<int64_t>(args.k, k_begin + k_chunk);

  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int tm = (warp % S::kWarpsM) * S::kWM + lane % S::kWM;  // 0..kGM-1
  const int tn = (warp / S::kWarpsM) * S::kWN + lane / S::kWM;  // 0..kGN-1

  float acc[TM][TN] = {};
  if (resolve_alpha(args.scalars) != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    PanelCopy<BM, T, kRowsContigA> copy_a(a, tile.m0, k_begin, k_end);
    PanelCopy<BN, T, kRowsContigB> copy_b(b, tile.n0, k_begin, k_end);
    const uint32_t ring = smem_address(smem);
    const int steps = static_cast<int>((k_end - k_begin + kBK - 1) / kBK);
    auto issue = [&](int s) {  // stage s into its slot, then the next stage's sources
      if (s < steps) {
        const uint32_t slot = ring + (s % kPipedStages) * S::kStageFloats * 4;
        copy_a.copy(slot);
        copy_b.copy(slot + kBK * S::kPitchA * 4);
        copy_a.advance();
        copy_b.advance();
      }
      cp_async_commit();  // an empty group past the last stage keeps the count of groups
    };
#pragma unroll
    for (int s = 0; s < kPipedStages - 1; ++s) issue(s);

    float chunk[TM][TN] = {};
    for (int s = 0; s < steps; ++s) {
      cp_async_wait<kPipedStages - 2>();  // stage s has landed (this thread's copies)
      __syncthreads();                    // ... everyone's; and stage s - 1's slot is free
      issue(s + kPipedStages - 1);
      const float* as = smem + (s % kPipedStages) * S::kStageFloats;
      const float* bs = as + kBK * S::kPitchA;
#pragma unroll
      for (int kk = 0; kk < kBK; ++kk)
        fma_line<TM, TN, kGM, kGN>(as + kk * S::kPitchA, bs + kk * S::kPitchB, tm, tn, chunk);
      if ((s + 1) % (kPromoteK / kBK) == 0 || s + 1 == steps) promote(acc, chunk);
    }
    cp_async_wait<0>();  // no copy outlives the CTA's shared memory
  }

  float* const partial = partials ? partials + blockIdx.z * args.m * args.n : nullptr;
  const Epilogue epi = Epilogue::of(args.scalars, partial == nullptr);
  epi.visit([&](const auto& e) {
    for_each_output<TM, TN, kGM, kGN>(tile.m0, tile.n0, tm, tn, args.m, args.n, acc, [&](int64_t row, int64_t col, float v) {
      e.store(partial ? partial + col * args.m + row : args.c + col * args.ldc + row, v);
    });
  });
}

template <SimtTile kTile>
cudaError_t launch_tile(const OperandView& a, const OperandView& b, const GemmArgs& g, const SimtPlan& plan,
                        float* partials, cudaStream_t stream) {
  constexpr int BM = Piped<kTile>::BM, BN = Piped<kTile>::BN;
  const int64_t tiles = ((g.m + BM - 1) / BM) * ((g.n + BN - 1) / BN);
  if (tiles > INT32_MAX) return cudaErrorInvalidConfiguration;
  const bool a_rows = a.stride_r == 1, b_rows = b.stride_r == 1;
  auto kernel = a_rows && b_rows ? piped_kernel<kTile, true, true>
                : a_rows         ? piped_kernel<kTile, true, false>
                : b_rows         ? piped_kernel<kTile, false, true>
                                 : piped_kernel<kTile, false, false>;
  float* const split = plan.splits > 1 ? partials : nullptr;
  return for_each_batch_launch(g, [&](const GemmArgs& part, unsigned products) {
    const dim3 grid(static_cast<unsigned>(tiles), products, static_cast<unsigned>(plan.splits));
    return launch(first_kernel({grid, Piped<kTile>::kThreads, 0, stream}), kernel, a, b, part,
                  plan.k_chunk, split);
  });
}

}  // namespace

cudaError_t launch_piped(const GemmArgs& g, const SimtPlan& plan, float* partials, cudaStream_t stream) {
  const OperandView a = view_a(g), b = view_b(g);
  switch (plan.tile) {
    case SimtTile::kPiped32x32: return launch_tile<SimtTile::kPiped32x32>(a, b, g, plan, partials, stream);
    case SimtTile::kPiped32x64: return launch_tile<SimtTile::kPiped32x64>(a, b, g, plan, partials, stream);
    case SimtTile::kPiped64x32: return launch_tile<SimtTile::kPiped64x32>(a, b, g, plan, partials, stream);
    case SimtTile::kPiped64x64: return launch_tile<SimtTile::kPiped64x64>(a, b, g, plan, partials, stream);
    case SimtTile::kPiped64x128: return launch_tile<SimtTile::kPiped64x128>(a, b, g, plan, partials, stream);
    case SimtTile::kPiped128x64: return launch_tile<SimtTile::kPiped128x64>(a, b, g, plan, partials, stream);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace ecgemm::detail
