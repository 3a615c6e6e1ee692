// simt's thin tiles: C with one side at most kThinWidth (8) wide against a long one, with a
// long k (thin.hpp). The long operand X (op(A) when n is thin, op(B)^T when m is) streams
// through a ring of shared-memory stages, copied by cp.async in the layout its source has
// (16-byte copies where the source allows); the thin operand Y rides in the same stages.
// A thread owns one row of X and its 8 outputs, reading its row's values once and Y's as
// broadcast float4s. SGEMM's arithmetic: one FMA a product, each stage's 32 summed apart and
// added into the result (two-level, as simt's narrow tiles).
//
// Why: on such products the slim tiles ran at 39-45% of DRAM bandwidth and 0.6 instructions
// a cycle a scheduler and computed a 16-wide side; this tile ran 1.04-1.14x their speed at
// widths up to 8 (bench/results/README.md#ring). A tile holding its loads in registers
// instead ran 0.54x: too few bytes in flight.
#include <algorithm>
#include <cstdint>

#include "kernels/common/epilogue.cuh"
#include "kernels/common/launch.cuh"
#include "kernels/sm80/mma_sync.cuh"
#include "kernels/simt/thin.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kStageK = 32;  // k a stage: also the chunk summed apart (two-level)
constexpr int kStages = 2;   // one copied while the other computes

// One stage: X's kThinRows x kStageK values as its source lays them out (kRowsContig:
// [k][row], else [row][k], each line padded by 4 floats: 16-byte aligned lines, and a
// quarter-warp's 16-byte reads of 8 rows fall in distinct banks), then Y's kStageK x 8 as
// [k][t] (zeros past its width).
template <bool kRowsContig>
struct ThinStage {
  static constexpr int kXPitch = kRowsContig ? kThinRows + 4 : kStageK + 4;
  static constexpr int kXFloats = (kRowsContig ? kStageK : kThinRows) * kXPitch;
  static constexpr int kFloats = kXFloats + kStageK * kThinWidth;
  static constexpr int kSmemBytes = kStages * kFloats * 4;
  __device__ static constexpr int x_at(int row, int kk) {
    return kRowsContig ? kk * kXPitch + row : row * kXPitch + kk;
  }
};

