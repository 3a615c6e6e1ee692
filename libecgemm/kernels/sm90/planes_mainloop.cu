// The planes family's wgmma mainloop (sm_90a) over the pre-split, K-major, zero-padded
// operand planes that the split pass (planes/split_pass.cu) writes.
//
// A CTA computes 128 x 128 tiles of C with three warpgroups: a producer that
// streams 128-byte K slices of every plane into a ring of shared-memory stages with
// the copy engine (TMA, 128-byte swizzle, completion on mbarriers), and two
// consumers, each owning 64 rows x 128 columns, that issue m64n128 wgmmas. One CTA a
// tile (planes_wgmma_kernel), or persistent CTAs walking the tiles (planes_wgmma_walk_kernel:
// AUTO's routes, and the plain methods' plans with PlanesPlan::walk).
//
// The consumers and the error correction are sm90/wgmma_consumer.cuh's.
#include <cuda.h>  // CUtensorMap and its enums only: the encoder comes from the runtime
#include <cuda_fp16.h>
#include <cudaTypedefs.h>

#include <climits>
#include <type_traits>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/common/tile_scheduler.cuh"
#include "kernels/planes/parts.hpp"
#include "kernels/sm90/ptx.cuh"
#include "kernels/sm90/tensor_map.hpp"
#include "kernels/sm90/wgmma_consumer.cuh"
#include "split.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kConsumers = 2;                        // warpgroups issuing wgmma
constexpr int kThreads = 128 * (1 + kConsumers);
constexpr int kSliceBytes = kPadKBytes;              // one 128-byte swizzle row of K
constexpr int kPlaneBytes = kTileM * kSliceBytes;    // 16 KB; kTileM == kTileN
constexpr int kStageRing = 192 * 1024;               // shared memory for the stage ring
constexpr int kSmemAlign = 1024;                     // 128-byte swizzle atom
static_assert(kTileM == kTileN && kTileM == 128, "one box shape serves A and B planes");

template <TcMethod M>
struct WgmmaTraits {
  static constexpr int kPlanes = uses_lo(M) ? 4 : 2;  // A_hi, B_hi [, A_lo, B_lo]
  static constexpr int kStageBytes = kPlanes * kPlaneBytes;
  static constexpr int kStages = kStageRing / kStageBytes;  // 3, or 6 for one pass
  static constexpr int kSmemBytes = kStages * kStageBytes + kSmemAlign;
};

// Tensor maps of the planes, passed by value as one __grid_constant__ parameter.
struct PlaneMaps {
  CUtensorMap a_hi, b_hi, a_lo, b_lo;
};

struct Problem {
  int64_t tiles_m, tiles_n;
  int64_t k_slices, slices_per_split;
  int64_t splits;   // split-K factor (gridDim.z in the plain kernel; the walk kernel's CTAs walk them)
  int64_t m_pad, n_pad;
  float* partials;  // split-K only
  GemmArgs args;
};

#if defined(ECGEMM_SM90A_DEVICE)
using namespace sm90;

constexpr int kConsumerWarps = 4 * kConsumers;       // arrivals that free a stage
constexpr int kProducerRegs = 40, kConsumerRegs = 232;  // 128 * (40 + 2 * 232) <= 64 K
static_assert(kConsumerRows * kSliceBytes % kSmemAlign == 0, "consumer slabs keep the atom");

// The K slices of split `split`: `*first` on, the count returned. Trailing splits may own
// none; they still write their (zero) partials.
__device__ __forceinline__ int64_t split_slices(const Problem& p, int64_t split, int64_t* first) {
  *first = split * p.slices_per_split;
  return max(int64_t(0), min(p.k_slices, *first + p.slices_per_split) - *first);
}

// Thread 0 sets up the CTA's stage ring (the producer's arrival and the copy bytes fill a
// slot) and prefetches the hi planes' tensor maps; then the CTA's first barrier.
template <TcMethod M>
__device__ __forceinline__ void setup_ring(const PlaneMaps& maps, uint32_t full, uint32_t empty) {
  if (threadIdx.x == 0) {
    init_stage_ring(full, empty, WgmmaTraits<M>::kStages, 1, kConsumerWarps);
    fence_barrier_init();
    prefetch_tensor_map(&maps.a_hi);
    prefetch_tensor_map(&maps.b_hi);
  }
  __syncthreads();
}

