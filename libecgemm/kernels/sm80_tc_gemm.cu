// Tensor Core mainloop (mma.sync; sm_80 and newer; Hopper takes sm90_tc_gemm.cu
// when the sm_90a code is built) over the pre-split, K-major, zero-padded planes.
//
// Error correction (Ootomo & Yokota 2022): per MMA k-step, hi·hi is issued with a
// zero accumulator and added to `promoted` by an FP32 add (round-to-nearest), because
// the Tensor Core's own accumulation truncates. lo·hi + hi·lo accumulate inside the
// Tensor Core in `correction`, whose small magnitude makes truncation harmless there.
// Markidis, the baseline, keeps all four products inside the Tensor Core (hi·hi in
// `promoted`, the rest in `correction`, both truncating), so its error grows with k.
#include <cuda_fp16.h>

#include <type_traits>

#include "mma_sm80.cuh"
#include "tc_config.hpp"
#include "tc_tile.cuh"
#include "../split.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kRowPitch = kTileKBytes + 16;  // +16 B: ldmatrix rows land in distinct banks
constexpr int kPlaneBytes = kTileM * kRowPitch;
constexpr int kKStepBytes = 32;              // one MMA k-step: 16 FP16 or 8 TF32 values
constexpr int kWarpsM = 2, kWarpsN = 4;
constexpr int kWarpTileM = kTileM / kWarpsM;  // 64
constexpr int kWarpTileN = kTileN / kWarpsN;  // 32
constexpr int kFragsM = kWarpTileM / 16;      // 4
constexpr int kFragsN = kWarpTileN / 8;       // 4
static_assert(kTileM == kTileN, "A and B planes share one plane size");

template <TcMethod M>
struct Traits {
  using Mma = std::conditional_t<uses_half(M), MmaF16, MmaTf32>;
  static constexpr Scheme kScheme = scheme_of(M);
  static constexpr int kPlanes = uses_lo(M) ? 4 : 2;  // A_hi, B_hi [, A_lo, B_lo]
  static constexpr int kStageBytes = kPlanes * kPlaneBytes;
  static constexpr float kCorrScale = M == TcMethod::kHalfx3 ? kHalfLoUnscale : 1.0f;
};

struct Planes {
  const char* a_hi;
  const char* a_lo;
  const char* b_hi;
  const char* b_lo;
  int64_t row_bytes;  // k_pad * element size
};

// 128 rows x 64 bytes from one plane into shared memory: 512 16-byte chunks.
__device__ __forceinline__ void load_plane(uint32_t dst, const char* src, int64_t row0,
                                           int64_t row_bytes, int64_t k_byte0) {
#pragma unroll
  for (int i = 0; i < kTileM * kTileKBytes / 16 / kThreads; ++i) {
    const int chunk = threadIdx.x + i * kThreads;
    const int row = chunk / (kTileKBytes / 16), col = chunk % (kTileKBytes / 16);
    cp_async_16(dst + row * kRowPitch + col * 16,
                src + (row0 + row) * row_bytes + k_byte0 + col * 16);
  }
}

template <TcMethod M>
__device__ __forceinline__ void load_stage(uint32_t stage, const Planes& p, const Tile& t,
                                           int64_t k_tile) {
  const int64_t kb = k_tile * kTileKBytes;
  load_plane(stage + 0 * kPlaneBytes, p.a_hi, t.m0, p.row_bytes, kb);
  load_plane(stage + 1 * kPlaneBytes, p.b_hi, t.n0, p.row_bytes, kb);
  if constexpr (uses_lo(M)) {
    load_plane(stage + 2 * kPlaneBytes, p.a_lo, t.m0, p.row_bytes, kb);
    load_plane(stage + 3 * kPlaneBytes, p.b_lo, t.n0, p.row_bytes, kb);
  }
}

struct Frags {
  uint32_t a[kFragsM][4];
  uint32_t b[kFragsN][2];
};

