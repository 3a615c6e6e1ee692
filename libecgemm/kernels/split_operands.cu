// Pre-split pass: reads op(A) and op(B) once in whatever layout the caller has
// (transposed or not, any ld, any alignment) and writes hi/lo planes in the one
// layout the mainloop wants: K-major rows, zero-padded to whole tiles. This is the
// only kernel that sees user strides, so the mainloop needs no bounds checks.
#include <cuda_fp16.h>

#include "../split.cuh"
#include "tc_config.hpp"
#include "tc_tile.cuh"

namespace ecgemm::detail {
namespace {

constexpr int kSplitTile = kSplitTileK;
constexpr int kSplitRowsPerPass = 8;

template <TcMethod M>
using Stored = std::conditional_t<uses_half(M), __half, float>;

template <TcMethod M>
__device__ __forceinline__ Stored<M> narrow(float v) {
  if constexpr (uses_half(M)) return __float2half_rn(v);  // exact: v is an FP16 value
  else return v;
}

// Element (r, kk) of the logical operand is src[r * stride_r + kk * stride_k].
// One block moves a 32 x 32 tile through shared memory so that both the read
// (along whichever index is contiguous in memory) and the write (along kk) coalesce.
template <TcMethod M>
__global__ void __launch_bounds__(kSplitTile * kSplitRowsPerPass)
split_operand_kernel(const float* __restrict__ src, int64_t stride_r, int64_t stride_k,
                     int64_t rows, int64_t k, int64_t k_pad, Stored<M>* __restrict__ hi,
                     Stored<M>* __restrict__ lo) {
  __shared__ float tile[kSplitTile][kSplitTile + 1];
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kSplitTile;
  const bool r_contiguous = stride_r == 1;
  // grid.y is capped at 65535, so a long k is walked in strides.
  for (int64_t k0 = static_cast<int64_t>(blockIdx.y) * kSplitTile; k0 < k_pad;
       k0 += static_cast<int64_t>(gridDim.y) * kSplitTile) {
    for (int p = threadIdx.y; p < kSplitTile; p += kSplitRowsPerPass) {
      // The lane walks whichever index is contiguous in the caller's memory.
      const int dr = r_contiguous ? threadIdx.x : p;
      const int dk = r_contiguous ? p : threadIdx.x;
      const int64_t r = r0 + dr, kk = k0 + dk;
      tile[dr][dk] = (r < rows && kk < k) ? src[r * stride_r + kk * stride_k] : 0.0f;
    }
    __syncthreads();
    for (int p = threadIdx.y; p < kSplitTile; p += kSplitRowsPerPass) {
      const int64_t out = (r0 + p) * k_pad + k0 + threadIdx.x;
      const SplitValue s = split_for<M>(tile[p][threadIdx.x]);
      hi[out] = narrow<M>(s.hi);
      if constexpr (uses_lo(M)) lo[out] = narrow<M>(s.lo);
    }
    __syncthreads();  // the tile is refilled for the next k0
  }
}

template <TcMethod M>
cudaError_t split_one(const float* src, int64_t stride_r, int64_t stride_k, int64_t rows,
                      int64_t rows_pad, int64_t k, int64_t k_pad, void* hi, void* lo,
                      cudaStream_t stream) {
  const dim3 block(kSplitTile, kSplitRowsPerPass);
  const int64_t k_tiles = k_pad / kSplitTile;
  const dim3 grid(static_cast<unsigned>(rows_pad / kSplitTile),
                  static_cast<unsigned>(k_tiles < 65535 ? k_tiles : 65535));
  split_operand_kernel<M><<<grid, block, 0, stream>>>(src, stride_r, stride_k, rows, k, k_pad,
                                                      static_cast<Stored<M>*>(hi),
                                                      static_cast<Stored<M>*>(lo));
  return cudaGetLastError();
}

template <TcMethod M>
cudaError_t split_both(const GemmArgs& g, const TcWorkspace& w, char* ws, cudaStream_t stream) {
  // op(A) is m x k: A is column-major m x k (N) or k x m (T).
  const int64_t a_sr = g.trans_a ? g.lda : 1, a_sk = g.trans_a ? 1 : g.lda;
  // op(B)^T is n x k: B is column-major k x n (N) or n x k (T).
  const int64_t b_sr = g.trans_b ? 1 : g.ldb, b_sk = g.trans_b ? g.ldb : 1;
  cudaError_t err = split_one<M>(g.a, a_sr, a_sk, g.m, w.m_pad, g.k, w.k_pad, ws + w.a_hi,
                                 ws + w.a_lo, stream);
  if (err != cudaSuccess) return err;
  return split_one<M>(g.b, b_sr, b_sk, g.n, w.n_pad, g.k, w.k_pad, ws + w.b_hi, ws + w.b_lo,
                      stream);
}

}  // namespace

cudaError_t launch_split_operands(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                  char* workspace, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return split_both<decltype(m)::value>(args, plan, workspace, stream);
  });
}

}  // namespace ecgemm::detail