// Grid: x blocks of kThinRows rows of X, z k splits. thin_n: n is the thin side
// (C(l, t) = C[l + t ldc]); else m is (C(t, l)).
template <bool kRowsContig>
__global__ void __launch_bounds__(kThinRows, kThinBlocksPerSm)
thin_kernel(OperandView x, OperandView y, GemmArgs args, int64_t k_chunk, float* partials,
            bool thin_n) {
  wait_for_prior_grids();  // a first kernel launched dependent (common/launch.cuh)
  allow_dependents();
  using S = ThinStage<kRowsContig>;
  constexpr int T = kThinWidth, kThreads = kThinRows;
  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.x;  // row l0 + tid
  const int64_t l0 = int64_t(blockIdx.x) * kThinRows;
  const int64_t k_begin = blockIdx.z * k_chunk;
  const int64_t k_end = std::min<int64_t>(args.k, k_begin + k_chunk);
  const int rows_left = static_cast<int>(std::min<int64_t>(x.rows - l0, kThinRows));

  float acc[T] = {};
  if (resolve_alpha(args.scalars) != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    const uint32_t base = smem_address(smem);
    // 16-byte copies where every line of X starts 16-byte aligned (k_begin is a multiple of
    // kStageK, l0 of kThinRows).
    const int64_t line_stride = kRowsContig ? x.stride_k : x.stride_r;
    const bool vec = (reinterpret_cast<uintptr_t>(x.p) & 15) == 0 && line_stride % 4 == 0;
    const float* const x0 = x.p + l0 * x.stride_r;
    auto copy_stage = [&](int i) {
      const int64_t k0 = k_begin + int64_t(i) * kStageK;
      const int k_left = static_cast<int>(std::min<int64_t>(k_end - k0, kStageK));
      const uint32_t stage = base + (i % kStages) * S::kFloats * 4;
      // X: lines of kThinRows rows (kRowsContig) or of kStageK values of k; zeros past
      // X's rows and past k_end. A zero-byte copy writes zeros and reads nothing (x.p).
      constexpr int kLineLen = kRowsContig ? kThinRows : kStageK;
      constexpr int kLines = kRowsContig ? kStageK : kThinRows;
      const int line_len = kRowsContig ? rows_left : k_left;  // valid elements of a line
      const int lines = kRowsContig ? k_left : rows_left;     // valid lines
      if (vec) {
#pragma unroll
        for (int j = 0; j < kLines * kLineLen / 4 / kThreads; ++j) {
          const int c = tid + j * kThreads;
          const int line = c / (kLineLen / 4), pos = c % (kLineLen / 4) * 4;
          const int n = line < lines ? std::max(0, std::min(4, line_len - pos)) : 0;
          const float* src = x0 + (kRowsContig ? pos + (k0 + line) * x.stride_k
                                                : pos + line * x.stride_r + k0);
          cp_async_16_zfill(stage + 4 * (kRowsContig ? S::x_at(pos, line) : S::x_at(line, pos)),
                            n > 0 ? src : x.p, 4 * n);
        }
      } else {
#pragma unroll 8
        for (int j = 0; j < kLines * kLineLen / kThreads; ++j) {
          const int e = tid + j * kThreads;
          const int line = e / kLineLen, pos = e % kLineLen;
          const bool ok = line < lines && pos < line_len;
          const float* src = x0 + (kRowsContig ? pos + (k0 + line) * x.stride_k
                                               : pos + line * x.stride_r + k0);
          cp_async_4_zfill(stage + 4 * (kRowsContig ? S::x_at(pos, line) : S::x_at(line, pos)),
                           ok ? src : x.p, ok ? 4 : 0);
        }
      }
      // Y: kStageK x T, consecutive threads along its contiguous index.
      const bool y_along_k = y.stride_k == 1;
      static_assert(kStageK * T == kThreads, "a value of Y a thread a stage");
      {
        const int e = tid;
        const int kk = y_along_k ? e % kStageK : e / T, t = y_along_k ? e / kStageK : e % T;
        const bool ok = t < y.rows && kk < k_left;
        cp_async_4_zfill(stage + 4 * (S::kXFloats + kk * T + t),
                         ok ? y.p + t * y.stride_r + (k0 + kk) * y.stride_k : y.p, ok ? 4 : 0);
      }
    };

    const int count = static_cast<int>((k_end - k_begin + kStageK - 1) / kStageK);
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < count) copy_stage(s);
      cp_async_commit();
    }
    for (int i = 0; i < count; ++i) {
      cp_async_wait<kStages - 2>();
      __syncthreads();  // stage i landed; every thread is done with stage i - 1's slot
      if (i + kStages - 1 < count) copy_stage(i + kStages - 1);
      cp_async_commit();
      const float* xs = smem + (i % kStages) * S::kFloats;
      const float* ys = xs + S::kXFloats;
      float part[T] = {};
#pragma unroll
      for (int kk = 0; kk < kStageK; kk += 4) {
        float v[4];
        if constexpr (kRowsContig) {
#pragma unroll
          for (int q = 0; q < 4; ++q) v[q] = xs[S::x_at(tid, kk + q)];
        } else {
          const float4 f = *reinterpret_cast<const float4*>(xs + S::x_at(tid, kk));
          v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
        }
#pragma unroll
        for (int q = 0; q < 4; ++q)
#pragma unroll
          for (int t = 0; t < T; t += 4) {
            const float4 w = *reinterpret_cast<const float4*>(ys + (kk + q) * T + t);
            part[t] = fmaf(v[q], w.x, part[t]);
            part[t + 1] = fmaf(v[q], w.y, part[t + 1]);
            part[t + 2] = fmaf(v[q], w.z, part[t + 2]);
            part[t + 3] = fmaf(v[q], w.w, part[t + 3]);
          }
      }
#pragma unroll
      for (int t = 0; t < T; ++t) acc[t] += part[t];
    }
  }

  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float* partial = partials ? partials + blockIdx.z * args.m * args.n : nullptr;
  const int64_t ld = partial ? args.m : args.ldc;
  float* const out = partial ? partial : args.c;
  const int width = static_cast<int>(y.rows);
  const int64_t l = l0 + tid;
  const Epilogue epi{partial == nullptr, alpha, beta};
  if (l < x.rows) {
    epi.visit([&](const auto& e) {
#pragma unroll
      for (int t = 0; t < T; ++t) {
        if (t >= width) break;
        e.store(thin_n ? out + l + t * ld : out + t + l * ld, acc[t]);
      }
    });
  }
}

template <bool kRowsContig>
cudaError_t launch_layout(const OperandView& x, const OperandView& y, const GemmArgs& g,
                          const SimtPlan& plan, float* partials, bool thin_n, cudaStream_t stream) {
  constexpr auto kernel = thin_kernel<kRowsContig>;
  constexpr int kBytes = ThinStage<kRowsContig>::kSmemBytes;
  static_assert(kThinBlocksPerSm * (kBytes + 1024) <= 228 * 1024, "two CTAs' rings an SM (sm_90)");
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess) err = opt_in_shared_memory<kernel>(device, kBytes);
  if (err != cudaSuccess) return err;
  const int64_t blocks = (x.rows + kThinRows - 1) / kThinRows;
  if (blocks > INT32_MAX) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>(blocks), 1, static_cast<unsigned>(plan.splits));
  return launch(first_kernel({grid, kThinRows, kBytes, stream}), kernel, x, y, g, plan.k_chunk,
                plan.splits > 1 ? partials : nullptr, thin_n);
}

}  // namespace

cudaError_t launch_thin(const GemmArgs& g, const SimtPlan& plan, float* partials,
                        cudaStream_t stream) {
  if (g.batch.count != 1) return cudaErrorInvalidValue;  // plan_simt offers it for single products
  const bool thin_n = plan.tile == SimtTile::kThinM;
  const OperandView a = view_a(g), b = view_b(g);
  const OperandView& x = thin_n ? a : b;
  const OperandView& y = thin_n ? b : a;
  if (y.rows > kThinWidth) return cudaErrorInvalidValue;
  return x.stride_r == 1 ? launch_layout<true>(x, y, g, plan, partials, thin_n, stream)
                         : launch_layout<false>(x, y, g, plan, partials, thin_n, stream);
}

}  // namespace ecgemm::detail