// Ring slot s's planes.
template <TcMethod M>
__device__ __forceinline__ StageLayout stage_at(uint32_t ring, uint32_t s) {
  const uint32_t base = ring + s * WgmmaTraits<M>::kStageBytes;
  return StageLayout{base, base + kPlaneBytes, base + 2 * kPlaneBytes, base + 3 * kPlaneBytes};
}

// The producer thread: slice first + i of the tile is the ring's slice seq0 + i (consume's
// numbering); it fills that slice's slot once consumers freed it.
template <TcMethod M>
__device__ __forceinline__ void produce(const PlaneMaps& maps, const Tile& tile, int64_t first,
                                        int64_t count, uint32_t ring, uint32_t full,
                                        uint32_t empty, uint64_t seq0 = 0) {
  using T = WgmmaTraits<M>;
  constexpr int kSliceElems = kSliceBytes / static_cast<int>(element_bytes(M));
  const int32_t m0 = static_cast<int32_t>(tile.m0), n0 = static_cast<int32_t>(tile.n0);
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t seq = seq0 + i;
    const uint32_t s = static_cast<uint32_t>(seq % T::kStages);
    const uint32_t round = static_cast<uint32_t>(seq / T::kStages);
    if (round > 0) mbarrier_wait(empty + 8 * s, (round - 1) & 1);
    const uint32_t stage = ring + s * T::kStageBytes, bar = full + 8 * s;
    mbarrier_arrive_expect_tx(bar, T::kStageBytes);
    const int32_t k = static_cast<int32_t>((first + i) * kSliceElems);
    tma_load_2d(stage + 0 * kPlaneBytes, &maps.a_hi, k, m0, bar);
    tma_load_2d(stage + 1 * kPlaneBytes, &maps.b_hi, k, n0, bar);
    if constexpr (uses_lo(M)) {
      tma_load_2d(stage + 2 * kPlaneBytes, &maps.a_lo, k, m0, bar);
      tma_load_2d(stage + 3 * kPlaneBytes, &maps.b_lo, k, n0, bar);
    }
  }
}

// kAuto: AUTO's launch (gemm_args.hpp), which scales C back; the plain kernels keep a
// loop without that code (a run-time test in it cost a third of 8192 x 64 x 8192's time).
template <TcMethod M, bool kAuto>
__device__ __forceinline__ void store_tile(const Accumulators<>& acc, const Problem& p,
                                           const Tile& tile, int64_t split, int consumer) {
  const int64_t row0 = tile.m0 + consumer * kConsumerRows, col0 = tile.n0;
  const Epilogue epi = Epilogue::of(p.args.scalars, p.splits == 1);
  float* partial = epi.direct ? nullptr : p.partials + split * p.m_pad * p.n_pad;
  // AUTO: this thread's 2 row and 32 column exponents (0 where nothing is to undo: split-K
  // partials stay scaled for the reduction, unscaled routes), read before the first
  // store to C: no load can move above a store that may alias it, and read per element
  // they left 64 exposed latencies per thread (~15% of a 4096^3 call on an H200).
  int row_e[2] = {0, 0}, col_e[32] = {};
  if constexpr (kAuto) {
    const AutoScale& sc = p.args.scale;
    if (epi.direct && *sc.route != kAutoUnscaledRoute) {
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const int64_t row = row0 + slab_row(2 * i);
        row_e[i] = row < p.args.m ? sc.row_exp[row] : 0;
      }
#pragma unroll
      for (int j = 0; j < 32; ++j) {
        const int64_t col = col0 + slab_col((j / 2) * 4 + j % 2);
        col_e[j] = col < p.args.n ? sc.col_exp[col] : 0;
      }
    }
  }
#pragma unroll
  for (int v = 0; v < 64; ++v) {
    const int64_t row = row0 + slab_row(v), col = col0 + slab_col(v);
    float value = finish_sum<M>(acc.promoted[v], acc.correction[v]);
    if constexpr (kAuto)
      value = times_pow2(value, -(row_e[(v / 2) % 2] + col_e[(v / 4) * 2 + v % 2]));
    if (!epi.direct)  // padded planes: the reducer reads only the m x n part
      partial[col * p.m_pad + row] = value;
    else if (row < p.args.m && col < p.args.n)
      epi.store(p.args.c + col * p.args.ldc + row, value);
  }
}

