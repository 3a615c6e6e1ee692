// Hopper Tensor Core mainloop (wgmma, sm_90a) over the pre-split, K-major,
// zero-padded operand planes that split_operands.cu writes.
//
// One CTA computes a 128 x 128 tile of C with three warpgroups: a producer that
// streams 128-byte K slices of every plane into a ring of shared-memory stages with
// the copy engine (TMA, 128-byte swizzle, completion on mbarriers), and two
// consumers, each owning 64 rows x 128 columns, that issue m64n128 wgmmas.
//
// Error correction (Ootomo & Yokota 2022), as in the sm80 kernel: per wgmma k-step
// (k16 FP16, k8 TF32) hi·hi is issued with scale-d = 0 into `product`, and added to
// `promoted` with FP32 round-to-nearest adds on the SIMT cores, because the Tensor
// Core's own accumulation truncates. lo·hi + hi·lo accumulate inside the Tensor Core
// in `correction`. hi·hi and the corrections are committed as separate wgmma groups,
// so the adds for one k-step overlap the correction products of the same k-step.
// Three 64-float accumulators per thread are what fits in the register file; they
// set the tile.
#include <cuda.h>  // CUtensorMap and its enums only: the encoder comes from the runtime
#include <cuda_fp16.h>
#include <cudaTypedefs.h>

#include <climits>
#include <type_traits>

#include "../split.cuh"
#include "sm90_ptx.cuh"
#include "tc_config.hpp"
#include "tc_tile.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kConsumers = 2;                        // warpgroups issuing wgmma
constexpr int kThreadsSm90 = 128 * (1 + kConsumers);
constexpr int kSliceBytes = kPadKBytes;              // one 128-byte swizzle row of K
constexpr int kPlaneBytes = kTileM * kSliceBytes;    // 16 KB; kTileM == kTileN
constexpr int kStageRing = 192 * 1024;               // shared memory for the stage ring
constexpr int kSmemAlign = 1024;                     // 128-byte swizzle atom
static_assert(kTileM == kTileN && kTileM == 128, "one box shape serves A and B planes");

template <TcMethod M>
struct Sm90Traits {
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
  int64_t m_pad, n_pad;
  float* partials;  // split-K only
  GemmArgs args;
};

#if defined(ECGEMM_SM90A_DEVICE)
using namespace sm90;

constexpr int kConsumerRows = kTileM / kConsumers;   // 64: one m64 wgmma
constexpr int kConsumerWarps = 4 * kConsumers;       // arrivals that free a stage
constexpr int kKStepBytes = 32;                      // wgmma k16 FP16 / k8 TF32
constexpr int kKSteps = kSliceBytes / kKStepBytes;   // 4 per stage
constexpr int kProducerRegs = 40, kConsumerRegs = 232;  // 128 * (40 + 2 * 232) <= 64 K
// k-steps of hi·hi per RN promotion; 1 is the paper's scheme. On an H100, 2 ran 18%
// faster for tf32tf32 at n = 8192 but lost accuracy on positive data, where the Tensor
// Core's truncation does not cancel (64 x 4096 x 64 urand(0, 1), halfhalf: residual
// 1.00e-7 against 7.4e-8), so it stays 1.
constexpr int kPromoteSteps = 1;
static_assert(kConsumerRows * kSliceBytes % kSmemAlign == 0, "consumer slabs keep the atom");

template <TcMethod M>
constexpr Scheme kScheme = scheme_of(M);

