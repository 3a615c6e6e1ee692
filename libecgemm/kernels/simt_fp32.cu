// ECGEMM_MODE_FP32: a plain FP32 SIMT GEMM working directly on the caller's layout.
// It is the in-library reference (FP32 FMA, sequential k per output), not a speed
// path: a 64x64 tile per block, 4x4 outputs per thread.
#include "simt_fp32.hpp"

namespace ecgemm::detail {
namespace {

constexpr int kBlockM = 64, kBlockN = 64, kBlockK = 16;
constexpr int kThreadsX = 16, kThreadsY = 16;
constexpr int kPerThread = 4;  // outputs per thread along each of m and n

// Element (r, kk) of a logical operand: src[r * stride_r + kk * stride_k], or 0 off the edge.
struct View {
  const float* p;
  int64_t stride_r, stride_k, rows, k;
  __device__ __forceinline__ float at(int64_t r, int64_t kk) const {
    return (r < rows && kk < k) ? p[r * stride_r + kk * stride_k] : 0.0f;
  }
};

// Fills tile[kk][r] for a kBlockK x 64 panel, walking the contiguous index with the lane.
__device__ __forceinline__ void load_panel(float (&tile)[kBlockK][kBlockM + 1], const View& v,
                                           int64_t r0, int64_t k0, int tid) {
  const bool r_contiguous = v.stride_r == 1;
#pragma unroll
  for (int i = 0; i < kBlockK * kBlockM / (kThreadsX * kThreadsY); ++i) {
    const int e = tid + i * kThreadsX * kThreadsY;
    const int r = r_contiguous ? e % kBlockM : e / kBlockK;
    const int kk = r_contiguous ? e / kBlockM : e % kBlockK;
    tile[kk][r] = v.at(r0 + r, k0 + kk);
  }
}

__global__ void __launch_bounds__(kThreadsX * kThreadsY)
simt_fp32_kernel(View a, View b, GemmArgs args) {
  __shared__ float as[kBlockK][kBlockM + 1];
  __shared__ float bs[kBlockK][kBlockN + 1];
  const int tid = threadIdx.y * kThreadsX + threadIdx.x;
  const int64_t m0 = static_cast<int64_t>(blockIdx.x) * kBlockM;
  const int64_t n0 = static_cast<int64_t>(blockIdx.y) * kBlockN;
  const float alpha = resolve_alpha(args.scalars), beta = resolve_beta(args.scalars);
  float acc[kPerThread][kPerThread] = {};
  if (alpha != 0.0f) {  // alpha = 0: A and B are not referenced (BLAS)
    for (int64_t k0 = 0; k0 < args.k; k0 += kBlockK) {
      load_panel(as, a, m0, k0, tid);
      load_panel(bs, b, n0, k0, tid);
      __syncthreads();
#pragma unroll
      for (int kk = 0; kk < kBlockK; ++kk)
#pragma unroll
        for (int i = 0; i < kPerThread; ++i)
#pragma unroll
          for (int j = 0; j < kPerThread; ++j)
            acc[i][j] = fmaf(as[kk][threadIdx.x + i * kThreadsX],
                             bs[kk][threadIdx.y + j * kThreadsY], acc[i][j]);
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i)
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      const int64_t row = m0 + threadIdx.x + i * kThreadsX;
      const int64_t col = n0 + threadIdx.y + j * kThreadsY;
      if (row < args.m && col < args.n)
        store_epilogue(args.c + col * args.ldc + row, acc[i][j], alpha, beta);
    }
}

}  // namespace

cudaError_t launch_simt_fp32(const GemmArgs& g, cudaStream_t stream) {
  // op(A) as m x k and op(B)^T as n x k, in the caller's own strides.
  const View a{g.a, g.trans_a ? g.lda : 1, g.trans_a ? 1 : g.lda, g.m, g.k};
  const View b{g.b, g.trans_b ? 1 : g.ldb, g.trans_b ? g.ldb : 1, g.n, g.k};
  const int64_t blocks_n = (g.n + kBlockN - 1) / kBlockN;
  if (blocks_n > 65535) return cudaErrorInvalidConfiguration;
  const dim3 grid(static_cast<unsigned>((g.m + kBlockM - 1) / kBlockM),
                  static_cast<unsigned>(blocks_n));
  simt_fp32_kernel<<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(a, b, g);
  return cudaGetLastError();
}

}  // namespace ecgemm::detail
