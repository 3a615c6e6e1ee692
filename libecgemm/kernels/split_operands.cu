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

// Element (r, kk) of the logical operand is src[r * stride_r + kk * stride_k]; AUTO
// scales row r by 2^row_exp[r] (exact) before the split (null: no scaling).
struct Source {
  const float* p;
  int64_t stride_r, stride_k, rows, k;
  const int* row_exp;
};

// One operand's planes: rows x k_pad, K-major.
struct Planes {
  void* hi;
  void* lo;
  int64_t k_pad;
};

// Block (x, y) moves 32 x 32 tiles through shared memory so that both the read (along
// whichever index is contiguous in memory) and the write (along kk) coalesce; grid.y
// is capped at 65535, so a long k is walked in strides.
template <TcMethod M, bool kScaled>
__device__ __forceinline__ void split_tiles_as(const Source& s, const Planes& out,
                                               float (&tile)[kSplitTile][kSplitTile + 1]) {
  auto* hi = static_cast<Stored<M>*>(out.hi);
  auto* lo = static_cast<Stored<M>*>(out.lo);
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kSplitTile;
  const bool r_contiguous = s.stride_r == 1;
  for (int64_t k0 = static_cast<int64_t>(blockIdx.y) * kSplitTile; k0 < out.k_pad;
       k0 += static_cast<int64_t>(gridDim.y) * kSplitTile) {
    for (int p = threadIdx.y; p < kSplitTile; p += kSplitRowsPerPass) {
      // The lane walks whichever index is contiguous in the caller's memory.
      const int dr = r_contiguous ? threadIdx.x : p;
      const int dk = r_contiguous ? p : threadIdx.x;
      const int64_t r = r0 + dr, kk = k0 + dk;
      const float v = (r < s.rows && kk < s.k) ? s.p[r * s.stride_r + kk * s.stride_k] : 0.0f;
      if constexpr (kScaled) tile[dr][dk] = r < s.rows ? times_pow2(v, s.row_exp[r]) : v;
      else tile[dr][dk] = v;
    }
    __syncthreads();
    for (int p = threadIdx.y; p < kSplitTile; p += kSplitRowsPerPass) {
      const int64_t at = (r0 + p) * out.k_pad + k0 + threadIdx.x;
      const SplitValue sv = split_for<M>(tile[p][threadIdx.x]);
      hi[at] = narrow<M>(sv.hi);
      if constexpr (uses_lo(M)) lo[at] = narrow<M>(sv.lo);
    }
    __syncthreads();  // the tile is refilled for the next k0
  }
}

// The scaled copy only where AUTO scales: calls without it keep the plain loads.
template <TcMethod M>
__device__ __forceinline__ void split_tiles(const Source& s, const Planes& out,
                                            float (&tile)[kSplitTile][kSplitTile + 1]) {
  if (s.row_exp) split_tiles_as<M, true>(s, out, tile);
  else split_tiles_as<M, false>(s, out, tile);
}

template <TcMethod M>
__global__ void __launch_bounds__(kSplitTile * kSplitRowsPerPass)
split_operand_kernel(Source s, Planes out) {
  __shared__ float tile[kSplitTile][kSplitTile + 1];
  split_tiles<M>(s, out, tile);
}

// AUTO (gemm_args.hpp): the route word the device wrote picks halfhalf's planes of the
// scaled rows, or tf32tf32's of the scaled or the unscaled rows. One launch either way.
__global__ void __launch_bounds__(kSplitTile * kSplitRowsPerPass)
split_auto_kernel(Source s, Planes half, Planes tf32, const int* route) {
  __shared__ float tile[kSplitTile][kSplitTile + 1];
  const int r = *route;
  if (r == kAutoUnscaledRoute) s.row_exp = nullptr;
  if (r == kAutoScaledRoute) split_tiles<TcMethod::kHalfx3>(s, half, tile);
  else split_tiles<TcMethod::kTf32x3>(s, tf32, tile);
}

dim3 split_grid(int64_t rows_pad, int64_t k_pad) {
  const int64_t k_tiles = k_pad / kSplitTile;
  return dim3(static_cast<unsigned>(rows_pad / kSplitTile),
              static_cast<unsigned>(k_tiles < 65535 ? k_tiles : 65535));
}

// op(A) is m x k: A is column-major m x k (N) or k x m (T).
Source source_a(const GemmArgs& g) {
  return {g.a, g.trans_a ? g.lda : 1, g.trans_a ? 1 : g.lda, g.m, g.k, g.scale.row_exp};
}
// op(B)^T is n x k: B is column-major k x n (N) or n x k (T).
Source source_b(const GemmArgs& g) {
  return {g.b, g.trans_b ? 1 : g.ldb, g.trans_b ? g.ldb : 1, g.n, g.k, g.scale.col_exp};
}

Planes planes_a(const TcWorkspace& w, char* ws) { return {ws + w.a_hi, ws + w.a_lo, w.k_pad}; }
Planes planes_b(const TcWorkspace& w, char* ws) { return {ws + w.b_hi, ws + w.b_lo, w.k_pad}; }

template <TcMethod M>
cudaError_t split_both(const GemmArgs& g, const TcWorkspace& w, char* ws, cudaStream_t stream) {
  const dim3 block(kSplitTile, kSplitRowsPerPass);
  split_operand_kernel<M><<<split_grid(w.m_pad, w.k_pad), block, 0, stream>>>(source_a(g),
                                                                               planes_a(w, ws));
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  split_operand_kernel<M><<<split_grid(w.n_pad, w.k_pad), block, 0, stream>>>(source_b(g),
                                                                               planes_b(w, ws));
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_split_operands(TcMethod method, const GemmArgs& args, const TcWorkspace& plan,
                                  char* workspace, cudaStream_t stream) {
  return visit_method(method, [&](auto m) {
    return split_both<decltype(m)::value>(args, plan, workspace, stream);
  });
}

cudaError_t launch_split_auto(const GemmArgs& args, const TcWorkspace& half,
                              const TcWorkspace& tf32, const int* route, char* ws,
                              cudaStream_t stream) {
  const dim3 block(kSplitTile, kSplitRowsPerPass);
  const int64_t k_pad = half.k_pad > tf32.k_pad ? half.k_pad : tf32.k_pad;  // grid for either
  split_auto_kernel<<<split_grid(half.m_pad, k_pad), block, 0, stream>>>(
      source_a(args), planes_a(half, ws), planes_a(tf32, ws), route);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) return err;
  split_auto_kernel<<<split_grid(half.n_pad, k_pad), block, 0, stream>>>(
      source_b(args), planes_b(half, ws), planes_b(tf32, ws), route);
  return cudaGetLastError();
}

}  // namespace ecgemm::detail