#endif  // ECGEMM_SM90A_DEVICE

template <TcMethod M>
__global__ void __launch_bounds__(kThreads, 1)
planes_wgmma_kernel(const __grid_constant__ PlaneMaps maps, const __grid_constant__ Problem p) {
#if defined(ECGEMM_SM90A_DEVICE)
  using T = WgmmaTraits<M>;
  extern __shared__ char smem_raw[];
  __shared__ __align__(8) uint64_t full_bars[T::kStages], empty_bars[T::kStages];
  const uint32_t ring = (smem_u32(smem_raw) + kSmemAlign - 1) & ~uint32_t(kSmemAlign - 1);
  const uint32_t full = smem_u32(full_bars), empty = smem_u32(empty_bars);
  const Tile tile = raster_tile(p.tiles_m, p.tiles_n, kTileM, kTileN);
  int64_t first;
  const int64_t count = split_slices(p, blockIdx.z, &first);
  setup_ring<M>(maps, full, empty);
  // Launched as a dependent of the split pass: the setup above overlapped its tail; the
  // planes are read (and C, the partials written) only after it finished.
  wait_for_prior_grids();
  allow_dependents();  // the split-K reduction may queue up behind this kernel

  const int group = threadIdx.x / 128;
  if (group == 0) {
    release_registers<kProducerRegs>();
    if (threadIdx.x == 0) produce<M>(maps, tile, first, count, ring, full, empty);
  } else {
    claim_registers<kConsumerRegs>();
    Accumulators<> acc;
    acc.clear();
    auto stage = [ring](uint32_t s) { return stage_at<M>(ring, s); };
    consume<M, T::kStages>(acc, count, stage, full, empty, group - 1);
    store_tile<M, false>(acc, p, tile, blockIdx.z, group - 1);
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // never launched: planes_wgmma_usable requires the sm_90a image
#endif
}

// Persistent CTAs (one an SM) walking the tiles and splits (common/tile_scheduler.cuh). A
// CTA's tiles continue one ring sequence, so its producer loads the next tile while its
// consumers finish and store this one, and a new tile costs no CTA launch, ring setup or
// pipeline fill: on grids of many waves whose tiles run few K slices, that fixed cost is
// most of a tile's time (docs/architecture.md: planes). kAuto: AUTO's launch, one per route
// (gemm_args.hpp), the route not taken returning at once, so that it costs one wave, not the
// tiles' (an empty launch of every tile cost ~60 us at 4096^3 on an H200), and each route
// keeps one body: both in one kernel ran 677 us against halfhalf's 617 at 4096^3, 8x the warps
// stalled on instruction fetch (ncu). H200, 4096^3, type-1 data: 629 us, as plain halfhalf's
// tiles, and 1.5 us for the launch that returns. kAuto is a template argument: AUTO's epilogue
// behind a run-time switch ran 11-13% slower on epilogue-bound shapes. (Measurements:
// bench/results/README.md, #walk for the plain methods.)
template <TcMethod M, bool kAuto>
__global__ void __launch_bounds__(kThreads, 1)
planes_wgmma_walk_kernel(const __grid_constant__ PlaneMaps maps, const __grid_constant__ Problem p) {
#if defined(ECGEMM_SM90A_DEVICE)
  using T = WgmmaTraits<M>;
  if constexpr (kAuto)
    if (route_skipped(p.args.scale)) return;
  extern __shared__ char smem_raw[];
  __shared__ __align__(8) uint64_t full_bars[T::kStages], empty_bars[T::kStages];
  const uint32_t ring = (smem_u32(smem_raw) + kSmemAlign - 1) & ~uint32_t(kSmemAlign - 1);
  const uint32_t full = smem_u32(full_bars), empty = smem_u32(empty_bars);
  setup_ring<M>(maps, full, empty);
  if constexpr (!kAuto) {  // a dependent of the split pass, as the plain kernel
    wait_for_prior_grids();
    allow_dependents();
  }
  const int group = threadIdx.x / 128;
  uint64_t seq = 0;
  if (group == 0) {
    release_registers<kProducerRegs>();
    if (threadIdx.x != 0) return;
    for_each_work_item(p.tiles_m, p.tiles_n, p.splits, kTileM, kTileN,
                       [&](const Tile& tile, int64_t split) {
                         int64_t first;
                         const int64_t count = split_slices(p, split, &first);
                         produce<M>(maps, tile, first, count, ring, full, empty, seq);
                         seq += count;
                       });
  } else {
    claim_registers<kConsumerRegs>();
    auto stage = [ring](uint32_t s) { return stage_at<M>(ring, s); };
    for_each_work_item(p.tiles_m, p.tiles_n, p.splits, kTileM, kTileN,
                       [&](const Tile& tile, int64_t split) {
                         int64_t first;
                         const int64_t count = split_slices(p, split, &first);
                         Accumulators<> acc;
                         acc.clear();
                         consume<M, T::kStages>(acc, count, stage, full, empty, group - 1, seq,
                                                true);
                         store_tile<M, kAuto>(acc, p, tile, split, group - 1);
                         seq += count;
                       });
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // never launched: planes_wgmma_usable requires the sm_90a image
#endif
}

// ---- host side -------------------------------------------------------------------

// A rows x k_pad plane read in 128-row x 128-byte boxes, swizzled as wgmma expects.
bool encode_plane(CUtensorMap* map, TcMethod method, const char* plane, int64_t rows,
                  int64_t k_pad) {
  const cuuint32_t elem = static_cast<cuuint32_t>(element_bytes(method));
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(k_pad), static_cast<cuuint64_t>(rows)};
  const cuuint64_t row_stride[1] = {static_cast<cuuint64_t>(k_pad) * elem};
  const cuuint32_t box[2] = {kSliceBytes / elem, kTileM};
  const cuuint32_t unit[2] = {1, 1};
  const CUtensorMapDataType type =
      uses_half(method) ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  return tensor_map_encoder()(map, type, 2, const_cast<char*>(plane), dims, row_stride, box, unit,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

template <TcMethod M>
cudaError_t launch_kernel(const PlaneMaps& maps, const Problem& p, bool walk, const DeviceInfo& dev,
                          cudaStream_t stream) {
  constexpr int kSmem = WgmmaTraits<M>::kSmemBytes;
  if (walk) {  // persistent: at most one CTA an SM
    constexpr auto kernel = planes_wgmma_walk_kernel<M, false>;
    const cudaError_t err = opt_in_shared_memory<kernel>(dev.ordinal, kSmem);
    if (err != cudaSuccess) return err;
    const int64_t work = p.tiles_m * p.tiles_n * p.splits;
    const auto ctas = static_cast<unsigned>(work < dev.sm_count ? work : dev.sm_count);
    return launch({ctas, kThreads, kSmem, stream, true}, kernel, maps, p);
  }
  constexpr auto kernel = planes_wgmma_kernel<M>;
  const cudaError_t err = opt_in_shared_memory<kernel>(dev.ordinal, kSmem);
  if (err != cudaSuccess) return err;
  const dim3 grid(static_cast<unsigned>(p.tiles_m * p.tiles_n), 1, static_cast<unsigned>(p.splits));
  return launch({grid, kThreads, kSmem, stream, true}, kernel, maps, p);
}

// The tensor maps and the problem of one plan; false if a map cannot be encoded.
template <TcMethod M>
bool describe(const GemmArgs& args, const PlanesPlan& w, char* ws, PlaneMaps* maps, Problem* p) {
  *maps = PlaneMaps{};
  const bool encoded =
      encode_plane(&maps->a_hi, M, ws + w.a_hi, w.m_pad, w.k_pad) &&
      encode_plane(&maps->b_hi, M, ws + w.b_hi, w.n_pad, w.k_pad) &&
      (!uses_lo(M) || (encode_plane(&maps->a_lo, M, ws + w.a_lo, w.m_pad, w.k_pad) &&
                       encode_plane(&maps->b_lo, M, ws + w.b_lo, w.n_pad, w.k_pad)));
  p->tiles_m = w.m_pad / kTileM;
  p->tiles_n = w.n_pad / kTileN;
  p->k_slices = w.k_pad * static_cast<int64_t>(element_bytes(M)) / kSliceBytes;
  p->slices_per_split = (p->k_slices + w.splits - 1) / w.splits;
  p->splits = w.splits;
  p->m_pad = w.m_pad;
  p->n_pad = w.n_pad;
  p->partials = reinterpret_cast<float*>(ws + w.partials);
  p->args = args;
  return encoded;
}

template <TcMethod M>
cudaError_t launch_method(const GemmArgs& args, const PlanesPlan& w, char* ws,
                          const DeviceInfo& dev, cudaStream_t stream) {
  PlaneMaps maps;
  Problem p;
  if (!describe<M>(args, w, ws, &maps, &p)) return cudaErrorInvalidValue;
  const cudaError_t err = launch_kernel<M>(maps, p, w.walk, dev, stream);
  if (err != cudaSuccess || w.splits == 1) return err;
  return launch_splitk_reduce(args, planes_partials(w, ws), stream, true);
}

}  // namespace

bool planes_wgmma_usable(TcMethod method, const PlanesPlan& plan, const DeviceInfo& dev) {
  (void)method;  // every mode has an sm90 kernel
  // Tensor-map coordinates are 32-bit; the grid's x extent is 2^31 - 1 tiles.
  const int64_t rows = plan.m_pad > plan.n_pad ? plan.m_pad : plan.n_pad;
  const int64_t tiles = (plan.m_pad / kTileM) * (plan.n_pad / kTileN);
  return plan.k_pad <= INT32_MAX && rows <= INT32_MAX && tiles <= INT32_MAX &&
         plan.splits <= 65535 && wgmma_usable(dev, WgmmaTraits<TcMethod::kTf32Tf32>::kSmemBytes);
}

cudaError_t launch_planes_wgmma(TcMethod method, const GemmArgs& args, const PlanesPlan& plan,
                                char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return launch_method<decltype(m)::value>(args, plan, ws, dev, stream);
  });
}