__device__ __forceinline__ void load_frags(Frags& f, uint32_t a_plane, uint32_t b_plane,
                                           int warp_m, int warp_n, int lane, int step) {
  const int k_byte = step * kKStepBytes;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi) {
    const int row = warp_m * kWarpTileM + mi * 16 + (lane % 16);
    ldmatrix_x4(f.a[mi], a_plane + row * kRowPitch + k_byte + (lane / 16) * 16);
  }
#pragma unroll
  for (int nj = 0; nj < kFragsN / 2; ++nj) {
    const int row = warp_n * kWarpTileN + nj * 16 + (lane % 8) + (lane / 16) * 8;
    uint32_t r[4];
    ldmatrix_x4(r, b_plane + row * kRowPitch + k_byte + ((lane / 8) % 2) * 16);
    f.b[2 * nj][0] = r[0];
    f.b[2 * nj][1] = r[1];
    f.b[2 * nj + 1][0] = r[2];
    f.b[2 * nj + 1][1] = r[3];
  }
}

struct Accumulators {
  float promoted[kFragsM][kFragsN][4];  // hi·hi, or the only accumulator
  float correction[kFragsM][kFragsN][4];  // lo·hi + hi·lo (+ lo·lo for Markidis)
};

template <TcMethod M>
__device__ __forceinline__ void mma_step(Accumulators& acc, const Frags& hi, const Frags& lo) {
  using Mma = typename Traits<M>::Mma;
  constexpr Scheme kScheme = Traits<M>::kScheme;
  const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
      float(&sum)[4] = acc.promoted[mi][ni];
      if constexpr (kScheme == Scheme::kCorrected) {
        float(&corr)[4] = acc.correction[mi][ni];
        Mma::run(corr, lo.a[mi], hi.b[ni], corr);
        Mma::run(corr, hi.a[mi], lo.b[ni], corr);
        float d[4];
        Mma::run(d, hi.a[mi], hi.b[ni], zero);
#pragma unroll
        for (int x = 0; x < 4; ++x) sum[x] += d[x];  // the round-to-nearest promotion
      } else if constexpr (kScheme == Scheme::kFourProducts) {
        float(&corr)[4] = acc.correction[mi][ni];
        Mma::run(corr, lo.a[mi], lo.b[ni], corr);
        Mma::run(corr, lo.a[mi], hi.b[ni], corr);
        Mma::run(corr, hi.a[mi], lo.b[ni], corr);
        Mma::run(sum, hi.a[mi], hi.b[ni], sum);
      } else {
        Mma::run(sum, hi.a[mi], hi.b[ni], sum);
      }
    }
  }
}