// The producer thread: fills stage i % kStages with slice i once consumers freed it.
template <TcMethod M>
__device__ __forceinline__ void produce(const PlaneMaps& maps, const Tile& tile, int64_t first,
                                        int64_t count, uint32_t ring, uint32_t full,
                                        uint32_t empty) {
  using T = Sm90Traits<M>;
  constexpr int kSliceElems = kSliceBytes / static_cast<int>(element_bytes(M));
  const int32_t m0 = static_cast<int32_t>(tile.m0), n0 = static_cast<int32_t>(tile.n0);
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t s = static_cast<uint32_t>(i % T::kStages);
    const uint32_t round = static_cast<uint32_t>(i / T::kStages);
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

struct Accumulators {
  float promoted[64];    // hi·hi (RN-promoted for the corrected modes), or the only one
  float correction[64];  // lo·hi + hi·lo (+ lo·lo for Markidis), inside the Tensor Core
};

// Descriptors of one stage for this consumer's 64-row slab of A and all of B.
struct StageDescs {
  uint64_t a_hi, b_hi, a_lo, b_lo;
  __device__ __forceinline__ StageDescs(uint32_t stage, int consumer) {
    const uint32_t slab = consumer * kConsumerRows * kSliceBytes;
    a_hi = kmajor_sw128_desc(stage + 0 * kPlaneBytes + slab);
    b_hi = kmajor_sw128_desc(stage + 1 * kPlaneBytes);
    a_lo = kmajor_sw128_desc(stage + 2 * kPlaneBytes + slab);
    b_lo = kmajor_sw128_desc(stage + 3 * kPlaneBytes);
  }
};

template <TcMethod M>
__device__ __forceinline__ void consume(Accumulators& acc, int64_t count, uint32_t ring,
                                        uint32_t full, uint32_t empty, int consumer) {
  using T = Sm90Traits<M>;
  constexpr int kPromote = kPromoteSteps;
  using Mma = std::conditional_t<uses_half(M), WgmmaF16, WgmmaTf32>;
  static_assert(kKSteps % kPromote == 0, "promotion groups tile the stage");
  const bool signals = threadIdx.x % 32 == 0;
  float product[64];
#pragma unroll
  for (int x = 0; x < 64; ++x) product[x] = 0.0f;
  pin_registers(acc.promoted);
  if constexpr (kScheme<M> != Scheme::kOnePass) pin_registers(acc.correction);
  for (int64_t i = 0; i < count; ++i) {
    const uint32_t s = static_cast<uint32_t>(i % T::kStages);
    mbarrier_wait(full + 8 * s, static_cast<uint32_t>(i / T::kStages) & 1);
    const StageDescs d(ring + s * T::kStageBytes, consumer);
    // After this wait every group of slice i-1 is done: its stage can be refilled.
    auto release_previous = [&] {
      if (i > 0 && signals) mbarrier_arrive(empty + 8 * ((i - 1) % T::kStages));
    };
    if constexpr (kScheme<M> == Scheme::kCorrected) {
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
        for (int x = 0; x < 64; ++x) acc.promoted[x] += product[x];  // the RN promotion
      }
    } else {
      wgmma_fence();
#pragma unroll
      for (int j = 0; j < kKSteps; ++j) {
        const uint32_t off = j * kKStepBytes;
        if constexpr (kScheme<M> == Scheme::kFourProducts) {  // smallest terms first
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
  pin_registers(acc.promoted);
  if constexpr (kScheme<M> != Scheme::kOnePass) pin_registers(acc.correction);
}

// Thread t of consumer c holds element v of its 64 x 128 slab at row
// 16*(t/32) + (t%32)/4 + 8*((v/2)%2), column 8*(v/4) + 2*(t%4) + v%2.
template <TcMethod M>
__device__ __forceinline__ void store_tile(const Accumulators& acc, const Problem& p,
                                           const Tile& tile, int consumer) {
  constexpr float kCorrScale = M == TcMethod::kHalfx3 ? kHalfLoUnscale : 1.0f;
  const int t = threadIdx.x % 128, lane = t % 32;
  const int64_t row0 = tile.m0 + consumer * kConsumerRows + 16 * (t / 32) + lane / 4;
  const int64_t col0 = tile.n0 + 2 * (lane % 4);
  const bool direct = gridDim.z == 1;
  const float alpha = direct ? resolve_alpha(p.args.scalars) : 0.0f;
  const float beta = direct ? resolve_beta(p.args.scalars) : 0.0f;
  float* partial = direct ? nullptr : p.partials + blockIdx.z * p.m_pad * p.n_pad;
#pragma unroll
  for (int v = 0; v < 64; ++v) {
    const int64_t row = row0 + 8 * ((v / 2) % 2), col = col0 + 8 * (v / 4) + v % 2;
    float value = acc.promoted[v];
    // An infinite hi·hi sum is what FP32 arithmetic gives; the correction would only
    // add Inf·lo terms whose signs follow the remainders' (Inf - Inf = NaN).
    if constexpr (kScheme<M> != Scheme::kOnePass)
      if (!isinf(value)) value += acc.correction[v] * kCorrScale;
    if (!direct) {
      partial[col * p.m_pad + row] = value;
    } else if (row < p.args.m && col < p.args.n) {
      store_epilogue(p.args.c + col * p.args.ldc + row, value, alpha, beta);
    }
  }
}
#endif  // ECGEMM_SM90A_DEVICE

template <TcMethod M>
__global__ void __launch_bounds__(kThreadsSm90, 1)
sm90_tc_gemm_kernel(const __grid_constant__ PlaneMaps maps, const __grid_constant__ Problem p) {
#if defined(ECGEMM_SM90A_DEVICE)
  using T = Sm90Traits<M>;
  extern __shared__ char smem_raw[];
  __shared__ __align__(8) uint64_t full_bars[T::kStages], empty_bars[T::kStages];
  const uint32_t ring = (smem_u32(smem_raw) + kSmemAlign - 1) & ~uint32_t(kSmemAlign - 1);
  const uint32_t full = smem_u32(full_bars), empty = smem_u32(empty_bars);
  const Tile tile = raster_tile(p.tiles_m, p.tiles_n);
  // Trailing splits may own no slice; they still write their (zero) partials.
  const int64_t first = blockIdx.z * p.slices_per_split;
  const int64_t count = max(int64_t(0), min(p.k_slices, first + p.slices_per_split) - first);

  if (threadIdx.x == 0) {
    for (int s = 0; s < T::kStages; ++s) {
      mbarrier_init(full + 8 * s, 1);  // the producer's arrive + the copy bytes
      mbarrier_init(empty + 8 * s, kConsumerWarps);
    }
    fence_barrier_init();
    prefetch_tensor_map(&maps.a_hi);
    prefetch_tensor_map(&maps.b_hi);
  }
  __syncthreads();

  const int group = threadIdx.x / 128;
  if (group == 0) {
    release_registers<kProducerRegs>();
    if (threadIdx.x == 0) produce<M>(maps, tile, first, count, ring, full, empty);
  } else {
    claim_registers<kConsumerRegs>();
    Accumulators acc;
#pragma unroll
    for (int x = 0; x < 64; ++x) acc.promoted[x] = acc.correction[x] = 0.0f;
    consume<M>(acc, count, ring, full, empty, group - 1);
    store_tile<M>(acc, p, tile, group - 1);
  }
#elif defined(__CUDA_ARCH__)
  __trap();  // never launched: sm90_mainloop_usable requires the sm_90a image
#endif
}

// ---- host side -------------------------------------------------------------------

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encoder;
}

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
cudaError_t launch_kernel(const PlaneMaps& maps, const Problem& p, int splits,
                          cudaStream_t stream) {
  auto kernel = sm90_tc_gemm_kernel<M>;
  constexpr int kSmem = Sm90Traits<M>::kSmemBytes;
  cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  if (err != cudaSuccess) return err;
  const dim3 grid(static_cast<unsigned>(p.tiles_m * p.tiles_n), 1, static_cast<unsigned>(splits));
  kernel<<<grid, kThreadsSm90, kSmem, stream>>>(maps, p);
  return cudaGetLastError();
}

template <TcMethod M>
cudaError_t launch_method(const GemmArgs& args, const TcWorkspace& w, char* ws,
                          const DeviceInfo& dev, cudaStream_t stream) {
  PlaneMaps maps{};
  const bool encoded =
      encode_plane(&maps.a_hi, M, ws + w.a_hi, w.m_pad, w.k_pad) &&
      encode_plane(&maps.b_hi, M, ws + w.b_hi, w.n_pad, w.k_pad) &&
      (!uses_lo(M) || (encode_plane(&maps.a_lo, M, ws + w.a_lo, w.m_pad, w.k_pad) &&
                       encode_plane(&maps.b_lo, M, ws + w.b_lo, w.n_pad, w.k_pad)));
  if (!encoded) return cudaErrorInvalidValue;
  Problem p;
  p.tiles_m = w.m_pad / kTileM;
  p.tiles_n = w.n_pad / kTileN;
  p.k_slices = w.k_pad * static_cast<int64_t>(element_bytes(M)) / kSliceBytes;
  p.slices_per_split = (p.k_slices + w.splits - 1) / w.splits;
  p.m_pad = w.m_pad;
  p.n_pad = w.n_pad;
  p.partials = reinterpret_cast<float*>(ws + w.partials);
  p.args = args;
  const cudaError_t err = launch_kernel<M>(maps, p, w.splits, stream);
  if (err != cudaSuccess || w.splits == 1) return err;
  return launch_splitk_reduce(args, w, ws, dev, stream);
}

}  // namespace

bool sm90_mainloop_usable(TcMethod method, const TcWorkspace& plan, const DeviceInfo& dev) {
  (void)method;  // every mode has an sm90 kernel
#if defined(ECGEMM_HAS_SM90A)
  // Tensor-map coordinates are 32-bit; the grid's x extent is 2^31 - 1 tiles.
  const int64_t k_elems = plan.k_pad;
  const int64_t rows = plan.m_pad > plan.n_pad ? plan.m_pad : plan.n_pad;
  const int64_t tiles = (plan.m_pad / kTileM) * (plan.n_pad / kTileN);
  return dev.cc_major == 9 && dev.cc_minor == 0 && k_elems <= INT32_MAX && rows <= INT32_MAX &&
         tiles <= INT32_MAX && plan.splits <= 65535 && tensor_map_encoder() != nullptr &&
         Sm90Traits<TcMethod::kTf32x3>::kSmemBytes <= dev.max_smem_per_block;
#else
  (void)plan, (void)dev;
  return false;
#endif
}

cudaError_t launch_sm90_mainloop(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                 char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return launch_method<decltype(m)::value>(args, plan, ws, dev, stream);
  });
}

}  // namespace ecgemm::detail