namespace {

// One route of AUTO: a persistent grid, at most one CTA an SM.
template <TcMethod M>
cudaError_t launch_auto_route(const PlaneMaps& maps, const Problem& p, const DeviceInfo& dev,
                              cudaStream_t stream) {
  constexpr auto kernel = planes_wgmma_walk_kernel<M, true>;
  constexpr int kSmem = WgmmaTraits<M>::kSmemBytes;
  const cudaError_t err = opt_in_shared_memory<kernel>(dev.ordinal, kSmem);
  if (err != cudaSuccess) return err;
  const int64_t work = p.tiles_m * p.tiles_n * p.splits;
  const auto ctas = static_cast<unsigned>(work < dev.sm_count ? work : dev.sm_count);
  return launch({ctas, kThreads, kSmem, stream}, kernel, maps, p);
}

}  // namespace

cudaError_t launch_planes_wgmma_auto(const GemmArgs& scaled, const PlanesPlan& half,
                                     const GemmArgs& fallback, const PlanesPlan& tf32,
                                     char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  PlaneMaps half_maps, tf32_maps;
  Problem half_p, tf32_p;
  if (!describe<TcMethod::kHalfHalf>(scaled, half, ws, &half_maps, &half_p) ||
      !describe<TcMethod::kTf32Tf32>(fallback, tf32, ws, &tf32_maps, &tf32_p))
    return cudaErrorInvalidValue;
  // Each launch, and each reduction, returns at once unless its route was taken.
  cudaError_t err = launch_auto_route<TcMethod::kHalfHalf>(half_maps, half_p, dev, stream);
  if (err != cudaSuccess) return err;
  if ((err = launch_auto_route<TcMethod::kTf32Tf32>(tf32_maps, tf32_p, dev, stream)) != cudaSuccess)
    return err;
  if (half.splits > 1 &&
      (err = launch_splitk_reduce(scaled, planes_partials(half, ws), stream, false)) != cudaSuccess)
    return err;
  if (tf32.splits > 1)
    return launch_splitk_reduce(fallback, planes_partials(tf32, ws), stream, false);
  return cudaSuccess;
}

}  // namespace ecgemm::detail