template <TcMethod M, int kStages>
__global__ void __launch_bounds__(kThreads, 1)
tc_gemm_kernel(Planes planes, int64_t tiles_m, int64_t tiles_n, int64_t k_tiles_per_split,
               int64_t k_tiles, GemmArgs args, float* partials, int64_t m_pad, int64_t n_pad) {
  extern __shared__ __align__(128) char smem[];
  const uint32_t smem0 = smem_address(smem);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warp_m = warp / kWarpsN, warp_n = warp % kWarpsN;
  const Tile tile = raster_tile(tiles_m, tiles_n);
  const int64_t kt_begin = blockIdx.z * k_tiles_per_split;
  const int64_t kt_end = min(k_tiles, kt_begin + k_tiles_per_split);
  const int64_t count = kt_end - kt_begin;

  Accumulators acc;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) acc.promoted[mi][ni][x] = acc.correction[mi][ni][x] = 0.0f;

  auto stage_addr = [&](int64_t i) {
    return smem0 + static_cast<uint32_t>(i % kStages) * Traits<M>::kStageBytes;
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < count) load_stage<M>(stage_addr(s), planes, tile, kt_begin + s);
    cp_async_commit();
  }

  for (int64_t i = 0; i < count; ++i) {
    cp_async_wait<kStages - 2>();
    __syncthreads();  // stage i landed for all threads; stage i-1 is free to refill
    const int64_t next = i + kStages - 1;
    if (next < count) load_stage<M>(stage_addr(next), planes, tile, kt_begin + next);
    cp_async_commit();

    const uint32_t stage = stage_addr(i);
#pragma unroll
    for (int step = 0; step < kTileKBytes / kKStepBytes; ++step) {
      Frags hi, lo;
      load_frags(hi, stage + 0 * kPlaneBytes, stage + 1 * kPlaneBytes, warp_m, warp_n, lane, step);
      if constexpr (uses_lo(M))
        load_frags(lo, stage + 2 * kPlaneBytes, stage + 3 * kPlaneBytes, warp_m, warp_n, lane,
                   step);
      mma_step<M>(acc, hi, lo);
    }
  }
  cp_async_wait<0>();

  // Epilogue. Fragment (mi, ni) holds rows g, g+8 and columns 2t, 2t+1 of its 16x8 tile.
  const bool direct = gridDim.z == 1;
  const float alpha = direct ? resolve_alpha(args.scalars) : 0.0f;
  const float beta = direct ? resolve_beta(args.scalars) : 0.0f;
  float* partial = direct ? nullptr : partials + blockIdx.z * m_pad * n_pad;
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni)
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        const int64_t row = tile.m0 + warp_m * kWarpTileM + mi * 16 + g + (x / 2) * 8;
        const int64_t col = tile.n0 + warp_n * kWarpTileN + ni * 8 + 2 * t + (x % 2);
        float v = acc.promoted[mi][ni][x];
        // An infinite hi·hi sum is what FP32 arithmetic gives; the correction would
        // only add Inf·lo terms whose signs follow the remainders' (Inf - Inf = NaN).
        if constexpr (Traits<M>::kScheme != Scheme::kOnePass)
          if (!isinf(v)) v += acc.correction[mi][ni][x] * Traits<M>::kCorrScale;
        if (!direct) {
          partial[col * m_pad + row] = v;
        } else if (row < args.m && col < args.n) {
          store_epilogue(args.c + col * args.ldc + row, v, alpha, beta);
        }
      }
}

template <TcMethod M, int kStages>
cudaError_t launch_mainloop(const GemmArgs& args, const TcWorkspace& w, char* ws,
                            const DeviceInfo& dev, cudaStream_t stream) {
  constexpr int kSmemBytes = kStages * Traits<M>::kStageBytes;
  auto kernel = tc_gemm_kernel<M, kStages>;
  cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (err != cudaSuccess) return err;
  const Planes planes{ws + w.a_hi, ws + w.a_lo, ws + w.b_hi, ws + w.b_lo,
                      w.k_pad * static_cast<int64_t>(element_bytes(M))};
  const int64_t tiles_m = w.m_pad / kTileM, tiles_n = w.n_pad / kTileN;
  const int64_t k_tiles = w.k_pad * static_cast<int64_t>(element_bytes(M)) / kTileKBytes;
  const int64_t per_split = (k_tiles + w.splits - 1) / w.splits;
  float* partials = reinterpret_cast<float*>(ws + w.partials);
  const dim3 grid(static_cast<unsigned>(tiles_m * tiles_n), 1, static_cast<unsigned>(w.splits));
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(planes, tiles_m, tiles_n, per_split, k_tiles,
                                                 args, partials, w.m_pad, w.n_pad);
  if ((err = cudaGetLastError()) != cudaSuccess || w.splits == 1) return err;
  return launch_splitk_reduce(args, w, ws, dev, stream);
}

template <TcMethod M>
cudaError_t launch_for_method(const GemmArgs& args, const TcWorkspace& w, char* ws,
                              const DeviceInfo& dev, cudaStream_t stream) {
  // Deep pipelines need sm_80/sm_90-sized shared memory; sm_86/sm_89 get two stages.
  if (4 * Traits<M>::kStageBytes <= dev.max_smem_per_block)
    return launch_mainloop<M, 4>(args, w, ws, dev, stream);
  return launch_mainloop<M, 2>(args, w, ws, dev, stream);
}

}  // namespace

cudaError_t launch_sm80_mainloop(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                 char* ws, const DeviceInfo& dev, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return launch_for_method<decltype(m)::value>(args, plan, ws, dev, stream);
  });
}

}  // namespace ecgemm::detail
