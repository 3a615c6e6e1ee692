// The planes family's mma.sync mainloop (sm_80 and newer; Hopper takes the wgmma one,
// sm90/planes_mainloop.cu, where the sm_90a code is built) over the pre-split, K-major,
// zero-padded planes. The products per method, and the error correction, are
// mma_products' (sm80/fragments.cuh): hi·hi accumulates in `promoted`, the correction
// products in `correction`.
#include <cuda_fp16.h>

#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/planes/parts.hpp"
#include "kernels/sm80/fragments.cuh"
#include "kernels/sm80/mma_sync.cuh"
#include "split.cuh"

namespace ecgemm::detail {
namespace {

static_assert(kTileM == kTileN, "A and B planes share one plane size");

// One mainloop shape: kKBytes of K per pipeline stage, kStages stages. The block tile
// is always kTileM x kTileN (the planes are padded to it).
template <TcMethod M, int kKBytes, int kStages>
struct Config {
  static constexpr Scheme kScheme = scheme_of(M);
  // Two accumulators (corrected, Markidis) fill the register file at 64 x 32 per warp
  // with 8 warps. One accumulator affords 64 x 64 per warp, which loads a third fewer
  // shared-memory bytes per MMA; those CTAs have 4 warps, two per SM so that one
  // CTA's barrier is covered by the other's MMAs.
  static constexpr bool kOneAccumulator = kScheme == Scheme::kOnePass;
  static constexpr int kWarpsM = 2, kWarpsN = kOneAccumulator ? 2 : 4;
  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kCtasPerSm = kOneAccumulator ? 2 : 1;
  static constexpr int kWarpTileM = kTileM / kWarpsM;
  static constexpr int kWarpTileN = kTileN / kWarpsN;
  static constexpr int kFragsM = kWarpTileM / 16;
  static constexpr int kFragsN = kWarpTileN / 8;
  static constexpr int kStageKBytes = kKBytes;
  static constexpr int kSteps = kKBytes / kKStepBytes;  // MMA k-steps per stage
  // +16 B per row: the 8 rows an ldmatrix phase reads land in distinct bank groups.
  static constexpr int kRowPitch = kKBytes + 16;
  static constexpr int kPlaneBytes = kTileM * kRowPitch;
  static constexpr int kPlanes = uses_lo(M) ? 4 : 2;  // A_hi, B_hi [, A_lo, B_lo]
  static constexpr int kStageBytes = kPlanes * kPlaneBytes;
  static constexpr int kSmemBytes = kStages * kStageBytes;
  static constexpr int kChunksPerRow = kKBytes / 16;
  // Read the next k-step's fragments while this one's MMAs issue, where registers allow.
  static constexpr bool kDoubleBuffer = kOneAccumulator;
  static_assert(kSteps % 2 == 0, "fragment double buffering alternates within a stage");
  static_assert(kThreads % kChunksPerRow == 0 && kTileM % (kThreads / kChunksPerRow) == 0,
                "whole rows per pass, whole passes per tile");
};

struct Planes {
  const char* a_hi;
  const char* a_lo;
  const char* b_hi;
  const char* b_lo;
  int64_t row_bytes;  // k_pad * element size
};

// kTileM rows x kKBytes from one plane into shared memory, 16 bytes per cp.async.
// `src` points at the tile's first row and the stage's first K byte. The source
// pointer steps by whole passes of rows, so that no per-chunk 64-bit offsets stay live
// across the mainloop (the corrected kernels have no registers to spare).
template <class C>
__device__ __forceinline__ void load_plane(uint32_t dst, const char* src, int64_t row_bytes) {
  constexpr int kRowsPerPass = C::kThreads / C::kChunksPerRow;
  const int row = threadIdx.x / C::kChunksPerRow, col = threadIdx.x % C::kChunksPerRow;
  const char* from = src + row * row_bytes + col * 16;
  const uint32_t to = dst + row * C::kRowPitch + col * 16;
  const int64_t pass_bytes = kRowsPerPass * row_bytes;
#pragma unroll
  for (int i = 0; i < kTileM / kRowsPerPass; ++i) {
    cp_async_16(to + i * kRowsPerPass * C::kRowPitch, from);
    from += pass_bytes;
  }
}

template <TcMethod M, class C>
__device__ __forceinline__ void load_stage(uint32_t stage, const Planes& p, const Tile& t,
                                           int64_t k_tile) {
  const int64_t kb = k_tile * C::kStageKBytes;
  const int64_t a = t.m0 * p.row_bytes + kb, b = t.n0 * p.row_bytes + kb;
  load_plane<C>(stage + 0 * C::kPlaneBytes, p.a_hi + a, p.row_bytes);
  load_plane<C>(stage + 1 * C::kPlaneBytes, p.b_hi + b, p.row_bytes);
  if constexpr (uses_lo(M)) {
    load_plane<C>(stage + 2 * C::kPlaneBytes, p.a_lo + a, p.row_bytes);
    load_plane<C>(stage + 3 * C::kPlaneBytes, p.b_lo + b, p.row_bytes);
  }
}

// hi (and lo where the method has one) fragments of k-step `step` of one stage.
template <TcMethod M, class C>
__device__ __forceinline__ void load_step(Frags<C>& hi, Frags<C>& lo, uint32_t stage, int warp_m,
                                          int warp_n, int lane, int step) {
  load_frags<C>(hi, stage + 0 * C::kPlaneBytes, stage + 1 * C::kPlaneBytes, warp_m, warp_n, lane,
                step);
  if constexpr (uses_lo(M))
    load_frags<C>(lo, stage + 2 * C::kPlaneBytes, stage + 3 * C::kPlaneBytes, warp_m, warp_n,
                  lane, step);
}

template <class C>
struct Accumulators {
  float promoted[C::kFragsM][C::kFragsN][4];    // hi·hi, or the only accumulator
  float correction[C::kFragsM][C::kFragsN][4];  // lo·hi + hi·lo (+ lo·lo for Markidis)
};

// The MMAs of fragment row `mi` of one k-step.
template <TcMethod M, class C>
__device__ __forceinline__ void mma_row(Accumulators<C>& acc, int mi, const uint32_t (&hi_a)[4],
                                        const uint32_t (&lo_a)[4], const Frags<C>& hi,
                                        const Frags<C>& lo) {
#pragma unroll
  for (int ni = 0; ni < C::kFragsN; ++ni)
    mma_products<M>(acc.promoted[mi][ni], acc.correction[mi][ni], hi_a, lo_a, hi.b[ni], lo.b[ni]);
}

template <TcMethod M, class C>
__device__ __forceinline__ void mma_step(Accumulators<C>& acc, const Frags<C>& hi,
                                         const Frags<C>& lo) {
#pragma unroll
  for (int mi = 0; mi < C::kFragsM; ++mi) mma_row<M, C>(acc, mi, hi.a[mi], lo.a[mi], hi, lo);
}

// Without double buffering: all B fragments of the step first, then each row's A
// fragments just before its MMAs, so that one row of A is live at a time.
template <TcMethod M, class C>
__device__ __forceinline__ void load_and_mma_step(Accumulators<C>& acc, uint32_t stage,
                                                  int warp_m, int warp_n, int lane, int step) {
  Frags<C> hi, lo;
  load_frags_b<C>(hi, stage + 1 * C::kPlaneBytes, warp_n, lane, step);
  if constexpr (uses_lo(M)) load_frags_b<C>(lo, stage + 3 * C::kPlaneBytes, warp_n, lane, step);
#pragma unroll
  for (int mi = 0; mi < C::kFragsM; ++mi) {
    uint32_t hi_a[4], lo_a[4];
    load_frag_a<C>(hi_a, stage + 0 * C::kPlaneBytes, warp_m, lane, step, mi);
    if constexpr (uses_lo(M)) load_frag_a<C>(lo_a, stage + 2 * C::kPlaneBytes, warp_m, lane, step, mi);
    mma_row<M, C>(acc, mi, hi_a, lo_a, hi, lo);
  }
}

// Pipeline: cp.async fills stage i + kStages - 1 while stage i is consumed, and the
// fragments of each k-step are read from shared memory while the MMAs of the previous
// one issue (two register buffers; the first k-step of stage i + 1 is read during the
// last one of stage i, after the barrier that publishes it).
template <TcMethod M, int kKBytes, int kStages>
__global__ void __launch_bounds__(Config<M, kKBytes, kStages>::kThreads,
                                  Config<M, kKBytes, kStages>::kCtasPerSm)
planes_mma_kernel(Planes planes, int64_t tiles_m, int64_t tiles_n, int64_t k_tiles_per_split,
                  int64_t k_tiles, GemmArgs args, float* partials, int64_t m_pad, int64_t n_pad) {
  using C = Config<M, kKBytes, kStages>;
  extern __shared__ __align__(128) char smem[];
  if (route_skipped(args.scale)) return;  // AUTO: the other route runs (the whole CTA leaves)
  const uint32_t smem0 = smem_address(smem);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warp_m = warp / C::kWarpsN, warp_n = warp % C::kWarpsN;
  const Tile tile = raster_tile(tiles_m, tiles_n, kTileM, kTileN);
  const int64_t kt_begin = blockIdx.z * k_tiles_per_split;
  const int64_t kt_end = min(k_tiles, kt_begin + k_tiles_per_split);
  const int64_t count = kt_end - kt_begin;

  Accumulators<C> acc;
#pragma unroll
  for (int mi = 0; mi < C::kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < C::kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) acc.promoted[mi][ni][x] = acc.correction[mi][ni][x] = 0.0f;

  auto stage_addr = [&](int64_t i) {
    return smem0 + static_cast<uint32_t>(i % kStages) * C::kStageBytes;
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < count) load_stage<M, C>(stage_addr(s), planes, tile, kt_begin + s);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();
  __syncthreads();  // stage 0 landed for all threads

  Frags<C> hi[2], lo[2];
  if constexpr (C::kDoubleBuffer)
    load_step<M, C>(hi[0], lo[0], stage_addr(0), warp_m, warp_n, lane, 0);

  for (int64_t i = 0; i < count; ++i) {
    // Every thread passed the barrier that follows its last read of stage i - 1, the
    // slot that tile i + kStages - 1 refills.
    const int64_t next = i + kStages - 1;
    if (next < count) load_stage<M, C>(stage_addr(next), planes, tile, kt_begin + next);
    cp_async_commit();

    const uint32_t stage = stage_addr(i);
    // Double buffering indexes its buffers statically, so it needs the loop unrolled;
    // the corrected kernels keep it rolled, so ptxas does not hoist the next step's
    // fragments into registers they do not have.
#pragma unroll(C::kDoubleBuffer ? C::kSteps : 1)
    for (int step = 0; step < C::kSteps; ++step) {
      const int cur = C::kDoubleBuffer ? step % 2 : 0, nxt = (step + 1) % 2;
      const bool last = step + 1 == C::kSteps;
      if constexpr (C::kDoubleBuffer) {
        if (!last) {
          load_step<M, C>(hi[nxt], lo[nxt], stage, warp_m, warp_n, lane, step + 1);
        } else {
          cp_async_wait<kStages - 2>();
          __syncthreads();  // stage i + 1 landed for all threads; stage i is read out
          if (i + 1 < count)
            load_step<M, C>(hi[nxt], lo[nxt], stage_addr(i + 1), warp_m, warp_n, lane, 0);
        }
        mma_step<M, C>(acc, hi[cur], lo[cur]);
      } else {
        load_and_mma_step<M, C>(acc, stage, warp_m, warp_n, lane, step);
      }
      if constexpr (!C::kDoubleBuffer) {
        if (last) {
          cp_async_wait<kStages - 2>();
          __syncthreads();  // stage i + 1 landed for all threads; stage i is read out
        }
      }
    }
  }
  cp_async_wait<0>();

  // Epilogue. Fragment (mi, ni) holds rows g, g+8 and columns 2t, 2t+1 of its 16x8 tile.
  const Epilogue epi = Epilogue::of(args.scalars, gridDim.z == 1);
  float* partial = epi.direct ? nullptr : partials + blockIdx.z * m_pad * n_pad;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < C::kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < C::kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        const int64_t row = tile.m0 + warp_m * C::kWarpTileM + mi * 16 + g + (x / 2) * 8;
        const int64_t col = tile.n0 + warp_n * C::kWarpTileN + ni * 8 + 2 * t + (x % 2);
        const float v = finish_sum<M>(acc.promoted[mi][ni][x], acc.correction[mi][ni][x]);
        if (!epi.direct)  // padded planes: the reducer reads only the m x n part
          partial[col * m_pad + row] = v;
        else if (row < args.m && col < args.n)
          epi.store(args.c + col * args.ldc + row, unscale(args.scale, row, col, v));
      }
}

template <TcMethod M, int kKBytes, int kStages>
cudaError_t launch_mainloop(const GemmArgs& args, const PlanesPlan& w, char* ws,
                            const DeviceInfo& dev, cudaStream_t stream) {
  using C = Config<M, kKBytes, kStages>;
  constexpr auto kernel = planes_mma_kernel<M, kKBytes, kStages>;
  cudaError_t err = opt_in_shared_memory<kernel>(dev.ordinal, C::kSmemBytes);
  if (err != cudaSuccess) return err;
  const Planes planes{ws + w.a_hi, ws + w.a_lo, ws + w.b_hi, ws + w.b_lo,
                      w.k_pad * static_cast<int64_t>(element_bytes(M))};
  const int64_t tiles_m = w.m_pad / kTileM, tiles_n = w.n_pad / kTileN;
  // k_pad is a whole number of kPadKBytes, hence of kKBytes.
  const int64_t k_tiles = w.k_pad * static_cast<int64_t>(element_bytes(M)) / kKBytes;
  const int64_t per_split = (k_tiles + w.splits - 1) / w.splits;
  float* partials = reinterpret_cast<float*>(ws + w.partials);
  const dim3 grid(static_cast<unsigned>(tiles_m * tiles_n), 1, static_cast<unsigned>(w.splits));
  err = launch({grid, C::kThreads, C::kSmemBytes, stream}, kernel, planes, tiles_m, tiles_n,
               per_split, k_tiles, args, partials, w.m_pad, w.n_pad);
  if (err != cudaSuccess || w.splits == 1) return err;
  return launch_splitk_reduce(args, planes_partials(w, ws), stream, false);
}

template <TcMethod M>
cudaError_t launch_for_method(const GemmArgs& args, const PlanesPlan& w, char* ws,
                              const DeviceInfo& dev, cudaStream_t stream) {
  static_assert(kPadKBytes % 128 == 0, "128-byte stages need K padded to 128 bytes");
  // Shared memory per CTA: the per-block limit, or half an SM's (which is the
  // per-block limit + 1 KB on sm_80/86/89/90, less 1 KB reserved per CTA) for two.
  const int per_sm = dev.max_smem_per_block + 1024;
  const int budget = Config<M, 128, 2>::kCtasPerSm == 1 ? dev.max_smem_per_block
                                                        : per_sm / 2 - 1024;
  // 128 bytes of K per stage (half the barriers of 64) with as many stages as fit:
  // sm_90 three, sm_80 two; sm_86/sm_89 (99 KB) take 64-byte stages.
  if (Config<M, 128, 3>::kSmemBytes <= budget) return launch_mainloop<M, 128, 3>(args, w, ws, dev, stream);
  if (Config<M, 128, 2>::kSmemBytes <= budget) return launch_mainloop<M, 128, 2>(args, w, ws, dev, stream);
  return launch_mainloop<M, 64, 2>(args, w, ws, dev, stream);
}

}  // namespace

cudaError_t launch_planes_mma(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                              char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return launch_for_method<decltype(m)::value>(args, plan, ws, dev, stream);
  });
}

}  // namespace ecgemm::detail
